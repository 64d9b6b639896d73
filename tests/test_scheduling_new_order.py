"""The order new cards are introduced in (recall.scheduling.new_order)."""

from __future__ import annotations

from collections import Counter

import pytest

from recall.cards.loader import load_decks
from recall.paths import builtin_decks_dir
from recall.scheduling import sibling_group
from recall.scheduling.new_order import (
    SIBLING_GAP,
    NewAllowance,
    NewCard,
    NewOrder,
    held_back_by_shared_limit,
    order_new_cards,
    todays_new_cards,
)


@pytest.fixture(scope="module")
def builtin_cards() -> tuple[list[NewCard], list[str]]:
    result = load_decks([builtin_decks_dir()])
    assert result.ok
    cards = [
        NewCard(
            deck=card.deck_id,
            card=card.id,
            topic=card.topic or deck.topic,
            position=card.line,
            sibling_group=sibling_group(card.id),
            sheet=card.source,
        )
        for deck in result.decks
        for card in deck.cards
    ]
    return cards, [deck.id for deck in result.decks]


def _deck(
    deck: str, n: int, topic: str = "", groups: dict[int, str] | None = None
) -> list[NewCard]:
    groups = groups or {}
    return [
        NewCard(deck, f"c{i}", topic or deck, position=i, sibling_group=groups.get(i))
        for i in range(n)
    ]


def test_builtin_first_twenty_span_at_least_eight_decks(builtin_cards) -> None:
    cards, deck_order = builtin_cards
    assert len(deck_order) == 17
    ordered = order_new_cards(cards, seed=739_000, deck_order=deck_order)
    first = todays_new_cards(ordered, NewAllowance(20))
    assert len(first) == 20
    assert len({card.deck for card in first}) >= 8


@pytest.mark.parametrize("order", list(NewOrder))
def test_every_order_is_a_permutation_of_the_cards(builtin_cards, order: NewOrder) -> None:
    cards, deck_order = builtin_cards
    ordered = order_new_cards(cards, order, seed=3, deck_order=deck_order)
    assert sorted(c.key for c in ordered) == sorted(c.key for c in cards)
    assert len(ordered) == len(cards)


@pytest.mark.parametrize("order", [NewOrder.GATHERED, NewOrder.RANDOM])
def test_seeded_orders_are_reproducible_and_vary_with_the_seed(builtin_cards, order) -> None:
    cards, deck_order = builtin_cards
    one = order_new_cards(cards, order, seed=739_000, deck_order=deck_order)
    again = order_new_cards(list(reversed(cards)), order, seed=739_000, deck_order=deck_order)
    other = order_new_cards(cards, order, seed=739_001, deck_order=deck_order)
    assert [c.key for c in one] == [c.key for c in again]
    assert [c.key for c in one] != [c.key for c in other]


def test_gathered_keeps_file_order_within_each_deck(builtin_cards) -> None:
    cards, deck_order = builtin_cards
    ordered = order_new_cards(cards, seed=11, deck_order=deck_order)
    for deck in deck_order:
        positions = [c.position for c in ordered if c.deck == deck]
        assert positions == sorted(positions)


def test_gathered_visits_every_topic_before_any_twice() -> None:
    cards = _deck("a", 5, "T1") + _deck("b", 5, "T1") + _deck("c", 5, "T2") + _deck("d", 1, "T3")
    ordered = order_new_cards(cards, seed=5)
    first_round = ordered[:3]
    assert {c.topic for c in first_round} == {"T1", "T2", "T3"}
    # Within topic T1, decks a and b alternate.
    t1 = [c.deck for c in ordered if c.topic == "T1"]
    assert all(t1[i] != t1[i + 1] for i in range(0, len(t1) - 1, 2))


def test_deck_order_follows_the_given_deck_order() -> None:
    cards = _deck("a", 3) + _deck("b", 2)
    ordered = order_new_cards(cards, NewOrder.DECK, deck_order=["b", "a"])
    assert [c.key for c in ordered] == ["b/c0", "b/c1", "a/c0", "a/c1", "a/c2"]


def test_topic_order_finishes_a_topic_before_the_next() -> None:
    cards = _deck("a", 2, "T1") + _deck("c", 2, "T2") + _deck("b", 2, "T1")
    ordered = order_new_cards(cards, NewOrder.TOPIC)
    assert [c.topic for c in ordered] == ["T1", "T1", "T1", "T1", "T2", "T2"]
    assert [c.deck for c in ordered[:4]] == ["a", "b", "a", "b"]


