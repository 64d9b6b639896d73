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
from recall.formula.evaluate import UnknownFunctions, eval_float
from recall.formula.magnitude import constant_profile
from recall.formula.nodes import Expression, Node
from recall.formula.numeric import grade_constant
from recall.formula.parser import parse
from recall.formula.pointwise import Agreement, agree_at
from recall.formula.printer import format_fraction
from recall.formula.sampling import far_plans, far_scales, plan, sample
from recall.formula.structural import structurally_equal
from recall.formula.symbols import DEFAULT_TABLE, SymbolTable
from recall.formula.tolerance import Tolerance
from recall.formula.verdict import Status, Verdict

WANTED_POINTS = 12
MAX_ATTEMPTS = 60
FAR_POINTS = 4
MIN_POINTS = 4
CONFIRM_POINTS = 2
FLOAT_CLOSE = 1e-9


@dataclass
class NumericComparison:
    """What the random-point test found."""

    outcome: str  # "equal", "different", "inconclusive"
    points: list[dict[str, Fraction]] = field(default_factory=list)
    witness: dict[str, Fraction] | None = None
    agreement: Agreement | None = None
    agreed: int = 0
    disagreed: int = 0


def _float_env(point: dict[str, Fraction]) -> dict[str, float]:
    return {k: float(v) for k, v in point.items()}


def _close(a: float, b: float) -> bool:
    if math.isinf(a) or math.isinf(b):
        return False
    scale = max(abs(a), abs(b))
    return abs(a - b) <= FLOAT_CLOSE * scale or scale < 1e-300


def compare_numerically(expected: Node, answer: Node, names: list[str], table: SymbolTable,
                        seed: int = 0, *, constants: list[float] | None = None,
                        extra_digits: int = 0) -> NumericComparison:
    """Compare at planned random points; see the module docstring for how a point is decided.

    ``constants`` are the numbers the expressions mention (far points go beyond the large
    ones); ``extra_digits`` raises the working precision for tiny or huge constants."""
    rng = random.Random(seed)
    unknown = UnknownFunctions(seed)
    result = NumericComparison("inconclusive")
    attempts = 0
    while len(result.points) < WANTED_POINTS and attempts < MAX_ATTEMPTS:
        point = {
            name: sample(table.domain(name), rng, plan(attempts, position))
            for position, name in enumerate(names)
        }
        attempts += 1
        verdict = _decide_point(expected, answer, point, unknown, extra_digits)
        if verdict is Agreement.EQUAL:
            result.points.append(point)
        elif verdict is not Agreement.BOTH_UNDEFINED:
            result.outcome, result.witness, result.agreement = "different", point, verdict
            return result
    if len(result.points) < MIN_POINTS:
        return result
    # Far out: answers that only differ beyond the usual magnitudes. A side that overflows
    # out there proves nothing, so only a difference between two values counts.
    scales = far_scales(constants or [])
    for index in range(max(FAR_POINTS, len(scales))):
        plans = far_plans(index, len(names), scales)
        point = {name: sample(table.domain(name), rng, plans[position])
                 for position, name in enumerate(names)}
        if _decide_point(expected, answer, point, unknown, extra_digits) is Agreement.DIFFERENT:
            result.outcome, result.witness, result.agreement = "different", point, \
                Agreement.DIFFERENT
            return result
    # float64 agreed: make sure it was not rounding that agreed (exp(100) + 1 vs exp(100)).
    for point in _confirmation_points(result.points, expected, unknown):
        agreement = agree_at(expected, answer, point, unknown, extra_digits=extra_digits)
        if agreement is not Agreement.EQUAL:
            result.outcome, result.witness, result.agreement = "different", point, agreement
            return result
    result.outcome = "equal"
    return result


def _decide_point(expected: Node, answer: Node, point: dict[str, Fraction],
                  unknown: UnknownFunctions, extra_digits: int) -> Agreement:
    """Float64 first; anything but a clean agreement is re-decided in high precision."""
    env = _float_env(point)
    e_value = eval_float(expected, env, unknown)
    a_value = eval_float(answer, env, unknown)
    if e_value is None and a_value is None:
        return Agreement.BOTH_UNDEFINED
    if e_value is not None and a_value is not None and _close(e_value, a_value):
        return Agreement.EQUAL
    return agree_at(expected, answer, point, unknown, extra_digits=extra_digits)


