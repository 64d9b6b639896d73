"""The cheap structural test: two trees that are the same up to order and grouping.

``a*b + c`` and ``c + b*a`` have the same canonical key, so they are equal without any numeric
work. Only identities that hold everywhere both sides are defined are applied (commutativity,
associativity, ``a - b = a + (-1)b``, ``a/b = a·b^-1``, collecting equal factors and terms), so a
match here is a proof; a mismatch proves nothing and the numeric test takes over.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

from recall.formula.nodes import BinOp, Call, Constant, Negate, Node, Number, Symbol

Key = tuple[Any, ...]
_ONE = ("n", Fraction(1))


def canonical(node: Node) -> Key:
    """A hashable key equal for trees that differ only in order and grouping."""
    if isinstance(node, Number):
        return ("n", node.value)
    if isinstance(node, Constant):
        return ("c", node.name)
    if isinstance(node, Symbol):
        return ("s", node.name)
    if isinstance(node, Call):
        args = [canonical(a) for a in node.args]
        if node.name in ("min", "max"):
            args.sort(key=repr)
        return ("f", node.name, tuple(args))
    if isinstance(node, Negate) or (isinstance(node, BinOp) and node.op in "*/"):
        return _product(node)
    if isinstance(node, BinOp) and node.op in "+-":
        return _sum(node)
    if isinstance(node, BinOp):  # power
        return ("^", canonical(node.left), canonical(node.right))
    raise TypeError(f"not an expression node: {node!r}")


def _terms(node: Node, sign: int, out: list[tuple[int, Node]]) -> None:
    if isinstance(node, BinOp) and node.op in "+-":
        _terms(node.left, sign, out)
        _terms(node.right, sign if node.op == "+" else -sign, out)
    else:
        out.append((sign, node))


def _split(key: Key) -> tuple[Fraction, Key]:
    """A product key as ``(coefficient, rest)``."""
    if key[0] == "n":
        return key[1], _ONE
    if key[0] == "*":
        factors = key[2]
        if len(factors) == 1 and factors[0][1] == _ONE:
            return key[1], factors[0][0]
        return key[1], ("*", Fraction(1), factors)
    return Fraction(1), key


def _sum(node: Node) -> Key:
    parts: list[tuple[int, Node]] = []
    _terms(node, 1, parts)
    collected: dict[Key, Fraction] = defaultdict(Fraction)
    for sign, term in parts:
        coefficient, rest = _split(canonical(term))
        collected[rest] += sign * coefficient
    terms = sorted(((rest, c) for rest, c in collected.items()), key=repr)
    if len(terms) == 1:
        rest, coefficient = terms[0]
        return _scale(rest, coefficient)
    return ("+", tuple(terms))


def _scale(rest: Key, coefficient: Fraction) -> Key:
    if rest == _ONE:
        return ("n", coefficient)
    if coefficient == 1:
        return rest
    if rest[0] == "*":
        return ("*", coefficient, rest[2])
    return ("*", coefficient, ((rest, _ONE),))


def _factors(node: Node, exponent: int, out: list[tuple[int, Node]]) -> Fraction:
    coefficient = Fraction(1)
    if isinstance(node, Negate):
        return -_factors(node.operand, exponent, out)
    if isinstance(node, BinOp) and node.op in "*/":
        coefficient *= _factors(node.left, exponent, out)
        coefficient *= _factors(node.right, exponent if node.op == "*" else -exponent, out)
        return coefficient
    if isinstance(node, Number) and node.value != 0:
        return node.value**exponent
    out.append((exponent, node))
    return coefficient


def _product(node: Node) -> Key:
    parts: list[tuple[int, Node]] = []
    coefficient = _factors(node, 1, parts)
    powers: dict[Key, Fraction] = defaultdict(Fraction)
    for exponent, factor in parts:
        key = canonical(factor)
        if key[0] == "^" and key[2][0] == "n" and key[2][1].denominator == 1:
            # Only integer powers merge: sqrt(x)*sqrt(x) is not x where x < 0.
            powers[key[1]] += exponent * key[2][1]
        else:
            powers[key] += exponent
    factors = tuple(sorted(((base, ("n", e)) for base, e in powers.items()), key=repr))
    if not factors:
        return ("n", coefficient)
    if coefficient == 1 and len(factors) == 1:
        base, power = factors[0]
        return base if power == _ONE else ("^", base, power)
    return ("*", coefficient, factors)


def structurally_equal(left: Node, right: Node) -> bool:
    """True when the two trees are equal up to order and grouping (a proof of equivalence)."""
    return canonical(left) == canonical(right)
