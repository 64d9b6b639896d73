"""Exact means exact: tolerance boundaries decided in rationals, constants that are formulas.

The corpus ``tests/data/exactness_corpus.jsonl`` covers these classes at scale; the cases here
pin the rules themselves, each with its neighbour on the other side of the line.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from recall.formula import Status, SymbolTable, Tolerance, check
from recall.formula.tolerance import exact_decimal


@pytest.mark.parametrize(
    ("expected", "answer", "tolerance", "status"),
    [
        ("1", "1.05", Tolerance.relative(0.05), Status.CORRECT),
        ("1", "0.95", Tolerance.relative(0.05), Status.CORRECT),
        ("1", "1.0500000001", Tolerance.relative(0.05), Status.INCORRECT),
        ("1", "0.9499999999", Tolerance.relative(0.05), Status.INCORRECT),
        ("0.3", "0.33", Tolerance.relative(0.1), Status.CORRECT),
        ("0.3", "0.27", Tolerance.relative(0.1), Status.CORRECT),
        ("10", "10.1", Tolerance.absolute(0.1), Status.CORRECT),
        ("10", "10.1000001", Tolerance.absolute(0.1), Status.INCORRECT),
        ("1.15", "1.2", Tolerance.sigfigs(2), Status.CORRECT),
        ("1.25", "1.2", Tolerance.sigfigs(2), Status.CORRECT),
        ("1.25", "1.19999", Tolerance.sigfigs(2), Status.INCORRECT),
        ("7/3", "2.3333", Tolerance.relative("0.0001"), Status.CORRECT),
    ],
)
def test_tolerance_boundaries_are_inclusive_and_exact(expected, answer, tolerance, status):
    assert check(expected, answer, tolerance=tolerance).status is status


def test_a_float_tolerance_means_the_decimal_that_was_typed() -> None:
    assert exact_decimal(0.05) == Fraction(1, 20)
    assert Tolerance.relative(0.05) == Tolerance.relative("0.05")
    assert Tolerance.relative(0.05).accepts(Fraction(1), Fraction(105, 100))
    assert not Tolerance.relative(0.05).accepts(
        Fraction(1), Fraction(105, 100) + Fraction(1, 10**30)
    )


def test_the_message_shows_the_typed_number_in_full() -> None:
    verdict = check("1", "1.0500001", tolerance=Tolerance.relative(0.05))
    assert verdict.status is Status.INCORRECT
    assert "1.0500001" in verdict.message and "5.00001%" in verdict.message


@pytest.mark.parametrize(
    ("expected", "answer", "variables", "status"),
    [
        ("1", "cos(x)^2 + sin(x)^2", {"x": "real"}, Status.CORRECT),
        ("1", "x/x", {"x": "(0.2, 3)"}, Status.CORRECT),
        ("0", "x - x", {"x": "real"}, Status.CORRECT),
        ("2", "2*log(exp(y))/y", {"y": "positive"}, Status.CORRECT),
        ("1", "cos(x)^2 - sin(x)^2", {"x": "real"}, Status.INCORRECT),
        ("2", "x + 1", {"x": "real"}, Status.INCORRECT),
        ("1", "x/x", {}, Status.INVALID),
        ("1", "y/y", {"x": "real"}, Status.INVALID),
        ("1", "1", {"x": "real"}, Status.CORRECT),
        ("1/2", "0.5", {"x": "real"}, Status.CORRECT),
    ],
)
def test_a_constant_reference_with_declared_variables_is_a_formula(
    expected, answer, variables, status
) -> None:
    table = SymbolTable.build(variables=variables)
    assert check(expected, answer, table).status is status


@pytest.mark.parametrize(
    ("expected", "answer", "variables"),
    [
        ("1", "tanh(50)", {}),
        ("1", "sigmoid(1000)", {}),
        ("1", "erf(100)", {}),
        ("0", "softplus(-1000)", {}),
        ("1", "Phi(40)", {}),
        ("x", "x*tanh(10^6)", {"x": "real"}),
        ("1", "tanh(100*x)", {"x": "(0.5, 3)"}),
        ("1", "sigmoid(100*x)", {"x": "(0.5, 3)"}),
        ("10^-20", "sin(10^-20)", {}),
        ("1", "cos(10^-12)", {}),
        ("1", "2^(10^-30)", {}),
    ],
)
def test_a_saturated_function_is_not_its_limit(expected, answer, variables) -> None:
    verdict = check(expected, answer, SymbolTable.build(variables=variables))
    assert verdict.status is Status.INCORRECT, verdict.message


@pytest.mark.parametrize(
    ("expected", "answer", "variables"),
    [
        ("1 - 2/(exp(100) + 1)", "tanh(50)", {}),
        ("1/(1 + exp(-30))", "sigmoid(30)", {}),
        ("sigmoid(-x)", "1 - sigmoid(x)", {"x": "real"}),
        ("2*sigmoid(2*x) - 1", "tanh(x)", {"x": "real"}),
        ("softplus(x) - softplus(-x)", "x", {"x": "real"}),
        ("log(sigmoid(x))", "-softplus(-x)", {"x": "real"}),
    ],
)
def test_saturating_identities_still_hold(expected, answer, variables) -> None:
    verdict = check(expected, answer, SymbolTable.build(variables=variables))
    assert verdict.status is Status.CORRECT, verdict.message


@pytest.mark.parametrize(
    ("expected", "answer", "variables"),
    [
        ("x", "sin(10^9999)", {"x": "real"}),
        ("1", "sin(10^10000)", {}),
        ("x", "tan(10^9999)*x", {"x": "real"}),
        ("x", "exp(-10^9999)", {"x": "real"}),
        ("x", "sigmoid(-10^9999)", {"x": "real"}),
        ("x", "binom(10^999, 2)", {"x": "real"}),
    ],
)
def test_an_argument_out_of_reach_is_invalid_with_the_reason(expected, answer, variables):
    verdict = check(expected, answer, SymbolTable.build(variables=variables))
    assert verdict.status is Status.INVALID
    assert "cannot be computed" in verdict.message


def test_a_near_miss_says_how_many_figures_agree() -> None:
    verdict = check("1", "tanh(50)")  # 1 - tanh(50) = 7.4e-44
    assert verdict.status is Status.INCORRECT
    assert "about 43 significant figures" in verdict.message
