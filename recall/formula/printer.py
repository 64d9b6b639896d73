"""One-line plain text for an expression tree, in recall's own syntax.

The output parses back to the same tree (up to redundant parentheses), which the property tests
check; it is also how a card's reference answer is shown in typed syntax.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from recall.formula.nodes import BinOp, Call, Constant, Negate, Node, Number, Symbol

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "^": 4}
_UNARY = 3
_ATOM = 5


def format_fraction(value: Fraction) -> str:
    """An exact decimal when the value has one, else ``p/q``."""
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    if denominator == 1 and max(twos, fives) <= 30:
        places = max(twos, fives)
        scaled = abs(value.numerator) * (10**places // value.denominator)
        digits = str(scaled).rjust(places + 1, "0")
        sign = "-" if value < 0 else ""
        return f"{sign}{digits[:-places]}.{digits[-places:]}".rstrip("0").rstrip(".")
    return f"{value.numerator}/{value.denominator}"


def _precedence(node: Node) -> int:
    if isinstance(node, BinOp):
        return _PRECEDENCE[node.op]
    if isinstance(node, Negate):
        return _UNARY
    if isinstance(node, Number) and (node.value < 0 or node.value.denominator != 1):
        return 2 if "/" in format_fraction(node.value) else (_UNARY if node.value < 0 else _ATOM)
    return _ATOM


def to_text(node: Node, values: Mapping[str, str] | None = None) -> str:
    """Plain text of ``node``; ``values`` substitutes text for symbols (worked computations)."""

    def wrap(child: Node, minimum: int) -> str:
        text = to_text(child, values)
        return f"({text})" if _precedence(child) < minimum else text

    if isinstance(node, Number):
        return format_fraction(node.value)
    if isinstance(node, Constant):
        return node.name
    if isinstance(node, Symbol):
        if values and node.name in values:
            return values[node.name]
        return node.name
    if isinstance(node, Negate):
        return "-" + wrap(node.operand, 4)
    if isinstance(node, Call):
        return f"{node.name}({', '.join(to_text(a, values) for a in node.args)})"
    if isinstance(node, BinOp):
        op = node.op
        if op == "+":
            # a + (-b) keeps its parentheses: "a + -b" would read back as the same tree, but
            # the learner typed the parentheses and the preview should show them.
            right = to_text(node.right, values)
            right = f"({right})" if _negative(node.right) else wrap(node.right, 1)
            return f"{wrap(node.left, 1)} + {right}"
        if op == "-":
            return f"{wrap(node.left, 1)} - {wrap(node.right, 2)}"
        if op == "*":
            return f"{wrap(node.left, 2)}*{wrap(node.right, 3)}"
        if op == "/":
            return f"{wrap(node.left, 2)}/{wrap(node.right, 4)}"
        return f"{wrap(node.left, _ATOM)}^{wrap(node.right, 4)}"
    raise TypeError(f"not an expression node: {node!r}")


def _negative(node: Node) -> bool:
    return isinstance(node, Negate) or (isinstance(node, Number) and node.value < 0)
