"""The order new cards are introduced in, and how many of them today.

FSRS schedules cards once they have been seen; which unseen card comes next is ours to decide.
Drawing new cards in file order, with one daily allowance shared by every deck, spends a whole
first week on the first deck loaded. The default here *gathers*: one card from each topic in
turn, and within a topic one card from each of its decks in turn, each deck in file order, with
the order of topics and decks in each round shuffled by a seed (the study day), so the same day
always gives the same order and a learner's plan (``recall today``) and session agree.

The other orders a learner can choose: ``deck`` (deck by deck), ``topic`` (topic by topic),
``sheet`` (following the source sheets section by section) and ``random`` (seeded).

Two cards of one sibling group (``attention.formula`` and ``attention.scale``) answer each
other, so at most one of them is introduced a day; the others wait for a later day rather than
spending the allowance on a card that would be buried at once.

Everything here is pure: plain values in, plain values out, no store, no clock.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from recall.scheduling.queue import remaining

#: Cards placed between two siblings in the gathered and random orders (at least).
SIBLING_GAP = 3


class NewOrder(StrEnum):
    """How new cards are ordered (the ``new_card_order`` setting)."""

    GATHERED = "gathered"  # across topics and decks in turn (the default)
    DECK = "deck"  # deck by deck, each in file order
    TOPIC = "topic"  # topic by topic, decks of a topic in turn
    SHEET = "sheet"  # source sheet by sheet, section by section, as the sheets are written
    RANDOM = "random"  # shuffled (seeded)


@dataclass(frozen=True, slots=True)
class NewCard:
    """A card never seen, as much of it as ordering needs.

    ``kind`` is the card's kind (``formula``, ``numeric``…), carried for the plan to show;
    ``position`` is its place in its deck file (line or index: only the order matters);
    ``sheet`` is where it comes from on the source sheets (``"Formula sheet › Losses"``), empty
    when unknown; ``sibling_group`` is the group of :func:`recall.scheduling.sibling_group`.
    """

    deck: str
    card: str
    topic: str = ""
    position: int = 0
    sibling_group: str | None = None
    sheet: str = ""
    kind: str = ""

    @property
    def key(self) -> str:
        """``deck/card``, as :attr:`recall.cards.model.Card.key`."""
        return f"{self.deck}/{self.card}"

    @property
    def group(self) -> tuple[str, str] | None:
        """The sibling group, qualified by deck (groups are named per deck)."""
        return (self.deck, self.sibling_group) if self.sibling_group else None


@dataclass(frozen=True)
class NewAllowance:
    """What is left of today's new-card limits: ``total`` across all decks, and for the decks
    that have a limit of their own, what is left of it (a deck missing from ``per_deck`` is
    bound by ``total`` only)."""

    total: int
    per_deck: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def left(
        cls,
        daily_limit: int,
        introduced_today: int,
        deck_limits: Mapping[str, int] | None = None,
        introduced_by_deck: Mapping[str, int] | None = None,
    ) -> NewAllowance:
        """The allowance left once ``introduced_today`` cards (``introduced_by_deck`` per deck)
        have been introduced today. A negative limit means no limit, as in
        :func:`recall.scheduling.remaining`."""
        spent = introduced_by_deck or {}
        per_deck = {
            deck: remaining(limit, spent.get(deck, 0))
            for deck, limit in (deck_limits or {}).items()
            if limit >= 0
        }
        return cls(remaining(daily_limit, introduced_today), per_deck)

    def for_deck(self, deck: str) -> int:
        """What ``deck`` may still introduce today (its own limit under the daily one)."""
        return min(self.total, self.per_deck.get(deck, self.total))


def order_new_cards(
    cards: Iterable[NewCard],
    order: NewOrder | str = NewOrder.GATHERED,
    *,
    seed: int | str = 0,
    deck_order: Sequence[str] | None = None,
) -> list[NewCard]:
    """Every card of ``cards`` in the order it would be introduced (all days, no limits).

    ``deck_order`` is the order decks are listed in (the load order); decks not in it follow,
    by first appearance in ``cards``. ``seed`` makes the gathered and random orders
    reproducible: the study day's ordinal gives each day its own, stable order.
    """
    cards = list(cards)
    order = NewOrder(order)
    rank = _deck_rank(cards, deck_order)
    in_file = sorted(cards, key=lambda c: (rank[c.deck], c.position, c.card))
    rng = random.Random(f"recall-new-order:{seed}")
    if order is NewOrder.DECK:
        return in_file
    if order is NewOrder.RANDOM:
        shuffled = list(in_file)
        rng.shuffle(shuffled)
        return _siblings_apart(shuffled)
    if order is NewOrder.TOPIC:
        by_topic = _grouped(in_file, _topic_of)
        return [
            card
            for cards_of_topic in by_topic.values()
            for card in _round_robin(list(_grouped(cards_of_topic, _deck_of).values()))
        ]
    if order is NewOrder.SHEET:
        return _sheet_order(in_file)
    return _gathered(in_file, rng)


def todays_new_cards(
    ordered: Iterable[NewCard],
    allowance: NewAllowance,
    *,
    groups_seen_today: Collection[tuple[str, str]] = (),
) -> list[NewCard]:
    """The new cards to introduce today: the first of ``ordered`` that fit the daily and
    per-deck allowances, at most one per sibling group (and none of a group already reviewed
    today, ``groups_seen_today``: its siblings are buried until tomorrow)."""
    taken: list[NewCard] = []
    if allowance.total <= 0:
        return taken
    per_deck: dict[str, int] = {}
    groups = set(groups_seen_today)
    for card in ordered:
        if len(taken) >= allowance.total:
            break
        if per_deck.get(card.deck, 0) >= allowance.for_deck(card.deck):
            continue
        group = card.group
        if group is not None:
            if group in groups:
                continue
            groups.add(group)
        per_deck[card.deck] = per_deck.get(card.deck, 0) + 1
        taken.append(card)
    return taken


def held_back_by_shared_limit(cards: Iterable[NewCard], allowance: NewAllowance, deck: str) -> int:
    """How many new cards of ``deck`` exist but none may be introduced today because the
    *shared* daily allowance is spent (the deck's own limit would still allow them): the
    number a "learn N more today" offer can name."""
    if allowance.total > 0:
        return 0
    own = allowance.per_deck.get(deck)
    if own is not None and own <= 0:
        return 0
    count = sum(1 for card in cards if card.deck == deck)
    return count if own is None else min(count, own)


# --------------------------------------------------------------------------- orders


def _deck_of(card: NewCard) -> str:
    return card.deck


def _topic_of(card: NewCard) -> str:
    return card.topic


def _deck_rank(cards: Sequence[NewCard], deck_order: Sequence[str] | None) -> dict[str, int]:
    rank = {deck: i for i, deck in enumerate(dict.fromkeys(deck_order or ()))}
    for card in cards:
        rank.setdefault(card.deck, len(rank))
    return rank


def _first_seen(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(values))


def _grouped(cards: Iterable[NewCard], key: Callable[[NewCard], str]) -> dict[str, list[NewCard]]:
    out: dict[str, list[NewCard]] = {}
    for card in cards:
        out.setdefault(key(card), []).append(card)
    return out


def _round_robin(streams: Sequence[Sequence[NewCard]]) -> list[NewCard]:
    """One card from each stream in turn, until all are empty."""
    out: list[NewCard] = []
    longest = max((len(s) for s in streams), default=0)
    for index in range(longest):
        out.extend(stream[index] for stream in streams if index < len(stream))
    return out


def _gathered(in_file: Sequence[NewCard], rng: random.Random) -> list[NewCard]:
    """Round-robin over topics, and over the decks within each topic; each round visits the
    topics (and each topic its decks) in a seeded order, so no deck is always first."""
    by_topic = _grouped(in_file, _topic_of)
    # Each topic's stream: its decks in turn, each deck in file order, rounds shuffled.
    streams: dict[str, list[NewCard]] = {}
    for topic, cards in by_topic.items():
        decks = _grouped(cards, _deck_of)
        streams[topic] = _shuffled_rounds([decks[d] for d in decks], rng)
    return _siblings_apart(_shuffled_rounds(list(streams.values()), rng))


def _shuffled_rounds(streams: Sequence[Sequence[NewCard]], rng: random.Random) -> list[NewCard]:
    """Like :func:`_round_robin`, but each round takes the streams in a fresh seeded order."""
    out: list[NewCard] = []
    longest = max((len(s) for s in streams), default=0)
    indices = list(range(len(streams)))
    for index in range(longest):
        rng.shuffle(indices)
        out.extend(streams[i][index] for i in indices if index < len(streams[i]))
    return out


def _sheet_order(in_file: Sequence[NewCard]) -> list[NewCard]:
    """Sheet by sheet (the part of ``sheet`` before ``›``), each sheet's sections in the order
    they first appear, cards of a section in deck and file order; cards with no sheet last."""

    def sheet_of(card: NewCard) -> str:
        return card.sheet.split(";")[0].split("›")[0].strip()

    def section_of(card: NewCard) -> str:
        return card.sheet.split(";")[0].strip()

    known = [c for c in in_file if sheet_of(c)]
    unknown = [c for c in in_file if not sheet_of(c)]
    sheets = _first_seen(sheet_of(c) for c in known)
    sections = {s: i for i, s in enumerate(_first_seen(section_of(c) for c in known))}
    sheet_rank = {s: i for i, s in enumerate(sheets)}
    position = {id(c): i for i, c in enumerate(in_file)}
    known.sort(key=lambda c: (sheet_rank[sheet_of(c)], sections[section_of(c)], position[id(c)]))
    return known + unknown


def _siblings_apart(cards: Sequence[NewCard], gap: int = SIBLING_GAP) -> list[NewCard]:
    """The same cards with at least ``gap`` others between two siblings wherever that is
    possible, otherwise in the order given.

    Each step takes the first card that fits (no sibling among the last ``gap`` placed),
    unless a group has so many cards left that it must be placed now to stay spaced; when
    nothing fits (only siblings remain) the first card is taken.
    """
    if not any(card.group for card in cards):
        return list(cards)
    rest = list(cards)
    left = Counter(card.group for card in rest if card.group is not None)
    # How many groups have each count of cards left, and the largest count: a group can be
    # urgent only when the largest one is, so the groups are scanned only then (scanning them at
    # every step made ordering 20,000 new cards take seconds).
    sizes = Counter(left.values())
    largest = max(sizes, default=0)
    out: list[NewCard] = []
    while rest:
        recent = {card.group for card in out[-gap:]}
        urgent: set[tuple[str, str]] = set()
        if largest and (largest - 1) * (gap + 1) + 1 >= len(rest):
            urgent = {g for g, n in left.items() if (n - 1) * (gap + 1) + 1 >= len(rest)} - recent
        # (Scanned only when some group is urgent: a scan for nothing, at every step, made
        # ordering a few hundred new cards quadratic, a tenth of a second before the first card.)
        chosen = None
        if urgent:
            chosen = next((i for i, c in enumerate(rest) if c.group in urgent), None)
        if chosen is None:
            chosen = next(
                (i for i, c in enumerate(rest) if c.group is None or c.group not in recent), 0
            )
        card = rest.pop(chosen)
        if card.group is not None:
            count = left[card.group]
            sizes[count] -= 1
            if count > 1:
                sizes[count - 1] += 1
                left[card.group] = count - 1
            else:
                del left[card.group]
            if not sizes[count]:
                del sizes[count]
                if count == largest:
                    largest = max(sizes, default=0)
        out.append(card)
    return out
