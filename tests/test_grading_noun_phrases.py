"""A word answer is read with the article and the head noun a learner naturally types.

The class (issue 18, item 2): every reverse and word-cloze card of the built-in decks. "a ▢
prior" is answered "a Laplace prior" or "the Laplace distribution"; "Name this loss" is
answered "the Huber loss"; "every ▢ token" is answered "previous token". The head noun comes
from the card's own prompt (:func:`recall.cards.matching.head_phrases`), so a custom deck gets
the same reading. Typed with another card's name instead, the phrase is still wrong, and a typo
is judged on the name alone ("the PPO loss" is not one letter off "DPO loss").
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from recall.cards.loader import load_decks
from recall.cards.matching import forms, head_phrases, is_symbolic, match_name
from recall.cards.model import Card, CardKind
from recall.grading import grade
from recall.grading.names import card_heads
from recall.paths import builtin_decks_dir


@lru_cache(maxsize=1)
def decks():
    return load_decks([builtin_decks_dir()]).decks


def word_cards() -> list[Card]:
    return [
        card
        for deck in decks()
        for card in deck.cards
        if card.kind in (CardKind.REVERSE, CardKind.CLOZE) and not card.answer and card.accept
    ]


def neighbours(card: Card) -> list[str]:
    """What the drill screen passes as ``others`` (Workspace.neighbour_names)."""
    deck = next(deck for deck in decks() if deck.id == card.deck_id)
    return [name for other in deck.cards if other.id != card.id for name in other.accept]


HEADED = [card for card in word_cards() if card_heads(card)]


def test_most_word_cards_have_a_head_noun() -> None:
    assert len(HEADED) >= 120
    assert len(HEADED) >= 0.7 * len(word_cards())


@pytest.mark.parametrize("card", HEADED, ids=[card.key for card in HEADED])
def test_every_name_with_an_article_and_the_head_noun_is_right(card: Card) -> None:
    head = card_heads(card)[0]
    for name in card.accept:
        if is_symbolic(name):
            continue  # "(0, 1)", "-inf": their punctuation is the answer
        for article in ("a", "an", "the"):
            typed = f"{article} {name} {head}"
            verdict = grade(card, typed, others=neighbours(card))
            assert verdict.is_correct, f"{card.key}: {typed!r} -> {verdict.message}"


@pytest.mark.parametrize("card", HEADED, ids=[card.key for card in HEADED])
def test_another_cards_name_with_the_head_noun_is_still_wrong(card: Card) -> None:
    mine = set().union(*(forms(name) for name in card.accept))
    heads = card_heads(card)
    for deck in decks():
        if deck.id != card.deck_id:
            continue
        for other in deck.cards:
            for name in other.accept:
                if other is card or forms(name) & mine:
                    continue
                bare = match_name(name, card.accept)
                phrase = match_name(f"the {name} {heads[0]}", card.accept, (), heads)
                assert phrase.accepted == bare.accepted, (card.key, name, phrase)


def test_the_issue_examples() -> None:
    card = next(c for c in word_cards() if c.key == "regularization/l1-prior")
    assert {"prior", "distribution"} <= set(card_heads(card))
    for typed in ("a Laplace prior", "the Laplace distribution", "Laplace", "a Laplacian prior"):
        assert grade(card, typed, others=neighbours(card)).is_correct, typed
    for typed in ("a Gaussian prior", "the normal distribution", "a prior"):
        assert not grade(card, typed, others=neighbours(card)).is_correct, typed


@pytest.mark.parametrize(
    ("text", "heads"),
    [
        ("corresponds to a {{}} prior on the weights.", {"prior", "prior on the weights"}),
        ("Decode is {{}}-bound: each step", {"bound"}),
        ("Name this regularised objective.", {"objective", "regularised objective"}),
        ("This is the derivative of which activation?", {"activation", "function"}),
        ("Name the activation this approximates.", {"activation"}),
        ("Name the quantity on the right-hand side.", {"quantity"}),
        ("P is a number of stages. What does this fraction measure?", {"fraction"}),
        ("Name this optimizer (the standard one for transformers).", {"optimizer"}),
        ("Name this.", set()),
    ],
)
def test_head_phrases_come_from_the_prompt(text: str, heads: set[str]) -> None:
    assert set(head_phrases(text)) >= heads
    if not heads:
        assert head_phrases(text) == ()
    assert "one" not in head_phrases(text)


def test_a_typo_is_judged_on_the_name_not_the_phrase() -> None:
    heads = head_phrases("Name this loss.")
    assert not match_name("the PPO loss", ["DPO", "DPO loss"], (), heads).accepted
    assert match_name("the DPO loss", ["DPO", "DPO loss"], (), heads).accepted
    assert match_name("the Hubber loss", ["Huber", "Huber loss"], (), heads).how == "typo"


def long_name(card: Card) -> str | None:
    """A name of the card long enough for a typo to be forgiven (six letters or more)."""
    for name in card.accept:
        if not is_symbolic(name) and forms(name) and len(min(forms(name), key=len)) >= 6:
            return name
    return None


TYPO_CARDS = [card for card in word_cards() if long_name(card)]


@pytest.mark.parametrize("card", TYPO_CARDS, ids=[card.key for card in TYPO_CARDS])
def test_a_forgiven_typo_is_right_and_says_the_spelling(card: Card) -> None:
    """``preceeding`` for ``preceding``: accepted, and the message spells it."""
    name = long_name(card)
    assert name is not None
    middle = len(name) // 2
    while not name[middle].isalpha():
        middle += 1
    typed = name[:middle] + name[middle] + name[middle:]  # one letter typed twice
    verdict = grade(card, typed, others=neighbours(card))
    if verdict.is_correct:
        assert "spelled" in verdict.message, (card.key, typed, verdict.message)
        spelled = verdict.message.split("spelled ", 1)[1].rstrip(".")
        assert spelled in card.accept
    else:  # never forgiven toward a neighbour's name: the verdict names the clash
        assert "different card" in verdict.message or "wants" in verdict.message


def test_preceeding_is_right_and_spelled() -> None:
    card = next(c for c in word_cards() if c.key == "generative-models/ar-factorization")
    verdict = grade(card, "preceeding", others=neighbours(card))
    assert verdict.is_correct
    assert "spelled preceding" in verdict.message
    assert grade(card, "the previous token", others=neighbours(card)).is_correct
