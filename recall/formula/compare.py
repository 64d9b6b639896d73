"""Equivalence of a typed answer and a reference: structural, then numeric, then symbolic.

The order is the one the best checkers use, cheapest first:

1. *structural*: equal up to order and grouping (a proof, microseconds);
2. *numeric*: both sides at random points of each variable's domain in float64; every
   disagreement, and a sample of the agreements, is re-decided exactly or in arbitrary precision
   (:mod:`recall.formula.pointwise`), so a float comparison never accepts on its own; a point
   where only one side is defined is a mismatch;
3. *symbolic*: a bounded SymPy proof, only when too few points had both sides defined.

False accepts are the worst failure, so anything undecided is *not* accepted.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace
from fractions import Fraction

from recall.errors import FormulaError, GradingError, ParseError
from recall.formula.definitions import expand_definitions
from recall.formula.diagnose import diagnose
from recall.formula.evaluate import NotRational, UnknownFunctions, eval_exact, eval_float
from recall.formula.magnitude import constant_profile
from recall.formula.nodes import Expression, Node, walk
from recall.formula.numeric import grade_constant
from recall.formula.parser import parse
from recall.formula.pointwise import MAX_DIGITS, Agreement, Budget, agree_at
from recall.formula.printer import format_fraction
from recall.formula.sampling import edge_points, far_plans, far_scales, plan, sample
from recall.formula.structural import structurally_equal
from recall.formula.symbols import DEFAULT_TABLE, SymbolTable
from recall.formula.tolerance import Tolerance
from recall.formula.verdict import Status, Verdict

WANTED_POINTS = 16
MAX_ATTEMPTS = 64
MIN_POINTS = 4
MP_CONFIRMATIONS = 2
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
    time ran out before a difference could be ruled out)."""

    outcome: str
    points: list[dict[str, Fraction]] = field(default_factory=list)
    witness: dict[str, Fraction] | None = None
    agreement: Agreement | None = None


def _float_env(point: dict[str, Fraction]) -> dict[str, float]:
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
        env = _float_env(point)
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
    for point in _confirmation_order(search.result.points, expected, search.unknown):
        if search.out_of_time():
            return search.stop("undecided")
        exact = _rational_agreement(expected, answer, point)
        if exact is not None:
            agreement = exact
        else:
            if mp_confirmed >= MP_CONFIRMATIONS or mp_tries == 0:
                continue
            mp_tries -= 1
            agreement = search.precisely(point)
            if agreement is Agreement.EQUAL:
                mp_confirmed += 1
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
        value = eval_float(expected, _float_env(point), unknown)
        return abs(value) if value is not None and not math.isinf(value) else math.inf

    return sorted(points, key=size, reverse=True)


def _describe_point(point: dict[str, Fraction]) -> str:
    return ", ".join(f"{k} = {format_fraction(v)}" for k, v in sorted(point.items()))


def _value_text(node: Node, point: dict[str, Fraction]) -> str:
    value = eval_float(node, _float_env(point), UnknownFunctions(0))
    if value is None:
        return "undefined"
    return f"{value:.6g}"


def check(
    expected: str | Expression,
    answer: str,
    table: SymbolTable | None = None,
    *,
    tolerance: Tolerance | None = None,
    seed: int = 0,
) -> Verdict:
    """Grade ``answer`` against ``expected``.

    ``expected`` is trusted text (a deck's reference) or an already parsed expression; a
    reference that does not parse raises :class:`GradingError`. The answer is read with the
    same table, made strict so a name that is neither declared nor in the reference is
    *invalid* with a suggestion. A reference with no variables is graded as a number with
    ``tolerance`` (exact when ``None``).
    """
    table = table or DEFAULT_TABLE
    if isinstance(expected, Expression):
        reference = expected
    else:
        try:
            reference = parse(expected, _lenient(table))
        except FormulaError as error:
            raise GradingError(f"the reference answer does not parse: {error}") from error
    if reference.is_constant:
        return grade_constant(reference, answer, tolerance, table)
    answer_table = table.with_variables(reference.free_symbols)
    try:
        typed = parse(answer, answer_table)
    except ParseError as error:
        return invalid_verdict(error, reference)
    return compare_expressions(reference, typed, answer_table, seed=seed)


