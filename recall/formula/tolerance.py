"""How close a numeric answer must be to count as right, decided exactly.

A tolerance is an exact rational (``0.05`` is ``1/20``, not the binary float nearest to it), and
its boundary is inclusive: within 5% of 1 accepts 1.05. When both the reference and the answer
are rational (typed decimals always are) the comparison runs in :class:`fractions.Fraction`, so
no rounding can move a value across the boundary. Irrational values (``pi``, ``exp(1000)``) are
compared in mpmath at :data:`COMPARE_DIGITS` digits, which also grades references far outside
float64 (``10^400``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import mpmath

Number = float | int | Fraction | Any  # Any: an mpmath mpf

#: Working digits for comparisons that involve an irrational value.
COMPARE_DIGITS = 60


def to_mp(value: Number) -> Any:
    """An mpmath number for a float, int, Fraction or mpf (at the current precision)."""
    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator
    return mpmath.mpf(value)


def exact_decimal(value: float | int | str | Decimal | Fraction) -> Fraction:
    """The exact rational a typed tolerance or value means.

    A float is read through its shortest round-tripping decimal (``0.05`` → ``1/20``): that is
    the text the person typed, whereas the float itself is ``0.05000000000000000277…``.
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise TypeError("a tolerance must be a number")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"a tolerance must be finite, not {value}")
        return Fraction(repr(value))
    return Fraction(str(value))


def rational(value: Number) -> Fraction | None:
    """``value`` as an exact rational when it is one (int, Fraction, float), else ``None``."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return Fraction(value)
    if isinstance(value, float) and math.isfinite(value):
        return Fraction(repr(value))
    return None


def _floor_log10(value: Fraction) -> int:
    """``floor(log10(value))`` for a positive rational, exactly."""
    guess = len(str(value.numerator)) - len(str(value.denominator))
    while Fraction(10) ** guess > value:
        guess -= 1
    while Fraction(10) ** (guess + 1) <= value:
        guess += 1
    return guess


@dataclass(frozen=True)
class Tolerance:
    """``kind`` is ``exact``, ``relative``, ``absolute`` or ``sigfigs``; ``value`` is the bound
    (a fraction of the reference, an absolute amount, or a number of significant figures) as an
    exact rational."""

    kind: str = "exact"
    value: Fraction = Fraction(0)

    @classmethod
    def exact(cls) -> Tolerance:
        return cls("exact", Fraction(0))

    @classmethod
    def relative(cls, value: float | int | str | Decimal | Fraction) -> Tolerance:
        """Relative tolerance; ``0`` means exact."""
        amount = exact_decimal(value)
        return cls("relative", amount) if amount else cls.exact()

    @classmethod
    def absolute(cls, value: float | int | str | Decimal | Fraction) -> Tolerance:
        return cls("absolute", exact_decimal(value))

    @classmethod
    def sigfigs(cls, digits: int) -> Tolerance:
        return cls("sigfigs", Fraction(int(digits)))

    def bound_exact(self, reference: Fraction) -> Fraction:
        """The largest accepted absolute difference from a rational ``reference``, exactly.

        A relative tolerance around a reference of zero accepts only zero: "within 1% of 0"
        is not a licence for ±0.01."""
        size = abs(reference)
        if self.kind == "relative":
            return self.value * size
        if self.kind == "absolute":
            return self.value
        if self.kind == "sigfigs":
            if size == 0:
                return Fraction(0)
            exponent = _floor_log10(size) - int(self.value) + 1
            return Fraction(1, 2) * Fraction(10) ** exponent
        return Fraction(0)

    def bound_mp(self, reference: Number) -> Any:
        """:meth:`bound_exact` for any reference, as an mpmath number (at the current
        precision)."""
        exact = rational(reference)
        if exact is not None:
            return to_mp(self.bound_exact(exact))
        size = abs(to_mp(reference))
        if self.kind == "relative":
            return to_mp(self.value) * size
        if self.kind == "absolute":
            return to_mp(self.value)
        if self.kind == "sigfigs":
            if size == 0:
                return mpmath.mpf(0)
            exponent = int(mpmath.floor(mpmath.log10(size))) - int(self.value) + 1
            return mpmath.mpf(10) ** exponent / 2
        return mpmath.mpf(0)

    def bound(self, reference: float | Fraction) -> float:
        """:meth:`bound_mp` as a float, for references in float64 range."""
        exact = rational(reference)
        if exact is not None:
            return float(self.bound_exact(exact))
        return float(self.bound_mp(reference))

    def accepts(self, reference: Number, answer: Number) -> bool:
        """Whether ``answer`` is within this tolerance of ``reference`` (boundary included).

        Rational inputs are decided exactly; otherwise in mpmath at :data:`COMPARE_DIGITS`
        digits, where a difference that equals the bound to all but the last few digits counts
        as on the boundary, hence accepted."""
        exact_reference, exact_answer = rational(reference), rational(answer)
        if exact_reference is not None and exact_answer is not None:
            return abs(exact_answer - exact_reference) <= self.bound_exact(exact_reference)
        if self.kind == "exact":
            return _mp_equal(reference, answer)
        with mpmath.workdps(COMPARE_DIGITS):
            difference = abs(to_mp(answer) - to_mp(reference))
            bound = self.bound_mp(reference)
            slack = mpmath.mpf(10) ** (10 - COMPARE_DIGITS) * max(bound, difference)
            return difference <= bound + slack

    def describe(self) -> str:
        """Words for the learner: ``within 1%``, ``within ±0.5``, ``to 3 significant figures``."""
        if self.kind == "relative":
            return f"within {_plain(self.value * 100)}%"
        if self.kind == "absolute":
            return f"within ±{_plain(self.value)}"
        if self.kind == "sigfigs":
            return f"to {int(self.value)} significant figures"
        return "exactly"


def _mp_equal(reference: Number, answer: Number) -> bool:
    with mpmath.workdps(COMPARE_DIGITS):
        return bool(to_mp(reference) == to_mp(answer))


def _plain(value: Fraction) -> str:
    """A short decimal for a tolerance in a message (``5``, ``0.5``, ``2.5e-07``)."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):g}"
