"""Naming the part that is wrong: realistic slips on the built-in decks' formulas.

Each row is a reference from a built-in deck, an answer with one typical mistake, the kind of
part the engine must name, and the part itself (as typed, in the answer; or in the reference,
for a part that is missing). Each was checked by hand: the named part is where the slip is.
The engine's verdict carries the part with its path and the span of the "read as" text, which
``recall check`` underlines and ``--json`` prints.
"""

from __future__ import annotations

import json

import pytest

from recall.formula import Status, SymbolTable, check, highlight_verdict, parse
from recall.formula.highlight import highlight
from recall.formula.locate import locate

TABLE = [
    ("1/(1 + exp(-x))", "1/(1 + exp(x))", {"x": "real"}, "sign", "x"),
    (
        "sigmoid(x)*(1 - sigmoid(x))",
        "sigmoid(x)*(1 + sigmoid(x))",
        {"x": "real"},
        "sign",
        "+ sigmoid(x)",
    ),
    ("1 - tanh(x)^2", "1 - tanh(x)", {"x": "real"}, "exponent", "tanh(x)"),
    ("1 - tanh(x)^2", "1 + tanh(x)^2", {"x": "real"}, "sign", "+ tanh(x)^2"),
    ("2*sigmoid(2*x) - 1", "2*sigmoid(x) - 1", {"x": "real"}, "constant", "x"),
    (
        "x*sigmoid(beta*x)",
        "x*sigmoid(x)",
        {"x": "real", "beta": "positive"},
        "missing-factor",
        "beta",
    ),
    (
        "0.5*x*(1 + tanh(sqrt(2/pi)*(x + 0.044715*x^3)))",
        "0.5*x*(1 + tanh(sqrt(2/pi)*(x + 0.0447*x^3)))",
        {"x": "real"},
        "rounded-constant",
        "0.0447",
    ),
    (
        "0.5*x*(1 + tanh(sqrt(2/pi)*(x + 0.044715*x^3)))",
        "0.5*x*(1 + tanh(sqrt(2/pi)*(x + 0.044715*x^2)))",
        {"x": "real"},
        "exponent",
        "x^2",
    ),
    (
        "0.5*x*(1 + tanh(sqrt(2/pi)*(x + 0.044715*x^3)))",
        "0.5*x*(1 + tanh(sqrt(2*pi)*(x + 0.044715*x^3)))",
        {"x": "real"},
        "reciprocal",
        "pi",
    ),
    (
        "sigmoid(x)*(1 + x*(1 - sigmoid(x)))",
        "sigmoid(x)*(1 + x*(1 + sigmoid(x)))",
        {"x": "real"},
        "sign",
        "+ sigmoid(x)",
    ),
    (
        "exp(z_1)/(exp(z_1) + exp(z_2) + exp(z_3))",
        "exp(z_1)/(exp(z_2) + exp(z_3))",
        {"z_1": "real", "z_2": "real", "z_3": "real"},
        "missing-term",
        "+ exp(z_1)",
    ),
    ("p_i*(1 - p_i)", "p_i*(1 - p_i)^2", {"p_i": "(0, 1)"}, "exponent", "(1 - p_i)^2"),
    (
        "-log(sigmoid(r_w - r_l))",
        "-log(sigmoid(r_l - r_w))",
        {"r_w": "real", "r_l": "real"},
        "sign",
        "+ r_l",
    ),
    ("log(1 + exp(-margin))", "log(1 + exp(margin))", {"margin": "real"}, "sign", "margin"),
    (
        "r - beta*log(pi_theta/pi_ref)",
        "r + beta*log(pi_theta/pi_ref)",
        {"r": "real", "beta": "positive", "pi_theta": "(0, 1)", "pi_ref": "(0, 1)"},
        "sign",
        "+ beta*log(pi_theta/pi_ref)",
    ),
    (
        "r - beta*log(pi_theta/pi_ref)",
        "r - beta*log(pi_ref/pi_theta)",
        {"r": "real", "beta": "positive", "pi_theta": "(0, 1)", "pi_ref": "(0, 1)"},
        "sign",
        "- beta*log(pi_ref/pi_theta)",
    ),
    (
        "pi_ref*exp(r/beta)/Z",
        "pi_ref*exp(r*beta)/Z",
        {"pi_ref": "(0, 1)", "r": "real", "beta": "positive", "Z": "positive"},
        "reciprocal",
        "beta",
    ),
    (
        "(r_i - r_bar)/s_r",
        "(r_i - r_bar)/s_r^2",
        {"r_i": "real", "r_bar": "real", "s_r": "positive"},
        "exponent",
        "s_r^2",
    ),
    (
        "s/sqrt(d_k) + M",
        "s/d_k + M",
        {"s": "real", "d_k": "positive", "M": "real"},
        "square-root",
        "d_k",
    ),
    (
        "s/sqrt(d_k) + M",
        "s/sqrt(d_k)",
        {"s": "real", "d_k": "positive", "M": "real"},
        "missing-term",
        "+ M",
    ),
    (
        "s/sqrt(d_k) + M",
        "s*sqrt(d_k) + M",
        {"s": "real", "d_k": "positive", "M": "real"},
        "reciprocal",
        "sqrt(d_k)",
    ),
    ("n^2*d", "n*d^2", {"n": "positive integer", "d": "positive integer"}, "exponent", "n"),
    (
        "10000^(-2*i/d)",
        "10000^(2*i/d)",
        {"i": "positive integer", "d": "positive integer"},
        "sign",
        "2*i/d",
    ),
    (
        "sqrt(1 - beta_t)*x_prev",
        "(1 - beta_t)*x_prev",
        {"beta_t": "(0, 1)", "x_prev": "real"},
        "square-root",
        "1 - beta_t",
    ),
    (
        "sqrt(alpha_bar_t)*x_0 + sqrt(1 - alpha_bar_t)*epsilon",
        "sqrt(alpha_bar_t)*x_0 + (1 - alpha_bar_t)*epsilon",
        {"alpha_bar_t": "(0, 1)", "x_0": "real", "epsilon": "real"},
        "square-root",
        "1 - alpha_bar_t",
    ),
    (
        "sqrt(alpha_bar_t)*x_0 + sqrt(1 - alpha_bar_t)*epsilon",
        "alpha_bar_t*x_0 + sqrt(1 - alpha_bar_t)*epsilon",
        {"alpha_bar_t": "(0, 1)", "x_0": "real", "epsilon": "real"},
        "square-root",
        "alpha_bar_t",
    ),
    (
        "sqrt(alpha_bar_t)*x_0 + sqrt(1 - alpha_bar_t)*epsilon",
        "sqrt(alpha_bar_t)*x_0 - sqrt(1 - alpha_bar_t)*epsilon",
        {"alpha_bar_t": "(0, 1)", "x_0": "real", "epsilon": "real"},
        "sign",
        "- sqrt(1 - alpha_bar_t)*epsilon",
    ),
    (
        "(x_t - sqrt(1 - alpha_bar_t)*epsilon)/sqrt(alpha_bar_t)",
        "(x_t - sqrt(1 - alpha_bar_t)*epsilon)/alpha_bar_t",
        {"x_t": "real", "alpha_bar_t": "(0, 1)", "epsilon": "real"},
        "square-root",
        "alpha_bar_t",
    ),
    (
        "cos((t/T + s)/(1 + s)*pi/2)^2",
        "cos((t/T + s)/(1 + s)*pi/2)",
        {"t": "positive", "T": "positive", "s": "(0, 1)"},
        "exponent",
        "cos((t/T + s)/(1 + s)*pi/2)",
    ),
    (
        "-p*log(p) - (1 - p)*log(1 - p)",
        "-p*log(p) + (1 - p)*log(1 - p)",
        {"p": "(0, 1)"},
        "sign",
        "+ (1 - p)*log(1 - p)",
    ),
    (
        "-p*log(p) - (1 - p)*log(1 - p)",
        "-p*log(p)",
        {"p": "(0, 1)"},
        "missing-term",
        "- (1 - p)*log(1 - p)",
    ),
    (
        "-p*log(p) - (1 - p)*log(1 - p)",
        "-p*log2(p) - (1 - p)*log(1 - p)",
        {"p": "(0, 1)"},
        "function",
        "log2(p)",
    ),
    (
        "exp(-(x - mu)^2/(2*sigma^2))/(sigma*sqrt(2*pi))",
        "exp(-(x - mu)^2/(2*sigma))/(sigma*sqrt(2*pi))",
        {"x": "real", "mu": "real", "sigma": "positive"},
        "exponent",
        "sigma",
    ),
    (
        "exp(-(x - mu)^2/(2*sigma^2))/(sigma*sqrt(2*pi))",
        "exp(-(x - mu)^2/(2*sigma^2))/(sigma*sqrt(pi))",
        {"x": "real", "mu": "real", "sigma": "positive"},
        "factor",
        "sqrt(pi)",
    ),
    (
        "exp(-(x - mu)^2/(2*sigma^2))/(sigma*sqrt(2*pi))",
        "exp(-(x - mu)^2/(2*sigma^2))/(sigma^2*sqrt(2*pi))",
        {"x": "real", "mu": "real", "sigma": "positive"},
        "exponent",
        "sigma^2",
    ),
    (
        "exp(-(x - mu)^2/(2*sigma^2))/(sigma*sqrt(2*pi))",
        "exp(-(x + mu)^2/(2*sigma^2))/(sigma*sqrt(2*pi))",
        {"x": "real", "mu": "real", "sigma": "positive"},
        "sign",
        "+ mu",
    ),
    (
        "log(sigma_2/sigma_1) + (sigma_1^2 + (mu_1 - mu_2)^2)/(2*sigma_2^2) - 1/2",
        "log(sigma_2/sigma_1) + (sigma_1^2 + (mu_1 - mu_2)^2)/(2*sigma_2^2)",
        {"sigma_1": "positive", "sigma_2": "positive", "mu_1": "real", "mu_2": "real"},
        "missing-term",
        "- 1/2",
    ),
    (
        "log(sigma_2/sigma_1) + (sigma_1^2 + (mu_1 - mu_2)^2)/(2*sigma_2^2) - 1/2",
        "log(sigma_1/sigma_2) + (sigma_1^2 + (mu_1 - mu_2)^2)/(2*sigma_2^2) - 1/2",
        {"sigma_1": "positive", "sigma_2": "positive", "mu_1": "real", "mu_2": "real"},
        "sign",
        "+ log(sigma_1/sigma_2)",
    ),
    (
        "m/(1 - beta_1^t)",
        "m/(1 - beta_1)",
        {"m": "real", "beta_1": "(0, 1)", "t": "positive integer"},
        "factor",
        "beta_1",
    ),
    (
        "theta - eta*m_hat/(sqrt(v_hat) + epsilon)",
        "theta - eta*m_hat/(v_hat + epsilon)",
        {
            "theta": "real",
            "eta": "positive",
            "m_hat": "real",
            "v_hat": "positive",
            "epsilon": "positive",
        },
        "square-root",
        "v_hat",
    ),
    (
        "theta - eta*m_hat/(sqrt(v_hat) + epsilon)",
        "theta + eta*m_hat/(sqrt(v_hat) + epsilon)",
        {
            "theta": "real",
            "eta": "positive",
            "m_hat": "real",
            "v_hat": "positive",
            "epsilon": "positive",
        },
        "sign",
        "+ eta*m_hat/(sqrt(v_hat) + epsilon)",
    ),
    (
        "theta - eta*m_hat/(sqrt(v_hat) + epsilon)",
        "theta - eta*m_hat/sqrt(v_hat + epsilon)",
        {
            "theta": "real",
            "eta": "positive",
            "m_hat": "real",
            "v_hat": "positive",
            "epsilon": "positive",
        },
        "factor",
        "1/sqrt(v_hat + epsilon)",
    ),
    (
        "beta*m + (1 - beta)*g",
        "beta*m + (1 - beta)*g^2",
        {"beta": "(0, 1)", "m": "real", "g": "real"},
        "exponent",
        "g^2",
    ),
    (
        "beta*m + (1 - beta)*g",
        "beta*m + beta*g",
        {"beta": "(0, 1)", "m": "real", "g": "real"},
        "factor",
        "beta",
    ),
    (
        "(x - mu)/sqrt(var + epsilon)",
        "(x - mu)/(var + epsilon)",
        {"x": "real", "mu": "real", "var": "positive", "epsilon": "positive"},
        "square-root",
        "var + epsilon",
    ),
    (
        "(x - mu)/sqrt(var + epsilon)",
        "(x - mu)/sqrt(var)",
        {"x": "real", "mu": "real", "var": "positive", "epsilon": "positive"},
        "missing-term",
        "+ epsilon",
    ),
    ("2*P*R/(P + R)", "P*R/(P + R)", {"P": "(0, 1)", "R": "(0, 1)"}, "constant", "P*R/(P + R)"),
    ("6*N*D", "6*N*D^2", {"N": "positive", "D": "positive"}, "exponent", "D^2"),
    ("lambda*w", "lambda*w^2", {"lambda": "positive", "w": "real"}, "exponent", "w^2"),
    (
        "L + V*d",
        "L + V*d + V*d",
        {"L": "positive", "V": "positive", "d": "positive"},
        "extra-term",
        "+ V*d",
    ),
]


