"""The shapes :mod:`recall.formula.locate` lines up: a sum as signed terms, a product as a
coefficient and factors with exponents, and the fingerprints (values at sample points) they are
matched by; with the small texts a part's message is built from.

Kept apart from the search itself so each module has one job: this one says what a term and a
factor are and how two are compared, :mod:`recall.formula.locate` decides which part differs.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction

from recall.formula.evaluate import UnknownFunctions, eval_float
from recall.formula.nodes import BinOp, Call, Negate, Node, Number, Symbol
from recall.formula.printer import format_fraction, to_text
from recall.formula.sampling import plan, sample
from recall.formula.symbols import SymbolTable

Path = tuple[int, ...]
#: Sample points every part is fingerprinted at.
POINTS = 6
_CLOSE = 1e-9

ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]


@dataclass
class Term:
    sign: int
    node: Node
    path: Path


@dataclass
class Factor:
    """``base^exponent``; ``path`` is the whole factor as typed (``x^2``, ``sqrt(b)``), for
    marking it, and ``base_path`` where its base sits, for looking inside it."""

    base: Node
    exponent: Fraction
    path: Path
    base_path: Path = ()


class Values:
    """Float values of subtrees at fixed sample points: the fingerprints parts match by."""

    def __init__(self, names: list[str], table: SymbolTable, seed: int) -> None:
        rng = random.Random(seed + 11)
        self.unknown = UnknownFunctions(seed)
        self.points = [
            {
                name: float(sample(table.domain(name), rng, plan(index, position)))
                for position, name in enumerate(names)
            }
            for index in range(POINTS)
        ]
        self._cache: dict[int, tuple[float | None, ...]] = {}

    def of(self, node: Node) -> tuple[float | None, ...]:
        key = id(node)
        if key not in self._cache:
            values = []
            for point in self.points:
                value = eval_float(node, point, self.unknown)
                values.append(None if value is None or math.isinf(value) else value)
            self._cache[key] = tuple(values)
        return self._cache[key]


def close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= _CLOSE * max(abs(a), abs(b)) or a == b


def same(first: tuple[float | None, ...], second: tuple[float | None, ...], scale=1.0) -> bool:
    if all(v is None for v in first) or all(v is None for v in second):
        return False
    return all(
        close(a, None if b is None else scale * b) for a, b in zip(first, second, strict=True)
    )


def terms(node: Node, path: Path, sign: int = 1) -> list[Term]:
    if isinstance(node, BinOp) and node.op in "+-":
        right_sign = sign if node.op == "+" else -sign
        return terms(node.left, path + (0,), sign) + terms(node.right, path + (1,), right_sign)
    if isinstance(node, Negate) and isinstance(node.operand, BinOp) and node.operand.op in "+-":
        return terms(node.operand, path + (0,), -sign)
    return [Term(sign, node, path)]


def factors(
    node: Node, path: Path, exponent: Fraction, out: list[Factor], numbers: list[tuple]
) -> Fraction:
    """Split a product into ``out`` (factors with exponents) and return its rational
    coefficient; ``numbers`` collects the number nodes that made the coefficient."""
    if isinstance(node, Negate):
        return -factors(node.operand, path + (0,), exponent, out, numbers)
    if isinstance(node, BinOp) and node.op in "*/":
        right = exponent if node.op == "*" else -exponent
        return factors(node.left, path + (0,), exponent, out, numbers) * factors(
            node.right, path + (1,), right, out, numbers
        )
    if isinstance(node, Number) and exponent.denominator == 1 and node.value:
        numbers.append((node, path))
        return node.value ** int(exponent)
    if isinstance(node, BinOp) and node.op == "^" and isinstance(node.right, Number):
        power = node.right.value
        if abs(power.numerator) <= 64 and power.denominator <= 64:
            out.append(Factor(node.left, exponent * power, path, path + (0,)))
            return Fraction(1)
    if isinstance(node, Call) and node.name == "sqrt" and len(node.args) == 1:
        out.append(Factor(node.args[0], exponent / 2, path, path + (0,)))
        return Fraction(1)
    out.append(Factor(node, exponent, path, path))
    return Fraction(1)


#: Parts that name a factor missing from a product: inside one term of a sum, that term is
#: marked (the factor itself is not in the answer to mark).
MISSING_IN_TERM = frozenset({"missing-factor", "square-root"})


def distributed(parts: list[Term]) -> list[Term] | None:
    """``parts`` with each product of a factor and a sum multiplied out one level (``η(u +
    λw)`` gives ``ηu`` and ``ηλw``); ``None`` when no term has such a product. Each new term's
    path is the summand's, which is where it is marked."""
    out: list[Term] = []
    spread = False
    for term in parts:
        node = term.node
        if isinstance(node, BinOp) and node.op == "*" and (is_sum(node.left) or is_sum(node.right)):
            inner_index = 0 if is_sum(node.left) else 1
            factor = node.right if inner_index == 0 else node.left
            inner = node.left if inner_index == 0 else node.right
            for piece in terms(inner, term.path + (inner_index,), term.sign):
                out.append(Term(piece.sign, BinOp("*", factor, piece.node), piece.path))
            spread = True
        else:
            out.append(term)
    return out if spread else None


