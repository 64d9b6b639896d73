"""Feedback on name and fact cards says something the learner did not type (issue 12:
"'MAE' names MAE"), over every built-in reverse, word-cloze and fact card.

A line *restates* the answer when, once the typed answer and the words of judgement ("right",
"that is", "names") are taken out, nothing is left: it told the learner only what they typed.
Every line a verdict carries (its message and its diagnosis) is checked for that, for a right
answer, for a neighbour's name, and for a wrong one.
"""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from recall.cards.loader import LoadResult, load_decks
from recall.cards.matching import forms, normalise, without_head
from recall.cards.model import Card, CardKind
from recall.cards.params import format_number
from recall.cards.units import with_unit
from recall.formula import Verdict
from recall.grading import check_deck, grade, reference_answer
from recall.grading.names import card_heads
from recall.paths import builtin_decks_dir
from recall.verdicts import Status

#: Words that judge or point rather than inform.
FILLER = frozenset(
    "right correct wrong yes no that is it its this these names name means typed answer "
    "your you the a an of as and".split()
)


def restates(line: str, answer: str) -> bool:
    """Whether ``line`` says nothing but ``answer`` and words of judgement."""
    said, typed = normalise(line), normalise(answer)
    if not typed or typed not in said:
        return False
    rest = said.replace(typed, " ").split()
    return all(word in FILLER for word in rest)


def test_the_rule_catches_the_examples_of_the_issue() -> None:
    assert restates("'MAE' names MAE.", "MAE")
    assert restates("Right: MSE.", "mse")
    assert restates("That is MAE.", "MAE")
    assert not restates("Right.", "MSE")
    assert not restates("You named MAE, which is another card's answer; here it is MSE.", "MAE")


@lru_cache(maxsize=1)
def builtin() -> LoadResult:
    return load_decks([builtin_decks_dir()], check=check_deck)


def name_cards() -> list[Card]:
    return [c for c in builtin().cards if c.kind is CardKind.REVERSE or c.accept]


def fact_cards() -> list[Card]:
    return [c for c in builtin().cards if c.kind is CardKind.FACT]


def neighbours(card: Card) -> list[str]:
    deck = builtin().deck(card.deck_id)
    return [name for other in deck.cards if other.id != card.id for name in other.accept]


def lines(verdict: Verdict) -> list[str]:
    out = [verdict.message]
    if verdict.diagnosis is not None:
        out.append(verdict.diagnosis.message)
    return [line for line in out if line]


def test_there_are_cards_to_check() -> None:
    assert len(name_cards()) > 30 and len(fact_cards()) > 30


@pytest.mark.parametrize("card", name_cards(), ids=lambda c: c.key)
def test_name_card_feedback_never_restates_the_answer(card: Card) -> None:
    others = neighbours(card)
    for accepted in card.accept:
        verdict = grade(card, accepted, others=others)
        if not verdict.is_correct:
            continue  # a name that is also a neighbour's is refused; it is checked below
        for line in lines(verdict):
            assert not restates(line, accepted), (accepted, line)
    own = set().union(*(forms(name) for name in card.accept))
    clashes = 0
    for name in others:
        # "largest logit" (another card's name) is this card's "largest" when the prompt
        # itself says "the ▢ logit": the head noun is the learner's to repeat.
        said = without_head(name, card_heads(card))
        if set().union(*(forms(text) for text in said)) & own:
            continue
        verdict = grade(card, name, others=others)
        assert verdict.status is Status.INCORRECT, name
        for line in lines(verdict):
            assert not restates(line, name), (name, line)
            assert card.accept[0] in line, (name, line)  # what the card wanted, in words
        if verdict.diagnosis is not None:
            clashes += 1
            assert "another card's answer" in verdict.diagnosis.message
    assert clashes or not others
    wrong = grade(card, "quantum chromodynamics", others=others)
    assert wrong.status is Status.INCORRECT and card.accept[0] in wrong.message


@pytest.mark.parametrize("card", fact_cards(), ids=lambda c: c.key)
def test_fact_card_feedback_never_restates_the_answer(card: Card) -> None:
    expected = reference_answer(card)
    for typed in (expected, with_unit(expected, card.unit)):
        verdict = grade(card, typed)
        assert verdict.is_correct, (typed, verdict.message)
        for line in lines(verdict):
            assert not restates(line, typed), (typed, line)
    value = card.value if card.value is not None else card.value_range[1]  # type: ignore[index]
    wrong = format_number(value * 3 + 7)
    verdict = grade(card, wrong)
    assert verdict.status is Status.INCORRECT
    assert with_unit(expected, card.unit) in verdict.message
    for line in lines(verdict):
        assert not restates(line, wrong), (wrong, line)


@pytest.mark.parametrize("card", [c for c in fact_cards() if c.value], ids=lambda c: c.key)
def test_a_nearby_value_is_told_how_near(card: Card) -> None:
    assert card.value is not None
    verdict = grade(card, repr(card.value * (1 + 1e-6)))
    if verdict.is_correct:
        assert re.search(r"Right: (within|to \d+ significant)", verdict.message), verdict.message
    else:  # an exact card: the message says so
        assert "(accepted exactly)" in verdict.message, verdict.message
