"""Numeric answers: a reference with no free variables, graded against a tolerance.

Without a tolerance the comparison is exact: decimals are exact rationals, so ``0.5`` is ``1/2``
and ``0.33`` is not ``1/3``, and a decimal approximation of an exact constant is not the
constant (the learner is told it is an approximation). With a tolerance the answer is compared
in high precision and the verdict says how far off it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import mpmath

from recall.errors import EvaluationError, FormulaError, GradingError, ParseError
from recall.formula.diagnose import diagnose_numbers
from recall.formula.evaluate import UnknownFunctions
from recall.formula.nodes import Expression, Node, Number
from recall.formula.parser import parse
from recall.formula.pointwise import Agreement, agree_at, exact_value
from recall.formula.printer import format_fraction, to_text
from recall.formula.symbols import DEFAULT_TABLE, SymbolTable
from recall.formula.tolerance import Tolerance
from recall.formula.verdict import Diagnosis, Status, Verdict

_DIGITS = 40


def evaluate_constant(expression: Expression | Node) -> float:
    """The value of an expression with no variables, as a float (``EvaluationError`` if it is
    undefined or has variables)."""
    node = expression.tree if isinstance(expression, Expression) else expression
    exact = exact_value(node)
    if exact is not None:
        return float(exact)
    value = _mp_value(node)
    if value is None:
        raise EvaluationError("the expression is undefined")
    return float(value)


def _mp_value(node: Node):
    from recall.formula.evaluate import eval_mp

    with mpmath.workdps(_DIGITS):
        try:
            value, _ = eval_mp(node, {}, UnknownFunctions(0))
        except KeyError as missing:
            raise EvaluationError(f"'{missing.args[0]}' has no value here") from None
    return value


def format_number(value: float | Fraction) -> str:
    """A readable number: integers with separators, else up to 6 significant figures."""
    if isinstance(value, Fraction) and value.denominator == 1 and abs(value) < 10**15:
        return f"{value.numerator:,}"
    number = float(value)
    if number == int(number) and abs(number) < 1e15:
        return f"{int(number):,}"
    if abs(number) >= 1e6 or (number != 0 and abs(number) < 1e-3):
        return f"{number:.6g}"
    return f"{number:.6g}"


def grade_constant(reference: Expression, answer: str, tolerance: Tolerance | None,
                   table: SymbolTable | None = None, *, worked: str = "") -> Verdict:
    """Grade a typed number (or constant expression) against a constant reference."""
    expected_text = reference.to_text()
    try:
        typed = parse(answer, _numbers_only(table), numeric=True)
    except ParseError as error:
        return Verdict(Status.INVALID, "parse", error.message, column=error.column,
                       caret=error.caret(), expected=expected_text, worked=worked)
    if not typed.is_constant:
        names = ", ".join(sorted(typed.free_symbols | typed.unknown_functions))
        return Verdict(Status.INVALID, "parse", f"a number is expected here, not an expression "
                       f"in {names}", interpreted=typed.to_text(), expected=expected_text,
                       worked=worked)
    interpreted = typed.to_text()
    tolerance = tolerance or Tolerance.exact()
    if tolerance.kind == "exact":
        return _grade_exact(reference, typed, interpreted, expected_text, worked)
    try:
        expected_value = evaluate_constant(reference)
        typed_value = evaluate_constant(typed)
    except EvaluationError as error:
        return Verdict(Status.INVALID, "tolerance", f"your answer cannot be evaluated: {error}",
                       interpreted=interpreted, expected=expected_text, worked=worked)
    except OverflowError:
        return Verdict(Status.INVALID, "tolerance", "your answer is too large to compare",
                       interpreted=interpreted, expected=expected_text, worked=worked)
    if tolerance.accepts(expected_value, typed_value):
        return Verdict(Status.CORRECT, "tolerance",
                       f"Correct ({tolerance.describe()} of {format_number(expected_value)}).",
                       interpreted=interpreted, expected=expected_text, worked=worked)
    diagnosis = diagnose_numbers(expected_value, typed_value) or _off_by(expected_value, typed_value, tolerance)
    return Verdict(Status.INCORRECT, "tolerance",
                   f"{diagnosis.message}: expected {format_number(expected_value)} "
                   f"({tolerance.describe()}), you gave {format_number(typed_value)}.",
                   interpreted=interpreted, diagnosis=diagnosis, expected=expected_text,
                   worked=worked)


def _off_by(expected: float, answer: float, tolerance: Tolerance) -> Diagnosis:
    if expected:
        percent = abs(answer - expected) / abs(expected) * 100
        return Diagnosis("tolerance", f"Off by {percent:.3g}%")
    return Diagnosis("tolerance", f"Off by {abs(answer - expected):.3g}")


def _numbers_only(table: SymbolTable | None) -> SymbolTable:
    base = table or DEFAULT_TABLE
    return base.with_strictness(True)


def _grade_exact(reference: Expression, typed: Expression, interpreted: str,
                 expected_text: str, worked: str) -> Verdict:
    agreement = agree_at(reference.tree, typed.tree, {}, UnknownFunctions(0))
    if agreement is Agreement.EQUAL:
        return Verdict(Status.CORRECT, "exact", "Correct: exactly equal.",
                       interpreted=interpreted, expected=expected_text, worked=worked)
    if agreement is Agreement.ONLY_EXPECTED_DEFINED:
        return Verdict(Status.INCORRECT, "exact", "Your answer is undefined (a division by "
                       "zero, or a root or log of a negative number).", interpreted=interpreted,
                       expected=expected_text, worked=worked)
    if agreement is not Agreement.DIFFERENT:
        raise GradingError("the reference value is undefined")
    expected_value = evaluate_constant(reference)
    typed_value = evaluate_constant(typed)
    ref_exact = exact_value(reference.tree)
    typed_exact = exact_value(typed.tree)
    if expected_value and abs(typed_value - expected_value) <= 1e-3 * abs(expected_value):
        if ref_exact is None and typed_exact is not None:
            diagnosis = Diagnosis("approximation", f"{interpreted} is a decimal approximation of "
                                  f"{expected_text}; give the exact value")
        else:
            digits = _matching_digits(expected_value, typed_value)
            diagnosis = Diagnosis("approximation", f"Close, but not exact: it agrees with the "
                                  f"reference to about {digits} significant figures")
        return Verdict(Status.INCORRECT, "exact", diagnosis.message + ".", interpreted=interpreted,
                       diagnosis=diagnosis, expected=expected_text, worked=worked)
    diagnosis = diagnose_numbers(expected_value, typed_value)
    message = "Not equal to the reference."
    if diagnosis is not None:
        message = f"{diagnosis.message}."
    return Verdict(Status.INCORRECT, "exact", message, interpreted=interpreted,
                   diagnosis=diagnosis, expected=expected_text, worked=worked)


def _matching_digits(expected: float, answer: float) -> int:
    import math

    relative = abs(answer - expected) / abs(expected)
    return max(1, int(-math.log10(relative))) if relative else 15


def worked_computation(formula: Expression, values: Mapping[str, float | Fraction]) -> str:
    """``formula``, the values substituted into it, and the result: the worked answer of a
    numeric question."""
    shown = {name: _plain(value) for name, value in values.items()}
    substituted = to_text(formula.tree, shown)
    env_tree = _substitute(formula.tree, values)
    result = evaluate_constant(env_tree)
    given = ", ".join(f"{name} = {shown[name]}" for name in sorted(shown))
    return f"{formula.to_text()}  with {given}\n= {substituted}\n= {format_number(result)}"


def _plain(value: float | Fraction) -> str:
    if isinstance(value, Fraction):
        return format_fraction(value) if value.denominator == 1 or len(format_fraction(value)) < 14 else f"{float(value):.6g}"
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.6g}"


def _substitute(node: Node, values: Mapping[str, float | Fraction]) -> Node:
    from recall.formula.nodes import BinOp, Call, Negate, Symbol

    if isinstance(node, Symbol) and node.name in values:
        value = values[node.name]
        exact = value if isinstance(value, Fraction) else Fraction(str(value))
        return Number(exact, _plain(value))
    if isinstance(node, Negate):
        return Negate(_substitute(node.operand, values))
    if isinstance(node, BinOp):
        return BinOp(node.op, _substitute(node.left, values), _substitute(node.right, values))
    if isinstance(node, Call):
        return Call(node.name, tuple(_substitute(a, values) for a in node.args), node.shown)
    return node


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
        formula = expected if isinstance(expected, Expression) else parse(
            expected, table.with_strictness(False))
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
