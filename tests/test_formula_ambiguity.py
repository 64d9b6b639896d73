"""An implicit product right after a divisor is named, not graded (issue 18, item 3).

The ambiguous class, as ``docs/syntax.md`` defines it: a division ``a/b`` whose divisor ``b``
does not end in a bracket, followed directly by an operand with no operator between (``x/2y``,
``1/2σ^2``, ``1/2 x``, ``x/2(y+1)``, ``1/√2 x``). recall's grammar would read ``(a/b)·c``; many
people mean ``a/(b c)``. The answer is *invalid* (it costs nothing) and the message gives both
readings, each of which must parse to what it says. Not in the class: an explicit operator
(``x/2*y``) or a divisor that ends in a bracket (``1/(2π) exp(-x)``, ``1/sqrt(2) x``).
"""

from __future__ import annotations

import itertools
import re

import pytest

from recall.errors import ParseError
from recall.formula import SymbolTable, check, parse

TABLE = SymbolTable.build()
NUMERATORS = ["x", "1", "2x", "(x + 1)", "a b"]
DIVISORS = ["2", "y", "σ", "2^k", "√2", "σ^2"]
FOLLOWERS = ["y", "σ^2", "(y + 1)", "sqrt(y)", "exp(-y)"]
SPACES = ["", " "]
AMBIGUOUS = [
    f"{n}/{d}{s}{f}"
    for n, d, f, s in itertools.product(NUMERATORS, DIVISORS, FOLLOWERS, SPACES)
    # "yy" would be one name, "σ(y + 1)" a call of sigma: neither is an implicit product
    if not (s == "" and d[-1].isalpha() and (f[0].isalpha() or f[0] == "("))
]


def readings(message: str) -> tuple[str, str]:
    found = re.match(r"read as (.*): did you mean (.*)\?", message)
    assert found, message
    return found.group(1), found.group(2)


def test_the_class_is_large() -> None:
    assert len(AMBIGUOUS) >= 200
    assert {"x/2y", "1/2σ^2", "1/2 y", "x/2(y + 1)"} <= set(AMBIGUOUS)


@pytest.mark.parametrize("typed", AMBIGUOUS)
def test_the_reading_is_named_and_both_are_offered(typed: str) -> None:
    with pytest.raises(ParseError) as asked:
        parse(typed, TABLE)
    taken, meant = readings(str(asked.value).rsplit(" (at column", 1)[0])
    numerator, rest = typed.split("/", 1)
    explicit = next(
        f"({numerator})/({d})*({rest[len(d) :].strip()})"
        for d in DIVISORS
        if rest.startswith(d)
        if rest[len(d) :].strip() in FOLLOWERS
    )
    joint = next(
        f"({numerator})/(({d})*({rest[len(d) :].strip()}))"
        for d in DIVISORS
        if rest.startswith(d) and rest[len(d) :].strip() in FOLLOWERS
    )
    assert check(explicit, taken.replace("·", "*"), TABLE).is_correct, (typed, taken)
    assert check(joint, meant, TABLE).is_correct, (typed, meant)


def test_the_issue_examples_are_invalid_with_the_question() -> None:
    for typed, question in (
        ("x/2y", "read as (x/2)·y: did you mean x/(2y)?"),
        ("1/2σ^2", "read as (1/2)·σ^2: did you mean 1/(2σ^2)?"),
    ):
        for reference in ("x/(2*y)", "x*y/2", "1/(2*sigma^2)", "sigma^2/2"):
            verdict = check(reference, typed, TABLE)
            assert str(verdict.status) == "invalid"
        assert question in check("x/(2*y)" if "y" in typed else "sigma^2/2", typed, TABLE).message


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("x/2*y", "(x/2)*y"),
        ("x/(2y)", "x/(2*y)"),
        ("1/(2π) exp(-x)", "exp(-x)/(2*pi)"),
        ("1/sqrt(2π) exp(-x^2/2)", "exp(-x^2/2)/sqrt(2*pi)"),
        ("(x/2)y", "x*y/2"),
        ("x/2 + y", "x/2 + y"),
        ("2x/3", "2*x/3"),
        ("1/σ^(2) x", "x/sigma^2"),
    ],
)
def test_an_explicit_operator_or_bracket_is_not_ambiguous(typed: str, meant: str) -> None:
    assert check(meant, typed, TABLE).is_correct


@pytest.mark.parametrize(
    ("reference", "typed"),
    [
        ("x/(2*y)", "x/2y"),
        ("x*y/2", "x/2y"),
        ("1/(2*sigma^2)", "1/2σ^2"),
        ("log(p^2)", "log p^2"),
        ("log(p)^2", "log p^2"),
        ("log(x/2)", "log x/2"),
    ],
)
def test_a_question_is_asked_when_one_reading_is_right(reference: str, typed: str) -> None:
    table = SymbolTable.build({"x": "real", "y": "positive", "p": "positive", "sigma": "positive"})
    verdict = check(reference, typed, table)
    assert str(verdict.status) == "invalid"


@pytest.mark.parametrize(
    ("reference", "typed"),
    [
        ("x + 1", "x/2y"),
        ("1/sqrt(2*y)", "1/2y"),
        ("exp(y/2)*x", "x + exp(y)/2 x"),
        ("(x^2 + y - log(y) - 1)/2", "(x^2 + y - log y^2 + 1)/2"),
        ("log(x)", "log x/2"),
    ],
)
def test_an_answer_wrong_either_way_is_graded_wrong(reference: str, typed: str) -> None:
    """Asking which reading was meant helps only when one of them is right: when none is, the
    answer is graded as recall reads it, and the message says both readings are wrong."""
    table = SymbolTable.build({"x": "positive", "y": "positive"})
    verdict = check(reference, typed, table)
    assert str(verdict.status) == "incorrect", verdict.message
    assert "Wrong either way it is read:" in verdict.message
    assert verdict.interpreted  # the reading graded, shown
