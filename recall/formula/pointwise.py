"""Deciding whether two expressions agree at one point, beyond what float64 can tell.

Exact rational arithmetic decides when both sides are rational there. Otherwise both sides are
evaluated with mpmath at a working precision chosen from what the expressions need: enough
digits for the smallest summand to survive next to the largest (``exp(100) + 1``), plus the
digits lost to cancellation (``1 - Phi(16)``); a sum that cancels to exactly zero raises the
precision until it no longer does, or until the cap. Each side is then evaluated again twenty
digits higher and must not move (a badly conditioned function of a rounded argument would), and
the two sides are equal when their difference is below the rounding error left at that
precision. That is ANCHORS' rule: raise the precision and see whether the difference stays.
What cannot be decided under the cap is *undecided*, which is never an accept.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from fractions import Fraction
from typing import Any

import mpmath

from recall.formula.evaluate import NotRational, UnknownFunctions, eval_exact, eval_mp
from recall.formula.nodes import Node
from recall.formula.reach import OutOfReach

BASE_DIGITS = 30
MAX_DIGITS = 1500
#: Digits of slack between the working precision and the comparison threshold.
GUARD_DIGITS = 8
RECHECK_DIGITS = 20


class Agreement(Enum):
    """The outcome at one point."""

    EQUAL = "equal"
    DIFFERENT = "different"
    BOTH_UNDEFINED = "both-undefined"
    ONLY_EXPECTED_DEFINED = "only-expected-defined"
    ONLY_ANSWER_DEFINED = "only-answer-defined"
    UNDECIDED = "undecided"


def _mp_env(point: Mapping[str, Fraction]) -> dict[str, Any]:
    return {k: mpmath.mpf(v.numerator) / v.denominator for k, v in point.items()}


class Budget:
    """Work allowed for one comparison, in digit-nodes (a tree of 20 nodes evaluated at 60
    digits costs 1,200). Counting work instead of seconds keeps verdicts the same on a busy
    machine; the cap keeps the worst case within the grading time target."""

    def __init__(self, units: float) -> None:
        self.left = units
        self.cost_per_digit = 1.0

    def spend(self, digits: int) -> None:
        self.left -= digits * self.cost_per_digit

    @property
    def exhausted(self) -> bool:
        return self.left <= 0


class Notes:
    """Why points were left undecided, for the learner: the first argument found out of reach
    (:class:`~recall.formula.reach.OutOfReach`) and the first call found saturated past the
    precision cap (``tanh(10^6)`` is 1 to 868,589 digits)."""

    def __init__(self) -> None:
        self.out_of_reach: str | None = None
        self.saturated: str | None = None
        #: Set for one point while its hidden digits are ignored (the values were apart).
        self.only_apart = False

    def reach(self, reason: str) -> None:
        if self.out_of_reach is None:
            self.out_of_reach = reason

    def saturation(self, call: Node | None, digits: float) -> None:
        if self.saturated is None and call is not None:
            from recall.formula.printer import to_text

            text = to_text(call)
            shown = text if len(text) <= 60 else text[:57] + "..."
            amount = "more than 10^15" if digits > 1e15 else f"about {int(digits):,}"
            self.saturated = (
                f"{shown} agrees with its limiting value to {amount} digits, "
                f"more than the {MAX_DIGITS:,} compared"
            )


class _Pair:
    """Both sides evaluated at one precision, with what that precision could and could not see."""

    def __init__(
        self,
        expected: Node,
        answer: Node,
        point: Mapping[str, Fraction],
        unknown: UnknownFunctions,
        digits: int,
        budget: Budget | None = None,
    ) -> None:
        if budget is not None:
            budget.spend(digits)
        self.digits = digits
        with mpmath.workdps(digits):
            env = _mp_env(point)
            self.e, e_eval = eval_mp(expected, env, unknown)
            self.a, a_eval = eval_mp(answer, env, unknown)
        self.hidden = max(e_eval.hidden, a_eval.hidden)
        self.hidden_at = e_eval.hidden_at if e_eval.hidden >= a_eval.hidden else a_eval.hidden_at
        self.plain_needed = max(
            e_eval.absorbed, a_eval.absorbed, e_eval.cancelled, a_eval.cancelled
        )
        self.needed = max(self.plain_needed, self.hidden)
        self.cancelled = max(e_eval.cancelled, a_eval.cancelled)
        self.vanished = e_eval.vanished or a_eval.vanished

    @property
    def defined(self) -> bool:
        return self.e is not None and self.a is not None

    def apart(self) -> bool:
        """Whether the two values differ by far more than this precision's rounding, so that
        digits hidden behind a function's limit (at most one unit in the last place of that
        function's value) cannot matter."""
        with mpmath.workdps(self.digits):
            scale = max(abs(self.e), abs(self.a))
            margin = mpmath.mpf(10) ** (self.plain_needed + 2 * GUARD_DIGITS - self.digits)
            return bool(abs(self.e - self.a) > margin * scale)

    def ignore_hidden(self) -> None:
        self.hidden, self.hidden_at = 0.0, None
        self.needed = self.plain_needed


