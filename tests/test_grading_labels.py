"""An equation typed where an expression is asked is graded by its right side, when its left side
is the quantity's label (``d_h = d/H``, ``α_t = 1 - β_t``, ``R² = 1 - SS_res/SS_tot``,
``w_{t+1} = w - η g``); a small number written as a word fills a cloze blank (``one``).

The class over every built-in formula and math-cloze card: its own answer, typed after the card's
own label (recall.grading.labels: the name its ``shown`` box or cloze blank follows, or the name
its prompt asks for) grades correct; after any other left side (another of its names, a name it
does not have, a function of its label, a power of it) it is *invalid*, saying which left side
was wanted, at no cost; the live preview refuses it with the same words; a wrong right side is
still wrong; a left side that is an expression (``1 - β = α``) or a chain (``x = y = z``) is
still asked about.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from recall.cards.loader import load_decks
from recall.cards.model import Card, CardKind
from recall.grading import grade
from recall.grading.expressions import without_label
from recall.grading.labels import card_labels, label_key, label_text
from recall.grading.reference import preview
from recall.paths import builtin_decks_dir


@lru_cache(maxsize=1)
def math_cards() -> list[Card]:
    return [
        card
        for deck in load_decks([builtin_decks_dir()]).decks
        for card in deck.cards
        if (card.kind is CardKind.FORMULA or (card.kind is CardKind.CLOZE and card.answer))
        and not card.params
    ]


def test_there_are_many_cards() -> None:
    assert len(math_cards()) >= 250


def labelled_cards() -> list[Card]:
    return [
        card for card in math_cards() if card_labels(card) and grade(card, card.answer).is_correct
    ]


def test_many_cards_name_their_quantity() -> None:
    assert len(labelled_cards()) >= 50


def test_an_answer_after_its_label_grades_as_the_answer() -> None:
    refused = []
    for card in labelled_cards():
        for label in set(card_labels(card).values()):
            for spelling in {label, label_text(label)}:
                verdict = grade(card, f"{spelling} = {card.answer}")
                if not verdict.is_correct:
                    refused.append(f"{card.key}: {spelling!r}: {verdict.message}")
    assert refused == []


def wrong_labels(card: Card) -> list[str]:
    """Left sides that do not name the card's quantity: its other names, a name it does not
    have, a function of its label, a power of it, a label of another card."""
    labels = card_labels(card)
    names = [spec.name for spec in card.symbols]
    own = [label_text(label) for label in labels.values()] or ["y"]
    candidates = [*names, "n", "q_z", "H", "d", "y", "alpha_bar_t", "PPL"]
    for label in own:
        candidates += [f"sqrt({label})", f"log({label})", f"{label}^3", f"exp({label})"]
        candidates += [rf"\sqrt{{{label}}}"]
    return [c for c in dict.fromkeys(candidates) if label_key(c) not in labels]


def test_a_left_side_that_is_not_the_cards_label_is_sent_back() -> None:
    credited = []
    tried = 0
    for card in math_cards():
        if not grade(card, card.answer).is_correct:
            continue
        for left in wrong_labels(card):
            tried += 1
            typed = f"{left} = {card.answer}"
            verdict = grade(card, typed)
            refused = "type only the expression" in verdict.message
            if str(verdict.status) != "invalid" or not refused:
                credited.append(f"{card.key}: {typed!r}: {verdict.status}, {verdict.message}")
            # The live preview reads the answer as Enter does: refused, with the same words.
            shown = preview(card, typed)
            if shown.ok or shown.message != verdict.message:
                credited.append(f"{card.key}: preview of {typed!r}: {shown}")
    assert tried >= 2000
    assert credited == []


@pytest.mark.parametrize(
    ("key", "typed", "wanted"),
    [
        ("attention-transformers/mha-head-width", "H = d/H", "d_h"),
        ("attention-transformers/mha-head-width", "n = d/H", "d_h"),
        ("attention-transformers/mha-head-width", "d = d/H", "d_h"),
        ("attention-transformers/mha-head-width", "d_h^2 = d/H", "d_h"),
        ("attention-transformers/mha-head-width", "sqrt(d_h) = d/H", "d_h"),
        ("attention-transformers/mha-head-width", "log(d_h) = d/H", "d_h"),
        ("attention-transformers/mha-head-width", r"\sqrt{d_h} = d/H", "d_h"),
        ("diffusion-flow/alpha-t", "alpha_bar_t = 1 - beta_t", "α_t"),
        ("diffusion-flow/alpha-t", "beta_t = 1 - beta_t", "α_t"),
        (
            "diffusion-flow/closed-form",
            "x_0 = sqrt(alpha_bar_t)*x_0 + sqrt(1 - alpha_bar_t)*epsilon",
            "x_t",
        ),
        ("activations/tanh-derivative", "tanh(x) = 1 - tanh(x)^2", ""),
        ("activations/tanh-derivative", "x = 1 - tanh(x)^2", ""),
    ],
)
def test_the_reviewers_wrong_labels_are_invalid_saying_which_is_wanted(
    key: str, typed: str, wanted: str
) -> None:
    card = next(c for c in math_cards() if c.key == key)
    verdict = grade(card, typed)
    assert str(verdict.status) == "invalid"
    assert (
        f"the left side should be {wanted}," in verdict.message
        if wanted
        else "only" in verdict.message
    )
    assert verdict.column == 0


def test_a_wrong_right_side_is_still_wrong() -> None:
    card = next(c for c in math_cards() if c.key == "attention-transformers/mha-head-width")
    assert str(grade(card, "d_h = H/d").status) == "incorrect"
    assert grade(card, "d_h = d/H").is_correct


@pytest.mark.parametrize(
    ("typed", "start", "right"),
    [
        ("d_h = d/H", 6, "d/H"),
        ("  C  =  6ND", 8, "6ND"),
        (r"w_{t+1} = w - \eta g", 10, r"w - \eta g"),
        ("σ'(x) = σ(x)(1 - σ(x))", 8, "σ(x)(1 - σ(x))"),
    ],
)
def test_the_right_side_and_where_it_starts(typed: str, start: int, right: str) -> None:
    assert without_label(typed) == (start, right)
    assert typed[start:].rstrip() == right


@pytest.mark.parametrize(
    "typed", ["1 - β = α", "x = y = z", "a b = c", "x <= 2", "x == 2", "2x = 4", "= x", "x ="]
)
def test_an_expression_or_a_chain_on_the_left_is_not_a_label(typed: str) -> None:
    assert without_label(typed) == (0, typed)


def test_a_column_points_into_what_was_typed() -> None:
    card = next(c for c in math_cards() if c.key == "attention-transformers/mha-head-width")
    verdict = grade(card, "d_h = d/(H")
    assert str(verdict.status) == "invalid"
    assert verdict.column is not None and "d_h = d/(H"[verdict.column] == "("


@pytest.mark.parametrize(("word", "number"), [("one", "1"), ("zero", "0"), ("two", "2")])
def test_a_number_word_fills_a_cloze_blank(word: str, number: str) -> None:
    cards = [c for c in math_cards() if c.kind is CardKind.CLOZE and c.answer == number]
    assert cards
    for card in cards:
        assert grade(card, word).is_correct, card.key
        assert grade(card, word.capitalize()).is_correct, card.key


def test_a_unit_the_formula_prompt_names_is_dropped() -> None:
    card = next(c for c in math_cards() if c.key == "inference-cost/training-memory")
    assert "bytes" in card.prompt
    assert grade(card, "16N bytes").is_correct
    assert grade(card, "16 N Bytes").is_correct
    assert str(grade(card, "12N bytes").status) == "incorrect"
    other = next(c for c in math_cards() if c.key == "losses/mse-summand")
    assert str(grade(other, "(y_hat - y)^2 bytes").status) == "invalid"  # not its unit


@pytest.mark.parametrize(
    ("key", "typed", "read"),
    [
        ("attention-transformers/mha-head-width", "d_h = d/H", "d/H"),
        ("activations/silu-beta", "one", "1"),
        ("inference-cost/training-memory", "16N bytes", "16*N"),
    ],
)
def test_the_preview_reads_what_the_grader_grades(key: str, typed: str, read: str) -> None:
    from recall.grading.reference import preview

    card = next(c for c in math_cards() if c.key == key)
    shown = preview(card, typed)
    assert shown.ok and shown.interpreted == read
    assert grade(card, typed).is_correct


def test_a_preview_error_after_a_label_points_into_what_was_typed() -> None:
    from recall.grading.reference import preview

    card = next(c for c in math_cards() if c.key == "attention-transformers/mha-head-width")
    shown = preview(card, "d_h = d/(H")
    assert not shown.ok and shown.column == 8
    assert shown.caret.splitlines() == ["d_h = d/(H", " " * 8 + "^"]
