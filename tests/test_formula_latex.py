"""LaTeX input → recall's plain typed syntax: what each construct becomes, where errors point."""

from __future__ import annotations

import pytest

from recall.errors import LimitError, ParseError
from recall.formula.latex import MAX_DEPTH, latex_to_plain, looks_like_latex

TRANSLATIONS = [
    # fractions and roots
    (r"\frac{1}{1+e^{-x}}", "((1)/(1+e^(-x)))"),
    (r"\dfrac{a}{b}", "((a)/(b))"),
    (r"\tfrac{a}{b}", "((a)/(b))"),
    (r"\frac12", "((1)/(2))"),
    (r"\frac{\eta}{2}", "((eta)/(2))"),
    (r"\sqrt{x}", "sqrt(x)"),
    (r"\sqrt d", "sqrt(d)"),
    (r"\sqrt{d_k}", "sqrt(d_k)"),
    (r"\sqrt[3]{x}", "(sign(x)*abs(x)^(1/3))"),
    (r"\sqrt[3]{-8}", "(sign(-8)*abs(-8)^(1/3))"),
    (r"\sqrt[4]{x}", "(x)^(1/(4))"),
    (r"\sqrt[n]{x+1}", "(x+1)^(1/(n))"),
    (r"\sqrt{x}^2", "sqrt(x)^2"),
    # scripts
    (r"x^{2}", "x^(2)"),
    (r"e^{x}", "e^(x)"),
    (r"x^2", "x^2"),
    (r"x^10", "x^10"),
    (r"x^-1", "x^-1"),
    (r"(2\pi)^{-d/2}", "(2 pi)^(-d/2)"),
    (r"d_{k}", "d_k"),
    (r"a_{i}", "a_i"),
    (r"W_{up}", "W_up"),
    (r"W_{\text{up}}", "W_up"),
    (r"d_model", "d_model"),
    (r"\beta_{1}", "beta_1"),
    (r"\beta_1^t", "beta_1^t"),
    (r"x^2_1", "x_1^2"),
    (r"x _1", "x_1"),
    (r"f^{\prime}(x)", "f'(x)"),
    (r"f'(x)", "f'(x)"),
    # accents
    (r"\hat{m}", "m_hat"),
    (r"\bar{y}", "y_bar"),
    (r"\tilde{x}", "x_tilde"),
    (r"\overline{y}", "y_bar"),
    (r"\hat{m}_t", "m_hat_t"),
    (r"\hat m_t", "m_hat_t"),
    (r"\hat{m_t}", "m_hat_t"),
    (r"\hat{\theta}", "theta_hat"),
    (r"\bar\alpha_t", "alpha_bar_t"),
    # operators
    (r"a\cdot b", "a*b"),
    (r"a \times b", "a*b"),
    (r"\gamma\odot x", "gamma*x"),
    (r"a \div b", "a/b"),
    (r"6.4\times10^9", "6.4*10^9"),
    (r"40\%", "40%"),
    # delimiters
    (r"\left( x+1 \right)^2", "(x+1)^2"),
    (r"\big(x\big)", "(x)"),
    (r"\Bigl[x\Bigr]", "[x]"),
    (r"\{a+b\}", "(a+b)"),
    (r"\left\{a\right\}", "(a)"),
    (r"\left(x\right.", "(x"),
    # absolute values
    (r"\lvert x \rvert", "abs(x)"),
    (r"|x|", "abs(x)"),
    (r"\left| x \right|", "abs(x)"),
    (r"|a-b|+|c|", "abs(a-b)+abs(c)"),
    (r"|-x|", "abs(-x)"),
    (r"2|x|", "2 abs(x)"),
    # Greek letters
    (r"\sigma", "sigma"),
    (r"\epsilon", "epsilon"),
    (r"\varepsilon", "epsilon"),
    (r"\phi", "phi"),
    (r"\varphi", "phi"),
    (r"\Phi(x)", "Phi(x)"),
    (r"\pi", "pi"),
    (r"\lambda\theta", "lambda theta"),
    (r"\sigma(x)", "sigma(x)"),
    # functions
    (r"\log x", "log(x)"),
    (r"\log(x)", "log(x)"),
    (r"\log x^2", "log(x^2)"),
    (r"\log \sigma^2", "log(sigma^2)"),
    (r"\log_2 x", "log2(x)"),
    (r"\log_{10}(x)", "log10(x)"),
    (r"\ln 2", "ln(2)"),
    (r"\exp{x}", "exp(x)"),
    (r"\exp\!\big(-x\big)", "exp(-x)"),
    (r"\sin^2 x", "sin^2(x)"),
    (r"\tanh(x)", "tanh(x)"),
    (r"\max(0, x)", "max(0,x)"),
    (r"\min\{a, b\}", "min(a,b)"),
    (r"\cos(\pi\tau)", "cos(pi tau)"),
    (r"\log x y", "log(x y)"),
    (r"\log 2\pi e\sigma^2", "log(2 pi e sigma^2)"),
    (r"\ln 2x", "ln(2 x)"),
    (r"\cos 2\theta", "cos(2 theta)"),
    (r"\sin x \cos x", "sin(x) cos(x)"),
    (r"\sin x + 1", "sin(x)+1"),
    (r"\log x \cdot y", "log(x)*y"),
    (r"\log p(x)", "log(p(x))"),
    (r"\log\sigma(r_w - r_l)", "log(sigma(r_w-r_l))"),
    (r"\log \frac{p}{q}", "log(((p)/(q)))"),
    (r"\log\log x", "log(log(x))"),
    (r"\ln|x|", "ln(abs(x))"),
    (r"\ln\lvert x\rvert", "ln(abs(x))"),
    (r"\ln\left|x\right| + 1", "ln(abs(x))+1"),
    (r"\sin^{2}(x)", "sin^2(x)"),
    (r"\sinh x", "sinh(x)"),
    (r"\cosh(x)", "cosh(x)"),
    (r"\binom{n}{k}", "binom(n, k)"),
    (r"\binom nk", "binom(n, k)"),
    # names in styles
    (r"\operatorname{softmax}(z)", "softmax(z)"),
    (r"\mathrm{softmax}(z)", "softmax(z)"),
    (r"\text{softmax}(z)", "softmax(z)"),
    (r"\mathbf{x}", "x"),
    (r"\mathrm{e}^{x}", "e^(x)"),
    (r"6.4\text{ billion}", "6.4 billion"),
    # spacing
    (r"x\,\Phi(x)", "x Phi(x)"),
    (r"a\;b", "a b"),
    (r"a\quad b", "a b"),
    (r"a\!b", "a b"),
    (r"x y", "x y"),
    (r"\pi r^2", "pi r^2"),
    (r"2\pi", "2 pi"),
    (r"2x", "2x"),
    (r"1e-8\cdot x", "1e-8*x"),
    (r"$\frac{a}{b}$", "((a)/(b))"),
    # sheet formulas
    (
        r"\frac{\hat m_t}{\sqrt{\hat v_t}+\epsilon}",
        "((m_hat_t)/(sqrt(v_hat_t)+epsilon))",
    ),
    (r"\sqrt{1-\bar\alpha_t}\,\epsilon", "sqrt(1-alpha_bar_t) epsilon"),
    (r"\beta_1 m_{prev} + (1-\beta_1) g_t", "beta_1 m_prev+(1-beta_1) g_t"),
    (
        r"\gamma\frac{x-\mu}{\sqrt{\sigma^2+\epsilon}}+\beta",
        "gamma((x-mu)/(sqrt(sigma^2+epsilon)))+beta",
    ),
]


