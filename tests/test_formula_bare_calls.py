"""``ln p``, ``sin x``, ``log 2``: a one-argument function applied to one name or number without
parentheses is read as the call, and shown so; where the argument could extend further
(``ln p^2``, ``ln p q``, ``log x/2``) the learner is asked for parentheses, at no cost.

The class: every one-argument builtin, by each of its names, with a name and with a number.
"""

from __future__ import annotations

import pytest

from recall.errors import ParseError
from recall.formula import SymbolTable, check, parse
from recall.formula.functions import BUILTINS

TABLE = SymbolTable.build(variables={"p": "(0, 1)", "x": "real", "q": "real"})
ONE_ARGUMENT = sorted(name for name, b in BUILTINS.items() if b.min_args == b.max_args == 1)


def test_there_are_functions_to_try() -> None:
    assert {"log", "exp", "sin", "sqrt", "tanh", "sigmoid"} <= set(ONE_ARGUMENT)


@pytest.mark.parametrize("name", ONE_ARGUMENT)
def test_a_bare_argument_is_read_as_the_call(name: str) -> None:
    for argument in ("p", "2"):
        bare = parse(f"{name} {argument}", TABLE)
        called = parse(f"{name}({argument})", TABLE)
        assert bare.tree == called.tree
        assert bare.to_text() == f"{name}({argument})"  # shown as read
    for typed, meant in (
        (f"{name} p + 1", f"{name}(p) + 1"),
        (f"1 - {name} p", f"1 - {name}(p)"),
        (f"({name} p)", f"{name}(p)"),
        (f"{name} p {name} q", f"{name}(p)*{name}(q)"),
    ):
        assert parse(typed, TABLE).tree == parse(meant, TABLE).tree, typed


@pytest.mark.parametrize("name", ONE_ARGUMENT)
def test_an_argument_that_could_go_on_is_asked_about(name: str) -> None:
    for typed in (f"{name} p^2", f"{name} p q", f"{name} p/2", f"{name} p*q", f"{name} 2p"):
        with pytest.raises(ParseError, match="parentheses"):
            parse(typed, TABLE)


def test_the_issue_examples_grade_right() -> None:
    entropy = "-p*log(p) - (1-p)*log(1-p)"
    assert check(entropy, "-p ln p - (1-p) ln(1-p)", TABLE).is_correct
    assert check("sin(x)*cos(x)", "sin x cos x", TABLE).is_correct
    assert check("log(x)", "log x", TABLE).is_correct


def test_unknown_functions_and_nested_calls_still_need_parentheses() -> None:
    table = SymbolTable.build(variables={"x": "real"}, functions=["f"])
    with pytest.raises(ParseError, match=r"write f\(\.\.\.\)"):
        parse("f x", table)
    with pytest.raises(ParseError, match=r"write ln\(\.\.\.\)"):
        parse("ln sin x", TABLE)


@pytest.mark.parametrize("name", ONE_ARGUMENT)
def test_a_bare_call_of_a_bracketed_call_or_an_absolute_value_is_read(name: str) -> None:
    """``log σ(z)``, ``-log sigmoid(r)``, ``log|J|``: the group says where the argument ends, so
    the call is read (and shown) when nothing binds to the group after it."""
    for typed, meant in (
        (f"{name} exp(q)", f"{name}(exp(q))"),
        (f"-{name} sigmoid(q - x)", f"-{name}(sigmoid(q - x))"),
        (f"{name}|q|", f"{name}(abs(q))"),
        (f"{name} |q| + 1", f"{name}(abs(q)) + 1"),
        (f"x - {name} exp(q)", f"x - {name}(exp(q))"),
        (f"({name} exp(q))", f"{name}(exp(q))"),
    ):
        assert parse(typed, TABLE).tree == parse(meant, TABLE).tree, typed


@pytest.mark.parametrize("name", ONE_ARGUMENT)
def test_a_bare_call_of_a_group_that_could_go_on_is_asked_about(name: str) -> None:
    for typed in (f"{name} exp(q)^2", f"{name}|q| x", f"{name} exp(q)/2", f"{name} exp(q) q"):
        with pytest.raises(ParseError, match="parentheses"):
            parse(typed, TABLE)


def test_the_held_out_examples_grade() -> None:
    table = SymbolTable.build(variables={"r_w": "real", "r_l": "real", "J": "real"})
    assert check("-log(sigmoid(r_w - r_l))", "-log sigmoid(r_w - r_l)", table).is_correct
    assert check("log(abs(J))", "log|J|", table).is_correct
    wrong = check("-log(sigmoid(r_w - r_l))", "log sigmoid(r_w - r_l)", table)
    assert str(wrong.status) == "incorrect"


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("log₂(p)", "log2(p)"),
        ("log_2(p)", "log2(p)"),
        ("log₁₀ p", "log10(p)"),
        ("log_e(p)", "log(p)"),
        ("1/log₂(x + 1)", "1/log2(x + 1)"),
    ],
)
def test_a_logarithms_base_as_a_subscript_is_read(typed: str, meant: str) -> None:
    assert check(meant, typed, TABLE).is_correct
    assert not check("log(p)" if meant != "log(p)" else "log2(p)", typed, TABLE).is_correct


def test_a_message_names_the_function_as_typed() -> None:
    with pytest.raises(ParseError, match=r"write log₂\(\.\.\.\)"):
        parse("log₂ p/2", TABLE)
