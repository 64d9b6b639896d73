"""Today's new cards for a session: the store's new cards in the learner's chosen order.

:mod:`recall.scheduling.new_order` orders and picks new cards from plain values; this module
feeds it from the store (which cards are new, what today has introduced, per deck) and the
loaded decks (each card's place in its file, its source and kind), so a normal session's queue
(:mod:`.queues`) and ``recall today`` (:mod:`recall.planning`) introduce the same cards in the
same order. The order is seeded by the study day: stable within a day, fresh the next.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime, tzinfo
from typing import TYPE_CHECKING

from recall.cards.model import Card
from recall.config import Settings
from recall.scheduling.day import study_date, today_bounds
from recall.scheduling.new_order import (
    IntroductionOrder,
    NewAllowance,
    NewCard,
    introduction_order,
    todays_new_cards,
)

if TYPE_CHECKING:
    from recall.store import Store, StoredCard

#: Most new cards read from the store at once (the whole built-in collection is ~700).
MAX_CARDS = 100_000


def new_card(stored: StoredCard, card: Card | None) -> NewCard:
    """The ordering view of a new card: the store's identity and group, the deck file's place,
    source and kind."""
    return NewCard(
        deck=stored.deck,
        card=stored.id,
        topic=stored.topic,
        position=card.line if card is not None else 0,
        sibling_group=stored.sibling_group,
        sheet=card.source if card is not None else "",
        kind=str(card.kind) if card is not None else stored.kind,
    )


def deck_order(cards: Mapping[str, Card]) -> list[str]:
    """Deck ids in load order (the order the decks' cards appear in the card cache)."""
    return list(dict.fromkeys(card.deck_id for card in cards.values()))


def introduced_by_deck(store: Store, since: datetime) -> dict[str, int]:
    """New cards first seen since ``since``, per deck (what each deck's own limit has spent)."""
    from recall.scheduling.state import ReviewKind

    seen: dict[str, set[str]] = {}
    for entry in store.reviews(since=since):
        if entry.kind is ReviewKind.NEW:
            deck = entry.card_key.partition("/")[0]
            seen.setdefault(deck, set()).add(entry.card_key)
    return {deck: len(keys) for deck, keys in seen.items()}


def new_allowance(
    store: Store,
    settings: Settings,
    day_start: datetime,
    *,
    deck_limits: Mapping[str, int] | None = None,
    extra_today: int = 0,
) -> tuple[NewAllowance, int]:
    """What is left of today's new-card limits, and how many new cards today introduced.
    ``deck_limits`` are the per-deck limits under the daily one (default: the learner's
    ``[deck_new_limits]``); ``extra_today`` raises today's daily limit only ("learn N more
    today")."""
    if deck_limits is None:
        deck_limits = settings.deck_new_limits
    introduced, _reviewed = store.introduced_and_reviewed(day_start)
    limit = settings.new_per_day + extra_today if settings.new_per_day >= 0 else -1
    by_deck = introduced_by_deck(store, day_start) if deck_limits else {}
    return NewAllowance.left(limit, introduced, deck_limits, by_deck), introduced


def ordered_new_cards(
    store: Store,
    cards: Mapping[str, Card],
    *,
    order: str,
    seed: int,
    decks: Collection[str] | None = None,
    topic: str | None = None,
) -> IntroductionOrder:
    """Every new card of the loaded decks (within ``decks``/``topic``) in introduction order,
    worked out as far as it is read (today reads a few dozen; its length is every new card)."""
    candidates = []
    for deck, card_id, card_topic, group in store.new_card_heads(
        limit=MAX_CARDS, decks=decks, topic=topic
    ):
        card = cards.get(f"{deck}/{card_id}")
        if card is not None:
            candidates.append(
                NewCard(deck, card_id, card_topic, card.line, group, card.source, str(card.kind))
            )
    return introduction_order(candidates, order, seed=seed, deck_order=deck_order(cards))


def todays_new(
    store: Store,
    cards: Mapping[str, Card],
    settings: Settings,
    now: datetime,
    *,
    tz: tzinfo | None = None,
    decks: Collection[str] | None = None,
    topic: str | None = None,
    busy_groups: Collection[tuple[str, str]] = (),
    deck_limits: Mapping[str, int] | None = None,
    extra_today: int = 0,
) -> list[StoredCard]:
    """The new cards a normal session introduces today, in order: the learner's order
    (``settings.new_card_order``) under today's allowances, one card per sibling group and
    none of a group in ``busy_groups`` (reviewed or due today)."""
    rollover = settings.day_rollover_hour
    start, _end = today_bounds(now, rollover, tz)
    allowance, _introduced = new_allowance(
        store, settings, start, deck_limits=deck_limits, extra_today=extra_today
    )
    if allowance.total <= 0:
        return []
    ordered = ordered_new_cards(
        store,
        cards,
        order=settings.new_card_order,
        seed=study_date(now, rollover, tz).toordinal(),
        decks=decks,
        topic=topic,
    )
    chosen = todays_new_cards(ordered, allowance, groups_seen_today=busy_groups)
    stored = store.cards_by_key([card.key for card in chosen])
    return [stored[card.key] for card in chosen if card.key in stored]