@pytest.mark.parametrize(("latex", "plain"), TRANSLATIONS, ids=[t[0] for t in TRANSLATIONS])
def test_translation(latex: str, plain: str) -> None:
    assert latex_to_plain(latex) == plain


ERRORS = [
    # (input, start of message, column)
    (r"\foo", r"unknown LaTeX command \foo", 0),
    (r"x + \foo{y}", r"unknown LaTeX command \foo", 4),
    (r"\sum_i x_i", r"unknown LaTeX command \sum", 0),
    (r"\frac{1}{2", "this '{' is never closed", 8),
    (r"\frac{1{}{2}", "this '{' is never closed", 5),
    (r"x}", "a '}' with no '{' before it", 1),
    (r"x_{t-1}", "a subscript must be letters or digits", 1),
    (r"x_{b,c}", "a subscript must be letters or digits", 1),
    (r"x_", "a subscript is missing", 1),
    (r"(x)_1", "a subscript must follow a name", 3),
    (r"\|x\|", "norms", 0),
    (r"\left\| x \right\|", "norms", 5),
    (r"\Vert x \Vert", "norms", 0),
    (r"\frac{a}", r"\frac is missing an argument", 8),
    (r"\sqrt", r"\sqrt is missing an argument", 5),
    (r"\log_3 x", "a logarithm to base 3", 4),
    (r"\max_i x", r"\max cannot take a subscript", 4),
    (r"\sin^{-1} x", r"only a whole-number power can follow \sin", 4),
    (r"\ln|x", "this '|' is never closed", 3),
    (r"\ln\left|x", r"this \left| is never closed", 3),
    (r"\hat{a+b}", r"\hat must sit on a single name", 0),
    (r"|x", "an absolute value bar", 0),
    (r"\rvert x", "a closing '|'", 0),
    (r"x^2^3", "a second superscript", 3),
    (r"x_1_2", "a second subscript", 3),
    ("x\\", "a backslash with no command", 1),
    (r"\left x", r"'x' cannot follow \left", 6),
]


