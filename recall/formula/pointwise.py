"""Deciding whether two expressions agree at one point, beyond what float64 can tell.

Exact rational arithmetic decides when both sides are rational there. Otherwise both sides are
evaluated with mpmath at a working precision raised to cover the largest intermediate value
(``exp(100) + 1`` needs more than 44 digits to see the ``+ 1``), and then again at twice that:
a real difference stays put when the precision rises, rounding error shrinks. That is the
ANCHORS rule "raise the precision and see whether the difference stays".
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from fractions import Fraction

import mpmath

from recall.formula.evaluate import NotRational, UnknownFunctions, eval_exact, eval_mp
from recall.formula.nodes import Node

BASE_DIGITS = 30
MAX_DIGITS = 1500


class Agreement(Enum):
    """The outcome at one point."""

    EQUAL = "equal"
    DIFFERENT = "different"
    BOTH_UNDEFINED = "both-undefined"
    ONLY_EXPECTED_DEFINED = "only-expected-defined"
    ONLY_ANSWER_DEFINED = "only-answer-defined"


def _mp_env(point: Mapping[str, Fraction]) -> dict[str, object]:
    return {k: mpmath.mpf(v.numerator) / v.denominator for k, v in point.items()}


def _evaluate_pair(expected: Node, answer: Node, point: Mapping[str, Fraction],
                   unknown: UnknownFunctions, digits: int):
    with mpmath.workdps(digits):
        env = _mp_env(point)
        e_value, e_mag = eval_mp(expected, env, unknown)
        a_value, a_mag = eval_mp(answer, env, unknown)
        diff = None if e_value is None or a_value is None else abs(e_value - a_value)
        return e_value, a_value, diff, max(e_mag, a_mag)


def agree_at(expected: Node, answer: Node, point: Mapping[str, Fraction],
             unknown: UnknownFunctions, *, exact_first: bool = True,
             extra_digits: int = 0) -> Agreement:
    """Whether ``expected`` and ``answer`` take the same real value at ``point``.

    ``extra_digits`` raises the working precision for expressions that mention tiny or huge
    constants (``x + exp(-1000)`` differs from ``x`` only in the 435th digit)."""
    if exact_first:
        try:
            e_exact = eval_exact(expected, point)
            a_exact = eval_exact(answer, point)
        except NotRational:
            pass
        else:
            return _classify(e_exact is not None, a_exact is not None,
                             e_exact == a_exact if e_exact is not None and a_exact is not None else False)
    base_digits = min(MAX_DIGITS, BASE_DIGITS + max(0, extra_digits))
    e_value, a_value, diff, mag = _evaluate_pair(expected, answer, point, unknown, base_digits)
    if e_value is None or a_value is None:
        return _classify(e_value is not None, a_value is not None, False)
    # Large intermediates swallow small differences (exp(100) + 1): add a digit of working
    # precision for every digit of the largest intermediate value.
    scale_digits = int(mag * 0.30103) + 1
    low_digits = min(MAX_DIGITS, base_digits + max(0, scale_digits))
    if low_digits != base_digits:
        e_value, a_value, diff, mag = _evaluate_pair(expected, answer, point, unknown, low_digits)
        if e_value is None or a_value is None:
            return _classify(e_value is not None, a_value is not None, False)
    high_digits = min(MAX_DIGITS, 2 * low_digits)
    e_hi, a_hi, diff_hi, mag_hi = _evaluate_pair(expected, answer, point, unknown, high_digits)
    if e_hi is None or a_hi is None:
        return _classify(e_hi is not None, a_hi is not None, False)
    with mpmath.workdps(high_digits):
        rounding = mpmath.mpf(10) ** (8 - high_digits) * mpmath.mpf(2) ** max(0, mag_hi)
        if diff_hi <= rounding:
            return Agreement.EQUAL
        if diff and abs(diff_hi - diff) <= diff_hi / 1000:
            return Agreement.DIFFERENT  # the difference stayed when the precision rose
        if diff_hi <= diff * mpmath.mpf(10) ** (-(high_digits - low_digits) // 2):
            return Agreement.EQUAL  # it shrank with the precision: rounding error
        return Agreement.DIFFERENT  # undecided is never an accept


def _classify(expected_defined: bool, answer_defined: bool, equal: bool) -> Agreement:
    if expected_defined and answer_defined:
        return Agreement.EQUAL if equal else Agreement.DIFFERENT
    if expected_defined:
        return Agreement.ONLY_EXPECTED_DEFINED
    if answer_defined:
        return Agreement.ONLY_ANSWER_DEFINED
    return Agreement.BOTH_UNDEFINED


def exact_value(node: Node) -> Fraction | None:
    """The exact rational value of a constant tree, or ``None`` if it is not rational."""
    try:
        return eval_exact(node, {})
    except NotRational:
        return None
