"""Today's new cards are picked without ordering every new card (issue 18, item 7).

:func:`recall.scheduling.new_order.introduction_order` works the order out only as far as it is
read, so planning a day over 20,000 new cards reads a few dozen of them. The order must be the
one every card had before: the reference below is the eager ordering as it was written before
(commit e0bc3f2), each order sorted, dealt and spaced in full. Random decks, topics shared by
several decks, sibling groups, file positions with ties, partial deck orders and seeds are
compared in full and through today's pick (daily and per-deck allowances, groups already seen).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

import pytest

from recall.scheduling.new_order import (
    SIBLING_GAP,
    IntroductionOrder,
    NewAllowance,
    NewCard,
    NewOrder,
    introduction_order,
    order_new_cards,
    todays_new_cards,
)

# --------------------------------------------------------------------------- the reference


def reference_order(
    cards: Iterable[NewCard],
    order: str,
    seed: int,
    deck_order: Sequence[str] | None,
) -> list[NewCard]:
    cards = list(cards)
    rank = {deck: i for i, deck in enumerate(dict.fromkeys(deck_order or ()))}
    for card in cards:
        rank.setdefault(card.deck, len(rank))
    in_file = sorted(cards, key=lambda c: (rank[c.deck], c.position, c.card))
    rng = random.Random(f"recall-new-order:{seed}")
    if order == "deck":
        return in_file
    if order == "random":
        shuffled = list(in_file)
        rng.shuffle(shuffled)
        return _ref_apart(shuffled)
    if order == "topic":
        return [
            card
            for of_topic in _ref_grouped(in_file, lambda c: c.topic).values()
            for card in _ref_round_robin(list(_ref_grouped(of_topic, lambda c: c.deck).values()))
        ]
    if order == "sheet":
        return _ref_sheet(in_file)
    streams = {
        topic: _ref_shuffled_rounds(list(_ref_grouped(of_topic, lambda c: c.deck).values()), rng)
        for topic, of_topic in _ref_grouped(in_file, lambda c: c.topic).items()
    }
    return _ref_apart(_ref_shuffled_rounds(list(streams.values()), rng))


def _ref_grouped(
    cards: Iterable[NewCard], key: Callable[[NewCard], str]
) -> dict[str, list[NewCard]]:
    out: dict[str, list[NewCard]] = {}
    for card in cards:
        out.setdefault(key(card), []).append(card)
    return out


def _ref_round_robin(streams: Sequence[Sequence[NewCard]]) -> list[NewCard]:
    longest = max((len(s) for s in streams), default=0)
    return [s[i] for i in range(longest) for s in streams if i < len(s)]


def _ref_shuffled_rounds(streams: Sequence[Sequence[NewCard]], rng: random.Random) -> list[NewCard]:
    out: list[NewCard] = []
    indices = list(range(len(streams)))
    for index in range(max((len(s) for s in streams), default=0)):
        rng.shuffle(indices)
        out.extend(streams[i][index] for i in indices if index < len(streams[i]))
    return out


def _ref_sheet(in_file: Sequence[NewCard]) -> list[NewCard]:
    def sheet_of(card: NewCard) -> str:
        return card.sheet.split(";")[0].split("›")[0].strip()

    def section_of(card: NewCard) -> str:
        return card.sheet.split(";")[0].strip()

    known = [c for c in in_file if sheet_of(c)]
    unknown = [c for c in in_file if not sheet_of(c)]
    sheets = {s: i for i, s in enumerate(dict.fromkeys(sheet_of(c) for c in known))}
    sections = {s: i for i, s in enumerate(dict.fromkeys(section_of(c) for c in known))}
    position = {id(c): i for i, c in enumerate(in_file)}
    known.sort(key=lambda c: (sheets[sheet_of(c)], sections[section_of(c)], position[id(c)]))
    return known + unknown


def _ref_apart(cards: Sequence[NewCard], gap: int = SIBLING_GAP) -> list[NewCard]:
    rest = list(cards)
    left = Counter(card.group for card in rest if card.group is not None)
    out: list[NewCard] = []
    while rest:
        recent = {card.group for card in out[-gap:]}
        urgent = {g for g, n in left.items() if (n - 1) * (gap + 1) + 1 >= len(rest)} - recent
        chosen = next((i for i, c in enumerate(rest) if c.group in urgent), None)
        if chosen is None:
            chosen = next(
                (i for i, c in enumerate(rest) if c.group is None or c.group not in recent), 0
            )
        card = rest.pop(chosen)
        if card.group is not None:
            left[card.group] -= 1
            if not left[card.group]:
                del left[card.group]
        out.append(card)
    return out


# --------------------------------------------------------------------------- random decks


def random_cards(rng: random.Random) -> tuple[list[NewCard], list[str]]:
    """Decks of 0–60 cards; topics shared by several decks or one deck's own; sibling groups
    of one to six cards; positions with ties; a source sheet on some cards."""
    decks = [f"d{i}" for i in range(rng.randint(1, 7))]
    topics = [f"t{i}" for i in range(rng.randint(1, len(decks)))]
    sheets = ["", "A › one", "A › two", "B › one", "C › x; A › one"]
    cards: list[NewCard] = []
    for deck in decks:
        deck_topic = rng.choice(topics)
        share = rng.random()
        for i in range(rng.randint(0, 60)):
            cards.append(
                NewCard(
                    deck,
                    f"c{i:02}",
                    topic=deck_topic if rng.random() < 0.8 else rng.choice(topics),
                    position=rng.randint(0, 40),
                    sibling_group=f"g{rng.randint(1, 12)}" if rng.random() < share else None,
                    sheet=rng.choice(sheets),
                )
            )
    rng.shuffle(cards)
    listed = rng.sample(decks, rng.randint(0, len(decks)))
    return cards, listed


def random_allowance(rng: random.Random, decks: Sequence[str]) -> NewAllowance:
    limited = rng.sample(list(decks), rng.randint(0, len(decks)))
    return NewAllowance(rng.randint(0, 30), {deck: rng.randint(0, 8) for deck in limited})


@pytest.mark.parametrize("order", list(NewOrder))
@pytest.mark.parametrize("seed", range(4))
def test_the_order_and_todays_pick_are_the_eager_ones(order: NewOrder, seed: int) -> None:
    rng = random.Random(f"{order}:{seed}")
    for _ in range(40):
        cards, listed = random_cards(rng)
        day = rng.randint(730_000, 740_000)
        expected = reference_order(cards, order, day, listed)
        assert order_new_cards(cards, order, seed=day, deck_order=listed) == expected
        decks = sorted({card.deck for card in cards})
        seen = {card.group for card in rng.sample(cards, min(3, len(cards))) if card.group}
        for _pick in range(5):
            allowance = random_allowance(rng, decks)
            lazy = introduction_order(cards, order, seed=day, deck_order=listed)
            picked = todays_new_cards(lazy, allowance, groups_seen_today=seen)
            assert picked == todays_new_cards(expected, allowance, groups_seen_today=seen)
            assert len(lazy) == len(cards)


def test_one_deck_per_topic_and_one_topic_alone_keep_the_seeded_order() -> None:
    """A round over one stream shuffles one item, which draws nothing from the seed: the
    lazy order skips those shuffles, so these shapes are compared on their own."""
    one_each = [
        NewCard(f"d{d}", f"c{i}", topic=f"t{d}", position=i) for d in range(5) for i in range(9)
    ]
    one_topic = [
        NewCard(f"d{d}", f"c{i}", topic="t", position=i) for d in range(5) for i in range(9)
    ]
    one_deck = [NewCard("d", f"c{i}", topic="t", position=i) for i in range(9)]
    for cards in (one_each, one_topic, one_deck):
        for day in range(20):
            got = order_new_cards(cards, NewOrder.GATHERED, seed=day)
            assert got == reference_order(cards, "gathered", day, None)


@pytest.mark.parametrize("order", [NewOrder.GATHERED, NewOrder.RANDOM, NewOrder.TOPIC])
def test_todays_pick_reads_a_few_cards_of_many(order: NewOrder) -> None:
    """2,000 cards (the reference order takes seconds at 20,000)."""
    rng = random.Random(5)
    cards = [
        NewCard(
            f"d{d}",
            f"c{i}",
            topic=f"t{d % 4}",
            position=i,
            sibling_group=f"g{i // 3}" if rng.random() < 0.5 else None,
        )
        for d in range(10)
        for i in range(200)
    ]
    lazy = introduction_order(cards, order, seed=739_000)
    picked = todays_new_cards(lazy, NewAllowance(20, {"d3": 0}))
    assert len(picked) == 20
    assert isinstance(lazy, IntroductionOrder)
    worked_out = list(lazy._known)  # what the order has worked out so far
    assert len(worked_out) < 200
    assert lazy[: len(worked_out)] == worked_out
    assert len(lazy._known) == len(worked_out)
    assert list(lazy) == reference_order(cards, order, 739_000, None)


def test_an_introduction_order_reads_again_and_indexes_as_a_list() -> None:
    cards = [
        NewCard(f"d{d}", f"c{i}", position=i, sibling_group="g" if i < 3 else None)
        for d in range(3)
        for i in range(6)
    ]
    lazy = introduction_order(cards, seed=3)
    first = next(iter(lazy))
    everything = order_new_cards(cards, seed=3)
    assert first == everything[0]
    assert lazy[5] == everything[5]
    assert lazy[-1] == everything[-1]
    assert list(lazy) == everything == list(lazy)
    assert lazy[2:7] == everything[2:7]
    with pytest.raises(IndexError):
        lazy[len(everything)]
