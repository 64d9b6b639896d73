"""The grammar: what a learner may type, how it is read, and how errors point at the column."""

from __future__ import annotations

from fractions import Fraction

import pytest

from recall.errors import LimitError, ParseError
from recall.formula import SymbolTable, parse
from recall.formula.nodes import BinOp, Call, Constant, Number, Symbol


def text(source: str, table: SymbolTable | None = None, numeric: bool = False) -> str:
    return parse(source, table, numeric=numeric).to_text()


def value(source: str) -> Fraction:
    tree = parse(source, numeric=True).tree
    assert isinstance(tree, Number), tree
    return tree.value


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("3", Fraction(3)),
        ("0.5", Fraction(1, 2)),
        (".5", Fraction(1, 2)),
        ("1e-8", Fraction(1, 10**8)),
        ("6.4e9", Fraction(6_400_000_000)),
        ("6.4×10^9", Fraction(6_400_000_000)),
        ("6.4x10^9", Fraction(6_400_000_000)),
        ("6.4 × 10^-3", Fraction(64, 10_000)),
        ("6.4 billion", Fraction(6_400_000_000)),
        ("6.4B", Fraction(6_400_000_000)),
        ("512k", Fraction(512_000)),
        ("4M", Fraction(4_000_000)),
        ("2T", Fraction(2 * 10**12)),
        ("1,000,000", Fraction(1_000_000)),
        ("40%", Fraction(2, 5)),
        ("3 million", Fraction(3_000_000)),
    ],
)
def test_numbers_in_numeric_answers(typed: str, expected: Fraction) -> None:
    assert value(typed) == expected


def test_suffix_letters_are_variables_in_formulas() -> None:
    tree = parse("2M").tree
    assert tree == BinOp("*", Number(Fraction(2), "2"), Symbol("M"))


def test_commas_separate_arguments_inside_calls() -> None:
    tree = parse("max(1,000)").tree
    assert isinstance(tree, Call) and tree.name == "max" and len(tree.args) == 2


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("2x", "2*x"),
        ("2 x", "2*x"),
        ("(a+b)(a-b)", "(a + b)*(a - b)"),
        ("x(1-x)", "x*(1 - x)"),
        ("2sqrt(x)", "2*sqrt(x)"),
        ("a b", "a*b"),
        ("-x^2", "-x^2"),
        ("2^3^2", "2^3^2"),
        ("x**2", "x^2"),
        ("x²", "x^2"),
        ("a·b×c", "a*b*c"),
        ("a − b", "a - b"),
        ("|x - 1|", "abs(x - 1)"),
        ("tanh^2(x)", "tanh(x)^2"),
        ("ln(x)", "log(x)"),
        ("√x", "sqrt(x)"),
        ("[a + b] c", "(a + b)*c"),
        ("x^-1", "x^(-1)"),
    ],
)
def test_forgiving_syntax(typed: str, read: str) -> None:
    assert text(typed) == read


def test_power_is_right_associative_and_binds_tighter_than_unary_minus() -> None:
    assert parse("2^3^2").tree == BinOp(
        "^",
        Number(Fraction(2), "2"),
        BinOp("^", Number(Fraction(3), "3"), Number(Fraction(2), "2")),
    )
    from recall.formula.numeric import evaluate_constant

    assert evaluate_constant(parse("-2^2")) == -4
    assert evaluate_constant(parse("2^3^2")) == 512


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("σ", "sigma"),
        ("sigma", "sigma"),
        ("η", "eta"),
        ("ϵ", "epsilon"),
        ("ε", "epsilon"),
        ("d_k", "d_k"),
        ("beta_1", "beta_1"),
        ("m_hat", "m_hat"),
        ("y_bar", "y_bar"),
        ("σ_1", "sigma_1"),
        ("f'", "f'"),
    ],
)
def test_names(typed: str, name: str) -> None:
    assert parse(typed).tree == Symbol(name)


@pytest.mark.parametrize("name", ["lambda", "gamma", "beta", "E", "N", "S", "Q"])
def test_names_that_mean_something_to_python_or_sympy_are_plain_variables(name: str) -> None:
    assert parse(name).tree == Symbol(name)


def test_multi_letter_names_are_one_symbol() -> None:
    assert parse("Vd").tree == Symbol("Vd")


def test_constants_and_e_as_a_variable() -> None:
    assert parse("pi").tree == Constant("pi")
    assert parse("π").tree == Constant("pi")
    assert parse("e").tree == Constant("e")
    table = SymbolTable.build({"e": "real"})
    assert parse("e", table).tree == Symbol("e")