def _lenient(table: SymbolTable) -> SymbolTable:
    return table.with_strictness(False)


def invalid_verdict(error: ParseError, reference: Expression | None = None) -> Verdict:
    """The verdict for an answer that could not be read."""
    return Verdict(
        Status.INVALID,
        "parse",
        error.message,
        column=error.column,
        caret=error.caret(),
        expected=reference.to_text() if reference is not None else "",
    )


def compare_expressions(
    reference: Expression, typed: Expression, table: SymbolTable, *, seed: int = 0
) -> Verdict:
    """Equivalence of two parsed expressions over ``table``'s domains (defined names are
    expanded on both sides first)."""
    interpreted = typed.to_text()
    expected_text = reference.to_text()
    if table.definitions:
        reference = replace(reference, tree=expand_definitions(reference.tree, table), _cache={})
        typed = replace(typed, tree=expand_definitions(typed.tree, table), _cache={})
    if structurally_equal(reference.tree, typed.tree):
        return Verdict(
            Status.CORRECT,
            "structural",
            "Correct: the same expression.",
            interpreted=interpreted,
            expected=expected_text,
        )
    names = sorted(reference.free_symbols | typed.free_symbols)
    constants, extra_digits = constant_profile(reference.tree, typed.tree)
    comparison = compare_numerically(
        reference.tree,
        typed.tree,
        names,
        table,
        seed,
        constants=constants,
        extra_digits=extra_digits,
    )
    if comparison.outcome == "equal":
        return Verdict(
            Status.CORRECT,
            "numeric",
            f"Correct: equal to the reference at {len(comparison.points)} random points "
            "(confirmed exactly or in high precision).",
            interpreted=interpreted,
            expected=expected_text,
        )
    if comparison.outcome == "different":
        return _incorrect(reference, typed, table, comparison, seed, interpreted, expected_text)
    if comparison.outcome == "undecided":
        return Verdict(
            Status.INCORRECT,
            "undecided",
            "Not accepted: the two could not be "
            "confirmed equal within the precision and time allowed.",
            interpreted=interpreted,
            expected=expected_text,
        )
    from recall.formula.prover import prove_equal

    proof = prove_equal(reference, typed)
    if proof is True:
        return Verdict(
            Status.CORRECT,
            "symbolic",
            "Correct: proved equal symbolically.",
            interpreted=interpreted,
            expected=expected_text,
        )
    message = (
        "Not accepted: the two could not be compared where both are defined, and no "
        "proof was found."
    )
    if proof is False:
        return Verdict(
            Status.INCORRECT,
            "symbolic",
            "Not equal: their difference simplifies to a nonzero expression.",
            interpreted=interpreted,
            expected=expected_text,
        )
    return Verdict(
        Status.INCORRECT, "undecided", message, interpreted=interpreted, expected=expected_text
    )


def _incorrect(
    reference: Expression,
    typed: Expression,
    table: SymbolTable,
    comparison: NumericComparison,
    seed: int,
    interpreted: str,
    expected_text: str,
) -> Verdict:
    witness = comparison.witness or {}
    where = _describe_point(witness) if witness else "a test point"
    if comparison.agreement is Agreement.ONLY_EXPECTED_DEFINED:
        detail = f"at {where} your answer is undefined but the reference is not"
    elif comparison.agreement is Agreement.ONLY_ANSWER_DEFINED:
        detail = f"at {where} the reference is undefined but your answer is not"
    else:
        detail = (
            f"at {where} the reference is {_value_text(reference.tree, witness)} "
            f"but your answer gives {_value_text(typed.tree, witness)}"
        )
    undefined = comparison.agreement in (
        Agreement.ONLY_EXPECTED_DEFINED,
        Agreement.ONLY_ANSWER_DEFINED,
    )
    diagnosis = diagnose(
        reference,
        typed,
        table,
        seed=seed,
        undefined_mismatch=undefined,
        witness=_float_env(witness) if witness else None,
    )
    message = f"Not equivalent: {detail}."
    if diagnosis is not None:
        message = f"{diagnosis.message} ({detail})."
    return Verdict(
        Status.INCORRECT,
        "numeric",
        message,
        interpreted=interpreted,
        diagnosis=diagnosis,
        expected=expected_text,
    )
