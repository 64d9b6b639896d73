"""Cheap size estimates of constant subexpressions, without computing them.

The parser uses them to refuse ``9^9^9^9`` before any arithmetic happens; the equivalence check
uses them to choose a working precision that can see a difference as small as ``exp(-1000)``.
"""

from __future__ import annotations

import math
from fractions import Fraction

from recall.formula.nodes import BinOp, Call, Constant, Negate, Node, Number, walk

#: Upper bound for the precision hint, in decimal digits.
MAX_HINT_DIGITS = 1200


def log10_magnitude(node: Node, seen: list[float] | None = None) -> float | None:
    """An estimate of log10|value| for a constant subtree (an upper bound for growth), or
    ``None`` if it has variables. With ``seen``, every constant subtree's estimate is
    appended to it."""
    result = _magnitude(node, seen)
    if seen is not None and result is not None and math.isfinite(result):
        seen.append(result)
    return result


def _magnitude(node: Node, seen: list[float] | None) -> float | None:
    if isinstance(node, Number):
        value = abs(node.value)
        if value == 0:
            return -math.inf
        return math.log10(value.numerator) - math.log10(value.denominator)
    if isinstance(node, Constant):
        return 0.5
    if isinstance(node, Negate):
        return log10_magnitude(node.operand, seen)
    if isinstance(node, BinOp):
        left = log10_magnitude(node.left, seen)
        right = log10_magnitude(node.right, seen)
        if left is None or right is None:
            return None
        if node.op in "+-":
            return max(left, right) + 0.31
        if node.op == "*":
            return left + right
        if node.op == "/":
            return left - right if right != -math.inf else left
        sign = -1.0 if _negative_constant(node.right) else 1.0
        if right > 6:
            return sign * (math.inf if left > 0 else -math.inf) if left else 0.0
        exponent = 10**right
        return sign * left * exponent if left else 0.0
    if isinstance(node, Call):
        parts = [log10_magnitude(a, seen) for a in node.args]
        if any(p is None for p in parts):
            return None
        biggest = max(parts)  # type: ignore[type-var]
        if node.name in ("exp", "cosh", "sinh"):
            return (10**biggest) / math.log(10) if biggest < 6 else math.inf  # type: ignore[operator]
        if node.name == "binom":
            return (10**biggest) * 0.31 if biggest < 6 else math.inf  # type: ignore[operator]
        return biggest
    return None


def _negative_constant(node: Node) -> bool:
    """Whether ``node`` is plainly a negative constant (``-30``, ``-(1/2)``, ``-3*10``): a power
    with such an exponent shrinks a base above 1 (``10^-30`` is tiny, not huge)."""
    negative = False
    while isinstance(node, Negate):
        negative = not negative
        node = node.operand
    if isinstance(node, Number):
        return negative != (node.value < 0)
    if isinstance(node, BinOp) and node.op in "*/" and log10_magnitude(node) is not None:
        return negative != (_negative_constant(node.left) != _negative_constant(node.right))
    return False


def constant_profile(*trees: Node) -> tuple[list[float], int]:
    """The numbers the trees mention, and the extra working digits their tiny or huge
    constant parts call for (0 when float-sized)."""
    numbers: list[float] = []
    seen: list[float] = []
    literal_digits = 0
    for tree in trees:
        for node in walk(tree):
            if isinstance(node, Number) and node.value != 0:
                numbers.append(
                    float(node.value) if abs(node.value) < Fraction(10) ** 300 else math.inf
                )
                # A 39-digit decimal for pi differs from pi in the 39th digit: work past it.
                literal_digits = max(
                    literal_digits, len(str(node.value.numerator)), len(str(node.value.denominator))
                )
        log10_magnitude(tree, seen)
    largest = max((abs(m) for m in seen if math.isfinite(m)), default=0.0)
    digits = 0 if largest < 12 else math.ceil(largest) + 10
    if literal_digits > 12:
        digits = max(digits, literal_digits + 10)
    return numbers, min(MAX_HINT_DIGITS, digits)
