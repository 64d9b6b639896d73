"""How close a numeric answer must be to count as right."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction


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

    def bound(self, reference: float) -> float:
        """The largest accepted absolute difference from ``reference``."""
        if self.kind == "relative":
            return self.value * abs(reference) if reference else self.value
        if self.kind == "absolute":
            return self.value
        if self.kind == "sigfigs":
            if reference == 0:
                return 0.0
            exponent = math.floor(math.log10(abs(reference))) - int(self.value) + 1
            return 0.5 * 10.0**exponent * (1 + 1e-12)
        return 0.0

    def accepts(self, reference: float | Fraction, answer: float | Fraction) -> bool:
        """Whether ``answer`` is within this tolerance of ``reference``."""
        if self.kind == "exact":
            return reference == answer
        return abs(float(answer) - float(reference)) <= self.bound(float(reference))

    def describe(self) -> str:
        """Words for the learner: ``within 1%``, ``within ±0.5``, ``to 3 significant figures``."""
        if self.kind == "relative":
            return f"within {self.value * 100:g}%"
        if self.kind == "absolute":
            return f"within ±{self.value:g}"
        if self.kind == "sigfigs":
            return f"to {int(self.value)} significant figures"
        return "exactly"
