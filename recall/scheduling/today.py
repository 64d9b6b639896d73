"""Today's plan: what a session would drill today, in order, and how long it should take.

``recall today`` and the home screen show it without changing anything, so it is computed from
values the store can give (the cards due, the new cards in their introduction order, the limits
already spent today, the learner's pace) by the same rules the session uses to build its queue:
learning cards first (their short steps are the most urgent), then due reviews with today's new
cards spread among them (:func:`recall.scheduling.queue.interleave`), one card per sibling group.

The time estimate uses the learner's own pace once the log has enough reviews to tell it
(:func:`pace_from_log`), and :data:`DEFAULT_PACE` before that.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Final, Literal

from recall.scheduling.new_order import NewAllowance, NewCard, todays_new_cards
from recall.scheduling.queue import build_queue, drop_siblings, remaining

#: What a planned card is for the learner: never seen, between learning steps, or due.
State = Literal["new", "learning", "review"]
STATES: Final[tuple[State, ...]] = ("new", "learning", "review")

#: Reviews of one kind needed before the log's pace replaces the default one.
MIN_PACE_SAMPLE: Final = 10
#: Seconds counted at most for one answer when measuring pace (a card left on screen during a
#: break would otherwise make every estimate long).
MAX_SECONDS_PER_ANSWER: Final = 300.0
#: Most recent reviews the pace is measured over (a learner gets faster; old pace is stale).
PACE_WINDOW: Final = 500


@dataclass(frozen=True)
class Pace:
    """How long the learner takes: seconds per review of a seen card, and seconds for a new
    card's whole first day (its first answer and the learning steps that follow it)."""

    review_seconds: float
    new_card_seconds: float
    measured: bool = False  # from the learner's log (else the documented defaults)

    def seconds(self, new: int, seen: int) -> float:
        """Time for ``new`` new cards and ``seen`` reviews of cards already seen."""
        return new * self.new_card_seconds + seen * self.review_seconds

    def to_dict(self) -> dict[str, Any]:
        return {
            "review_seconds": round(self.review_seconds, 1),
            "new_card_seconds": round(self.new_card_seconds, 1),
            "source": "log" if self.measured else "default",
        }


#: Before the log says otherwise: 20 s to answer a card already seen, and 60 s for a new card
#: (about 30 s to read and answer it the first time, and two quicker answers on the default
#: 1- and 10-minute learning steps).
DEFAULT_PACE: Final = Pace(review_seconds=20.0, new_card_seconds=60.0)


def pace_from_log(answers: Iterable[tuple[str, float]]) -> Pace:
    """The learner's pace from ``(kind, seconds)`` pairs of their most recent reviews, oldest
    first; ``kind`` is ``new``, ``learning``, ``review`` or ``relearn``/``relearning`` (other
    kinds, such as off-schedule cram answers, are not counted).

    Learning steps are charged to the new cards that caused them and relearning steps to the
    reviews; each part falls back to :data:`DEFAULT_PACE` until it has
    :data:`MIN_PACE_SAMPLE` answers.
    """
    recent = list(answers)[-PACE_WINDOW:]
    new_time = review_time = 0.0
    new_count = review_count = 0
    for kind, seconds in recent:
        spent = min(max(float(seconds), 0.0), MAX_SECONDS_PER_ANSWER)
        if kind == "new":
            new_count += 1
            new_time += spent
        elif kind == "learning":
            new_time += spent
        elif kind == "review":
            review_count += 1
            review_time += spent
        elif kind in ("relearn", "relearning"):
            review_time += spent
    review = review_time / review_count if review_count >= MIN_PACE_SAMPLE else None
    new = new_time / new_count if new_count >= MIN_PACE_SAMPLE else None
    return Pace(
        review_seconds=DEFAULT_PACE.review_seconds if review is None else review,
        new_card_seconds=DEFAULT_PACE.new_card_seconds if new is None else new,
        measured=review is not None or new is not None,
    )


@dataclass(frozen=True, slots=True)
class DueCard:
    """A seen card due before the study day ends. ``learning`` is true between learning or
    relearning steps, false for a review-phase card."""

    deck: str
    card: str
    due: datetime
    learning: bool = False
    kind: str = ""
    topic: str = ""
    sibling_group: str | None = None

    @property
    def key(self) -> str:
        return f"{self.deck}/{self.card}"

    @property
    def group(self) -> tuple[str, str] | None:
        return (self.deck, self.sibling_group) if self.sibling_group else None


@dataclass(frozen=True, slots=True)
class PlannedCard:
    """One card of today's queue, as ``recall today --json`` prints it."""

    deck: str
    card: str
    kind: str
    state: State
    topic: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"deck": self.deck, "card": self.card, "kind": self.kind, "state": self.state}


@dataclass(frozen=True)
class Limit:
    """A daily limit: its value (``None``: no limit), what today spent, what is left."""

    limit: int | None
    spent: int
    left: int

    @classmethod
    def of(cls, limit: int, spent: int, planned: int) -> Limit:
        """The limit ``limit`` once ``spent`` are done and ``planned`` more are queued."""
        if limit < 0:
            return cls(None, spent, -1)
        return cls(limit, spent, max(0, remaining(limit, spent) - planned))

    def to_dict(self) -> dict[str, int | None]:
        left = None if self.limit is None else self.left
        return {"limit": self.limit, "spent": self.spent, "left": left}


