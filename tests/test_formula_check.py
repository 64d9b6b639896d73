"""Equivalence, near-miss diagnosis, numeric grading and rendering."""

from __future__ import annotations

import pytest

from recall.errors import GradingError
from recall.formula import (
    Status,
    SymbolTable,
    Tolerance,
    check,
    grade_number,
    parse,
    preview,
    render,
)

REAL = SymbolTable.build({"x": "real", "y": "real"})
POSITIVE = SymbolTable.build({"sigma": "positive", "x": "real"})


@pytest.mark.parametrize(
    ("expected", "answer", "table", "status"),
    [
        ("sqrt(x^2)", "x", REAL, Status.INCORRECT),
        ("sqrt(x^2)", "abs(x)", REAL, Status.CORRECT),
        ("log(sigma^2)", "2*log(sigma)", POSITIVE, Status.CORRECT),
        ("log(s^2)", "2*log(s)", SymbolTable.build({"s": "real"}), Status.INCORRECT),
        ("tanh(x)", "(exp(2x)-1)/(exp(2x)+1)", REAL, Status.CORRECT),
        ("sigmoid(-x)", "1 - sigmoid(x)", REAL, Status.CORRECT),
        ("(x+y)^2", "x^2 + y^2", REAL, Status.INCORRECT),
        ("(x+y)^2", "x^2 + 2x y + y^2", REAL, Status.CORRECT),
        ("exp(x+y)", "exp(x)*exp(y)", REAL, Status.CORRECT),
        ("x + 1/3", "x + 0.3333333333333333", REAL, Status.INCORRECT),
        ("exp(100*x) + 1", "exp(100*x)", SymbolTable.build({"x": "(0.9, 1.1)"}), Status.INCORRECT),
        ("x", "((x))", REAL, Status.CORRECT),
        ("x*y", "y x", REAL, Status.CORRECT),
    ],
)
def test_equivalence_traps(expected, answer, table, status) -> None:
    assert check(expected, answer, table).status is status


def test_structural_match_is_reported_as_such() -> None:
    verdict = check("a*b + c", "c + b*a")
    assert verdict.status is Status.CORRECT and verdict.method == "structural"


def test_numeric_match_is_confirmed_in_high_precision() -> None:
    verdict = check("sigmoid(x)*(1 - sigmoid(x))", "sigmoid(x) - sigmoid(x)^2", REAL)
    assert verdict.status is Status.CORRECT and verdict.method == "numeric"
    assert "high precision" in verdict.message


def test_sqrt_squared_is_not_the_identity_on_the_reals() -> None:
    verdict = check("x", "sqrt(x)^2", REAL)
    assert verdict.status is Status.INCORRECT
    assert "undefined" in verdict.message


def test_unknown_functions_are_generic() -> None:
    table = SymbolTable.build({"x": "real"}, {"f": "unknown"})
    assert check("f(x) + f(x)", "2 f(x)", table).is_correct
    assert check("f(2x)", "2 f(x)", table).status is Status.INCORRECT
    assert check("f(x)^2", "f(x)*f(x)", table).is_correct


@pytest.mark.parametrize(
    ("expected", "answer", "kind", "fragment"),
    [
        ("2*x", "-2*x", "sign", "sign"),
        ("x/2", "x", "factor", "factor of 2"),
        ("x + y + 1", "x + y", "missing-term", "+ 1"),
        ("x + y", "x + y + x*y", "extra-term", "x*y"),
        ("x/y", "y/x", "reciprocal", "reciprocal"),
        ("x - y", "y - x", "sign", "sign"),
        ("x^2 + 3", "x^2", "missing-term", "+ 3"),
        ("x^3", "x^2", "exponent", "exponent"),
        ("log(x^2 + 1)", "log2(x^2 + 1)", "log-base", "base"),
        ("sqrt(x^2 + 1)", "x^2 + 1", "square-root", "square"),
        ("sqrt(x^2)", "x", "partial-domain", "x > 0"),
    ],
)
def test_near_miss_diagnosis(expected, answer, kind, fragment) -> None:
    verdict = check(expected, answer, REAL)
    assert verdict.status is Status.INCORRECT
    assert verdict.diagnosis is not None, verdict.message
    assert verdict.diagnosis.kind == kind
    assert fragment in verdict.diagnosis.message


def test_swapped_variables_and_complement() -> None:
    table = SymbolTable.build({"a": "positive", "b": "positive", "p": "(0, 1)"})
    swapped = check("a - 2*b", "b - 2*a", table)
    assert swapped.diagnosis is not None and swapped.diagnosis.kind == "swapped"
    complement = check("p^2*(1 - p)", "(1 - p)^2*p", table)
    assert complement.diagnosis is not None and complement.diagnosis.kind == "complement"


def test_additive_constant() -> None:
    verdict = check("x^2 + 2", "x^2 + 5", REAL)
    assert verdict.diagnosis is not None
    assert verdict.diagnosis.kind in ("additive", "missing-term", "extra-term")


def test_invalid_answers_cost_nothing_and_point_at_the_column() -> None:
    verdict = check("x + 1", "x + (1", REAL)
    assert verdict.status is Status.INVALID
    assert verdict.column == 4
    assert "unbalanced parenthesis" in verdict.message


def test_names_outside_the_question_are_invalid_with_a_suggestion() -> None:
    verdict = check("TP*FP", "TPFP", SymbolTable.build({"TP": "positive", "FP": "positive"}))
    assert verdict.status is Status.INVALID
    assert "did you mean TP*FP?" in verdict.message


