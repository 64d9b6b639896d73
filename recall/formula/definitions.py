"""Names defined as expressions of other names (``beta_t = 1 - alpha_t``).

A card that writes both ``alpha_t`` and ``beta_t`` would otherwise grade them as independent
variables, and a learner who writes ``1 - alpha_t`` where the reference says ``beta_t`` would be
marked wrong. Expanding every definition on both sides before comparing makes the two spellings
the same thing.
"""

from __future__ import annotations

from recall.errors import FormulaError, GradingError
from recall.formula.nodes import BinOp, Call, Negate, Node, Symbol
from recall.formula.symbols import SymbolTable

MAX_NESTING = 8


def expand_definitions(tree: Node, table: SymbolTable) -> Node:
    """``tree`` with every defined name replaced by its definition (recursively)."""
    if not table.definitions:
        return tree
    from recall.formula.parser import parse

    lenient = table.with_strictness(False)
    parsed: dict[str, Node] = {}
    for name, text in table.definitions.items():
        try:
            parsed[name] = parse(text, lenient).tree
        except FormulaError as error:
            raise GradingError(f"the definition of '{name}' does not parse: {error}") from error

    def substitute(node: Node, depth: int) -> Node:
        if isinstance(node, Symbol) and node.name in parsed:
            if depth >= MAX_NESTING:
                raise GradingError(f"the definition of '{node.name}' refers to itself")
            return substitute(parsed[node.name], depth + 1)
        if isinstance(node, Negate):
            return Negate(substitute(node.operand, depth))
        if isinstance(node, BinOp):
            return BinOp(node.op, substitute(node.left, depth), substitute(node.right, depth))
        if isinstance(node, Call):
            return Call(node.name, tuple(substitute(a, depth) for a in node.args), node.shown)
        return node

    return substitute(tree, 0)