@dataclass(frozen=True)
class Counts:
    """Cards of today's queue by state."""

    new: int = 0
    learning: int = 0
    review: int = 0

    @property
    def total(self) -> int:
        return self.new + self.learning + self.review

    def to_dict(self) -> dict[str, int]:
        return {"new": self.new, "learning": self.learning, "review": self.review}


@dataclass(frozen=True)
class TodayPlan:
    """Today's queue in drill order, its counts, the limits and the minutes it should take.

    ``left`` in each limit is what remains *after* this plan is drilled; ``new_waiting`` counts
    new cards that exist but are not in today's queue (the allowance is spent, or a per-deck
    limit holds them), so "learn N more today" can name a number.
    """

    day: date
    queue: tuple[PlannedCard, ...]
    new_limit: Limit
    review_limit: Limit
    minutes: float
    pace: Pace
    new_waiting: int = 0
    by_deck: dict[str, Counts] = field(default_factory=dict)
    by_topic: dict[str, Counts] = field(default_factory=dict)

    @property
    def counts(self) -> Counts:
        return _count(self.queue)

    def to_dict(self) -> dict[str, Any]:
        """The ``recall today --json`` object."""
        return {
            "day": self.day.isoformat(),
            "queue": [card.to_dict() for card in self.queue],
            "counts": {
                "total": self.counts.to_dict(),
                "decks": {deck: c.to_dict() for deck, c in self.by_deck.items()},
                "topics": {topic: c.to_dict() for topic, c in self.by_topic.items()},
            },
            "limits": {"new": self.new_limit.to_dict(), "review": self.review_limit.to_dict()},
            "new_waiting": self.new_waiting,
            "minutes": self.minutes,
            "pace": self.pace.to_dict(),
        }


def plan_today(
    *,
    day: date,
    due: Sequence[DueCard],
    new_in_order: Sequence[NewCard],
    allowance: NewAllowance,
    new_limit: int,
    new_spent: int,
    review_limit: int,
    review_spent: int,
    pace: Pace = DEFAULT_PACE,
    groups_seen_today: Collection[tuple[str, str]] = (),
) -> TodayPlan:
    """Today's plan.

    ``due`` are the seen cards due before the day ends, most overdue first; ``new_in_order``
    every new card in introduction order (:func:`recall.scheduling.new_order.order_new_cards`);
    ``allowance`` what is left of today's new limits; ``new_limit``/``review_limit`` the daily
    limits and ``*_spent`` what today has already used of them; ``groups_seen_today`` the
    sibling groups reviewed today (their other cards are buried).
    """
    learning = sorted((c for c in due if c.learning), key=lambda c: c.due)
    reviews_left = remaining(review_limit, review_spent)
    reviews = [c for c in due if not c.learning][:reviews_left]
    # A new card whose sibling is reviewed today would be buried by that review: leave it for
    # another day rather than spend the allowance on it.
    seen = set(groups_seen_today) | {g for c in (*learning, *reviews) if (g := c.group)}
    new = todays_new_cards(new_in_order, allowance, groups_seen_today=seen)
    order: list[DueCard | NewCard] = [*learning, *build_queue([], _mixed(reviews), _mixed(new))]
    groups = {card.key: card.group for card in order}
    planned = [_planned(card) for card in order]
    queue = tuple(drop_siblings(planned, lambda p: groups[f"{p.deck}/{p.card}"]))
    counts = _count(queue)
    return TodayPlan(
        day=day,
        queue=queue,
        new_limit=Limit.of(new_limit, new_spent, counts.new),
        review_limit=Limit.of(review_limit, review_spent, counts.review),
        minutes=round(pace.seconds(counts.new, counts.learning + counts.review) / 60.0, 1),
        pace=pace,
        new_waiting=len(new_in_order) - counts.new,
        by_deck=_count_by(queue, lambda p: p.deck),
        by_topic=_count_by(queue, lambda p: p.topic),
    )


def _mixed(cards: Sequence[DueCard | NewCard]) -> list[DueCard | NewCard]:
    return list(cards)


def _planned(card: DueCard | NewCard) -> PlannedCard:
    if isinstance(card, NewCard):
        return PlannedCard(card.deck, card.card, card.kind, "new", card.topic)
    state: State = "learning" if card.learning else "review"
    return PlannedCard(card.deck, card.card, card.kind, state, card.topic)


def _count(cards: Iterable[PlannedCard]) -> Counts:
    tally = dict.fromkeys(STATES, 0)
    for card in cards:
        tally[card.state] += 1
    return Counts(**tally)


def _count_by(cards: Sequence[PlannedCard], key: Any) -> dict[str, Counts]:
    grouped: dict[str, list[PlannedCard]] = {}
    for card in cards:
        grouped.setdefault(key(card), []).append(card)
    return {name: _count(group) for name, group in grouped.items()}
