"""Numbers written for the learner with enough digits to see what the message claims.

Two values said to differ are printed with as many significant figures as it takes for their
texts to differ ("0.3151338 but your answer gives 0.3151342", never "0.315134 but your answer
gives 0.315134"); when they agree to more digits than are worth printing, the size of the
difference is given instead.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath

#: Fewest and most significant figures a compared value is shown with.
MIN_FIGURES = 6
MAX_FIGURES = 30


def _mp(value: Any) -> Any:
    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator
    return mpmath.mpf(value)


def figures(value: Any, count: int) -> str:
    """``value`` to ``count`` significant figures, trailing zeros dropped (``1.05``,
    ``2.5e-40``)."""
    with mpmath.workdps(max(count + 10, 20)):
        number = _mp(value)
        if number == 0:
            return "0"
        text = mpmath.nstr(number, count, min_fixed=-4, max_fixed=15, strip_zeros=True)
    if "e" in text:
        mantissa, exponent = text.split("e")
        if "." in mantissa:
            mantissa = mantissa.rstrip("0").rstrip(".")
        return f"{mantissa}e{int(exponent)}"
    if text.endswith(".0"):
        text = text[:-2]
    return text


def distinct(first: Any, second: Any) -> tuple[str, str, bool]:
    """Texts for two values, with the fewest figures (at least :data:`MIN_FIGURES`) that make
    them differ; the flag is ``False`` when even :data:`MAX_FIGURES` figures do not."""
    with mpmath.workdps(MAX_FIGURES + 20):
        a, b = _mp(first), _mp(second)
        for count in range(MIN_FIGURES, MAX_FIGURES + 1):
            left, right = figures(a, count), figures(b, count)
            if left != right or a == b:
                return left, right, left != right
    return figures(a, MAX_FIGURES), figures(b, MAX_FIGURES), False


def difference_text(first: Any, second: Any) -> str:
    """``first − second`` to three figures, for values too close to tell apart in print."""
    with mpmath.workdps(MAX_FIGURES + 40):
        return figures(_mp(first) - _mp(second), 3)
