"""Build and verify ``tests/data/exactness_corpus.jsonl`` without the formula engine.

Usage::

    python tests/data/exactness_corpus_build.py          # rewrite the corpus file
    python tests/data/exactness_corpus_build.py --check  # verify it, change nothing

Every case is written twice: as the text a learner types (what the engine grades) and as Python
functions over :mod:`mpmath` (what this script evaluates). The script never imports ``recall``:
each verdict comes from mathematics done here, independently of the engine under test.

How a verdict is decided:

* **rational** (tolerance cases): both numbers are exact fractions, and the inclusive bound
  ``|answer - reference| <= tolerance * |reference|`` is decided in :class:`fractions.Fraction`;
* **two precisions** (everything else): both sides are evaluated at sample points of each
  variable's domain at two working precisions (``digits`` and twice that). Equal means the
  difference is below the rounding left at *both* precisions; different means it is above it at
  both, with the same leading digits. Anything in between stops the build: a case must be
  decidable, or it does not go in. A case whose difference is far below any practical precision
  (``x - x*tanh(10^6)``) gives the difference itself as a cancellation-free closed form
  (``x * 2/(e^(2*10^6) + 1)``), evaluated the same way;
* **bounds** (arguments out of reach): the engine's documented contract (sin, cos, tan of more
  than 10^300; exp, sinh, cosh of more than 10^8 in size; the exponential tails of sigmoid,
  softplus and Phi; binom past 10^6) makes the answer *invalid*; the script checks that the
  argument, computed here, is past that bound.

Sections (at least 15 cases each, some correct and some not): ``exactness/saturation``,
``exactness/constant-reference``, ``exactness/tolerance``, ``exactness/bounds``,
``exactness/hard-constants``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import mpmath
from mpmath import mpf

OUT = Path(__file__).with_name("exactness_corpus.jsonl")
POINTS = 8
BASE_DIGITS = 60

# The engine's documented bounds (recall/formula/reach.py); here only to check that an
# "invalid" case really is past them.
TRIG_LOG10 = 300
EXP_ARGUMENT = 10**8
PHI_TAIL = 10**4
BINOM_ARGUMENT = 10**6


def sigmoid(x: Any) -> Any:
    return 1 / (1 + mpmath.exp(-x)) if x >= 0 else mpmath.exp(x) / (1 + mpmath.exp(x))


def softplus(x: Any) -> Any:
    return x + mpmath.log1p(mpmath.exp(-x)) if x > 0 else mpmath.log1p(mpmath.exp(x))


def phi(x: Any) -> Any:
    return mpmath.ncdf(x)


def real_sqrt(x: Any) -> Any:
    if x < 0:
        raise ValueError("undefined")
    return mpmath.sqrt(x)


def real_log(x: Any) -> Any:
    if x <= 0:
        raise ValueError("undefined")
    return mpmath.log(x)


@dataclass
class Case:
    """One corpus line and the functions that decide it."""

    id: str
    section: str
    expected: str
    answer: str
    why: str
    ref: Callable[..., Any] | None = None
    ans: Callable[..., Any] | None = None
    #: ``ref - ans`` in a form without cancellation, for differences below any precision.
    diff: Callable[..., Any] | None = None
    variables: dict[str, str] = field(default_factory=dict)
    tolerance: str | None = None
    digits: int = BASE_DIGITS
    #: The size of the terms that cancel, when a side is a cancelling sum (sin^2 + cos^2 - 1
    #: is rounding noise next to 1, not a value of its own).
    floor: int = 0
    #: For "invalid" cases: the out-of-reach argument, its function, and the rule's words.
    bound: tuple[str, Callable[[], Any]] | None = None
    #: For "invalid" cases that use an undeclared name.
    undeclared: str | None = None


def sample(domain: str, rng: random.Random, index: int) -> Any:
    """A point of ``domain`` (the engine's domain words), as an exact decimal mpf."""
    domain = domain.strip()
    if domain in ("real", "positive", "nonnegative"):
        size = [0.3, 1.7, 4.5, 12.0][index % 4] * rng.uniform(0.9, 1.1)
        negative = domain == "real" and index % 2 == 1
        value = -size if negative else size
    elif domain.startswith("(") or domain.startswith("["):
        low_text, high_text = domain[1:-1].split(",")
        low, high = float(low_text), float(high_text)
        if high / max(low, 1e-300) > 1e3 and low > 0:
            value = 10 ** rng.uniform(math.log10(low) + 0.01, math.log10(high) - 0.01)
        else:
            value = low + (high - low) * rng.uniform(0.02, 0.98)
    else:
        raise ValueError(f"no sampler for domain {domain!r}")
    return mpf(Fraction(f"{value:.6g}").numerator) / Fraction(f"{value:.6g}").denominator


def _evaluate(fn: Callable[..., Any], point: dict[str, Any]) -> Any:
    try:
        value = fn(**point)
    except (ValueError, ZeroDivisionError):
        return None
    if isinstance(value, mpmath.mpc):
        return None if value.imag else value.real
    return mpf(value)


def _difference(case: Case, point: dict[str, Any], digits: int) -> tuple[Any, Any] | None:
    """``(difference, scale)`` at ``digits``; ``None`` where either side is undefined (only
    one side undefined is reported as a difference of ``inf``)."""
    with mpmath.workdps(digits):
        exact_point = {k: +v for k, v in point.items()}
        if case.diff is not None:
            # A closed form carries its own relative precision however tiny it is.
            d = _evaluate(case.diff, exact_point)
            return None if d is None else (d, abs(d) if d else mpf(1))  # type: ignore[return-value]
        assert case.ref is not None and case.ans is not None
        e, a = _evaluate(case.ref, exact_point), _evaluate(case.ans, exact_point)
        if e is None and a is None:
            return None
        if e is None or a is None:
            return mpmath.inf, mpf(1)
        return e - a, max(abs(e), abs(a), mpf(case.floor), mpf(1) if e == a == 0 else abs(e))


def decide_two_precisions(case: Case) -> str:
    """``correct`` or ``incorrect`` from both precisions; raises if they disagree or cannot
    tell."""
    rng = random.Random(case.id)
    names = sorted(case.variables)
    points = [
        {n: sample(case.variables[n], rng, i + position) for position, n in enumerate(names)}
        for i in range(POINTS if names else 1)
    ]
    verdicts = []
    for point in points:
        at_low = _difference(case, point, case.digits)
        at_high = _difference(case, point, 2 * case.digits)
        if at_low is None or at_high is None:
            continue
        (d1, s1), (d2, s2) = at_low, at_high
        if d1 == mpmath.inf or d2 == mpmath.inf:
            verdicts.append("incorrect")
            continue
        noise_low = mpf(10) ** (20 - case.digits) * s1
        noise_high = mpf(10) ** (20 - 2 * case.digits) * s2
        if abs(d1) <= noise_low and abs(d2) <= noise_high:
            verdicts.append("correct")
        elif abs(d1) > noise_low and abs(d2) > noise_high:
            with mpmath.workdps(2 * case.digits):
                if case.diff is not None:
                    # A closed form that is nonzero by construction: the same sign at both
                    # precisions is enough (exp(10^9999) is not accurate to 40 digits, but it
                    # is positive).
                    if (d1 > 0) != (d2 > 0):
                        raise ValueError(f"{case.id}: the closed form changed sign")
                elif abs(d1 - d2) > abs(d2) * mpf(10) ** -5:
                    raise ValueError(f"{case.id}: the difference moved with the precision")
            verdicts.append("incorrect")
        else:
            raise ValueError(f"{case.id}: undecidable at {point} ({d1} vs {d2})")
    if not verdicts:
        raise ValueError(f"{case.id}: undefined everywhere it was sampled")
    return "incorrect" if "incorrect" in verdicts else "correct"


def _fraction(text: str) -> Fraction:
    """A typed number as a fraction: decimals, ``p/q``, and ``10^k``."""
    if "^" in text:
        base, exponent = text.split("^")
        return Fraction(base) ** int(exponent)
    return Fraction(text)


def decide_rational(case: Case) -> str:
    reference, answer = _fraction(case.expected_value), _fraction(case.answer_value)
    tolerance = Fraction(case.tolerance)
    return "correct" if abs(answer - reference) <= tolerance * abs(reference) else "incorrect"


def decide(case: Case) -> tuple[str, str]:
    """``(verdict, how it was verified)``."""
    if case.undeclared is not None:
        if case.undeclared in case.variables:
            raise ValueError(f"{case.id}: {case.undeclared} is declared")
        return "invalid", f"rule: the answer uses {case.undeclared}, which is not declared"
    if case.bound is not None:
        rule, argument = case.bound
        with mpmath.workdps(30):
            size = abs(argument())
            log10 = float(mpmath.log10(size)) if size else -math.inf
        limits = {
            "trig": TRIG_LOG10,
            "exp": math.log10(EXP_ARGUMENT),
            "phi": math.log10(PHI_TAIL),
            "binom": math.log10(BINOM_ARGUMENT),
        }
        if not log10 > limits[rule]:
            raise ValueError(f"{case.id}: argument 10^{log10:.1f} is within the {rule} bound")
        return "invalid", f"rule: {rule} argument of 10^{log10:.0f} is past the documented bound"
    if hasattr(case, "expected_value"):
        return decide_rational(case), "exact rational arithmetic (fractions.Fraction)"
    verdict = decide_two_precisions(case)
    how = f"mpmath at {case.digits} and {2 * case.digits} digits"
    if case.diff is not None:
        how += " on a closed form of the difference"
    return verdict, how


def line(case: Case) -> dict[str, Any]:
    verdict, how = decide(case)
    out: dict[str, Any] = {
        "id": case.id,
        "section": case.section,
        "expected": case.expected,
        "answer": case.answer,
        "vars": case.variables,
        "funcs": [],
    }
    if case.tolerance is not None:
        out["tolerance"] = float(case.tolerance)
    out.update(verdict=verdict, why=case.why, verified=how)
    return out


# -- the cases ---------------------------------------------------------------------------------
E = mpmath.exp
X = {"x": "real"}


def sat(i: int, expected: str, answer: str, why: str, **kw: Any) -> Case:
    return Case(f"exact-saturation-{i:02d}", "exactness/saturation", expected, answer, why, **kw)


SATURATION = [
    sat(
        1,
        "1",
        "tanh(50)",
        "tanh(50) = 1 - 7.4e-44",
        ref=lambda: 1,
        ans=lambda: mpmath.tanh(50),
        digits=100,
    ),
    sat(
        2,
        "1",
        "sigmoid(1000)",
        "1 - sigmoid(1000) = sigmoid(-1000) > 0",
        diff=lambda: 1 / (1 + E(1000)),
    ),
    sat(3, "1", "erf(100)", "1 - erf(100) = erfc(100) > 0", diff=lambda: mpmath.erfc(100)),
    sat(
        4,
        "0",
        "softplus(-1000)",
        "softplus(-1000) = log1p(e^-1000) > 0",
        diff=lambda: -mpmath.log1p(E(-1000)),
    ),
    sat(
        5,
        "x",
        "x*tanh(10^6)",
        "x - x tanh(y) = 2x/(e^(2y)+1), nonzero for x != 0",
        diff=lambda x: x * 2 / (E(2 * 10**6) + 1),
        variables=X,
    ),
    sat(
        6,
        "1",
        "tanh(100*x)",
        "1 - tanh(100x) = 2/(e^(200x)+1) > 0",
        diff=lambda x: 2 / (E(200 * x) + 1),
        variables={"x": "(0.5, 3)"},
    ),
    sat(
        7,
        "1",
        "sigmoid(100*x)",
        "1 - sigmoid(100x) = 1/(1+e^(100x)) > 0",
        diff=lambda x: 1 / (1 + E(100 * x)),
        variables={"x": "(0.5, 3)"},
    ),
    sat(8, "1", "Phi(40)", "1 - Phi(40) = Phi(-40) > 0", diff=lambda: mpmath.ncdf(-40)),
    sat(9, "-1", "tanh(-30)", "tanh(-30) = -1 + 2/(e^60+1)", diff=lambda: -2 / (E(60) + 1)),
    sat(
        10,
        "1",
        "erf(x)",
        "1 - erf(x) = erfc(x) > 0",
        diff=lambda x: mpmath.erfc(x),
        variables={"x": "(10, 20)"},
    ),
    sat(
        11,
        "x",
        "softplus(x)",
        "softplus(x) - x = log1p(e^-x) > 0",
        diff=lambda x: -mpmath.log1p(E(-x)),
        variables={"x": "(100, 200)"},
    ),
    sat(12, "0", "exp(-1000)", "e^-1000 > 0", ref=lambda: 0, ans=lambda: E(-1000)),
    sat(13, "1", "1 - exp(-1000)", "differs by e^-1000", diff=lambda: E(-1000)),
    sat(
        14,
        "10^-20",
        "sin(10^-20)",
        "sin(t) - t = -t^3/6 + ...",
        ref=lambda: mpf(10) ** -20,
        ans=lambda: mpmath.sin(mpf(10) ** -20),
        digits=120,
    ),
    sat(
        15,
        "1",
        "cos(10^-12)",
        "1 - cos(t) = 2 sin(t/2)^2 > 0",
        diff=lambda: 2 * mpmath.sin(mpf(10) ** -12 / 2) ** 2,
    ),
    sat(
        16,
        "1",
        "sigmoid(10^9999)",
        "1 - sigmoid(y) = 1/(1+e^y) > 0 for every real y",
        diff=lambda: 1 / (1 + E(mpf(10) ** 9999)),
        digits=40,
    ),
    sat(
        17,
        "1",
        "tanh(10^999)",
        "1 - tanh(y) = 2/(e^(2y)+1) > 0",
        diff=lambda: 2 / (E(2 * mpf(10) ** 999) + 1),
        digits=40,
    ),
    sat(
        18,
        "1 - tanh(x)^2",
        "1/cosh(x)^2",
        "the identity sech^2 = 1 - tanh^2",
        ref=lambda x: 1 - mpmath.tanh(x) ** 2,
        ans=lambda x: 1 / mpmath.cosh(x) ** 2,
        variables=X,
    ),
    sat(
        19,
        "sigmoid(x)",
        "1/(1 + exp(-x))",
        "the definition",
        ref=sigmoid,
        ans=lambda x: 1 / (1 + E(-x)),
        variables=X,
    ),
    sat(
        20,
        "1 - sigmoid(x)",
        "sigmoid(-x)",
        "sigmoid's symmetry",
        ref=lambda x: 1 - sigmoid(x),
        ans=lambda x: sigmoid(-x),
        variables=X,
    ),
    sat(
        21,
        "tanh(x)",
        "2*sigmoid(2*x) - 1",
        "tanh through the sigmoid",
        ref=lambda x: mpmath.tanh(x),
        ans=lambda x: 2 * sigmoid(2 * x) - 1,
        variables=X,
    ),
    sat(
        22,
        "erf(x)",
        "2*Phi(x*sqrt(2)) - 1",
        "erf through the normal CDF",
        ref=lambda x: mpmath.erf(x),
        ans=lambda x: 2 * phi(x * mpmath.sqrt(2)) - 1,
        variables=X,
    ),
    sat(
        23,
        "tanh(50)",
        "1 - 2/(exp(100) + 1)",
        "tanh(y) = 1 - 2/(e^(2y)+1), exactly",
        ref=lambda: mpmath.tanh(50),
        ans=lambda: 1 - 2 / (E(100) + 1),
        digits=100,
    ),
    sat(
        24,
        "sigmoid(30)",
        "1/(1 + exp(-30))",
        "the definition at a saturated point",
        ref=lambda: sigmoid(mpf(30)),
        ans=lambda: 1 / (1 + E(-30)),
    ),
    sat(
        25,
        "log(sigmoid(x))",
        "-softplus(-x)",
        "log-sigmoid",
        ref=lambda x: mpmath.log(sigmoid(x)),
        ans=lambda x: -softplus(-x),
        variables=X,
    ),
    sat(
        26,
        "1",
        "2^(10^-30)",
        "2^t = 1 + t ln 2 + ... > 1",
        diff=lambda: -mpmath.expm1(mpf(10) ** -30 * mpmath.log(2)),
    ),
    sat(
        27,
        "1 - tanh(x)",
        "1 - tanh(x)^2",
        "agree only at x = 0",
        ref=lambda x: 1 - mpmath.tanh(x),
        ans=lambda x: 1 - mpmath.tanh(x) ** 2,
        variables=X,
    ),
]


def const(i: int, expected: str, answer: str, why: str, **kw: Any) -> Case:
    return Case(
        f"exact-constant-ref-{i:02d}", "exactness/constant-reference", expected, answer, why, **kw
    )


CONSTANT_REFERENCE = [
    const(
        1,
        "1",
        "cos(x)^2 + sin(x)^2",
        "Pythagoras",
        ref=lambda x: 1,
        ans=lambda x: mpmath.cos(x) ** 2 + mpmath.sin(x) ** 2,
        variables=X,
    ),
    const(
        2,
        "1",
        "x/x",
        "x is never 0 on (0.2, 3)",
        ref=lambda x: 1,
        ans=lambda x: x / x,
        variables={"x": "(0.2, 3)"},
    ),
    const(3, "0", "x - x", "zero for every x", ref=lambda x: 0, ans=lambda x: x - x, variables=X),
    const(
        4,
        "2",
        "2*log(exp(y))/y",
        "log(e^y) = y",
        ref=lambda y: 2,
        ans=lambda y: 2 * mpmath.log(E(y)) / y,
        variables={"y": "positive"},
    ),
    const(
        5,
        "1",
        "cos(x)^2 - sin(x)^2",
        "that is cos(2x)",
        ref=lambda x: 1,
        ans=lambda x: mpmath.cos(x) ** 2 - mpmath.sin(x) ** 2,
        variables=X,
    ),
    const(
        6, "2", "x + 1", "equal only at x = 1", ref=lambda x: 2, ans=lambda x: x + 1, variables=X
    ),
    const(7, "1", "x/x", "no variable is declared", undeclared="x"),
    const(8, "1", "y/y", "only x is declared", undeclared="y", variables=X),
    const(
        9,
        "1/2",
        "sigmoid(x) + sigmoid(-x) - 1/2",
        "sigmoid(x) + sigmoid(-x) = 1",
        ref=lambda x: mpf(1) / 2,
        ans=lambda x: sigmoid(x) + sigmoid(-x) - mpf(1) / 2,
        variables=X,
    ),
    const(
        10,
        "log(2)",
        "log(2*x) - log(x)",
        "log of a ratio",
        ref=lambda x: mpmath.log(2),
        ans=lambda x: mpmath.log(2 * x) - mpmath.log(x),
        variables={"x": "positive"},
    ),
    const(
        11,
        "1",
        "exp(x)*exp(-x)",
        "e^x e^-x = 1",
        ref=lambda x: 1,
        ans=lambda x: E(x) * E(-x),
        variables=X,
    ),
    const(
        12,
        "1",
        "tanh(x)^2 + 1/cosh(x)^2",
        "tanh^2 + sech^2 = 1",
        ref=lambda x: 1,
        ans=lambda x: mpmath.tanh(x) ** 2 + 1 / mpmath.cosh(x) ** 2,
        variables=X,
    ),
    const(
        13,
        "pi",
        "x*pi/x",
        "x cancels",
        ref=lambda x: mpmath.pi,
        ans=lambda x: x * mpmath.pi / x,
        variables={"x": "positive"},
    ),
    const(
        14,
        "1",
        "sqrt(x^2)/x",
        "-1 for negative x",
        ref=lambda x: 1,
        ans=lambda x: mpmath.sqrt(x**2) / x,
        variables=X,
    ),
    const(
        15,
        "1",
        "abs(x)/x",
        "x is positive",
        ref=lambda x: 1,
        ans=lambda x: abs(x) / x,
        variables={"x": "positive"},
    ),
    const(
        16,
        "1",
        "abs(x)/x",
        "-1 for negative x",
        ref=lambda x: 1,
        ans=lambda x: abs(x) / x,
        variables=X,
    ),
    const(
        17,
        "0",
        "sin(x)^2 + cos(x)^2 - 1",
        "Pythagoras",
        ref=lambda x: 0,
        ans=lambda x: mpmath.sin(x) ** 2 + mpmath.cos(x) ** 2 - 1,
        variables=X,
        floor=1,
    ),
    const(
        18,
        "6",
        "binom(4, 2)*x/x",
        "x cancels",
        ref=lambda x: 6,
        ans=lambda x: mpmath.binomial(4, 2) * x / x,
        variables={"x": "positive"},
    ),
    const(
        19,
        "1",
        "(1 + x)/(1 + x)",
        "1 + x > 0",
        ref=lambda x: 1,
        ans=lambda x: (1 + x) / (1 + x),
        variables={"x": "positive"},
    ),
    const(
        20,
        "1",
        "z/z",
        "z declared and positive",
        ref=lambda x, z: 1,
        ans=lambda x, z: z / z,
        variables={"x": "real", "z": "positive"},
    ),
    const(21, "1", "q", "q is not declared", undeclared="q", variables=X),
    const(
        22,
        "0",
        "log(x)",
        "zero only at x = 1",
        ref=lambda x: 0,
        ans=lambda x: mpmath.log(x),
        variables={"x": "positive"},
    ),
]


def tol(i: int, expected: str, answer: str, tolerance: str, why: str) -> Case:
    case = Case(
        f"exact-tolerance-{i:02d}",
        "exactness/tolerance",
        expected,
        answer,
        why,
        tolerance=tolerance,
    )
    case.expected_value = expected  # type: ignore[attr-defined]
    case.answer_value = answer  # type: ignore[attr-defined]
    return case


def tol_mp(i: int, expected: str, answer: str, tolerance: str, why: str, ref: Callable) -> Case:
    """A tolerance case with an irrational reference: decided at two precisions on the
    distance to the bound (never near zero, so it is decidable)."""
    bound = mpf(Fraction(tolerance).numerator) / Fraction(tolerance).denominator
    typed = mpf(Fraction(answer).numerator) / Fraction(answer).denominator

    def over(ref: Callable = ref) -> Any:  # > 0 when outside the tolerance
        return abs(typed - ref()) - bound * abs(ref())

    case = Case(
        f"exact-tolerance-{i:02d}",
        "exactness/tolerance",
        expected,
        answer,
        why,
        tolerance=tolerance,
    )
    case.ref, case.ans = (lambda: 0), (lambda: 0)
    case.over = over  # type: ignore[attr-defined]
    return case


TOLERANCE = [
    tol(1, "1", "1.05", "0.05", "exactly on the boundary, which is included"),
    tol(2, "1", "0.95", "0.05", "exactly on the lower boundary"),
    tol(3, "1", "1.0500001", "0.05", "just past the boundary"),
    tol(4, "1", "0.9499999", "0.05", "just below the lower boundary"),
    tol(5, "100", "101", "0.01", "on the boundary"),
    tol(6, "100", "101.0000001", "0.01", "just past"),
    tol(7, "0.3", "0.33", "0.1", "0.3 * 1.1 = 0.33 exactly (in binary floats it is not)"),
    tol(8, "0.3", "0.27", "0.1", "0.3 * 0.9 = 0.27 exactly"),
    tol(9, "0.7", "0.77", "0.1", "on the boundary"),
    tol(10, "0.7", "0.63", "0.1", "on the lower boundary"),
    tol(11, "0.1", "0.11", "0.1", "on the boundary (0.1 * 1.1 is 0.11000000000000001 in floats)"),
    tol(12, "0.1", "0.1100000001", "0.1", "just past"),
    tol(13, "3", "3.3", "0.1", "on the boundary"),
    tol(14, "2.675", "2.80875", "0.05", "2.675 * 1.05 = 2.80875 exactly"),
    tol(15, "1/3", "0.35", "0.05", "1/3 * 1.05 = 0.35 exactly"),
    tol(16, "1/3", "0.3500001", "0.05", "just past"),
    tol(17, "1/3", "0.3166666", "0.05", "1/3 * 0.95 = 0.31666..., and 0.3166666 is below it"),
    tol(18, "6.4e9", "6.464e9", "0.01", "on the boundary"),
    tol(19, "10^400", "1.01e400", "0.01", "on the boundary, far outside float range"),
    tol(20, "0", "0", "0.05", "zero is within any tolerance of zero"),
    tol(21, "0", "0.0001", "0.05", "a relative tolerance of zero admits only zero"),
    tol_mp(22, "pi", "3.3", "0.05", "pi * 1.05 = 3.2987 < 3.3", lambda: mpmath.pi),
    tol_mp(23, "pi", "3.2986", "0.05", "inside: pi * 1.05 = 3.29867", lambda: mpmath.pi),
    tol_mp(24, "sqrt(2)", "1.4849", "0.05", "sqrt(2) * 1.05 = 1.48492", lambda: mpmath.sqrt(2)),
    tol_mp(25, "sqrt(2)", "1.485", "0.05", "just past 1.48492", lambda: mpmath.sqrt(2)),
]


def bound(i: int, expected: str, answer: str, why: str, **kw: Any) -> Case:
    return Case(f"exact-bounds-{i:02d}", "exactness/bounds", expected, answer, why, **kw)


BIG = mpf(10) ** 9999
BOUNDS = [
    bound(
        1,
        "x",
        "sin(10^9999)",
        "trig argument past 10^300",
        bound=("trig", lambda: BIG),
        variables=X,
    ),
    bound(
        2,
        "x",
        "cos(-10^9999)",
        "trig argument past 10^300",
        bound=("trig", lambda: -BIG),
        variables=X,
    ),
    bound(
        3,
        "x",
        "tan(x*10^9999)",
        "trig argument past 10^300 wherever x is not tiny",
        bound=("trig", lambda: BIG),
        variables=X,
    ),
    bound(
        4,
        "x",
        "sin(10^999)",
        "trig argument past 10^300",
        bound=("trig", lambda: mpf(10) ** 999),
        variables=X,
    ),
    bound(
        5,
        "x",
        "exp(10^999)",
        "exp argument past 10^8",
        bound=("exp", lambda: mpf(10) ** 999),
        variables=X,
    ),
    bound(
        6, "x", "exp(-10^9999)", "exp argument past 10^8", bound=("exp", lambda: -BIG), variables=X
    ),
    bound(
        7, "x", "sinh(10^9999)", "sinh argument past 10^8", bound=("exp", lambda: BIG), variables=X
    ),
    bound(
        8,
        "x",
        "cosh(x*10^9999)",
        "cosh argument past 10^8",
        bound=("exp", lambda: BIG),
        variables=X,
    ),
    bound(
        9,
        "x",
        "sigmoid(-10^9999)",
        "sigmoid's exponential tail past 10^8",
        bound=("exp", lambda: -BIG),
        variables=X,
    ),
    bound(
        10,
        "x",
        "softplus(-10^9999)",
        "softplus's exponential tail past 10^8",
        bound=("exp", lambda: -BIG),
        variables=X,
    ),
    bound(
        11,
        "x",
        "Phi(-10^9999)",
        "Phi's lower tail past 10^4",
        bound=("phi", lambda: -BIG),
        variables=X,
    ),
    bound(
        12,
        "x",
        "binom(10^999, 2)",
        "binom past 10^6",
        bound=("binom", lambda: mpf(10) ** 999),
        variables=X,
    ),
    bound(
        13,
        "1",
        "sin(10^10000)",
        "trig argument past 10^300",
        bound=("trig", lambda: mpf(10) ** 10000),
    ),
    bound(
        14,
        "x",
        "tan(10^9999)*x",
        "trig argument past 10^300",
        bound=("trig", lambda: BIG),
        variables=X,
    ),
    # Computable however large: graded, and wrong.
    bound(
        15,
        "x",
        "tanh(10^9999)",
        "|tanh| < 1 while x ranges over the reals",
        ref=lambda x: x,
        ans=lambda x: mpmath.tanh(BIG),
        variables=X,
        digits=40,
    ),
    bound(
        16,
        "x",
        "erf(-10^9999)",
        "erf is -1 to countless digits, x is not",
        ref=lambda x: x,
        ans=lambda x: mpmath.erf(-BIG),
        variables=X,
        digits=40,
    ),
    bound(
        17,
        "x",
        "sigmoid(10^9999)",
        "sigmoid below 1, x unbounded",
        ref=lambda x: x,
        ans=lambda x: 1 - 1 / (1 + E(BIG)),
        variables=X,
        digits=40,
    ),
    bound(
        18,
        "x",
        "log(10^9999)",
        "a constant, 23025.85...",
        ref=lambda x: x,
        ans=lambda x: mpmath.log(BIG),
        variables=X,
        digits=40,
    ),
    bound(
        19,
        "x",
        "log10(-10^9999)",
        "undefined over the reals",
        ref=lambda x: x,
        ans=lambda x: real_log(-BIG),
        variables=X,
        digits=40,
    ),
    bound(
        20,
        "x",
        "sqrt(-10^9999)",
        "undefined over the reals",
        ref=lambda x: x,
        ans=lambda x: real_sqrt(-BIG),
        variables=X,
        digits=40,
    ),
    bound(
        21,
        "x",
        "abs(x*10^9999)",
        "10^9999 times too large",
        ref=lambda x: x,
        ans=lambda x: abs(x * BIG),
        variables=X,
        digits=40,
    ),
    bound(
        22, "x", "relu(-10^9999)", "zero", ref=lambda x: x, ans=lambda x: 0, variables=X, digits=40
    ),
    bound(
        23,
        "1",
        "sigmoid(10^9999)",
        "1 - sigmoid(y) = 1/(1+e^y) > 0",
        diff=lambda: 1 / (1 + E(BIG)),
        digits=40,
    ),
]


def hard(i: int, expected: str, answer: str, why: str, **kw: Any) -> Case:
    return Case(f"exact-hard-{i:02d}", "exactness/hard-constants", expected, answer, why, **kw)


PI = mpmath.pi
C = {"C": "(1e18, 1e24)"}
ND = {"N": "(1e9, 1e12)", "D": "(1e10, 1e13)"}
HARD = [
    hard(
        1, "1", "1 + cos(pi*0.5)", "cos(pi/2) = 0", ref=lambda: 1, ans=lambda: 1 + mpmath.cospi(0.5)
    ),
    hard(2, "0", "1 + cos(pi)", "cos(pi) = -1", ref=lambda: 0, ans=lambda: 1 + mpmath.cospi(1)),
    hard(3, "1", "sin(pi/2)", "exactly 1", ref=lambda: 1, ans=lambda: mpmath.sinpi(0.5)),
    hard(4, "0", "sin(pi)", "exactly 0", ref=lambda: 0, ans=lambda: mpmath.sinpi(1)),
    hard(
        5,
        "0",
        "cos(pi/2)*x",
        "zero for every x",
        ref=lambda x: 0,
        ans=lambda x: mpmath.cospi(0.5) * x,
        variables=X,
    ),
    hard(6, "1", "cos(2*pi)", "exactly 1", ref=lambda: 1, ans=lambda: mpmath.cospi(2)),
    hard(
        7,
        "1",
        "1 + sin(pi)*x",
        "sin(pi) = 0",
        ref=lambda x: 1,
        ans=lambda x: 1 + mpmath.sinpi(1) * x,
        variables=X,
    ),
    hard(
        8,
        "0",
        "cos(pi*0.5001)",
        "cos(0.5001 pi) = -sin(0.0001 pi) != 0",
        ref=lambda: 0,
        ans=lambda: mpmath.cos(PI * mpf("0.5001")),
    ),
    hard(
        9,
        "1",
        "1 + sin(pi*1.0000001)",
        "sin(pi + 1e-7 pi) != 0",
        ref=lambda: 1,
        ans=lambda: 1 + mpmath.sin(PI * mpf("1.0000001")),
    ),
    hard(
        10,
        "sqrt(C/120)",
        "sqrt(C)/sqrt(120)",
        "the root of a quotient",
        ref=lambda C: mpmath.sqrt(C / 120),
        ans=lambda C: mpmath.sqrt(C) / mpmath.sqrt(120),
        variables=C,
    ),
    hard(
        11,
        "sqrt(C/120)",
        "sqrt(C/12)",
        "off by sqrt(10)",
        ref=lambda C: mpmath.sqrt(C / 120),
        ans=lambda C: mpmath.sqrt(C / 12),
        variables=C,
    ),
    hard(
        12,
        "sqrt(C/120)",
        "sqrt(C)/120",
        "the root is missing from the 120",
        ref=lambda C: mpmath.sqrt(C / 120),
        ans=lambda C: mpmath.sqrt(C) / 120,
        variables=C,
    ),
    hard(
        13,
        "C^(1/3)",
        "C/C^(2/3)",
        "powers of C",
        ref=lambda C: mpmath.cbrt(C),
        ans=lambda C: C / mpmath.cbrt(C) ** 2,
        variables=C,
    ),
    hard(
        14,
        "log(C)",
        "2*log(sqrt(C))",
        "log of a square root",
        ref=lambda C: mpmath.log(C),
        ans=lambda C: 2 * mpmath.log(mpmath.sqrt(C)),
        variables=C,
    ),
    hard(
        15,
        "6*N*D",
        "6*D*N",
        "order of factors",
        ref=lambda N, D: 6 * N * D,
        ans=lambda N, D: 6 * D * N,
        variables=ND,
    ),
    hard(
        16,
        "6*N*D",
        "6*N*D + 1",
        "one more, however large N*D is",
        ref=lambda N, D: 6 * N * D,
        ans=lambda N, D: 6 * N * D + 1,
        variables=ND,
    ),
    hard(17, "1", "C/(C + 1)", "below 1 by 1/(C+1)", diff=lambda C: 1 / (C + 1), variables=C),
    hard(
        18,
        "20*N",
        "2*10*N",
        "the same product",
        ref=lambda N: 20 * N,
        ans=lambda N: 20 * N,
        variables={"N": "(1e9, 1e12)"},
    ),
    hard(
        19,
        "sqrt(C)",
        "C^0.5",
        "a half power",
        ref=lambda C: mpmath.sqrt(C),
        ans=lambda C: C ** mpf("0.5"),
        variables=C,
    ),
    hard(
        20,
        "1",
        "cos(pi/3)*2",
        "cos(pi/3) = 1/2",
        ref=lambda: 1,
        ans=lambda: 2 * mpmath.cospi(mpf(1) / 3),
    ),
]

CASES = SATURATION + CONSTANT_REFERENCE + TOLERANCE + BOUNDS + HARD


def build() -> list[dict[str, Any]]:
    out = []
    for case in CASES:
        if hasattr(case, "over"):
            with mpmath.workdps(BASE_DIGITS):
                low = case.over()
            with mpmath.workdps(2 * BASE_DIGITS):
                high = case.over()
            if (low > 0) != (high > 0) or abs(high) < mpf(10) ** -20:
                raise ValueError(f"{case.id}: too close to the boundary to decide")
            record = line_for_over(case, "incorrect" if high > 0 else "correct")
            out.append(record)
            continue
        out.append(line(case))
    return out


def line_for_over(case: Case, verdict: str) -> dict[str, Any]:
    return {
        "id": case.id,
        "section": case.section,
        "expected": case.expected,
        "answer": case.answer,
        "vars": case.variables,
        "funcs": [],
        "tolerance": float(case.tolerance or 0),
        "verdict": verdict,
        "why": case.why,
        "verified": f"mpmath at {BASE_DIGITS} and {2 * BASE_DIGITS} digits, distance to the bound",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify the file, do not write it")
    args = parser.parse_args(argv)
    lines = build()
    text = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in lines)
    if args.check:
        if OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT.name} differs from what this script computes", file=sys.stderr)
            return 1
        print(f"{OUT.name}: {len(lines)} lines verified")
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {len(lines)} lines to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
