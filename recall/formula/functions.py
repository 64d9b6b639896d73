"""The builtin functions a learner may type, with their real-valued definitions.

Each builtin knows its arity and how to evaluate in float64 (``math``) and in arbitrary
precision (``mpmath``). Evaluation is over the reals: outside a function's real domain the
result is *undefined* (``None``), never a complex number, because a formula card's variables are
real and "defined here, undefined there" is itself something the checker must notice.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import mpmath

from recall.formula.reach import GUARDS

Undefined = None


@dataclass(frozen=True)
class Builtin:
    """A builtin function: arity bounds and evaluators (each returns ``None`` where undefined).

    ``reach`` is the guard every builtin has (:mod:`recall.formula.reach`): it looks at the
    arguments before anything is computed and says why they are out of reach (an argument so
    large that computing the value would take unbounded time), or ``None``. ``hidden`` says how
    many leading digits of the value hide its difference from a simple number: ``tanh(50)`` is
    ``1 - 7.4e-44``, so it needs 44 digits before it can be told from 1.
    """

    name: str
    min_args: int
    max_args: int
    real: Callable[..., float | None]
    mp: Callable[..., Any]
    summary: str
    reach: Callable[..., str | None] = field(default=lambda *args: None)
    hidden: Callable[..., float] = field(default=lambda *args: 0.0)
    saturated: Callable[..., Any] | None = None


def _safe(fn: Callable[..., float]) -> Callable[..., float | None]:
    def wrapped(*args: float) -> float | None:
        try:
            value = fn(*args)
        except OverflowError:
            return math.inf  # too big for float64, not undefined: mpmath decides
        except (ValueError, ZeroDivisionError):
            return None
        if isinstance(value, complex) or value != value:  # NaN
            return None
        return value

    return wrapped


def _log(x):
    return math.log(x) if x > 0 else None


def _sqrt(x):
    return math.sqrt(x) if x >= 0 else None


def _sigmoid(x):
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def _softplus(x):
    if x > 30:
        return x + math.log1p(math.exp(-x))
    return math.log1p(math.exp(x))


def _phi(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _binom(n, k):
    if float(n).is_integer() and float(k).is_integer():
        n, k = int(n), int(k)
        if n < 0 or k < 0 or k > n:
            return 0.0 if n >= 0 else None
        if n > 10_000:
            raise OverflowError("left to arbitrary precision")
        return float(math.comb(n, k))
    if n - k + 1 <= 0 and float(n - k + 1).is_integer():
        return None
    return math.gamma(n + 1) / (math.gamma(k + 1) * math.gamma(n - k + 1))


def _mp_log(x):
    return mpmath.log(x) if x > 0 else None


def _mp_sqrt(x):
    return mpmath.sqrt(x) if x >= 0 else None


def _mp_binom(n, k):
    if mpmath.isint(n) and mpmath.isint(k):
        if n < 0 or k < 0 or k > n:
            return mpmath.mpf(0) if n >= 0 else None
    return mpmath.binomial(n, k)


def _mp_sigmoid(x):
    """Accurate on both tails: ``1/(1 + e^-x)`` for x >= 0, ``e^x/(1 + e^x)`` below."""
    if x >= 0:
        return 1 / (1 + mpmath.exp(-x))
    z = mpmath.exp(x)
    return z / (1 + z)


def _mp_softplus(x):
    """``log(1 + e^x)`` without losing the tail: ``log1p(e^x)``, or ``x + log1p(e^-x)``."""
    if x > 0:
        return x + mpmath.log1p(mpmath.exp(-x))
    return mpmath.log1p(mpmath.exp(x))


def _mp_safe(fn):
    def wrapped(*args):
        try:
            value = fn(*args)
        except (ValueError, ZeroDivisionError, OverflowError):
            return None
        if value is None:
            return None
        if isinstance(value, mpmath.mpc) or mpmath.isnan(value) or mpmath.isinf(value):
            return None
        return value

    return wrapped


def _builtin(name, lo, hi, real, mp, summary):
    guard = GUARDS.get(name)
    if guard is None:
        return Builtin(name, lo, hi, _safe(real), _mp_safe(mp), summary)
    return Builtin(
        name,
        lo,
        hi,
        _safe(real),
        _mp_safe(mp),
        summary,
        reach=guard.reach,
        hidden=guard.hidden,
        saturated=guard.saturated,
    )


BUILTINS: dict[str, Builtin] = {
    b.name: b
    for b in [
        _builtin("exp", 1, 1, math.exp, mpmath.exp, "exponential"),
        _builtin("log", 1, 1, _log, _mp_log, "natural logarithm"),
        _builtin(
            "log2",
            1,
            1,
            lambda x: math.log2(x) if x > 0 else None,
            lambda x: mpmath.log(x, 2) if x > 0 else None,
            "base-2 logarithm",
        ),
        _builtin(
            "log10",
            1,
            1,
            lambda x: math.log10(x) if x > 0 else None,
            lambda x: mpmath.log10(x) if x > 0 else None,
            "base-10 logarithm",
        ),
        _builtin("sqrt", 1, 1, _sqrt, _mp_sqrt, "square root"),
        _builtin("abs", 1, 1, abs, abs, "absolute value"),
        _builtin("sin", 1, 1, math.sin, mpmath.sin, "sine"),
        _builtin("cos", 1, 1, math.cos, mpmath.cos, "cosine"),
        _builtin("tan", 1, 1, math.tan, mpmath.tan, "tangent"),
        _builtin("sinh", 1, 1, math.sinh, mpmath.sinh, "hyperbolic sine"),
        _builtin("cosh", 1, 1, math.cosh, mpmath.cosh, "hyperbolic cosine"),
        _builtin("tanh", 1, 1, math.tanh, mpmath.tanh, "hyperbolic tangent"),
        _builtin("sigmoid", 1, 1, _sigmoid, _mp_sigmoid, "logistic sigmoid"),
        _builtin("softplus", 1, 1, _softplus, _mp_softplus, "softplus"),
        _builtin("erf", 1, 1, math.erf, mpmath.erf, "error function"),
        _builtin("Phi", 1, 1, _phi, mpmath.ncdf, "standard normal CDF"),
        _builtin("relu", 1, 1, lambda x: max(0.0, x), lambda x: max(mpmath.mpf(0), x), "rectifier"),
        _builtin("min", 2, 16, min, min, "minimum"),
        _builtin("max", 2, 16, max, max, "maximum"),
        _builtin("binom", 2, 2, _binom, _mp_binom, "binomial coefficient"),
        _builtin(
            "sign",
            1,
            1,
            lambda x: float((x > 0) - (x < 0)),
            lambda x: mpmath.sign(x),
            "sign (-1, 0 or 1)",
        ),
    ]
}

#: Other spellings a learner may type for a builtin.
ALIASES: dict[str, str] = {
    "ln": "log",
    "Exp": "exp",
    "Log": "log",
    "choose": "binom",
    # a logarithm's base as a subscript, as the screen shows it: log₂(i + 1), log_10 x
    "log_2": "log2",
    "log_10": "log10",
    "log_e": "log",
}


def resolve_builtin(name: str) -> str | None:
    """The canonical builtin for a typed function name, or ``None``."""
    if name in BUILTINS:
        return name
    return ALIASES.get(name)
