"""Grading each card kind through :func:`recall.grading.grade`."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from recall.cards.loader import load_deck
from recall.cards.model import Card, CardKind, Deck
from recall.cards.model import Tolerance as CardTolerance
from recall.cards.params import draw
from recall.errors import GradingError
from recall.formula import Status, Tolerance
from recall.grading import (
    Question,
    check_deck,
    engine_tolerance,
    grade,
    preview,
    reference_answer,
    symbol_table,
)

FIXTURE = Path(__file__).parent / "fixtures" / "decks" / "sample" / "sample.toml"


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load_deck(FIXTURE, check=check_deck)


# ----- formula and math cloze ----------------------------------------------------------------


def test_formula_accepts_equivalent_forms(deck: Deck) -> None:
    card = deck.card("sigmoid-derivative")
    for typed in (
        "sigma(x)*(1 - sigma(x))",
        "sigma(x) - sigma(x)^2",
        "sigmoid(x)(1-sigmoid(x))",
        "exp(-x)/(1+exp(-x))^2",
    ):
        verdict = grade(card, typed)
        assert verdict.status is Status.CORRECT, (typed, verdict)


def test_formula_rejects_a_wrong_answer_and_shows_the_reference(deck: Deck) -> None:
    verdict = grade(deck.card("sigmoid-derivative"), "sigma(x)*(1 + sigma(x))")
    assert verdict.status is Status.INCORRECT
    assert verdict.expected == "sigma(x)*(1 - sigma(x))"


def test_formula_undeclared_name_is_invalid_not_wrong(deck: Deck) -> None:
    verdict = grade(deck.card("sigmoid-derivative"), "sigma(y)")
    assert verdict.status is Status.INVALID


def test_math_cloze_is_graded_by_the_engine(deck: Deck) -> None:
    card = deck.card("sigmoid-complement")
    assert grade(card, "1 - sigmoid(x)").is_correct
    assert grade(card, "sigmoid(-x)").is_correct  # equivalent, not the same text
    assert grade(card, "sigmoid(x)").status is Status.INCORRECT


def test_symbol_table_comes_from_card_and_deck(deck: Deck) -> None:
    table = symbol_table(deck.card("sigmoid-derivative"))
    assert "x" in table.variables  # declared on the deck
    assert table.function("sigma") is not None  # declared on the card
    assert table.strict


# ----- numeric -------------------------------------------------------------------------------


def test_numeric_is_graded_from_the_recorded_seed(deck: Deck) -> None:
    card = deck.card("training-flops")
    values = draw(card.params, 7)
    right = 6 * values["N"] * values["D"]
    verdict = grade(Question.draw(card, 7), f"{right:.4e}")
    assert verdict.is_correct
    assert grade(Question.draw(card, 7), f"{right * 1.05:.4e}").status is Status.INCORRECT
    # the same answer for another seed's question is wrong (different values)
    other = draw(card.params, 8)
    assert other != values
    assert grade(Question.draw(card, 8), f"{right:.4e}").status is Status.INCORRECT


def test_numeric_worked_computation_shows_formula_values_and_result(deck: Deck) -> None:
    card = deck.card("training-flops")
    values = draw(card.params, 3)
    question = Question.draw(card, 3)
    verdict = grade(question, "1")
    lines = verdict.worked.splitlines()
    assert lines[0] == "6*N*D"
    assert lines[1].startswith("N = ") and ", D = " in lines[1]
    assert lines[2].startswith("= 6*")
    assert lines[3].endswith(" FLOPs")
    assert question.values == values
    assert question.expected.is_constant
    assert question.worked == verdict.worked


def test_numeric_needs_a_seed(deck: Deck) -> None:
    with pytest.raises(GradingError):
        grade(deck.card("training-flops"), "1e20")


def test_numeric_accepts_words_and_suffixes(deck: Deck) -> None:
    card = replace(deck.card("training-flops"), tolerance=CardTolerance("relative", 0.02))
    values = draw(card.params, 11)
    right = 6 * values["N"] * values["D"]
    assert grade(Question.draw(card, 11), f"{right / 1e21:.3f}e21").is_correct
    assert grade(Question.draw(card, 11), "a lot").status is Status.INVALID


# ----- fact ----------------------------------------------------------------------------------


def test_fact_value_with_exact_tolerance(deck: Deck) -> None:
    card = deck.card("adam-bytes")
    assert grade(card, "16").is_correct
    assert grade(card, "16.0").is_correct
    wrong = grade(card, "160")
    assert wrong.status is Status.INCORRECT
    assert wrong.diagnosis is not None and wrong.diagnosis.kind == "magnitude"
    assert grade(card, "sixteen").status is Status.INVALID


@pytest.mark.parametrize(
    "typed", ["1", "0.6", "1.3", "0.6-1.3", "0.6 to 1.3", "0.6–1.3", "0.6 - 1.3"]
)
def test_fact_range_accepts_inside_values_and_the_range(deck: Deck, typed: str) -> None:
    assert grade(deck.card("english-entropy"), typed).is_correct


@pytest.mark.parametrize("typed", ["2", "0.3", "0.5-1.3", "1-2"])
def test_fact_range_rejects_outside(deck: Deck, typed: str) -> None:
    assert grade(deck.card("english-entropy"), typed).status is Status.INCORRECT


def test_fact_percent_units_and_typed_percent() -> None:
    mfu = Card(
        deck_id="d",
        id="mfu",
        kind=CardKind.FACT,
        prompt="Good MFU?",
        value_range=(40, 50),
        unit="%",
    )
    assert grade(mfu, "45").is_correct
    assert grade(mfu, "45%").is_correct
    assert grade(mfu, "40-50%").is_correct
    fraction = replace(mfu, value_range=(0.4, 0.5), unit="")
    assert grade(fraction, "45%").is_correct
    assert grade(fraction, "40-50%").is_correct
    assert grade(fraction, "0.45").is_correct


def test_fact_single_value_does_not_take_a_range(deck: Deck) -> None:
    verdict = grade(deck.card("adam-bytes"), "16-20")
    assert verdict.status is Status.INCORRECT
    assert "one value" in verdict.message


def test_fact_scientific_and_words() -> None:
    lr = Card(deck_id="d", id="lr", kind=CardKind.FACT, prompt="LR?", value=3e-4)
    for typed in ("3e-4", "0.0003", "3×10^-4", "3*10^-4"):
        assert grade(lr, typed).is_correct, typed
    eps = Card(deck_id="d", id="eps", kind=CardKind.FACT, prompt="eps?", value=1e-8)
    assert grade(eps, "1e-8").is_correct  # the exponent's minus is not a range
    assert grade(eps, "1E-8").is_correct
    big = Card(deck_id="d", id="n", kind=CardKind.FACT, prompt="N?", value=7e9)
    assert grade(big, "7 billion").is_correct
    assert grade(big, "7B").is_correct


# ----- names ---------------------------------------------------------------------------------


def test_reverse_card_names(deck: Deck) -> None:
    card = deck.card("name-mse")
    assert grade(card, "Mean-squared error").is_correct
    assert grade(card, "mean sqaured error").is_correct
    others = deck.card("name-mae").accept
    confused = grade(card, "MAE", others=others)
    assert confused.status is Status.INCORRECT
    assert confused.diagnosis is not None and "MAE" in confused.diagnosis.message


def test_word_cloze(deck: Deck) -> None:
    card = deck.card("batchnorm-axis")
    assert grade(card, "Batch").is_correct
    assert grade(card, "feature").status is Status.INCORRECT


def test_blank_answer_is_invalid(deck: Deck) -> None:
    assert grade(deck.card("name-mse"), "   ").status is Status.INVALID


# ----- explain -------------------------------------------------------------------------------


def test_explain_is_self_rated(deck: Deck) -> None:
    verdict = grade(deck.card("why-ce"), "because likelihood")
    assert verdict.method == "self"
    assert verdict.status is Status.SELF
    assert "maximum" in verdict.expected
    assert grade(deck.card("adam-bytes"), "16").status == "correct"  # as the review log reads


# ----- helpers -------------------------------------------------------------------------------


def test_tolerances_convert_to_the_engine() -> None:
    assert engine_tolerance(None) == Tolerance.relative(0.01)
    assert engine_tolerance(CardTolerance("exact", 0)) == Tolerance.exact()
    assert engine_tolerance(CardTolerance("absolute", 0.5)) == Tolerance.absolute(0.5)
    assert engine_tolerance(CardTolerance("sigfigs", 3)) == Tolerance.sigfigs(3)
    with pytest.raises(GradingError):
        engine_tolerance(CardTolerance("vibes", 1))


def test_reference_answers_in_typed_form(deck: Deck) -> None:
    assert reference_answer(deck.card("english-entropy")) == "0.6 to 1.3"
    assert reference_answer(deck.card("adam-bytes")) == "16"
    assert reference_answer(deck.card("training-flops")) == "6*N*D"
    assert reference_answer(deck.card("name-mse")).startswith("mean squared error")


def test_preview_reads_with_the_card_table(deck: Deck) -> None:
    ok = preview(deck.card("sigmoid-derivative"), "sigma(x)(1-sigma(x))")
    assert ok.ok and ok.interpreted
    bad = preview(deck.card("sigmoid-derivative"), "sigma(x")
    assert not bad.ok and bad.column is not None
    number = preview(deck.card("training-flops"), "6.4 billion")
    assert number.ok
