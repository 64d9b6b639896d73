"""Today's plan and the exam planner's inputs, from the store and the loaded decks.

The planners in :mod:`recall.scheduling` are pure; this module asks the store for what they
need (the cards due today, the new cards, what today has spent, the learner's pace) and turns
store records and deck cards into their inputs. A normal session builds its queue from the same
functions (:func:`todays_new_cards`), so ``recall today`` shows what a session would drill.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime, timedelta, tzinfo
from typing import TYPE_CHECKING

from recall.cards.model import Card
from recall.config import Settings
from recall.scheduling.day import study_date, today_bounds
from recall.scheduling.exam_plan import ExamCard
from recall.scheduling.new_order import NewAllowance, NewCard, order_new_cards
from recall.scheduling.queue import remaining
from recall.scheduling.state import Phase
from recall.scheduling.today import DueCard, Pace, TodayPlan, pace_from_log, plan_today

if TYPE_CHECKING:
    from recall.store import Store, StoredCard

#: Most cards a plan reads from the store at once (the whole built-in collection is ~700).
MAX_CARDS = 100_000
#: Extra rows read with the due reviews for the learning cards among them (as a session does).
LEARNING_HEADROOM = 1_000
#: How far back the log is read for the learner's pace.
PACE_DAYS = 60


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
    ``extra_today`` raises today's daily limit only ("learn N more today")."""
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
) -> tuple[list[NewCard], dict[str, StoredCard]]:
    """Every new card of the loaded decks (within ``decks``/``topic``) in introduction order,
    and the store's record of each by ``deck/card`` key."""
    stored = {
        c.key: c
        for c in store.new_cards(limit=MAX_CARDS, decks=decks, topic=topic)
        if c.key in cards
    }
    candidates = [new_card(c, cards.get(key)) for key, c in stored.items()]
    return order_new_cards(candidates, order, seed=seed, deck_order=deck_order(cards)), stored


def learner_pace(store: Store, now: datetime) -> Pace:
    """The learner's pace from the last :data:`PACE_DAYS` days of their log (the defaults,
    not ``measured``, while it is too short to tell)."""
    entries = store.reviews(since=now - timedelta(days=PACE_DAYS))
    return pace_from_log((str(e.kind), e.seconds) for e in entries)


def todays_plan(
    store: Store,
    cards: Mapping[str, Card],
    settings: Settings,
    now: datetime,
    *,
    tz: tzinfo | None = None,
    order: str = "gathered",
    deck_limits: Mapping[str, int] | None = None,
    extra_today: int = 0,
) -> TodayPlan:
    """What a normal session over every deck would drill today, without changing anything."""
    rollover = settings.day_rollover_hour
    start, end = today_bounds(now, rollover, tz)
    day = study_date(now, rollover, tz)
    allowance, introduced = new_allowance(
        store, settings, start, deck_limits=deck_limits, extra_today=extra_today
    )
    _introduced, reviewed = store.introduced_and_reviewed(start)
    reviews_left = remaining(settings.reviews_per_day, reviewed)
    due = [
        due_card(c, cards[c.key])
        for c in store.due_cards(end, limit=min(reviews_left, MAX_CARDS) + LEARNING_HEADROOM)
        if c.key in cards
    ]
    ordered, _stored = ordered_new_cards(store, cards, order=order, seed=day.toordinal())
    new_limit = settings.new_per_day + extra_today if settings.new_per_day >= 0 else -1
    return plan_today(
        day=day,
        due=due,
        new_in_order=ordered,
        allowance=allowance,
        new_limit=new_limit,
        new_spent=introduced,
        review_limit=settings.reviews_per_day,
        review_spent=reviewed,
        pace=learner_pace(store, now),
    )


def due_card(stored: StoredCard, card: Card) -> DueCard:
    assert stored.state.due is not None
    return DueCard(
        deck=stored.deck,
        card=stored.id,
        due=stored.state.due,
        learning=stored.state.phase in (Phase.LEARNING, Phase.RELEARNING),
        kind=str(card.kind),
        topic=stored.topic,
        sibling_group=stored.sibling_group,
    )


def exam_cards(
    store: Store,
    cards: Mapping[str, Card],
    *,
    decks: Collection[str] = (),
    topic: str | None = None,
    order: str = "gathered",
    seed: int = 0,
) -> list[ExamCard]:
    """The cards an exam plan prepares (of ``decks``, or ``topic``, or all), seen ones with
    their memory, new ones in introduction order; suspended and retired cards left out."""
    keys = [
        key
        for key, card in cards.items()
        if (not decks or card.deck_id in decks) and (topic is None or card.topic == topic)
    ]
    stored = [s for s in store.cards_by_key(keys).values() if not s.retired and not s.suspended]
    seen = [ExamCard(s.deck, s.id, s.topic, s.state) for s in stored if not s.state.is_new]
    new = [new_card(s, cards.get(s.key)) for s in stored if s.state.is_new]
    ordered = order_new_cards(new, order, seed=seed, deck_order=deck_order(cards))
    return seen + [ExamCard(n.deck, n.card, n.topic) for n in ordered]
