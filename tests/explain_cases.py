"""What the explain matcher's class tests share (``test_explain_classes``,
``test_explain_negatives``): the built-in explain cards by key, and the check that a text makes
the points it states and none of those it does not."""

from __future__ import annotations

from functools import cache

from recall.cards.loader import load_decks
from recall.cards.model import Card, CardKind
from recall.grading.explain import check_explanation
from recall.paths import builtin_decks_dir


@cache
def builtin_explain_cards() -> dict[str, Card]:
    """Every built-in explain card, by its ``deck/card`` key."""
    loaded = load_decks([builtin_decks_dir()])
    assert loaded.ok, loaded.failures
    return {card.key: card for card in loaded.cards if card.kind is CardKind.EXPLAIN}


def made_points(key: str, text: str) -> set[int]:
    """The indices of the points of card ``key`` that ``text`` makes."""
    card = builtin_explain_cards()[key]
    return {i for i, outcome in enumerate(check_explanation(card, text).outcomes) if outcome.made}


def assert_points(kind: str, key: str, text: str, states: list[int], denies: list[int]) -> None:
    """``text`` makes every point of ``states`` and none of ``denies`` on card ``key``."""
    made = made_points(key, text)
    assert not [i for i in states if i not in made], f"{kind}: stated but not made {made}"
    assert not [i for i in denies if i in made], f"{kind}: not stated but made {made}"
