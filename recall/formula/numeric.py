"""Numeric answers: a reference with no free variables, graded against a tolerance.

Without a tolerance the comparison is exact: decimals are exact rationals, so ``0.5`` is ``1/2``
and ``0.33`` is not ``1/3``, and a decimal approximation of an exact constant is not the
constant (the learner is told it is an approximation). With a tolerance both values are
computed in arbitrary precision (:func:`recall.formula.pointwise.precise_value`), so ``10^400``
and ``exp(1000)`` are graded like any other number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import mpmath

from recall.errors import EvaluationError, FormulaError, GradingError, ParseError
from recall.formula.diagnose import diagnose_numbers
from recall.formula.evaluate import UnknownFunctions
from recall.formula.expression import Expression
from recall.formula.magnitude import constant_profile
from recall.formula.nodes import BinOp, Node, Number, replace_symbols
from recall.formula.parser import parse
from recall.formula.pointwise import Agreement, Notes, agree_at, exact_value, precise_value
from recall.formula.printer import format_fraction, to_text
from recall.formula.reach import OutOfReach
from recall.formula.showing import distinct, figures
from recall.formula.structural import structurally_equal
from recall.formula.symbols import DEFAULT_TABLE, SymbolTable
from recall.formula.tolerance import Tolerance, to_mp
from recall.formula.verdict import Diagnosis, Status, Verdict


def _value(expression: Expression | Node) -> Any:
    """The value in arbitrary precision (``None`` where undefined); raises
    :class:`~recall.formula.reach.OutOfReach` for an argument out of reach."""
    node = expression.tree if isinstance(expression, Expression) else expression
    exact = exact_value(node)
    if exact is not None:
        return mpmath.mpf(exact.numerator) / exact.denominator
    try:
        return precise_value(node)
    except KeyError as missing:
        raise EvaluationError(f"'{missing.args[0]}' has no value here") from None


def _exact_or_precise(expression: Expression) -> Fraction | Any:
    """The exact rational value when there is one (so a tolerance is decided exactly), else
    the arbitrary-precision value; ``None`` where undefined."""
    exact = exact_value(expression.tree)
    return exact if exact is not None else _value(expression)


def evaluate_constant(expression: Expression | Node) -> float:
    """The value of an expression with no variables, as a float (``EvaluationError`` if it is
    undefined, has variables, is beyond float64, or cannot be computed at all)."""
    try:
        value = _value(expression)
    except OutOfReach as error:
        raise EvaluationError(str(error)) from None
    if value is None:
        raise EvaluationError("the expression is undefined")
    number = float(value)
    if not math.isfinite(number):
        raise EvaluationError("the value is too large for a float")
    return number


def format_number(value: Any) -> str:
    """A readable number: integers with separators, else up to 6 significant figures (any size,
    in scientific notation past float64)."""
    if isinstance(value, Fraction) and value.denominator == 1 and abs(value) < 10**15:
        return f"{value.numerator:,}"
    if (
        isinstance(value, Fraction)
        and value
        and not (Fraction(1, 10**300) < abs(value) < Fraction(10**300))
    ):
        value = to_mp(value)
    if isinstance(value, mpmath.mpf) and not (abs(value) < mpmath.mpf("1e300")):
        return mpmath.nstr(value, 6)
    number = float(value)
    if number == int(number) and abs(number) < 1e15:
        return f"{int(number):,}"
    return f"{number:.6g}"


def grade_constant(
    reference: Expression,
    answer: str,
    tolerance: Tolerance | None,
    table: SymbolTable | None = None,
    *,
    worked: str = "",
) -> Verdict:
    """Grade a typed number (or constant expression) against a constant reference."""
    expected_text = reference.to_text()
    try:
        typed = parse(answer, (table or DEFAULT_TABLE).with_strictness(True), numeric=True)
    except ParseError as error:
        return Verdict.unreadable(error, expected=expected_text, worked=worked)
    if not typed.is_constant:
        names = ", ".join(sorted(typed.free_symbols | typed.unknown_functions))
        return Verdict(
            Status.INVALID,
            "parse",
            f"a number is expected here, not an expression in {names}",
            interpreted=typed.to_text(),
            expected=expected_text,
            worked=worked,
        )
    interpreted = typed.to_text()
    tolerance = tolerance or Tolerance.exact()
    if tolerance.kind == "exact":
        return _grade_exact(reference, typed, interpreted, expected_text, worked)
    try:
        expected_value = _exact_or_precise(reference)
    except OutOfReach as error:
        raise GradingError(f"the reference value cannot be computed: {error}") from None
    if expected_value is None:
        raise GradingError("the reference value is undefined")
    try:
        typed_value = _exact_or_precise(typed)
    except OutOfReach as error:
        return _out_of_reach(str(error), interpreted, expected_text, worked)
    if typed_value is None:
        return Verdict(
            Status.INCORRECT,
            "tolerance",
            "Your answer is undefined (a division by zero, or a root or log of a negative number).",
            interpreted=interpreted,
            expected=expected_text,
            worked=worked,
        )
    if tolerance.accepts(expected_value, typed_value):
        return Verdict(
            Status.CORRECT,
            "tolerance",
            f"Correct ({tolerance.describe()} of {format_number(expected_value)}).",
            interpreted=interpreted,
            expected=expected_text,
            worked=worked,
        )
    diagnosis = (
        _sign_only(expected_value, typed_value, tolerance)
        or diagnose_numbers(expected_value, typed_value)
        or _off_by(expected_value, typed_value, tolerance)
    )
    shown_expected, shown_typed, _ = distinct(expected_value, typed_value)
    if isinstance(typed_value, Fraction) and len(format_fraction(typed_value)) <= 24:
        shown_typed = format_fraction(typed_value)  # the learner's own number, every digit
    return Verdict(
        Status.INCORRECT,
        "tolerance",
        f"{diagnosis.message}: expected {shown_expected} "
        f"({tolerance.describe()}), you gave {shown_typed}.",
        interpreted=interpreted,
        diagnosis=diagnosis,
        expected=expected_text,
        worked=worked,
    )


def _out_of_reach(reason: str, interpreted: str, expected_text: str, worked: str) -> Verdict:
    """*Invalid*: the answer cannot be evaluated in the time allowed, so it is neither
    accepted nor counted against the learner."""
    return Verdict(
        Status.INVALID,
        "bounds",
        f"This cannot be graded: {reason}.",
        interpreted=interpreted,
        expected=expected_text,
        worked=worked,
    )


def _sign_only(expected: Any, answer: Any, tolerance: Tolerance) -> Diagnosis | None:
    """The number is right and only its sign is wrong: its negation is within the tolerance
    (``0.63`` for ``-0.629941``, rounded as a learner rounds). The gap between the two ("off by
    1.26") would say nothing about the mistake."""
    if tolerance.accepts(expected, -answer):
        return Diagnosis("sign", "Off by a sign")
    return None


def _off_by(expected: Any, answer: Any, tolerance: Tolerance) -> Diagnosis:
    expected, answer = to_mp(expected), to_mp(answer)
    difference = abs(answer - expected)
    if tolerance.kind == "absolute" or not expected:
        return Diagnosis("tolerance", f"Off by {figures(difference, 8)}")
    if answer and expected:
        size = abs(answer / expected)
        if size >= 10 or size <= mpmath.mpf("0.1"):
            # A percentage says nothing here (every answer 1000 times too small is "off by
            # 99.9%", printed as 100%): the order of magnitude does.
            return _orders_off(size, sign_differs=(answer < 0) != (expected < 0))
    percent = difference / abs(expected) * 100
    return Diagnosis("tolerance", f"Off by {figures(percent, 8)}%")


def _orders_off(size: Any, *, sign_differs: bool) -> Diagnosis:
    """How far off an answer ``size`` times the reference's size is, in orders of magnitude:
    ``about 9 orders of magnitude too small (about 2.7e9 times)``."""
    orders = int(mpmath.nint(mpmath.log10(size)))
    direction = "too large" if size > 1 else "too small"
    ratio = size if size > 1 else 1 / size
    times = mpmath.nstr(ratio, 2, min_fixed=0, max_fixed=5).replace("e+", "e").replace(".0", "")
    magnitude = "order" if abs(orders) == 1 else "orders"  # at least one: size is ≥ 10×
    said = f"about {abs(orders)} {magnitude} of magnitude {direction} ({times} times)"
    sign = ", and of the wrong sign" if sign_differs else ""
    return Diagnosis("magnitude", f"Off by {said}{sign}")


def _grade_exact(
    reference: Expression, typed: Expression, interpreted: str, expected_text: str, worked: str
) -> Verdict:
    if structurally_equal(reference.tree, typed.tree):
        return Verdict(
            Status.CORRECT,
            "exact",
            "Correct: exactly equal.",
            interpreted=interpreted,
            expected=expected_text,
            worked=worked,
        )
    _, extra_digits = constant_profile(reference.tree, typed.tree)
    notes = Notes()
    agreement = agree_at(
        reference.tree, typed.tree, {}, UnknownFunctions(0), extra_digits=extra_digits, notes=notes
    )
    if agreement is Agreement.UNDECIDED and notes.out_of_reach is not None:
        return _out_of_reach(notes.out_of_reach, interpreted, expected_text, worked)
    if agreement is Agreement.EQUAL:
        return Verdict(
            Status.CORRECT,
            "exact",
            "Correct: exactly equal.",
            interpreted=interpreted,
            expected=expected_text,
            worked=worked,
        )
    if agreement is Agreement.ONLY_EXPECTED_DEFINED:
        return Verdict(
            Status.INCORRECT,
            "exact",
            "Your answer is undefined (a division by zero, or a root or log of a negative number).",
            interpreted=interpreted,
            expected=expected_text,
            worked=worked,
        )
    if agreement in (Agreement.ONLY_ANSWER_DEFINED, Agreement.BOTH_UNDEFINED):
        raise GradingError("the reference value is undefined")
    if agreement is Agreement.UNDECIDED:
        reason = (
            f"Not accepted: {notes.saturated}."
            if notes.saturated
            else "Not accepted: these numbers are too "
            "large or too close to tell apart within 1,500 digits."
        )
        return Verdict(
            Status.INCORRECT,
            "undecided",
            reason,
            interpreted=interpreted,
            expected=expected_text,
            worked=worked,
        )
    expected_value = _value(reference)
    typed_value = _value(typed)
    diagnosis = None
    if expected_value and typed_value is not None:
        relative = _relative_gap(reference.tree, typed.tree, expected_value, typed_value)
        if relative <= mpmath.mpf("1e-3"):
            if exact_value(reference.tree) is None and exact_value(typed.tree) is not None:
                diagnosis = Diagnosis(
                    "approximation",
                    f"{interpreted} is a decimal "
                    f"approximation of {expected_text}; give the exact value",
                )
            else:
                figures = (
                    f"about {max(1, int(-mpmath.log10(relative)))}" if relative else "more than 25"
                )
                diagnosis = Diagnosis(
                    "approximation",
                    f"Close, but not exact: it agrees with "
                    f"the reference to {figures} significant figures",
                )
        else:
            diagnosis = diagnose_numbers(expected_value, typed_value)
    message = f"{diagnosis.message}." if diagnosis is not None else "Not equal to the reference."
    return Verdict(
        Status.INCORRECT,
        "exact",
        message,
        interpreted=interpreted,
        diagnosis=diagnosis,
        expected=expected_text,
        worked=worked,
    )


def _relative_gap(reference: Node, typed: Node, expected_value: Any, typed_value: Any) -> Any:
    """|typed - reference| / |reference|, with the difference computed at the precision it
    needs (``tanh(50) - 1`` is -7.4e-44, not the 0 that 30 digits give)."""
    try:
        gap = precise_value(BinOp("-", typed, reference))
    except OutOfReach:
        gap = None
    if gap is None:
        gap = typed_value - expected_value
    return abs(gap) / abs(expected_value)


def worked_computation(formula: Expression, values: Mapping[str, float | Fraction]) -> str:
    """``formula``, the values substituted into it, and the result: the worked answer of a
    numeric question."""
    shown = {name: _plain(value) for name, value in values.items()}
    substituted = to_text(formula.tree, shown)
    try:
        result = _value(_substitute(formula.tree, values))
    except OutOfReach as error:
        raise GradingError(f"the formula cannot be computed at these values: {error}") from None
    if result is None:
        raise GradingError("the formula is undefined at these values")
    given = ", ".join(f"{name} = {shown[name]}" for name in sorted(shown))
    return f"{formula.to_text()}  with {given}\n= {substituted}\n= {format_number(result)}"


def _plain(value: float | Fraction) -> str:
    if isinstance(value, Fraction):
        text = format_fraction(value)
        return text if value.denominator == 1 or len(text) < 14 else f"{float(value):.6g}"
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.6g}"


