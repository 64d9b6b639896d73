"""Today's plan and the exam planner's inputs, from the store and the loaded decks.

The planners in :mod:`recall.scheduling` are pure; this module asks the store for what they
need (the cards due today, the new cards, what today has spent, the learner's pace) and turns
store records and deck cards into their inputs. New cards are chosen as a normal session chooses
them (:mod:`recall.session.new_cards`), so ``recall today`` shows what a session would drill.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime, timedelta, tzinfo
from typing import TYPE_CHECKING

from recall.cards.model import Card
from recall.config import Settings
from recall.scheduling.day import study_date, today_bounds
from recall.scheduling.exam_plan import ExamCard
from recall.scheduling.new_order import order_new_cards
from recall.scheduling.queue import remaining
from recall.scheduling.state import Phase
from recall.scheduling.today import DueCard, Pace, TodayPlan, pace_from_log, plan_today
from recall.session.new_cards import (
    MAX_CARDS,
    deck_order,
    new_allowance,
    new_card,
    ordered_new_cards,
)

if TYPE_CHECKING:
    from recall.store import Store, StoredCard

__all__ = ["exam_cards", "learner_pace", "ordered_new_cards", "todays_plan"]
#: Extra rows read with the due reviews for the learning cards among them (as a session does).
LEARNING_HEADROOM = 1_000
#: How far back the log is read for the learner's pace.
PACE_DAYS = 60


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
    ordered, _stored = ordered_new_cards(
        store, cards, order=settings.new_card_order, seed=day.toordinal()
    )
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