def _classify(expected_defined: bool, answer_defined: bool, equal: bool) -> Agreement:
    if expected_defined and answer_defined:
        return Agreement.EQUAL if equal else Agreement.DIFFERENT
    if expected_defined:
        return Agreement.ONLY_EXPECTED_DEFINED
    if answer_defined:
        return Agreement.ONLY_ANSWER_DEFINED
    return Agreement.BOTH_UNDEFINED


def agree_at(
    expected: Node,
    answer: Node,
    point: Mapping[str, Fraction],
    unknown: UnknownFunctions,
    *,
    exact_first: bool = True,
    extra_digits: int = 0,
    max_digits: int = MAX_DIGITS,
    budget: Budget | None = None,
    notes: Notes | None = None,
) -> Agreement:
    """Whether ``expected`` and ``answer`` take the same real value at ``point``.

    ``extra_digits`` raises the starting precision for expressions that mention tiny or huge
    constants; ``max_digits`` caps the working precision (past it: undecided); ``budget``
    is charged for every evaluation (exhausted: undecided). A function argument out of reach
    is undecided too, with the reason written to ``notes``."""
    notes = notes if notes is not None else Notes()
    notes.only_apart = False
    try:
        agreement = _agree_at(
            expected, answer, point, unknown, exact_first, extra_digits, max_digits, budget, notes
        )
    except OutOfReach as error:
        notes.reach(str(error))
        return Agreement.UNDECIDED
    if notes.only_apart and agreement is Agreement.EQUAL:
        return Agreement.UNDECIDED  # seen apart, then equal: the hidden digits may matter
    return agreement


