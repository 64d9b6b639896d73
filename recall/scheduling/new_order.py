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

import itertools
import operator
import random
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple, overload

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


class NewCard(NamedTuple):
    """A card never seen, as much of it as ordering needs (a named tuple, not a frozen
    dataclass: planning a day builds one for every new card, and a tuple is built in a quarter
    of the time).

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
    return list(introduction_order(cards, order, seed=seed, deck_order=deck_order))


def introduction_order(
    cards: Iterable[NewCard],
    order: NewOrder | str = NewOrder.GATHERED,
    *,
    seed: int | str = 0,
    deck_order: Sequence[str] | None = None,
) -> IntroductionOrder:
    """:func:`order_new_cards`, worked out only as far as it is read.

    Today takes a few dozen new cards from the front of the order; working out where each of
    20,000 new cards would come made planning the day grow with the decks (0.4 s of a start
    with 20,000 custom cards). What every card needs is done at once (sorting each deck's
    cards into file order, the seeded shuffles that deal decks within a topic, counting sibling
    groups); the rest, card by card, as the order is read. The order read is the same order.
    """
    cards = list(cards)
    return IntroductionOrder(_in_order(cards, NewOrder(order), seed, deck_order), cards)


class IntroductionOrder(Sequence[NewCard]):
    """New cards in introduction order (:func:`introduction_order`): its length is known at
    once, its cards are worked out as they are read and kept, so reading it again (or
    indexing it) gives the same cards. Not for sharing between threads."""

    def __init__(self, source: Iterator[NewCard], cards: Sequence[NewCard]) -> None:
        self._source = source
        self._count = len(cards)
        self._known: list[NewCard] = []
        #: The same cards in no particular order (to look cards up without ordering them all).
        self.unordered = cards

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[NewCard]:
        index = 0
        while self._reach(index):
            yield self._known[index]
            index += 1

    @overload
    def __getitem__(self, index: int) -> NewCard: ...

    @overload
    def __getitem__(self, index: slice) -> list[NewCard]: ...

    def __getitem__(self, index: int | slice) -> NewCard | list[NewCard]:
        self._reach(_last_read(index, self._count))
        return self._known[index]

    def _reach(self, index: int) -> bool:
        """Work the order out up to ``index``; whether there is a card there."""
        known = self._known
        while len(known) <= index:
            card = next(self._source, None)
            if card is None:
                return False
            known.append(card)
        return True


def _last_read(index: int | slice, count: int) -> int:
    """The last place an index or slice may read (counting from the end needs them all)."""
    if isinstance(index, int):
        return index if index >= 0 else count
    start, stop, step = index.start or 0, index.stop, index.step or 1
    if stop is None or stop < 0 or start < 0 or step < 0:
        return count
    return stop - 1


def _in_order(
    cards: list[NewCard], order: NewOrder, seed: int | str, deck_order: Sequence[str] | None
) -> Iterator[NewCard]:
    in_file = _in_file(cards, deck_order)
    rng = random.Random(f"recall-new-order:{seed}")
    if order is NewOrder.DECK:
        return iter(in_file)
    if order is NewOrder.RANDOM:
        shuffled = list(in_file)
        rng.shuffle(shuffled)
        return _spaced(shuffled, shuffled)
    if order is NewOrder.TOPIC:
        by_topic = _grouped(in_file, _topic_of)
        return itertools.chain.from_iterable(
            _round_robin(list(_grouped(cards_of_topic, _deck_of).values()))
            for cards_of_topic in by_topic.values()
        )
    if order is NewOrder.SHEET:
        return iter(_sheet_order(in_file))
    return _spaced(_gathered(in_file, rng), in_file)


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


def _in_file(cards: Sequence[NewCard], deck_order: Sequence[str] | None) -> list[NewCard]:
    """``cards`` deck by deck (in ``deck_order``, then by first appearance), each deck in file
    order (position, then card id): each deck sorted on its own by a C-level key, which is the
    one sort by (deck rank, position, card) in a fifth of the time."""
    by_deck = _grouped(cards, _deck_of)
    rank = _deck_rank(cards, deck_order)
    in_file: list[NewCard] = []
    for deck in sorted(by_deck, key=rank.__getitem__):
        in_file.extend(sorted(by_deck[deck], key=_FILE_ORDER))
    return in_file


#: A card's place within its deck's file order.
_FILE_ORDER = operator.attrgetter("position", "card")


def _first_seen(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(values))


def _grouped(cards: Iterable[NewCard], key: Callable[[NewCard], str]) -> dict[str, list[NewCard]]:
    out: dict[str, list[NewCard]] = {}
    for card in cards:
        out.setdefault(key(card), []).append(card)
    return out


def _round_robin(streams: Sequence[Sequence[NewCard]]) -> Iterator[NewCard]:
    """One card from each stream in turn, until all are empty."""
    longest = max((len(s) for s in streams), default=0)
    for index in range(longest):
        yield from (stream[index] for stream in streams if index < len(stream))


def _gathered(in_file: Sequence[NewCard], rng: random.Random) -> Iterator[NewCard]:
    """Round-robin over topics, and over the decks within each topic; each round visits the
    topics (and each topic its decks) in a seeded order, so no deck is always first.

    The seed's draws come in a fixed sequence: every round of every topic's decks (topic by
    topic), then the rounds over the topics. The first are drawn here, at once; the rounds over
    the topics as the order is read."""
    by_topic = _grouped(in_file, _topic_of)
    # Each topic's stream: its decks in turn, each deck in file order, rounds shuffled.
    streams: list[tuple[int, Iterator[NewCard]]] = []
    for cards in by_topic.values():
        decks = list(_grouped(cards, _deck_of).values())
        rounds = _round_orders(len(decks), max(len(d) for d in decks), rng)
        streams.append((len(cards), _dealt(decks, rounds)))
    lengths = [length for length, _stream in streams]
    rounds = _round_orders(len(streams), max(lengths, default=0), rng, lazily=True)
    for index, visit in enumerate(rounds):
        for i in visit:
            if index < lengths[i]:
                yield next(streams[i][1])


def _round_orders(
    streams: int, rounds: int, rng: random.Random, *, lazily: bool = False
) -> Iterable[Sequence[int]]:
    """The order ``streams`` streams are visited in, round by round: one list shuffled again
    each round (so each round's order follows from the last). Drawn at once, or with
    ``lazily`` as the rounds are read. One stream needs no draw: a shuffle of one item draws
    nothing from the generator (checked against the eager order in the tests)."""
    if streams < 2:
        return itertools.repeat((0,) if streams else (), rounds)
    orders = _shuffles(list(range(streams)), rounds, rng)
    return orders if lazily else list(orders)


def _shuffles(indices: list[int], rounds: int, rng: random.Random) -> Iterator[tuple[int, ...]]:
    for _ in range(rounds):
        rng.shuffle(indices)
        yield tuple(indices)


def _dealt(
    streams: Sequence[Sequence[NewCard]], rounds: Iterable[Sequence[int]]
) -> Iterator[NewCard]:
    """Round by round, the next card of each stream in the round's order (streams that have
    run out are passed over)."""
    for index, visit in enumerate(rounds):
        for i in visit:
            if index < len(streams[i]):
                yield streams[i][index]


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
    possible, otherwise in the order given (:func:`_spaced`, read to the end)."""
    return list(_spaced(cards, cards, gap))