def _exact(value: float | Fraction) -> Fraction:
    if isinstance(value, Fraction):
        return value
    if not math.isfinite(value):
        raise GradingError(f"a parameter value is not a finite number ({value})")
    return Fraction(str(value))


def _substitute(node: Node, values: Mapping[str, float | Fraction]) -> Node:
    numbers: dict[str, Node] = {
        name: Number(_exact(value), _plain(value)) for name, value in values.items()
    }
    return replace_symbols(node, numbers)


def grade_number(
    expected: str | Expression,
    answer: str,
    tolerance: Tolerance | None = None,
    *,
    values: Mapping[str, float | Fraction] | None = None,
    table: SymbolTable | None = None,
) -> Verdict:
    """Grade a numeric answer. ``expected`` is a constant expression, or a formula whose
    variables ``values`` supplies (a numeric card's template with its drawn parameters); the
    verdict then carries the worked computation."""
    table = table or DEFAULT_TABLE
    try:
        formula = (
            expected
            if isinstance(expected, Expression)
            else parse(expected, table.with_strictness(False))
        )
    except FormulaError as error:
        raise GradingError(f"the reference formula does not parse: {error}") from error
    worked = ""
    reference = formula
    if values:
        missing = formula.free_symbols - set(values)
        if missing:
            raise GradingError(f"no value for {', '.join(sorted(missing))}")
        worked = worked_computation(formula, values)
        tree = _substitute(formula.tree, values)
        reference = Expression(tree, to_text(tree), formula.table, True)
    elif not formula.is_constant:
        raise GradingError("a numeric reference needs values for its variables")
    return grade_constant(reference, answer, tolerance, table, worked=worked)
