"""Names defined as expressions of other names (``beta_t = 1 - alpha_t``).

A card that writes both ``alpha_t`` and ``beta_t`` would otherwise grade them as independent
variables, and a learner who writes ``1 - alpha_t`` where the reference says ``beta_t`` would be
marked wrong. Expanding every definition on both sides before comparing makes the two spellings
the same thing.
"""

from __future__ import annotations

from recall.errors import FormulaError, GradingError
from recall.formula.nodes import Node, Symbol, replace_symbols, walk
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

    expanded = tree
    for _ in range(MAX_NESTING):
        if not any(isinstance(n, Symbol) and n.name in parsed for n in walk(expanded)):
            return expanded
        expanded = replace_symbols(expanded, parsed)
    raise GradingError("a definition refers to itself: " + ", ".join(sorted(parsed)))
