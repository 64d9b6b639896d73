"""A factor left out is said as a missing factor, not as an exponent slip (found on
gradients/linreg-grad-coordinate: ``(y_hat - y)`` for ``(y_hat - y)*x_j`` was told "is an exponent
off by one?"). The exponent question stays for a power that is off by one."""

from __future__ import annotations

import pytest

from recall.formula import SymbolTable, check

TABLE = SymbolTable.build(
    {"y_hat": "real", "y": "real", "x_j": "real", "x": "real", "n": "positive"}
)


@pytest.mark.parametrize(
    ("reference", "answer", "kind", "words"),
    [
        ("(y_hat - y)*x_j", "y_hat - y", "missing-factor", "Missing a factor of x_j"),
        ("y*n", "y", "missing-factor", "Missing a factor of n"),
        ("y/n", "y", "missing-factor", "The division by n is missing"),
        ("x^2", "x^3", "exponent", "An extra factor of x: is an exponent off by one?"),
        ("x^3", "x^2", "exponent", "Missing a factor of x: is an exponent off by one?"),
        ("y/n", "y/n^2", "exponent", "Missing a factor of n: is an exponent off by one?"),
    ],
)
def test_a_left_out_factor_is_not_an_exponent_slip(
    reference: str, answer: str, kind: str, words: str
) -> None:
    verdict = check(reference, answer, TABLE)
    assert verdict.diagnosis is not None
    assert (verdict.diagnosis.kind, verdict.diagnosis.message) == (kind, words)