def rebuilt(parts: list[Term]) -> Node | None:
    """The sum of ``parts`` as one tree (for comparing it as a whole)."""
    node: Node | None = None
    for term in parts:
        piece = term.node if term.sign > 0 else Negate(term.node)
        node = piece if node is None else BinOp("+", node, piece)
    return node


def common_path(paths) -> Path:
    """The longest path every one of ``paths`` starts with: the subtree holding them all."""
    paths = list(paths)
    if not paths:
        return ()
    first = paths[0]
    size = 0
    while size < len(first) and all(len(p) > size and p[size] == first[size] for p in paths):
        size += 1
    return first[:size]


def is_sum(node: Node) -> bool:
    return isinstance(node, BinOp) and node.op in "+-"


def powered(values: tuple[float | None, ...], exponent: Fraction) -> tuple[float | None, ...]:
    """Each value to ``exponent`` (``None`` where that is undefined or not a real number)."""
    out: list[float | None] = []
    for value in values:
        try:
            result = None if value is None else value ** float(exponent)
        except (OverflowError, ZeroDivisionError):
            result = None
        out.append(result if isinstance(result, float) and math.isfinite(result) else None)
    return tuple(out)


def is_power(node: Node) -> bool:
    return isinstance(node, BinOp) and node.op == "^"


def power_form(base: Node, exponent: Fraction, render=to_text) -> str:
    """``base^exponent`` as typed syntax (``sqrt(v + e)``, ``1/x``, ``x^3``)."""
    text = render(base)
    inner = text if isinstance(base, (Symbol, Call, Number)) else f"({text})"
    size = abs(exponent)
    body = (
        text
        if size == 1
        else f"sqrt({text})"
        if size == Fraction(1, 2)
        else f"{inner}^{format_fraction(size)}"
    )
    return body if exponent > 0 else f"1/{body if size != 1 else inner}"


def signed(sign: int, node: Node, render=to_text) -> str:
    return ("- " if sign < 0 else "+ ") + render(node)


def ordinal(index: int, count: int) -> str:
    if count > 1 and index == count - 1 and count > 2:
        return "last"
    return ORDINALS[index] if index < len(ORDINALS) else f"term number {index + 1}"


def where(exponent: Fraction) -> str:
    return "denominator" if exponent < 0 else "numerator"


def power_text(exponent: Fraction) -> str:
    return format_fraction(abs(exponent))


def rounded(answer: Fraction, reference: Fraction, text: str) -> bool:
    """Whether ``answer`` (typed as ``text``) is ``reference`` rounded or cut to fewer
    significant figures."""
    if answer == reference or not reference or not answer:
        return False
    digits = sum(c.isdigit() for c in text.lstrip("-0.").split("e")[0].replace(".", ""))
    if not 0 < digits < 30:
        return False
    exponent = math.floor(math.log10(abs(float(reference))))
    unit = Fraction(10) ** (exponent - digits + 1)
    return abs(answer - reference) < unit and len(format_fraction(reference)) > len(text)


#: Points a swapped product must agree at, where both sides are defined and nonzero.
MIN_AGREEING = 3


def agree_where_defined(first: tuple[float | None, ...], second: tuple[float | None, ...]) -> bool:
    """Whether two value tuples agree at every point where both are defined and nonzero, and
    there are enough such points: a Gaussian's density underflows to 0 at most sample points,
    where a ratio says nothing, yet the points where it is representable decide."""
    pairs = [(a, b) for a, b in zip(first, second, strict=True) if a and b]
    return len(pairs) >= MIN_AGREEING and all(close(a, b) for a, b in pairs)
