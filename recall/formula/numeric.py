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
from recall.formula.nodes import Node, Number, replace_symbols
from recall.formula.parser import parse
from recall.formula.pointwise import Agreement, agree_at, exact_value, precise_value
from recall.formula.printer import format_fraction, to_text
from recall.formula.symbols import DEFAULT_TABLE, SymbolTable
from recall.formula.tolerance import Tolerance
from recall.formula.verdict import Diagnosis, Status, Verdict


def _value(expression: Expression | Node) -> Any:
    node = expression.tree if isinstance(expression, Expression) else expression
    exact = exact_value(node)
    if exact is not None:
        return mpmath.mpf(exact.numerator) / exact.denominator
    try:
        return precise_value(node)
    except KeyError as missing:
        raise EvaluationError(f"'{missing.args[0]}' has no value here") from None


def evaluate_constant(expression: Expression | Node) -> float:
    """The value of an expression with no variables, as a float (``EvaluationError`` if it is
    undefined, has variables, or is beyond float64)."""
    value = _value(expression)
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
    expected_value = _value(reference)
    if expected_value is None:
        raise GradingError("the reference value is undefined")
    typed_value = _value(typed)
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
    diagnosis = diagnose_numbers(expected_value, typed_value) or _off_by(
        expected_value, typed_value, tolerance
    )
    return Verdict(
        Status.INCORRECT,
        "tolerance",
        f"{diagnosis.message}: expected {format_number(expected_value)} "
        f"({tolerance.describe()}), you gave {format_number(typed_value)}.",
        interpreted=interpreted,
        diagnosis=diagnosis,
        expected=expected_text,
        worked=worked,
    )


def _off_by(expected: Any, answer: Any, tolerance: Tolerance) -> Diagnosis:
    difference = abs(answer - expected)
    if tolerance.kind == "absolute" or not expected:
        return Diagnosis("tolerance", f"Off by {mpmath.nstr(difference, 4)}")
    percent = difference / abs(expected) * 100
    return Diagnosis("tolerance", f"Off by {mpmath.nstr(percent, 4)}%")


def _grade_exact(
    reference: Expression, typed: Expression, interpreted: str, expected_text: str, worked: str
) -> Verdict:
    _, extra_digits = constant_profile(reference.tree, typed.tree)
    agreement = agree_at(
        reference.tree, typed.tree, {}, UnknownFunctions(0), extra_digits=extra_digits
    )
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
        return Verdict(
            Status.INCORRECT,
            "undecided",
            "Not accepted: these numbers are too "
            "large or too close to tell apart within 1,500 digits.",
            interpreted=interpreted,
            expected=expected_text,
            worked=worked,
        )
    expected_value = _value(reference)
    typed_value = _value(typed)
    diagnosis = None
    if expected_value and typed_value is not None:
        relative = abs(typed_value - expected_value) / abs(expected_value)
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


def worked_computation(formula: Expression, values: Mapping[str, float | Fraction]) -> str:
    """``formula``, the values substituted into it, and the result: the worked answer of a
    numeric question."""
    shown = {name: _plain(value) for name, value in values.items()}
    substituted = to_text(formula.tree, shown)
    result = _value(_substitute(formula.tree, values))
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
