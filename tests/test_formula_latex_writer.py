"""The LaTeX writer: what Anki's MathJax draws for a formula, read back to the same formula."""

from __future__ import annotations

import pytest

from recall.cards.loader import load_decks
from recall.cards.model import CardKind
from recall.formula.latex import latex_to_plain
from recall.formula.latex_writer import name_latex, to_latex
from recall.formula.parser import parse
from recall.grading.anki_fields import EXPORT_SEED, note_fields
from recall.grading.expressions import card_table
from recall.paths import builtin_decks_dir


def test_every_built_in_formula_reads_back_from_its_latex() -> None:
    result = load_decks([builtin_decks_dir()])
    checked = 0
    for card in result.cards:
        if card.kind in (CardKind.FORMULA, CardKind.NUMERIC) and card.answer:
            table = card_table(card)
            expression = parse(card.answer, table)
            latex = to_latex(expression.tree)
            again = parse(latex_to_plain(latex), table)
            assert again.to_text() == expression.to_text(), (card.key, latex)
            checked += 1
    assert checked > 200


@pytest.mark.parametrize(
    ("typed", "latex"),
    [
        ("1/(1 + exp(-x))", r"\frac{1}{1 + \exp\left(-x\right)}"),
        ("sqrt(d_k)", r"\sqrt{d_{k}}"),
        ("m_hat_t", r"\hat{m}_{t}"),
        ("alpha_bar_t", r"\bar{\alpha}_{t}"),
        ("(a + b)^2", r"{\left(a + b\right)}^{2}"),
        ("a - (b - c)", r"a - \left(b - c\right)"),
        (
            "sigmoid(x)*(1 - sigmoid(x))",
            r"\operatorname{sigmoid}\left(x\right) \cdot "
            r"\left(1 - \operatorname{sigmoid}\left(x\right)\right)",
        ),
        ("abs(x)", r"\left|x\right|"),
        ("0.5*x", r"0.5 \cdot x"),
    ],
)
def test_latex_of_typical_forms(typed: str, latex: str) -> None:
    assert to_latex(parse(typed).tree) == latex


def test_names() -> None:
    assert name_latex("sigma") == r"\sigma"
    assert name_latex("lr") == r"\mathrm{lr}"
    assert name_latex("x_0") == "x_{0}"


def test_anki_fields_write_formulas_for_mathjax_and_name_the_seed_of_numbers() -> None:
    result = load_decks([builtin_decks_dir()])
    formula = next(c for c in result.cards if c.kind is CardKind.FORMULA)
    fields = note_fields(formula)
    assert fields.answer.startswith("\\(") and fields.answer.endswith("\\)")
    assert "<" not in fields.prompt.replace("<br>", "")
    numeric = next(c for c in result.cards if c.kind is CardKind.NUMERIC and c.params)
    first, second = note_fields(numeric), note_fields(numeric)
    assert first == second  # one fixed instance
    assert first.seed == EXPORT_SEED
    assert f"seed {EXPORT_SEED}" in first.answer
    assert "{" not in first.prompt  # the parameters are filled in