def _confirmation_points(points, expected, unknown):
    """The points where float64 is least trustworthy: the largest magnitudes, plus the first."""

    def size(point):
        value = eval_float(expected, _float_env(point), unknown)
        return abs(value) if value is not None and not math.isinf(value) else math.inf

    ranked = sorted(points, key=size, reverse=True)
    chosen = ranked[: CONFIRM_POINTS - 1] + [points[0]]
    unique = []
    for point in chosen:
        if point not in unique:
            unique.append(point)
    return unique


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


def compare_expressions(reference: Expression, typed: Expression, table: SymbolTable,
                        *, seed: int = 0) -> Verdict:
    """Equivalence of two parsed expressions over ``table``'s domains (defined names are
    expanded on both sides first)."""
    interpreted = typed.to_text()
    expected_text = reference.to_text()
    if table.definitions:
        reference = replace(reference, tree=expand_definitions(reference.tree, table), _cache={})
        typed = replace(typed, tree=expand_definitions(typed.tree, table), _cache={})
    if typed.unknown_functions - reference.unknown_functions:
        extra = sorted(typed.unknown_functions - reference.unknown_functions)[0]
        return Verdict(Status.INCORRECT, "structural",
                       f"the reference does not use the function '{extra}'",
                       interpreted=interpreted, expected=expected_text)
    if structurally_equal(reference.tree, typed.tree):
        return Verdict(Status.CORRECT, "structural", "Correct: the same expression.",
                       interpreted=interpreted, expected=expected_text)
    names = sorted(reference.free_symbols | typed.free_symbols)
    constants, extra_digits = constant_profile(reference.tree, typed.tree)
    comparison = compare_numerically(reference.tree, typed.tree, names, table, seed,
                                     constants=constants, extra_digits=extra_digits)
    if comparison.outcome == "equal":
        return Verdict(
            Status.CORRECT, "numeric",
            f"Correct: equal to the reference at {len(comparison.points)} random points "
            "(confirmed in high precision).",
            interpreted=interpreted, expected=expected_text,
        )
    if comparison.outcome == "different":
        return _incorrect(reference, typed, table, comparison, seed, interpreted, expected_text)
    from recall.formula.prover import prove_equal

    proof = prove_equal(reference, typed)
    if proof is True:
        return Verdict(Status.CORRECT, "symbolic", "Correct: proved equal symbolically.",
                       interpreted=interpreted, expected=expected_text)
    message = ("Not accepted: the two could not be compared where both are defined, and no "
               "proof was found.")
    if proof is False:
        return Verdict(Status.INCORRECT, "symbolic", "Not equal: their difference simplifies "
                       "to a nonzero expression.", interpreted=interpreted,
                       expected=expected_text)
    return Verdict(Status.INCORRECT, "undecided", message, interpreted=interpreted,
                   expected=expected_text)


def _incorrect(reference: Expression, typed: Expression, table: SymbolTable,
               comparison: NumericComparison, seed: int, interpreted: str,
               expected_text: str) -> Verdict:
    witness = comparison.witness or {}
    where = _describe_point(witness) if witness else "a test point"
    if comparison.agreement is Agreement.ONLY_EXPECTED_DEFINED:
        detail = f"at {where} your answer is undefined but the reference is not"
    elif comparison.agreement is Agreement.ONLY_ANSWER_DEFINED:
        detail = f"at {where} the reference is undefined but your answer is not"
    else:
        detail = (f"at {where} the reference is {_value_text(reference.tree, witness)} "
                  f"but your answer gives {_value_text(typed.tree, witness)}")
    undefined = comparison.agreement in (Agreement.ONLY_EXPECTED_DEFINED,
                                         Agreement.ONLY_ANSWER_DEFINED)
    diagnosis = diagnose(reference, typed, table, seed=seed, undefined_mismatch=undefined)
    message = f"Not equivalent: {detail}."
    if diagnosis is not None:
        message = f"{diagnosis.message} ({detail})."
    return Verdict(Status.INCORRECT, "numeric", message, interpreted=interpreted,
                   diagnosis=diagnosis, expected=expected_text)
