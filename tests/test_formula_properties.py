"""Properties of the parser and printer, over text Hypothesis makes up.

1. Whatever the text, :func:`recall.formula.parse` either returns an expression or raises one of
   our own :class:`recall.errors.FormulaError` types: never ``RecursionError``, ``ValueError``,
   ``OverflowError`` or anything from SymPy. The same for the LaTeX translator.
2. :func:`recall.formula.preview`, called on every keystroke, never raises at all.
3. Printing an expression as plain text and reading it back gives the same expression: the text
   is a fixed point of parse-then-print, and :func:`check` judges the two equivalent.
"""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from recall.errors import FormulaError, GradingError, ParseError
from recall.formula import SymbolTable, check, parse, preview, render
from recall.formula.latex import latex_to_plain

PLAIN_TOKENS = [
    *"0123456789",
    ".",
    "x",
    "y",
    "z",
    "e",
    "pi",
    "σ",
    "π",
    "sigma",
    "beta_1",
    "m_hat_t",
    "f'",
    *"+-*/^()[]|,",
    "**",
    "·",
    "×",
    "−",
    " ",
    "sqrt(",
    "exp(",
    "log(",
    "ln(",
    "log2(",
    "sin^2(",
    "tanh(",
    "sigmoid(",
    "softplus(",
    "Phi(",
    "relu(",
    "max(",
    "min(",
    "binom(",
    "abs(",
    "1e9",
    "6.4 billion",
    "512k",
    "1,000",
    "40%",
]
LATEX_TOKENS = [
    r"\frac",
    r"\dfrac",
    r"\sqrt",
    "{",
    "}",
    "[",
    "]",
    "^",
    "_",
    r"\hat",
    r"\bar",
    r"\sigma",
    r"\log",
    r"\exp",
    r"\left(",
    r"\right)",
    r"\left|",
    r"\right|",
    r"\cdot",
    r"\times",
    r"\,",
    r"\mathrm",
    r"\text",
    r"\|",
    "\\",
    "x",
    "1",
    "2",
    "+",
    "-",
    "(",
    ")",
    "|",
    " ",
]

TABLE = SymbolTable.build(variables={"x": "real", "y": "real", "z": "real"})

PROPERTY_SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _parse_or_our_error(text: str, table: SymbolTable | None) -> None:
    try:
        expression = parse(text, table)
    except FormulaError:
        return
    assert expression.to_text()


@PROPERTY_SETTINGS
@given(st.text(max_size=80))
def test_parse_raises_only_our_errors_on_any_text(text: str) -> None:
    _parse_or_our_error(text, None)
    _parse_or_our_error(text, TABLE)


@PROPERTY_SETTINGS
@given(st.lists(st.sampled_from(PLAIN_TOKENS), max_size=30).map("".join))
def test_parse_raises_only_our_errors_on_grammar_alphabet(text: str) -> None:
    _parse_or_our_error(text, None)
    _parse_or_our_error(text, TABLE)


@PROPERTY_SETTINGS
@given(st.lists(st.sampled_from(PLAIN_TOKENS), max_size=30).map("".join))
def test_preview_never_raises_on_grammar_alphabet(text: str) -> None:
    shown = preview(text, TABLE)
    assert shown.ok or shown.message


@PROPERTY_SETTINGS
@given(st.lists(st.sampled_from(LATEX_TOKENS), max_size=30).map("".join))
def test_latex_raises_only_our_errors(text: str) -> None:
    try:
        plain = latex_to_plain(text)
    except ParseError:
        pass
    else:
        assert isinstance(plain, str)
    _parse_or_our_error(text, None)


# -- well-formed expressions, built from the grammar -------------------------------------------

LEAVES = st.one_of(
    st.sampled_from(["x", "y", "z", "pi", "e"]),
    st.integers(min_value=0, max_value=10**6).map(str),
    st.sampled_from(["0.5", "0.1", ".25", "1e-8", "6.4e9", "3.14159", "100.4"]),
)
UNARY = ["exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "softplus", "abs", "Phi", "relu"]
BINARY_FUNCTIONS = ["max", "min"]


def _combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    pair = st.tuples(children, children)
    return st.one_of(
        st.tuples(pair, st.sampled_from(["+", "-", "*", "/", " + ", " * "])).map(
            lambda t: f"({t[0][0]}){t[1]}({t[0][1]})"
        ),
        children.map(lambda a: f"-({a})"),
        st.tuples(children, st.integers(min_value=0, max_value=4)).map(
            lambda t: f"({t[0]})^{t[1]}"
        ),
        st.tuples(st.sampled_from(UNARY), children).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(st.sampled_from(BINARY_FUNCTIONS), pair).map(
            lambda t: f"{t[0]}({t[1][0]}, {t[1][1]})"
        ),
        pair.map(lambda p: f"2({p[0]})({p[1]})"),
        children.map(lambda a: f"|{a}|"),
    )


EXPRESSIONS = st.recursive(LEAVES, _combine, max_leaves=8)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRESSIONS)
def test_printed_text_reads_back_as_the_same_expression(text: str) -> None:
    try:
        expression = parse(text, TABLE)
    except FormulaError:
        return  # a bound (size, depth) was hit: not what this property is about
    printed = expression.to_text()
    again = parse(printed, TABLE)
    assert again.to_text() == printed, "printing is not a fixed point of parse-then-print"
    try:
        verdict = check(text, printed, TABLE)
    except GradingError:
        # A constant reference whose value is past the engine's bounds (exp(6.4e9)): a broken
        # card, reported as such, not an answer to grade.
        assume(not expression.is_constant)
        raise
    assert verdict.is_correct, f"{text!r} printed as {printed!r}: {verdict.message}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EXPRESSIONS)
def test_rendering_never_fails_on_a_parsed_expression(text: str) -> None:
    try:
        expression = parse(text, TABLE)
    except FormulaError:
        return
    assert render(expression).strip()
