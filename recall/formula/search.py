"""The numeric half of equivalence: compare two trees at planned points.

Regular points come from each variable's domain (:mod:`recall.formula.sampling`); a point where
only one side is defined is a mismatch there. Edge points (zero, endpoints) and far points
(hundreds to millions, and past the constants the expressions mention) come next; there only a
difference between two values counts, since a removable singularity or an overflow proves
nothing. Agreement in float64 is a pre-filter: it is confirmed exactly at every rational point
and in arbitrary precision at two more (:mod:`recall.formula.pointwise`), so a float comparison
never accepts on its own. The work is counted (:class:`recall.formula.pointwise.Budget`);
running out of it is *undecided*, which is never an accept.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from fractions import Fraction

from recall.formula.evaluate import NotRational, UnknownFunctions, eval_exact, eval_float
from recall.formula.nodes import Node, walk
from recall.formula.pointwise import MAX_DIGITS, Agreement, Budget, Notes, agree_at
from recall.formula.sampling import edge_points, far_plans, far_scales, plan, sample
from recall.formula.symbols import SymbolTable

WANTED_POINTS = 16
MAX_ATTEMPTS = 64
MIN_POINTS = 4
MP_CONFIRMATIONS = 2
#: Confirmation points that may come back undecided before the confirmation gives up.
MAX_UNDECIDED_CONFIRMATIONS = 16
FLOAT_CLOSE = 1e-9
#: Precision cap at edge and far points, where an undecided point is simply skipped.
EXTRA_POINT_DIGITS = 600
#: Work budget of one numeric comparison in digit-nodes (see pointwise.Budget); past it the
#: pair is undecided, never accepted. It is counted, not timed, so a verdict does not depend on
#: how busy the machine is.
WORK_BUDGET = 1_000_000


@dataclass
class NumericComparison:
    """What the random-point test found: ``outcome`` is ``equal``, ``different``,
    ``inconclusive`` (too few points had both sides defined) or ``undecided`` (precision or
    time ran out before a difference could be ruled out); ``notes`` says why points were left
    undecided (an argument out of reach, a function saturated past the precision cap)."""

    outcome: str
    points: list[dict[str, Fraction]] = field(default_factory=list)
    witness: dict[str, Fraction] | None = None
    agreement: Agreement | None = None
    notes: Notes = field(default_factory=Notes)


def float_env(point: dict[str, Fraction]) -> dict[str, float]:
    """A point as float64 values."""
    return {k: float(v) for k, v in point.items()}


def _close(a: float, b: float, summands: float = 0.0) -> bool:
    """float64 agreement, relative to the values or to the largest summand met on the way
    (after ``1 + cos(pi - 1e-9)`` only the rounding of the 1 is left). Only a pre-filter: the
    agreements are confirmed exactly or in arbitrary precision afterwards."""
    if math.isinf(a) or math.isinf(b) or math.isinf(summands):
        return False
    scale = max(abs(a), abs(b), summands)
    return abs(a - b) <= FLOAT_CLOSE * scale or scale < 1e-300


class _Search:
    """One comparison: the two trees, the precision hint, the clock, and what was found."""

    def __init__(
        self, expected: Node, answer: Node, table: SymbolTable, seed: int, extra_digits: int
    ) -> None:
        self.expected = expected
        self.answer = answer
        self.table = table
        self.unknown = UnknownFunctions(seed)
        self.extra_digits = extra_digits
        self.budget = Budget(WORK_BUDGET)
        self.budget.cost_per_digit = _size(expected) + _size(answer)
        self.result = NumericComparison("inconclusive")

    def out_of_time(self) -> bool:
        return self.budget.exhausted

    def decide(self, point: dict[str, Fraction], max_digits: int = MAX_DIGITS) -> Agreement:
        """Float64 first; anything but a clean agreement is re-decided in high precision."""
        env = float_env(point)
        scale = [0.0]
        e_value = eval_float(self.expected, env, self.unknown, scale)
        a_value = eval_float(self.answer, env, self.unknown, scale)
        if e_value is None and a_value is None:
            return Agreement.BOTH_UNDEFINED
        if e_value is not None and a_value is not None and _close(e_value, a_value, scale[0]):
            return Agreement.EQUAL
        return self.precisely(point, max_digits)

    def precisely(self, point: dict[str, Fraction], max_digits: int = MAX_DIGITS) -> Agreement:
        return agree_at(
            self.expected,
            self.answer,
            point,
            self.unknown,
            extra_digits=self.extra_digits,
            max_digits=max_digits,
            budget=self.budget,
            notes=self.result.notes,
        )

    def stop(
        self,
        outcome: str,
        point: dict[str, Fraction] | None = None,
        agreement: Agreement | None = None,
    ) -> NumericComparison:
        self.result.outcome = outcome
        self.result.witness = point
        self.result.agreement = agreement
        return self.result


def compare_numerically(
    expected: Node,
    answer: Node,
    names: list[str],
    table: SymbolTable,
    seed: int = 0,
    *,
    constants: list[float] | None = None,
    extra_digits: int = 0,
) -> NumericComparison:
    """Compare at planned points (:mod:`recall.formula.sampling`).

    Regular points: a point where only one side is defined is a mismatch. Edge points (zero,
    closed endpoints, values next to open endpoints) and far points: only a difference between
    two values counts, since a removable singularity or an overflow there proves nothing.
    Finally every rational point is confirmed exactly and two others in arbitrary precision,
    because float64 agreement alone never accepts."""
    search = _Search(expected, answer, table, seed, extra_digits)
    rng = random.Random(seed)
    attempts = 0
    while len(search.result.points) < WANTED_POINTS and attempts < MAX_ATTEMPTS:
        if search.out_of_time():
            return search.stop("undecided")
        point = {
            name: sample(table.domain(name), rng, plan(attempts, position))
            for position, name in enumerate(names)
        }
        attempts += 1
        agreement = search.decide(point)
        if (
            agreement is Agreement.UNDECIDED
            and search.result.notes.out_of_reach is not None
            and not search.result.points
            and attempts >= MIN_POINTS
        ):
            # Out of reach at ordinary points (magnitudes up to 40): it will be everywhere.
            return search.stop("undecided")
        if agreement is Agreement.EQUAL:
            search.result.points.append(point)
        elif agreement not in (Agreement.BOTH_UNDEFINED, Agreement.UNDECIDED):
            # An undecided point (values past the precision cap) is passed over like one
            # where neither side is defined: it proves nothing either way.
            return search.stop("different", point, agreement)
    domains = [table.domain(name) for name in names]
    extra_points = [dict(zip(names, values, strict=True)) for values in edge_points(domains, rng)]
    scales = far_scales(constants or [])
    for index in range(2 * len(scales)):
        plans = far_plans(index, len(names), scales)
        extra_points.append(
            {
                name: sample(table.domain(name), rng, plans[position])
                for position, name in enumerate(names)
            }
        )
    for point in extra_points:
        if search.out_of_time():
            return search.stop("undecided")
        agreement = search.decide(point, max_digits=EXTRA_POINT_DIGITS)
        if agreement is Agreement.DIFFERENT:
            return search.stop("different", point, Agreement.DIFFERENT)
        if agreement is Agreement.EQUAL:
            # Counts toward the evidence: a reference defined only far out (x > 40) is still
            # compared somewhere.
            search.result.points.append(point)
    if len(search.result.points) < MIN_POINTS:
        return search.result
    # float64 agreed everywhere: confirm exactly where both sides are rational (cheap), and in
    # arbitrary precision at a few other points, largest values first (exp(100) + 1 is not
    # exp(100)). A point that cannot be decided there is passed over, but something must be
    # confirmed.
    confirmed = 0
    mp_tries = 2 * MP_CONFIRMATIONS
    mp_confirmed = 0
    undecided_tries = MAX_UNDECIDED_CONFIRMATIONS
    for point in _confirmation_order(search.result.points, expected, search.unknown):
        if search.out_of_time():
            return search.stop("undecided")
        exact = _rational_agreement(expected, answer, point)
        if exact is not None:
            agreement = exact
        else:
            if mp_confirmed >= MP_CONFIRMATIONS or mp_tries == 0 or undecided_tries == 0:
                continue
            agreement = search.precisely(point)
            if agreement is Agreement.EQUAL:
                mp_confirmed += 1
            if agreement is Agreement.UNDECIDED:
                # Far points out of reach or past the precision cap (x = 3e6 in exp(-x^2))
                # come first in this order; they must not use up the tries meant for the
                # points that can be decided.
                undecided_tries -= 1
            else:
                mp_tries -= 1
        if agreement is Agreement.UNDECIDED:
            continue
        if agreement is not Agreement.EQUAL:
            return search.stop("different", point, agreement)
        confirmed += 1
    return search.stop("equal" if confirmed else "undecided")


def _size(node: Node) -> int:
    return sum(1 for _ in walk(node))


def _rational_agreement(
    expected: Node, answer: Node, point: dict[str, Fraction]
) -> Agreement | None:
    """The exact verdict at ``point`` when both sides are rational there, else ``None``."""
    try:
        e_exact = eval_exact(expected, point)
        a_exact = eval_exact(answer, point)
    except NotRational:
        return None
    if e_exact is None or a_exact is None:
        return None  # undefined in exact arithmetic: left to the float and mpmath checks
    return Agreement.EQUAL if e_exact == a_exact else Agreement.DIFFERENT


def _confirmation_order(points, expected, unknown):
    """Largest magnitudes first (where float64 is least trustworthy), then the rest."""

    def size(point):
        value = eval_float(expected, float_env(point), unknown)
        return abs(value) if value is not None and not math.isinf(value) else math.inf

    return sorted(points, key=size, reverse=True)