def _spaced(
    ordered: Iterable[NewCard], cards: Collection[NewCard], gap: int = SIBLING_GAP
) -> Iterator[NewCard]:
    """``ordered`` (the same cards as ``cards``, in order) with at least ``gap`` others between
    two siblings wherever that is possible, otherwise in the order given.

    Each step takes the first card that fits (no sibling among the last ``gap`` placed),
    unless a group has so many cards left that it must be placed now to stay spaced; when
    nothing fits (only siblings remain) the first card is taken. Cards are read from
    ``ordered`` only as far as the step needs (``cards``, in any order, gives the counts).
    """
    source = iter(ordered)
    left = Counter((card.deck, card.sibling_group) for card in cards if card.sibling_group)
    if not left:
        yield from source
        return
    # ``rest`` is what has been read of ``ordered`` and not yet placed: with what ``source``
    # still holds, every card not yet placed, in the order given.
    rest: list[NewCard] = []
    unplaced = len(cards)
    # How many groups have each count of cards left, and the largest count: a group can be
    # urgent only when the largest one is, so the groups are scanned only then (scanning them at
    # every step made ordering 20,000 new cards take seconds).
    sizes = Counter(left.values())
    largest = max(sizes, default=0)
    placed: list[NewCard] = []  # the last ``gap`` placed
    while unplaced:
        recent = {card.group for card in placed}
        urgent: set[tuple[str, str]] = set()
        if largest and (largest - 1) * (gap + 1) + 1 >= unplaced:
            urgent = {g for g, n in left.items() if (n - 1) * (gap + 1) + 1 >= unplaced} - recent
        # (Scanned only when some group is urgent: a scan for nothing, at every step, made
        # ordering a few hundred new cards quadratic, a tenth of a second before the first card.)
        chosen = None
        if urgent:
            rest.extend(source)
            chosen = next((i for i, c in enumerate(rest) if c.group in urgent), None)
        if chosen is None:
            chosen = _first_fit(rest, source, recent)
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
        unplaced -= 1
        placed.append(card)
        del placed[:-gap]
        yield card


def _first_fit(
    rest: list[NewCard], source: Iterator[NewCard], recent: Collection[tuple[str, str] | None]
) -> int:
    """The index in ``rest`` of the first card with no group among ``recent``, reading more of
    ``source`` into ``rest`` until one comes; 0 when none does."""
    looked = 0
    while True:
        for index in range(looked, len(rest)):
            card = rest[index]
            if card.group is None or card.group not in recent:
                return index
        looked = len(rest)
        more = next(source, None)
        if more is None:
            return 0
        rest.append(more)
