"""How close a numeric answer must be to count as right.

Comparisons are made in mpmath, so references far outside float64 (``10^400``, ``exp(1000)``)
are graded as well as ordinary ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath

Number = float | int | Fraction | Any  # Any: an mpmath mpf


def to_mp(value: Number) -> Any:
    """An mpmath number for a float, int, Fraction or mpf."""
    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator
    return mpmath.mpf(value)


@dataclass(frozen=True)
class Tolerance:
    """``kind`` is ``exact``, ``relative``, ``absolute`` or ``sigfigs``; ``value`` is the bound
    (a fraction of the reference, an absolute amount, or a number of significant figures)."""

    kind: str = "exact"
    value: float = 0.0

    @classmethod
    def exact(cls) -> Tolerance:
        return cls("exact", 0.0)

    @classmethod
    def relative(cls, value: float) -> Tolerance:
        """Relative tolerance; ``0`` means exact."""
        return cls("relative", float(value)) if value else cls.exact()

    @classmethod
    def absolute(cls, value: float) -> Tolerance:
        return cls("absolute", float(value))

    @classmethod
    def sigfigs(cls, digits: int) -> Tolerance:
        return cls("sigfigs", float(int(digits)))

    def bound_mp(self, reference: Number) -> Any:
        """The largest accepted absolute difference from ``reference``, as an mpmath number.

        A relative tolerance around a reference of zero accepts only zero: "within 1% of 0"
        is not a licence for ±0.01."""
        ref = abs(to_mp(reference))
        if self.kind == "relative":
            return self.value * ref
        if self.kind == "absolute":
            return mpmath.mpf(self.value)
        if self.kind == "sigfigs":
            if ref == 0:
                return mpmath.mpf(0)
            exponent = int(mpmath.floor(mpmath.log10(ref))) - int(self.value) + 1
            return mpmath.mpf("0.5") * mpmath.mpf(10) ** exponent * (1 + mpmath.mpf("1e-12"))
        return mpmath.mpf(0)

    def bound(self, reference: float | Fraction) -> float:
        """:meth:`bound_mp` as a float, for references in float64 range."""
        return float(self.bound_mp(reference))

    def accepts(self, reference: Number, answer: Number) -> bool:
        """Whether ``answer`` is within this tolerance of ``reference``."""
        if self.kind == "exact" and not isinstance(reference, mpmath.mpf):
            return reference == answer
        return abs(to_mp(answer) - to_mp(reference)) <= self.bound_mp(reference)

    def describe(self) -> str:
        """Words for the learner: ``within 1%``, ``within ±0.5``, ``to 3 significant figures``."""
        if self.kind == "relative":
            return f"within {self.value * 100:g}%"
        if self.kind == "absolute":
            return f"within ±{self.value:g}"
        if self.kind == "sigfigs":
            return f"to {int(self.value)} significant figures"
        return "exactly"