def test_sheet_order_follows_the_source_sheets() -> None:
    cards = [
        NewCard("x", "1", sheet="Cheatsheet › Gaussians", position=1),
        NewCard("x", "2", sheet="Formula sheet › Losses", position=2),
        NewCard("y", "1", sheet="Cheatsheet › Alignment", position=1),
        NewCard("y", "2", sheet="", position=2),
        NewCard("y", "3", sheet="Cheatsheet › Gaussians; Formula sheet › Losses", position=3),
    ]
    ordered = order_new_cards(cards, NewOrder.SHEET)
    assert [c.key for c in ordered] == ["x/1", "y/3", "y/1", "x/2", "y/2"]


def test_random_and_gathered_keep_siblings_apart() -> None:
    groups = {0: "g", 1: "g", 2: "g", 3: "h", 4: "h"}
    cards = _deck("a", 12, groups=groups)
    for order in (NewOrder.RANDOM, NewOrder.GATHERED):
        for seed in range(20):
            ordered = order_new_cards(cards, order, seed=seed)
            for i, card in enumerate(ordered):
                near = ordered[max(0, i - SIBLING_GAP) : i]
                assert card.group is None or all(o.group != card.group for o in near), (
                    order,
                    seed,
                    [c.key for c in ordered],
                )


def test_today_takes_one_card_per_sibling_group() -> None:
    cards = _deck("a", 6, groups={0: "g", 1: "g", 2: "g"})
    ordered = order_new_cards(cards, NewOrder.DECK)
    today = todays_new_cards(ordered, NewAllowance(4))
    assert [c.card for c in today] == ["c0", "c3", "c4", "c5"]
    seen = todays_new_cards(ordered, NewAllowance(4), groups_seen_today={("a", "g")})
    assert [c.card for c in seen] == ["c3", "c4", "c5"]


def test_same_group_name_in_two_decks_are_not_siblings() -> None:
    cards = _deck("a", 2, groups={0: "g", 1: "g"}) + _deck("b", 1, groups={0: "g"})
    today = todays_new_cards(order_new_cards(cards, NewOrder.DECK), NewAllowance(10))
    assert [c.key for c in today] == ["a/c0", "b/c0"]


def test_per_deck_limits_sit_under_the_daily_one() -> None:
    cards = _deck("a", 10) + _deck("b", 10) + _deck("c", 10)
    ordered = order_new_cards(cards, NewOrder.DECK)
    allowance = NewAllowance.left(12, 0, deck_limits={"a": 3, "b": -1})
    today = todays_new_cards(ordered, allowance)
    counts = Counter(c.deck for c in today)
    assert counts == {"a": 3, "b": 9}
    assert len(today) == 12


def test_allowance_left_subtracts_what_was_spent_today() -> None:
    allowance = NewAllowance.left(20, 18, {"a": 5, "b": 2}, {"a": 1, "b": 4})
    assert allowance.total == 2
    assert allowance.for_deck("a") == 2  # its own 4 left, but the daily has only 2
    assert allowance.for_deck("b") == 0
    assert allowance.for_deck("z") == 2
    assert todays_new_cards(_deck("b", 3), allowance) == []
    assert NewAllowance.left(-1, 50).total > 10_000  # no daily limit


def test_nothing_when_the_daily_allowance_is_spent() -> None:
    cards = _deck("a", 3)
    assert todays_new_cards(cards, NewAllowance(0)) == []


def test_cards_held_back_by_the_shared_limit() -> None:
    cards = _deck("a", 3) + _deck("b", 7)
    spent = NewAllowance.left(20, 20, {"b": 5})
    assert held_back_by_shared_limit(cards, spent, "a") == 3
    assert held_back_by_shared_limit(cards, spent, "b") == 5  # its own limit still allows 5
    assert held_back_by_shared_limit(cards, NewAllowance.left(20, 20, {"a": 0}), "a") == 0
    assert held_back_by_shared_limit(cards, NewAllowance.left(20, 3), "a") == 0  # not spent


def test_unknown_order_is_refused() -> None:
    with pytest.raises(ValueError):
        order_new_cards(_deck("a", 1), "alphabetical")
