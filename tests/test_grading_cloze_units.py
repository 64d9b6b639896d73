"""A math cloze answered with the unit its prompt already names is read without it.

The class (issue 18, item 2): every math cloze of the built-in decks whose text puts words right
after the blank ("▢ bytes per parameter", "▢ FLOPs per token", "▢ degrees of freedom", "▢
parameters"). ``8 bytes`` was *invalid* ("unknown name 'bytes'"); the words are the prompt's, so
the answer is the number or expression before them. A card's own names are never dropped.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from recall.cards.loader import load_decks
from recall.cards.matching import head_phrases
from recall.cards.model import Card, CardKind
from recall.grading import grade, preview
from recall.grading.expressions import without_prompt_words
from recall.paths import builtin_decks_dir


@lru_cache(maxsize=1)
def math_clozes() -> list[Card]:
    return [
        card
        for deck in load_decks([builtin_decks_dir()]).decks
        for card in deck.cards
        if card.kind is CardKind.CLOZE and card.answer and not card.params
    ]


def own_names(card: Card) -> set[str]:
    return {s.name.casefold() for s in card.symbols} | {f.name.casefold() for f in card.functions}


UNIT_CLOZES = [
    card
    for card in math_clozes()
    if head_phrases(card.text)
    and head_phrases(card.text)[0].isalpha()
    and head_phrases(card.text)[0] not in own_names(card)
]


def test_the_class_is_not_empty() -> None:
    keys = {card.key for card in UNIT_CLOZES}
    assert "inference-cost/training-memory-adam-states" in keys
    assert len(keys) >= 10


@pytest.mark.parametrize("card", UNIT_CLOZES, ids=[card.key for card in UNIT_CLOZES])
def test_the_answer_with_the_prompts_words_is_right(card: Card) -> None:
    first_word = card.text.split("{{}}", 1)[1].split()[0].strip(".,;:()")
    for words in (first_word, *head_phrases(card.text)):
        if not words[:1].isalpha() or any(
            word.casefold() in own_names(card) for word in words.split()
        ):
            continue
        typed = f"{card.answer} {words}"
        verdict = grade(card, typed)
        assert verdict.is_correct, f"{card.key}: {typed!r} -> {verdict.status}: {verdict.message}"


def test_the_issue_example_and_its_limits() -> None:
    card = next(c for c in math_clozes() if c.key == "inference-cost/training-memory-adam-states")
    for typed in ("8 bytes", "8 bytes per parameter", "8  Bytes", "8"):
        assert grade(card, typed).is_correct, typed
    assert not grade(card, "16 bytes").is_correct
    assert str(grade(card, "8 gigabytes").status) == "invalid"  # not the prompt's word
    assert without_prompt_words(card, "bytes") == "bytes"  # never an empty answer
    shown = preview(card, "8 bytes")  # the live preview reads it as grading does
    assert shown.ok and shown.interpreted == "8"


def test_a_cards_own_name_is_never_dropped() -> None:
    card = next(c for c in math_clozes() if c.key == "activations/softmax-shift-invariance")
    assert without_prompt_words(card, "C - 1 degrees of freedom") == "C - 1"
    assert without_prompt_words(card, "C - 1 degrees") == "C - 1"
    assert without_prompt_words(card, "C - c") == "C - c"