def test_a_broken_reference_is_a_grading_error_not_a_wrong_answer() -> None:
    with pytest.raises(GradingError):
        check("x +", "x")


@pytest.mark.parametrize(
    ("expected", "answer", "status"),
    [
        ("1/2", "0.5", Status.CORRECT),
        ("20.4", "100.4 - 80.0", Status.CORRECT),
        ("1/3", "0.33", Status.INCORRECT),
        ("1/3", "0.3333333", Status.INCORRECT),
        ("12345678/10000000", "1.2345679", Status.INCORRECT),
        ("pi", "3.14159", Status.INCORRECT),
        ("exp(100) + 1", "exp(100)", Status.INCORRECT),
        ("sqrt(8)", "2*sqrt(2)", Status.CORRECT),
        ("6.4e9", "6.4 billion", Status.CORRECT),
        ("6400000000", "6.4×10^9", Status.CORRECT),
        ("0.4", "40%", Status.CORRECT),
        ("1000000", "1,000,000", Status.CORRECT),
        ("2", "x", Status.INVALID),
    ],
)
def test_numbers_are_exact_without_a_tolerance(expected, answer, status) -> None:
    assert check(expected, answer).status is status


def test_decimal_approximation_of_an_exact_constant_is_named() -> None:
    verdict = check("pi", "3.14159")
    assert verdict.diagnosis is not None and verdict.diagnosis.kind == "approximation"
    assert "decimal approximation" in verdict.message


@pytest.mark.parametrize(
    ("tolerance", "answer", "status"),
    [
        (Tolerance.relative(0.01), "101", Status.CORRECT),
        (Tolerance.relative(0.01), "102", Status.INCORRECT),
        (Tolerance.absolute(0.5), "100.4", Status.CORRECT),
        (Tolerance.absolute(0.5), "99.4", Status.INCORRECT),
        (Tolerance.sigfigs(2), "100", Status.CORRECT),
        (Tolerance.sigfigs(2), "106", Status.INCORRECT),
    ],
)
def test_tolerances(tolerance, answer, status) -> None:
    assert check("100", answer, tolerance=tolerance).status is status


def test_numeric_card_worked_computation() -> None:
    verdict = grade_number(
        "6*N*D", "4.2e21", Tolerance.relative(0.02), values={"N": 7e9, "D": 1e11}
    )
    assert verdict.status is Status.CORRECT
    assert "6*N*D" in verdict.worked
    assert "N = 7000000000" in verdict.worked
    assert "4.2e+21" in verdict.worked or "4,200,000,000,000,000,000,000" in verdict.worked


def test_numeric_power_of_ten_slip_is_diagnosed() -> None:
    verdict = grade_number(
        "6*N*D", "4.2e18", Tolerance.relative(0.02), values={"N": 7e9, "D": 1e11}
    )
    assert verdict.status is Status.INCORRECT
    assert verdict.diagnosis is not None and verdict.diagnosis.kind == "magnitude"


def test_rendering_keeps_the_learners_form_and_symbols() -> None:
    drawing = render(parse("b + a"))
    assert drawing.index("b") < drawing.index("a")
    hat = render(parse("eta*m_hat/(sqrt(v_hat) + epsilon)"))
    assert "η" in hat and "m̂" in hat and "ε" in hat and "√" in hat
    assert len(hat.splitlines()) == 3  # a real fraction bar
    assert "σ" in render(parse("sigma_1^2"))


def test_preview_reads_or_points_at_the_error() -> None:
    good = preview("x^2 + 1")
    assert good.ok and good.interpreted == "x^2 + 1" and "2" in good.rendered
    bad = preview("sqrt(x")
    assert not bad.ok and bad.column == 0 and "^" in bad.caret
    assert preview("   ").ok


def test_every_sign_pattern_is_sampled() -> None:
    """log(a) must not pass for log(|a|) just because the draws of a happened to be positive."""
    table = SymbolTable.build({"a": "real", "b": "real", "x": "real"})
    for seed in range(12):
        assert (
            check("b + x - log(abs(a))", "b + x - log(a)", table, seed=seed).status
            is Status.INCORRECT
        )


def test_rounded_constant_inside_a_formula_is_named_an_approximation() -> None:
    verdict = check("sqrt(2/pi)*x", "0.7978845608*x", REAL)
    assert verdict.status is Status.INCORRECT
    assert verdict.diagnosis is not None and verdict.diagnosis.kind == "approximation"


def test_sign_function() -> None:
    assert check("w/abs(w)", "sign(w)", SymbolTable.build({"w": "real"})).is_correct


def test_defined_names_are_expanded_on_both_sides() -> None:
    table = SymbolTable.build(
        {"alpha_t": "(0, 1)", "x": "real"}, definitions={"beta_t": "1 - alpha_t"}
    )
    assert check("beta_t*x", "(1 - alpha_t)*x", table).is_correct
    assert check("(1 - alpha_t)*x", "beta_t*x", table).is_correct
    assert check("beta_t*x", "alpha_t*x", table).status is Status.INCORRECT


def test_a_self_referring_definition_is_a_grading_error() -> None:
    table = SymbolTable.build({"a": "real"}, definitions={"b": "c + 1", "c": "b"})
    with pytest.raises(GradingError):
        check("b", "a", table)


def test_a_builtin_name_cannot_be_declared_an_unknown_function() -> None:
    """Otherwise ``Phi`` declared arbitrary would still be evaluated as the normal CDF."""
    from recall.errors import FormulaError

    with pytest.raises(FormulaError, match="builtin"):
        SymbolTable.build({"x": "real"}, ["Phi"])