def _agree_at(
    expected: Node,
    answer: Node,
    point: Mapping[str, Fraction],
    unknown: UnknownFunctions,
    exact_first: bool,
    extra_digits: int,
    max_digits: int,
    budget: Budget | None,
    notes: Notes,
) -> Agreement:
    if exact_first:
        try:
            e_exact = eval_exact(expected, point)
            a_exact = eval_exact(answer, point)
        except NotRational:
            pass
        else:
            both = e_exact is not None and a_exact is not None
            return _classify(e_exact is not None, a_exact is not None, both and e_exact == a_exact)
    floor = BASE_DIGITS + max(0, extra_digits)
    digits = min(max_digits, floor)
    previous: tuple[int, float] | None = None
    while True:
        if budget is not None and budget.exhausted:
            return Agreement.UNDECIDED
        low = _Pair(expected, answer, point, unknown, digits, budget)
        if not low.defined:
            return _classify(low.e is not None, low.a is not None, False)
        if low.hidden > 2 * max_digits:
            # A function sits on its limit to more digits than the cap (tanh(10^6) is 1 to
            # 868,589 digits): no precision reachable here can see past it, and rounding noise
            # never hides that much. Unless the two are plainly apart anyway (x against
            # sigmoid(10^9999)), it is not accepted, and nothing slow is tried first.
            if not low.vanished and low.apart():
                low.ignore_hidden()
                notes.only_apart = True
            else:
                notes.saturation(low.hidden_at, low.hidden)
                return Agreement.UNDECIDED
        if low.plain_needed + floor + GUARD_DIGITS > max_digits and low.plain_needed > digits + 50:
            # A summand smaller than the other by more digits than the cap allows (x beside
            # exp(-x^2) at x = 300): rounding noise is never that far below the precision, so
            # this is a real gap, and the cap cannot bridge it. Undecided at once.
            return Agreement.UNDECIDED
        wanted = int(floor + low.needed + GUARD_DIGITS)
        if low.vanished:
            # A sum of nonzero terms came out exactly zero: its true value may be anything
            # below the precision, so more digits are needed before anything is compared.
            wanted = max(wanted, 2 * digits)
        if wanted > digits and not _chasing_noise(previous, digits, low):
            if digits < max_digits:
                if not low.vanished and low.needed > 0:
                    previous = (digits, low.needed)
                digits = min(max_digits, wanted)
                continue
            if not low.vanished or floor + low.needed + GUARD_DIGITS > digits:
                if low.hidden + floor + GUARD_DIGITS > digits:
                    notes.saturation(low.hidden_at, low.hidden)
                return Agreement.UNDECIDED  # at the cap and still short of precision
            # Sums that still cancel to exactly zero at the cap (1 + cos(pi)) are taken to be
            # zero only when that makes the two sides identical; a side that is tiny but not
            # zero (1/cosh(x)^2 against 1 - tanh(x)^2 far out) leaves the point undecided.
            return Agreement.EQUAL if low.e == low.a else Agreement.UNDECIDED
        high = _Pair(expected, answer, point, unknown, digits + RECHECK_DIGITS, budget)
        if not high.defined:
            return _classify(high.e is not None, high.a is not None, False)
        with mpmath.workdps(digits + RECHECK_DIGITS):
            scale = max(abs(high.e), abs(high.a))
            threshold = mpmath.mpf(10) ** (high.cancelled + GUARD_DIGITS - digits) * scale
            difference_low = abs(low.e - low.a)
            difference_high = abs(high.e - high.a)
            stable = abs(high.e - low.e) <= threshold and abs(high.a - low.a) <= threshold
            if stable:
                return Agreement.EQUAL if difference_high <= threshold else Agreement.DIFFERENT
            # A side moved with the precision. If their difference shrank with it, the
            # difference was rounding (sin(pi) is 0, not 1e-31); if it held, it is real.
            if difference_high <= difference_low * mpmath.mpf(10) ** (-RECHECK_DIGITS // 2):
                return Agreement.EQUAL
            if difference_low and abs(difference_high - difference_low) <= difference_high / 1000:
                return Agreement.DIFFERENT
            if digits >= max_digits:
                return Agreement.UNDECIDED
            digits = min(max_digits, 2 * digits)


def _chasing_noise(previous: tuple[int, float] | None, digits: int, pair: _Pair) -> bool:
    """Whether the extra digits asked for grow with the precision itself: the tiny summand is
    then rounding noise (``sin(pi*n)`` at an integer ``n`` is 1e-30 at 30 digits, 1e-60 at 60),
    not a value, and chasing it would never end."""
    if previous is None or pair.vanished:
        return False
    earlier_digits, earlier_needed = previous
    return pair.needed - earlier_needed >= 0.8 * (digits - earlier_digits)


def precise_value(
    node: Node, env: Mapping[str, Fraction] | None = None, unknown: UnknownFunctions | None = None
) -> Any:
    """The value of ``node`` as an mpmath number good to about 30 significant digits, or
    ``None`` where undefined. The working precision is raised as :func:`agree_at` raises it;
    an argument out of reach raises :class:`~recall.formula.reach.OutOfReach`."""
    unknown = unknown or UnknownFunctions(0)
    point = env or {}
    digits = BASE_DIGITS
    while digits <= MAX_DIGITS:
        with mpmath.workdps(digits):
            value, evaluator = eval_mp(node, _mp_env(point), unknown)
        if value is None:
            return None
        wanted = int(BASE_DIGITS + max(evaluator.absorbed, evaluator.cancelled) + GUARD_DIGITS)
        if evaluator.vanished:
            wanted = max(wanted, 2 * digits)
        if wanted <= digits:
            return value
        if digits == MAX_DIGITS:
            return value
        digits = min(MAX_DIGITS, wanted)
    return value


def exact_value(node: Node) -> Fraction | None:
    """The exact rational value of a constant tree, or ``None`` if it is not rational."""
    try:
        return eval_exact(node, {})
    except NotRational:
        return None