@pytest.mark.parametrize(("expected", "answer", "variables", "kind", "named"), TABLE)
def test_the_smallest_differing_part_is_named(expected, answer, variables, kind, named) -> None:
    verdict = check(expected, answer, SymbolTable.build(variables=variables))
    assert verdict.status is Status.INCORRECT
    part = verdict.part
    assert part is not None, verdict.message
    assert part.kind == kind, part.message
    shown = part.answer_text if part.answer_path is not None else part.expected_text
    assert shown == named, part.message
    marked = highlight_verdict(verdict)
    if part.answer_path is None:
        assert marked is None
    else:
        assert marked is not None
        assert verdict.interpreted == marked.text
        # The marked span is the part itself (a term's sign is printed outside it).
        assert marked.pieces[1] == named.removeprefix("+ ").removeprefix("- ") or (
            marked.pieces[1] in named
        )


def test_the_table_is_large_enough_and_varied() -> None:
    assert len(TABLE) >= 40
    kinds = {row[3] for row in TABLE}
    assert {"sign", "exponent", "square-root", "missing-term", "extra-term"} <= kinds
    assert "rounded-constant" in kinds


def test_isolated_agreement_is_not_right_for_some_values() -> None:
    verdict = check("1 - tanh(x)", "1 - tanh(x)^2", SymbolTable.build(variables={"x": "real"}))
    assert verdict.status is Status.INCORRECT
    assert verdict.diagnosis is not None and verdict.diagnosis.kind != "partial-domain"
    assert verdict.part is not None and verdict.part.answer_text == "tanh(x)^2"


