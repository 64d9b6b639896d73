"""What each builtin can be trusted to compute, decided from its arguments before computing.

Two things are known about a function's value without computing it:

* whether it is *within reach*: ``sin(10^9999)`` needs ten thousand digits of pi to reduce its
  argument, ``exp(-10^9999)`` a number whose exponent has ten thousand digits. Past the bounds
  here the value is out of reach and the evaluator raises :class:`OutOfReach` (the grade is
  then *invalid* with the reason, never a hang and never a guess);
* how many of its leading digits are *hidden*: a saturating function sits so close to its
  limit that a working precision of 30 digits rounds it onto the limit (``tanh(50)`` is
  ``1 - 7.4e-44``, ``sigmoid(100)`` is ``1 - 3.7e-44``, ``erf(10)`` is ``1 - 2.1e-45``), and a
  function near zero sits as close to its tangent line (``sin(1e-20)`` is ``1e-20 - 1.7e-61``).
  The comparison raises its precision by that many digits so a real difference is seen, and
  when even its cap is not enough it does not accept.

The estimates are closed forms (``1 - tanh(x)`` is about ``2 e^-2x``), cheap and safe for any
argument; they err on the side of more digits.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mpmath

LN10 = math.log(10)
_DIGITS_PER_BIT = math.log10(2)

#: |x| past which exp, sinh, cosh and the exponential tails of sigmoid and softplus are out of
#: reach (exp(10^8) has 43 million digits before the point).
MAX_EXP_ARGUMENT = 10**8
#: |x| past which the normal CDF's lower tail is out of reach (e^(-x^2/2) as above).
MAX_PHI_TAIL = 10**4
#: Trigonometric arguments up to 2^1000 (about 10^301) are reduced; past that, out of reach.
MAX_TRIG_BITS = 1000
#: binom's arguments up to a million.
MAX_BINOM_ARGUMENT = 10**6
#: A saturating function hiding more digits than this is given its limit without computing.
SHORTCUT_DIGITS = 20_000


class OutOfReach(Exception):
    """Raised by evaluation when a function's argument is beyond what can be computed in the
    time allowed; the message is for the learner."""


def magnitude_text(value: Any) -> str:
    """``about 10^9999`` for an mpmath number, without printing its digits."""
    if not value:
        return "0"
    exponent = round(float(mpmath.mag(value)) * _DIGITS_PER_BIT)
    sign = "-" if value < 0 else ""
    return f"{sign}10^{exponent}" if abs(exponent) > 6 else mpmath.nstr(value, 6)


def _log10_abs(x: Any) -> float:
    """An estimate of log10|x| (an upper bound to within a bit) for any mpmath number."""
    if not x:
        return -math.inf
    return float(mpmath.mag(x)) * _DIGITS_PER_BIT


def _abs_float(x: Any) -> float:
    """|x| as a float, ``inf`` past float range."""
    return float(abs(x)) if mpmath.mag(x) < 1000 else math.inf


def _near_zero(order: int) -> Callable[[Any], float]:
    """Hidden digits of a function that is its tangent line plus a term of ``x^(order+1)``
    near 0: ``order`` times the digits below the point that x sits."""

    def hidden(x: Any) -> float:
        if not x or _abs_float(x) >= 1:
            return 0.0
        return -order * _log10_abs(x)

    return hidden


def _tail(rate: Callable[[float], float], order: int, positive_only: bool) -> Callable:
    """Hidden digits of a function that saturates like ``e^-rate(|x|)`` for |x| >= 1 (on the
    positive side only, when ``positive_only``), and is linear to ``order`` near zero."""
    near = _near_zero(order)

    def hidden(x: Any) -> float:
        size = _abs_float(x)
        if size < 1:
            return near(x)
        if positive_only and x < 0:
            return 0.0
        return rate(size) / LN10 if math.isfinite(size) else math.inf

    return hidden


def _beyond(bound: int, word: str, *, below_only: bool = False) -> Callable[[Any], str | None]:
    def reach(x: Any) -> str | None:
        if below_only and x > 0:
            return None
        if abs(x) > bound:
            return (
                f"{word} of {magnitude_text(x)} cannot be computed in the time allowed "
                f"(arguments must stay within ±{magnitude_text(mpmath.mpf(bound))})"
            )
        return None

    return reach


def _trig_reach(name: str) -> Callable[[Any], str | None]:
    def reach(x: Any) -> str | None:
        if x and mpmath.mag(x) > MAX_TRIG_BITS:
            return (
                f"{name} of {magnitude_text(x)} cannot be computed in the time allowed "
                "(its argument must stay within ±10^300)"
            )
        return None

    return reach


def _binom_reach(n: Any, k: Any) -> str | None:
    for value in (n, k):
        if abs(value) > MAX_BINOM_ARGUMENT:
            return (
                f"binom of {magnitude_text(value)} cannot be computed in the time allowed "
                "(its arguments must stay within ±10^6)"
            )
    return None


def _sign_limit(x: Any) -> Any:
    return mpmath.mpf(1) if x > 0 else mpmath.mpf(-1)


def _upper_limit(x: Any) -> Any:
    return mpmath.mpf(1) if x > 0 else None


def _identity_limit(x: Any) -> Any:
    return +x if x > 0 else None


@dataclass(frozen=True)
class Guard:
    """The bounds of one builtin: ``reach`` (a reason, or ``None``), ``hidden`` (digits) and
    ``saturated`` (the limit to use when more than :data:`SHORTCUT_DIGITS` are hidden, or
    ``None`` when the limit does not apply at this argument)."""

    reach: Callable[..., str | None]
    hidden: Callable[..., float]
    saturated: Callable[..., Any] | None = None


def _none(*args: Any) -> None:
    return None


GUARDS: dict[str, Guard] = {
    "exp": Guard(_beyond(MAX_EXP_ARGUMENT, "exp"), _near_zero(1)),
    "sinh": Guard(_beyond(MAX_EXP_ARGUMENT, "sinh"), _tail(lambda s: 2 * s, 2, False)),
    "cosh": Guard(_beyond(MAX_EXP_ARGUMENT, "cosh"), _tail(lambda s: 2 * s, 2, False)),
    "tanh": Guard(_none, _tail(lambda s: 2 * s, 2, False), _sign_limit),
    "sigmoid": Guard(
        _beyond(MAX_EXP_ARGUMENT, "sigmoid", below_only=True),
        _tail(lambda s: s, 1, True),
        _upper_limit,
    ),
    "softplus": Guard(
        _beyond(MAX_EXP_ARGUMENT, "softplus", below_only=True),
        _tail(lambda s: s + math.log(s), 1, True),
        _identity_limit,
    ),
    "erf": Guard(_none, _tail(lambda s: s * s, 2, False), _sign_limit),
    "Phi": Guard(
        _beyond(MAX_PHI_TAIL, "Phi", below_only=True),
        _tail(lambda s: s * s / 2, 1, True),
        _upper_limit,
    ),
    "sin": Guard(_trig_reach("sin"), _near_zero(2)),
    "cos": Guard(_trig_reach("cos"), _near_zero(2)),
    "tan": Guard(_trig_reach("tan"), _near_zero(2)),
    "binom": Guard(_binom_reach, lambda n, k: 0.0),
}


def power_hidden(base: Any, exponent: Any) -> float:
    """Hidden digits of ``base^exponent`` when it is within a hair of 1 (``2^(10^-40)``)."""
    if not base or base < 0 or not exponent or base == 1:
        return 0.0
    if abs(exponent) >= 1 and abs(mpmath.mag(base) - 0.5) > 1:
        return 0.0  # |exponent * log(base)| is above 1/2: nothing hidden (no log computed)
    with mpmath.workdps(15):
        log_size = abs(exponent) * abs(mpmath.log(base))
    if log_size >= 1 or not log_size:
        return 0.0
    return -_log10_abs(log_size)