def test_card_declared_function_alias_and_unknown_function() -> None:
    table = SymbolTable.build({"x": "real"}, {"sigma": "sigmoid", "f": "unknown"})
    tree = parse("sigma(x) + f(x)", table).tree
    assert isinstance(tree, BinOp)
    assert tree.left == Call("sigmoid", (Symbol("x"),), "sigma")
    assert tree.right == Call("f", (Symbol("x"),), "f")


def test_sigma_is_a_variable_unless_declared_a_function() -> None:
    assert parse("sigma^2").tree == BinOp("^", Symbol("sigma"), Number(Fraction(2), "2"))


def error_of(source: str, table: SymbolTable | None = None) -> ParseError:
    with pytest.raises(ParseError) as caught:
        parse(source, table)
    return caught.value


@pytest.mark.parametrize(
    ("typed", "fragment", "column"),
    [
        ("(x + 1", "unbalanced parenthesis", 0),
        ("x + 1)", "unbalanced parenthesis", 5),
        ("sigmoyd(x)", "unknown function 'sigmoyd' (did you mean sigmoid?)", 0),
        ("x +", "ends too early", 3),
        ("", "empty answer", 0),
        ("2 $ 3", "unexpected character '$'", 2),
        ("x = 2", "without '='", 2),
        ("sqrt", "'sqrt' is a function", 0),
        ("log(x, 2)", "log() takes 1 argument, not 2", 0),
        ("2 3", "two numbers in a row", 2),
        ("(x]", "'(' is closed by ']'", 2),
        ("|x", "absolute value needs a closing", 0),
        ("x_", "subscript", 1),
    ],
)
def test_errors_name_the_problem_and_its_column(typed: str, fragment: str, column: int) -> None:
    error = error_of(typed)
    assert fragment in error.message
    assert error.column == column
    if typed:
        assert error.caret().splitlines()[1] == " " * column + "^"


def test_variable_used_as_a_function_with_two_arguments() -> None:
    table = SymbolTable.build({"x": "real", "y": "real"})
    error = error_of("x(1, y)", table)
    assert "'x' is used as a function but the card declares it a variable" in error.message


def test_unknown_name_suggests_a_product_of_declared_names() -> None:
    # one-letter names side by side are read as their product (test_formula_juxtaposed.py);
    # a run with a longer name in it is asked about
    table = SymbolTable.build({"TP": "positive integer", "FP": "positive integer"})
    error = error_of("2 TPFP", table)
    assert "did you mean TP*FP?" in error.message
    assert error.column == 2


def test_unknown_name_suggests_a_close_name() -> None:
    table = SymbolTable.build({"sigma": "positive"})
    assert "did you mean sigma?" in error_of("sigam^2", table).message


def test_percent_outside_numeric_answers_is_refused() -> None:
    assert "%" in error_of("40%").message


@pytest.mark.parametrize(
    ("typed", "kind"),
    [
        ("x" * 2001, "too long"),
        ("(" * 100 + "x" + ")" * 100, "nested too deeply"),
        ("-" * 200 + "x", "nested too deeply"),
        ("9^9^9^9", "exponent too large"),
        ("10^10^10", "exponent too large"),
        ("x^(10^100)", "exponent too large"),
        ("(10^5000)^3", "out of range"),
        ("1" * 60, "number too long"),
        ("1e99999", "exponent too large"),
        ("+".join(["x"] * 400), "too long"),
    ],
)
def test_limits(typed: str, kind: str) -> None:
    with pytest.raises(LimitError) as caught:
        parse(typed)
    assert kind in caught.value.message


@pytest.mark.parametrize(
    "typed",
    ["__import__('os').system('true')", "().__class__", "lambda: 0", "exec('1')", "x; y", "`x`"],
)
def test_code_is_never_run_and_always_refused(typed: str) -> None:
    with pytest.raises(ParseError):
        parse(typed, SymbolTable.build({"x": "real"}))


def test_latex_input_is_detected() -> None:
    assert text(r"\frac{1}{1+e^{-x}}") == "1/(1 + e^(-x))"
    assert text(r"\sqrt{d_k}") == "sqrt(d_k)"


def test_to_text_round_trips() -> None:
    for source in [
        "a - (b - c)",
        "a/(b*c)",
        "(-x)^2",
        "-(a*b)",
        "2^-x",
        "x^(1/2)",
        "a - -b",
        "(a/b)/c",
        "a/(b/c)",
        "f(x, y)",
        "-1/2*x",
    ]:
        table = SymbolTable.build(functions={"f": "unknown"}, strict=False)
        first = parse(source, table)
        again = parse(first.to_text(), table)
        assert again.tree == first.tree or again.to_text() == first.to_text(), source