@pytest.mark.parametrize(("latex", "message", "column"), ERRORS, ids=[e[0] for e in ERRORS])
def test_error_message_and_column(latex: str, message: str, column: int) -> None:
    with pytest.raises(ParseError) as caught:
        latex_to_plain(latex)
    assert caught.value.message.startswith(message)
    assert caught.value.column == column
    assert caught.value.text == latex


def test_unbalanced_brace_caret_points_at_the_brace() -> None:
    with pytest.raises(ParseError) as caught:
        latex_to_plain(r"\sqrt{x")
    assert caught.value.caret() == "\\sqrt{x\n     ^"


def test_too_long_is_a_limit_error() -> None:
    with pytest.raises(LimitError):
        latex_to_plain("x+" * 1001)


@pytest.mark.parametrize(
    "bomb",
    [
        r"\frac{" * 200 + "1",
        "{" * 1000,
        r"\sqrt" * 300 + "x",
        r"\hat" * 300 + "x",
        r"\log" * 300 + " x",
        r"\log^" * 300 + "x",
        "x^{" * 500,
        r"\sqrt[" * 250,
    ],
    ids=["frac", "braces", "sqrt", "hat", "log", "log-power", "superscript", "root-index"],
)
def test_deep_nesting_is_a_limit_error(bomb: str) -> None:
    with pytest.raises(LimitError) as caught:
        latex_to_plain(bomb)
    assert "nests deeper" in caught.value.message or "longer" in caught.value.message


def test_nesting_up_to_the_bound_is_read() -> None:
    text = "{" * (MAX_DEPTH - 1) + "x" + "}" * (MAX_DEPTH - 1)
    assert latex_to_plain(text) == "x"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (r"\frac{1}{2}", True),
        (r"\sigma", True),
        ("x^{2}", True),
        ("a_{i}", True),
        ("x^2 + 1", False),
        ("d_k", False),
        ("sqrt(x)/2", False),
        ("", False),
    ],
)
def test_looks_like_latex(text: str, expected: bool) -> None:
    assert looks_like_latex(text) is expected
