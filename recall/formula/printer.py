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
        if values and isinstance(child, Symbol) and child.name in values:
            # A value put in for a symbol ("-2.5", "70 billion") is bracketed where an
            # operator binds it, never inside a call's own brackets: sigmoid(-2.5).
            return f"({text})" if _needs_brackets(text) else text
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
            # Each child is printed once: printing one twice doubles the work at every level,
            # and 30 nested sqrt(2 + ...) would take 2^30 steps.
            right = to_text(node.right, values)
            substituted = bool(values) and isinstance(node.right, Symbol)
            if (
                _negative(node.right)
                or _precedence(node.right) < 1
                or (substituted and _needs_brackets(right))
            ):
                right = f"({right})"
            return f"{wrap(node.left, 1)} + {right}"
        if op == "-":
            return f"{wrap(node.left, 1)} - {wrap(node.right, 2)}"
        if op == "*":
            return f"{wrap(node.left, 2)}*{wrap(node.right, 3)}"
        if op == "/":
            return f"{wrap(node.left, 2)}/{wrap(node.right, 4)}"
        return f"{wrap(node.left, _ATOM)}^{wrap(node.right, 4)}"
    raise TypeError(f"not an expression node: {node!r}")


def _needs_brackets(text: str) -> bool:
    """Whether a value's text (``-2.5``, ``70 billion``, ``1/3``) needs brackets next to an
    operator."""
    return text.startswith("-") or any(c in text for c in " /+*^")


def _negative(node: Node) -> bool:
    return isinstance(node, Negate) or (isinstance(node, Number) and node.value < 0)


Path = tuple[int, ...]


def to_text_with_spans(
    node: Node, values: Mapping[str, str] | None = None
) -> tuple[str, dict[Path, tuple[int, int]]]:
    """:func:`to_text`, and where each subtree's text lies in it: a path (child indices from
    the root: a binary operation's left is 0 and right 1, a negation's operand 0, a call's
    arguments 0, 1, ...) maps to ``(start, end)`` in the text. The text is exactly
    :func:`to_text`'s (with the same ``values``), so a span found here can be drawn under the
    "read as" line."""
    spans: dict[Path, tuple[int, int]] = {}
    text = _spanned(node, (), 0, spans, values)
    return text, spans


def _spanned(
    node: Node,
    path: Path,
    start: int,
    spans: dict[Path, tuple[int, int]],
    values: Mapping[str, str] | None = None,
) -> str:
    pieces: list[str] = []
    offset = start

    def put(piece: str) -> None:
        nonlocal offset
        pieces.append(piece)
        offset += len(piece)

    def child(sub: Node, index: int, parenthesise: bool) -> None:
        if parenthesise:
            put("(")
        put(_spanned(sub, path + (index,), offset, spans, values))
        if parenthesise:
            put(")")

    if isinstance(node, Negate):
        put("-")
        child(node.operand, 0, _precedence(node.operand) < 4)
    elif isinstance(node, Call):
        put(f"{node.name}(")
        for index, argument in enumerate(node.args):
            if index:
                put(", ")
            child(argument, index, False)
        put(")")
    elif isinstance(node, BinOp):
        op = node.op
        if op == "+":
            child(node.left, 0, _precedence(node.left) < 1)
            put(" + ")
            child(node.right, 1, _negative(node.right) or _precedence(node.right) < 1)
        elif op == "-":
            child(node.left, 0, _precedence(node.left) < 1)
            put(" - ")
            child(node.right, 1, _precedence(node.right) < 2)
        elif op == "*":
            child(node.left, 0, _precedence(node.left) < 2)
            put("*")
            child(node.right, 1, _precedence(node.right) < 3)
        elif op == "/":
            child(node.left, 0, _precedence(node.left) < 2)
            put("/")
            child(node.right, 1, _precedence(node.right) < 4)
        else:
            child(node.left, 0, _precedence(node.left) < _ATOM)
            put("^")
            child(node.right, 1, _precedence(node.right) < 4)
    else:
        put(to_text(node, values))
    text = "".join(pieces)
    spans[path] = (start, start + len(text))
    return text