def test_a_real_partial_domain_is_still_named_as_such() -> None:
    verdict = check("sqrt(x^2)", "x", SymbolTable.build(variables={"x": "real"}))
    assert verdict.diagnosis is not None and verdict.diagnosis.kind == "partial-domain"


def test_a_rounded_constant_is_named_not_a_partial_domain() -> None:
    gelu = "0.5*x*(1 + tanh(sqrt(2/pi)*(x + 0.044715*x^3)))"
    verdict = check(
        gelu, gelu.replace("0.044715", "0.0447"), SymbolTable.build(variables={"x": "real"})
    )
    assert verdict.diagnosis is not None and verdict.diagnosis.kind == "rounded-constant"
    assert "0.0447 for 0.044715" in verdict.message


def test_counterexample_values_are_printed_so_they_differ() -> None:
    verdict = check("x", "x + 10^-9*x", SymbolTable.build(variables={"x": "(0.2, 3)"}))
    assert verdict.status is Status.INCORRECT
    detail = verdict.message.split("the reference is ", 1)[1]
    reference_text, answer_text = detail.rstrip(").").split(" but your answer gives ")
    assert reference_text != answer_text


def test_a_difference_too_small_to_print_is_given_as_a_size() -> None:
    verdict = check("1", "sigmoid(100*x)", SymbolTable.build(variables={"x": "(0.5, 3)"}))
    assert verdict.status is Status.INCORRECT
    assert "differs from it by -" in verdict.message and "e-" in verdict.message


