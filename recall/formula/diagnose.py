"""Near misses: a catalogue of anticipated mistakes, checked in order.

Each entry is a transformation of the reference (negate it, scale it, drop a term, swap two
variables, put ``1 - p`` for ``p``, ...). If the learner's answer matches the transformed
reference at every test point, that is almost certainly the mistake, and the learner is told so.
The checks reuse the numeric machinery, so a diagnosis is as trustworthy as a verdict.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from recall.formula.evaluate import UnknownFunctions, eval_float
from recall.formula.expression import Expression
from recall.formula.nodes import BinOp, Node, Number, Symbol, walk
from recall.formula.printer import format_fraction, to_text
from recall.formula.sampling import plan, sample
from recall.formula.symbols import SymbolTable
from recall.formula.verdict import Diagnosis

POINTS = 8
_CLOSE = 1e-7

_NAMED_FACTORS: list[tuple[float, str, str]] = [
    (math.log(2), "ln 2", "log-base"),
    (1 / math.log(2), "1/ln 2", "log-base"),
    (math.log(10), "ln 10", "log-base"),
    (1 / math.log(10), "1/ln 10", "log-base"),
    (math.pi, "pi", "factor"),
    (1 / math.pi, "1/pi", "factor"),
    (math.sqrt(2), "sqrt(2)", "factor"),
    (1 / math.sqrt(2), "1/sqrt(2)", "factor"),
    (math.sqrt(2 * math.pi), "sqrt(2 pi)", "factor"),
    (1 / math.sqrt(2 * math.pi), "1/sqrt(2 pi)", "factor"),
]


def _close(a: float, b: float) -> bool:
    if not (math.isfinite(a) and math.isfinite(b)):
        return False
    return abs(a - b) <= _CLOSE * max(abs(a), abs(b)) + 1e-12


def _terms(node: Node, sign: int = 1) -> list[tuple[int, Node]]:
    if isinstance(node, BinOp) and node.op in "+-":
        return _terms(node.left, sign) + _terms(node.right, sign if node.op == "+" else -sign)
    return [(sign, node)]


class _Samples:
    """Float values of both sides (and helpers) at a fixed set of points."""

    def __init__(
        self,
        reference: Expression,
        answer: Expression,
        table: SymbolTable,
        seed: int,
        witness: dict[str, float] | None = None,
    ):
        self.table = table
        self.unknown = UnknownFunctions(seed)
        rng = random.Random(seed + 7)
        self.names = sorted(reference.free_symbols | answer.free_symbols)
        self.points: list[dict[str, float]] = []
        self.e: list[float] = []
        self.a: list[float] = []
        candidates = [witness] if witness else []
        candidates += [
            {
                n: float(sample(table.domain(n), rng, plan(attempt, position)))
                for position, n in enumerate(self.names)
            }
            for attempt in range(POINTS * 4)
        ]
        for point in candidates:
            if len(self.points) >= POINTS:
                break
            e_value = eval_float(reference.tree, point, self.unknown)
            a_value = eval_float(answer.tree, point, self.unknown)
            if e_value is None or a_value is None or math.isinf(e_value) or math.isinf(a_value):
                continue
            self.points.append(point)
            self.e.append(e_value)
            self.a.append(a_value)

    def values(
        self, node: Node, points: list[dict[str, float]] | None = None
    ) -> list[float] | None:
        out = []
        for point in points or self.points:
            value = eval_float(node, point, self.unknown)
            if value is None or math.isinf(value):
                return None
            out.append(value)
        return out

    def answer_matches(self, candidate: list[float] | None) -> bool:
        return (
            candidate is not None
            and len(self.points) >= 3
            and all(_close(c, a) for c, a in zip(candidate, self.a, strict=True))
        )


def _nice_factor(ratio: float) -> tuple[str, str] | None:
    """A readable name for a constant factor, and the diagnosis kind."""
    if not math.isfinite(ratio) or ratio == 0:
        return None
    for value, name, kind in _NAMED_FACTORS:
        if _close(ratio, value):
            return name, kind
    approx = Fraction(ratio).limit_denominator(64)
    if approx != 0 and _close(float(approx), ratio):
        if approx.denominator == 1 or approx.numerator == 1 or abs(approx) < 100:
            return format_fraction(approx), "factor"
    exponent = round(math.log10(abs(ratio))) if ratio else 0
    if exponent and _close(abs(ratio), 10.0**exponent):
        return f"10^{exponent}", "magnitude"
    return None


def diagnose(
    reference: Expression,
    answer: Expression,
    table: SymbolTable,
    *,
    seed: int = 0,
    undefined_mismatch: bool = False,
    witness: dict[str, float] | None = None,
) -> Diagnosis | None:
    """The most likely mistake, or ``None`` when none of the catalogue fits.

    ``undefined_mismatch`` says the numeric test found a point where only one side is defined;
    ``witness`` is the point where the two differed, which the diagnosis must explain too.
    """
    s = _Samples(reference, answer, table, seed, witness)
    if len(s.points) < 3:
        return None
    if all(_close(a, e) for a, e in zip(s.a, s.e, strict=True)):
        if undefined_mismatch:
            return Diagnosis(
                "partial-domain",
                "Equal where both are defined, but one of them "
                "is undefined where the other is not: check the domain (a square "
                "root, a log, or a division)",
            )
        if witness is not None and s.points and s.points[0] is witness:
            # Even where they differ, they agree to float precision: a rounded constant, or
            # a function so near its limit that only high precision tells them apart.
            if _new_decimals(reference.tree, answer.tree):
                return Diagnosis(
                    "approximation",
                    "Equal to many digits but not exactly: a "
                    "rounded decimal stands where an exact value belongs (type the "
                    "exact constant, such as sqrt(2/pi), not its decimal value)",
                )
            return Diagnosis(
                "approximation",
                "Equal to many digits but not exactly: close to the reference is not the "
                "reference (a function near its limit is not its limit)",
            )
        return None
    for check in _CHECKS:
        found = check(reference, answer, s)
        if found is not None:
            return found
    return None


def _new_decimals(reference: Node, answer: Node) -> bool:
    """Whether the answer has a non-integer number the reference does not."""
    known = {n.value for n in walk(reference) if isinstance(n, Number)}
    return any(
        isinstance(n, Number) and n.value.denominator != 1 and n.value not in known
        for n in walk(answer)
    )


def _sign(reference, answer, s) -> Diagnosis | None:
    if s.answer_matches([-v for v in s.e]):
        return Diagnosis("sign", "Off by a sign: your answer is the negative of the reference")
    return None


def _factor(reference, answer, s) -> Diagnosis | None:
    if any(v == 0 for v in s.e):
        return None
    ratios = [a / e for a, e in zip(s.a, s.e, strict=True)]
    if (
        all(_close(r, ratios[0]) for r in ratios)
        and not _close(ratios[0], 1.0)
        and abs(ratios[0]) > 1e-6
    ):
        named = _nice_factor(ratios[0])
        if named is None:
            return Diagnosis("factor", f"Off by a constant factor (about {ratios[0]:.4g})")
        name, kind = named
        if kind == "log-base":
            return Diagnosis(
                "log-base",
                f"Off by a factor of {name}: check the base of the "
                "logarithm (natural log, log2 or log10?)",
            )
        if kind == "magnitude":
            return Diagnosis(
                "magnitude", f"Off by a factor of {name}: check units and powers of ten"
            )
        return Diagnosis(
            "factor",
            f"Off by a constant factor of {name}: your answer is {name} times the reference",
        )
    return None


def _additive(reference, answer, s) -> Diagnosis | None:
    offsets = [a - e for a, e in zip(s.a, s.e, strict=True)]
    if all(_close(o, offsets[0]) for o in offsets) and not _close(offsets[0], 0.0):
        approx = Fraction(offsets[0]).limit_denominator(64)
        shown = (
            format_fraction(approx) if _close(float(approx), offsets[0]) else f"{offsets[0]:.4g}"
        )
        return Diagnosis(
            "additive", f"Off by an additive constant: your answer is the reference plus {shown}"
        )
    return None


def _reciprocal(reference, answer, s) -> Diagnosis | None:
    if any(v == 0 for v in s.e):
        return None
    if s.answer_matches([1 / v for v in s.e]):
        return Diagnosis(
            "reciprocal",
            "Upside down: your answer is the reciprocal of the "
            "reference (numerator and denominator swapped?)",
        )
    return None


def _missing_or_extra_term(reference, answer, s) -> Diagnosis | None:
    ref_terms = _terms(reference.tree)
    if len(ref_terms) > 1:
        for sign, term in ref_terms:
            values = s.values(term)
            if values is not None and s.answer_matches(
                [e - sign * v for e, v in zip(s.e, values, strict=True)]
            ):
                return Diagnosis("missing-term", f"Missing a term: {_signed(sign, term)}")
    answer_terms = _terms(answer.tree)
    if len(answer_terms) > 1:
        for sign, term in answer_terms:
            values = s.values(term)
            if values is not None and all(
                _close(a - sign * v, e) for a, v, e in zip(s.a, values, s.e, strict=True)
            ):
                return Diagnosis("extra-term", f"An extra term: {_signed(sign, term)}")
    return None


def _signed(sign: int, term: Node) -> str:
    return ("-" if sign < 0 else "+") + " " + to_text(term)


def _substituted(
    reference: Expression, s: _Samples, mapping: Callable[[dict], dict]
) -> list[float] | None:
    moved = [mapping(dict(p)) for p in s.points]
    return s.values(reference.tree, moved)


MAX_SWAP_VARIABLES = 8


def _swapped(reference, answer, s) -> Diagnosis | None:
    names = sorted(reference.free_symbols)
    if len(names) > MAX_SWAP_VARIABLES:  # pairs grow with the square of the count
        return None
    for i, x in enumerate(names):
        for y in names[i + 1 :]:
            if s.table.domain(x) != s.table.domain(y):
                continue

            def swap(p, x=x, y=y):
                p[x], p[y] = p[y], p[x]
                return p

            if s.answer_matches(_substituted(reference, s, swap)):
                return Diagnosis("swapped", f"{x} and {y} are swapped")
    return None


def _complement(reference, answer, s) -> Diagnosis | None:
    for name in sorted(reference.free_symbols):
        domain = s.table.domain(name)
        if not (domain.low >= 0 and domain.high <= 1):
            continue

        def flip(p, name=name):
            p[name] = 1 - p[name]
            return p

        if s.answer_matches(_substituted(reference, s, flip)):
            return Diagnosis(
                "complement", f"{name} where 1 - {name} belongs (or the other way round)"
            )
    return None


def _exponent(reference, answer, s) -> Diagnosis | None:
    """The answer is the reference times or over one of its names. When the answer still has
    that name, a power of it slipped by one; when the name is gone from the answer, a factor
    (or a division) was left out, and an exponent has nothing to do with it."""
    for name in sorted(reference.free_symbols):
        values = s.values(Symbol(name))
        if values is None or any(v == 0 for v in values):
            continue
        kept = name in answer.free_symbols
        if s.answer_matches([e * v for e, v in zip(s.e, values, strict=True)]):
            if kept:
                return Diagnosis(
                    "exponent", f"An extra factor of {name}: is an exponent off by one?"
                )
            return Diagnosis("missing-factor", f"The division by {name} is missing")
        if s.answer_matches([e / v for e, v in zip(s.e, values, strict=True)]):
            if kept:
                return Diagnosis(
                    "exponent", f"Missing a factor of {name}: is an exponent off by one?"
                )
            return Diagnosis("missing-factor", f"Missing a factor of {name}")
    return None


def _square_root(reference, answer, s) -> Diagnosis | None:
    if s.answer_matches([e * e for e in s.e]):
        return Diagnosis(
            "square-root", "Your answer is the square of the reference: a square root is missing"
        )
    if all(e >= 0 for e in s.e) and s.answer_matches([math.sqrt(e) for e in s.e]):
        return Diagnosis(
            "square-root",
            "Your answer is the square root of the reference: an "
            "extra square root, or a missing square",
        )
    return None


def _agrees_around(reference, answer, s, point: dict[str, float]) -> bool:
    """Agreement that holds on a neighbourhood of ``point``, not only at it: ``1 - tanh(x)``
    and ``1 - tanh(x)^2`` meet at x = 0 (and look alike far out, where both are tiny) but
    agree on no interval, so that is not "right for some values"."""
    for factor in (1.0, 1.0 + 1e-3, 1.0 - 1e-3):
        moved = {name: value * factor for name, value in point.items()}
        e = eval_float(reference.tree, moved, s.unknown)
        a = eval_float(answer.tree, moved, s.unknown)
        if e is None or a is None or not (math.isfinite(e) and math.isfinite(a)):
            return False
        if abs(a - e) > _CLOSE * max(abs(a), abs(e)):
            return False
    return True


def _partial_domain(reference, answer, s) -> Diagnosis | None:
    # A point where both sides vanish says nothing about where the answer is right: rel_i/log2(i)
    # and rel_i/log2(i + 1) are both 0 at rel_i = 0 (and stay 0 around it), which is not
    # "right only when rel_i < 0". Such points are left out of the reckoning.
    kept = [
        (a, e, point)
        for a, e, point in zip(s.a, s.e, s.points, strict=True)
        if not (a == 0 and e == 0)
    ]
    agree = [_close(a, e) and _agrees_around(reference, answer, s, point) for a, e, point in kept]
    if not any(agree) or all(agree):
        return None
    points = [point for _, _, point in kept]
    for name in s.names:
        positive = [p[name] > 0 for p in points]
        if all(ok == pos for ok, pos in zip(agree, positive, strict=True)):
            return Diagnosis(
                "partial-domain",
                f"Right only when {name} > 0: the reference "
                f"holds for every {s.table.domain(name)} {name}",
            )
        if all(ok != pos for ok, pos in zip(agree, positive, strict=True)):
            return Diagnosis("partial-domain", f"Right only when {name} < 0")
    return Diagnosis("partial-domain", "Right for some values and wrong for others")


_CHECKS = [
    _sign,
    _reciprocal,
    _missing_or_extra_term,
    _swapped,
    _complement,
    _exponent,
    _square_root,
    _factor,
    _additive,
    _partial_domain,
]


def diagnose_numbers(expected: Any, answer: Any) -> Diagnosis | None:
    """Near misses for a numeric answer: sign, powers of ten, small factors. Works on floats,
    Fractions and mpmath numbers of any size."""
    import mpmath

    from recall.formula.tolerance import to_mp

    expected, answer = to_mp(expected), to_mp(answer)
    if not expected or not answer:
        return None
    ratio = float(answer / expected)
    if not math.isfinite(ratio):
        exponent = int(mpmath.nint(mpmath.log10(abs(answer / expected))))
        return Diagnosis(
            "magnitude", f"Off by a factor of about 10^{exponent}: check units and powers of ten"
        )
    if _close(ratio, -1.0):
        return Diagnosis("sign", "Off by a sign")
    named = _nice_factor(ratio)
    if named is not None:
        name, kind = named
        if kind == "magnitude":
            return Diagnosis(
                "magnitude", f"Off by a factor of {name}: check units and powers of ten"
            )
        if name in ("2", "1/2", "4", "1/4", "3", "1/3", "6", "1/6", "8", "1/8"):
            return Diagnosis("factor", f"Off by a factor of {name}")
    return None