def test_the_verdict_json_carries_the_path_and_span() -> None:
    table = SymbolTable.build(variables={"a": "positive", "b": "positive"})
    data = json.loads(json.dumps(check("a/sqrt(b)", "a/b", table).to_dict()))
    assert data["part"]["answer_path"] == [1]
    assert data["part"]["answer_span"] == [2, 3]
    assert data["part"]["kind"] == "square-root"


def test_highlight_marks_a_subtree_of_the_printed_text() -> None:
    tree = parse(
        "a + b*c^2", SymbolTable.build(variables={"a": "real", "b": "real", "c": "real"})
    ).tree
    marked = highlight(tree, (1, 1))
    assert marked is not None
    assert marked.pieces == ("a + b*", "c^2", "")
    assert marked.marker == "      ^^^"
    assert highlight(tree, (5,)) is None


def test_locate_says_nothing_when_nothing_lines_up() -> None:
    table = SymbolTable.build(variables={"b": "(0, 1)", "t": "positive integer"})
    assert locate(parse("(1 - b)^t", table).tree, parse("sin(b) + t", table).tree, table) is None


@pytest.mark.parametrize(
    ("expected", "answer", "marked"),
    [
        ("(1 - b)^t", "1 - b^t", "b^t"),
        ("(1 - b)^t", "1 - b^(t)", "b^t"),
        ("(b + t)^2", "b + t^2", "t^2"),
        ("(1 + b)^(1/t)", "1 + b^(1/t)", "b^(1/t)"),
    ],
)
def test_a_power_put_on_one_term_names_the_brackets(expected, answer, marked) -> None:
    """``1 - beta^t`` for ``(1 - beta)^t`` (issue 18): the power on the one term is marked and
    the message says the power belongs to the whole bracket."""
    table = SymbolTable.build(variables={"b": "(0, 1)", "t": "positive integer"})
    verdict = check(expected, answer, table)
    assert verdict.part is not None and verdict.part.kind == "parentheses"
    found = highlight_verdict(verdict)
    assert found is not None and found.pieces[1] == marked
    assert "belongs to the whole" in verdict.message


def test_a_scaled_sum_marks_the_whole_answer() -> None:
    """``p + q`` for ``(p + q)/2`` names a part: the whole answer, off by the factor 2."""
    table = SymbolTable.build(variables={"p": "(0, 1)", "q": "(0, 1)"})
    verdict = check("(p + q)/2", "p + q", table)
    found = highlight_verdict(verdict)
    assert found is not None and found.pieces == ("", "p + q", "")
    assert "2" in verdict.message
