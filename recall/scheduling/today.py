"""Today's plan: what a session would drill today, in order, and how long it should take.

``recall today`` and the home screen show it without changing anything, so it is computed from
values the store can give (the cards due, the new cards in their introduction order, the limits
already spent today, the learner's pace) by the same rules the session uses to build its queue:
learning cards first (their short steps are the most urgent), then due reviews with today's new
cards spread among them (:func:`recall.scheduling.queue.interleave`), one card per sibling group.

The time estimate uses the learner's own pace once the log has enough reviews to tell it
(:func:`pace_from_log`), and :data:`DEFAULT_PACE` before that; the pace is the workload
planner's :class:`recall.scheduling.simulation.Pace`, so both estimates speak the same units.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Final, Literal

from recall.scheduling.new_order import NewAllowance, NewCard, todays_new_cards
from recall.scheduling.queue import build_queue, drop_siblings, remaining
from recall.scheduling.simulation import Pace

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


#: Before the log says otherwise: :class:`recall.scheduling.simulation.Pace`'s defaults (15 s a
#: review, 40 s for a new card's first answer and its learning steps, 20 s more for a lapse),
#: the same figures the workload planner assumes.
DEFAULT_PACE: Final = Pace()


def pace_dict(pace: Pace, measured: bool) -> dict[str, Any]:
    """A pace as the JSON outputs show it."""
    return {
        "review_seconds": round(pace.review_seconds, 1),
        "new_card_seconds": round(pace.new_card_seconds, 1),
        "source": "log" if measured else "default",
    }


def pace_from_log(answers: Iterable[tuple[str, float]]) -> Pace | None:
    """The learner's pace from ``(kind, seconds)`` pairs of their most recent reviews, oldest
    first, or ``None`` while the log is too short to tell (use :data:`DEFAULT_PACE`). ``kind``
    is ``new``, ``learning``, ``review`` or ``relearn``/``relearning``; other kinds, such as
    off-schedule cram answers, are not counted.

    A new card costs its first answer and the learning steps after it; a lapse the relearning
    steps after it. Each part falls back to :data:`DEFAULT_PACE` until it has
    :data:`MIN_PACE_SAMPLE` answers.
    """
    recent = list(answers)[-PACE_WINDOW:]
    time = {"new": 0.0, "learning": 0.0, "review": 0.0, "relearn": 0.0}
    count = dict.fromkeys(time, 0)
    for kind, seconds in recent:
        kind = "relearn" if kind == "relearning" else kind
        if kind in time:
            time[kind] += min(max(float(seconds), 0.0), MAX_SECONDS_PER_ANSWER)
            count[kind] += 1
    measured = False
    values = {}
    if count["review"] >= MIN_PACE_SAMPLE:
        values["review_seconds"] = time["review"] / count["review"]
        measured = True
    if count["new"] >= MIN_PACE_SAMPLE:
        values["new_card_seconds"] = (time["new"] + time["learning"]) / count["new"]
        measured = True
    if count["relearn"] >= MIN_PACE_SAMPLE:
        values["lapse_seconds"] = time["relearn"] / count["relearn"]
    return Pace(**values) if measured else None


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
    pace_measured: bool = False
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
            "pace": pace_dict(self.pace, self.pace_measured),
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
    pace: Pace | None = None,
    groups_seen_today: Collection[tuple[str, str]] = (),
) -> TodayPlan:
    """Today's plan.

    ``due`` are the seen cards due before the day ends, most overdue first; ``new_in_order``
    every new card in introduction order (:func:`recall.scheduling.new_order.order_new_cards`);
    ``allowance`` what is left of today's new limits; ``new_limit``/``review_limit`` the daily
    limits and ``*_spent`` what today has already used of them; ``groups_seen_today`` the
    sibling groups reviewed today (their other cards are buried); ``pace`` the learner's
    (:func:`pace_from_log`; ``None``: :data:`DEFAULT_PACE`).
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
    used = pace or DEFAULT_PACE
    return TodayPlan(
        day=day,
        queue=queue,
        new_limit=Limit.of(new_limit, new_spent, counts.new),
        review_limit=Limit.of(review_limit, review_spent, counts.review),
        minutes=round(_seconds(used, counts.new, counts.learning + counts.review) / 60.0, 1),
        pace=used,
        pace_measured=pace is not None,
        new_waiting=len(new_in_order) - counts.new,
        by_deck=_count_by(queue, lambda p: p.deck),
        by_topic=_count_by(queue, lambda p: p.topic),
    )


def _seconds(pace: Pace, new: int, seen: int) -> float:
    """Time for ``new`` new cards and ``seen`` answers of cards already seen."""
    return new * pace.new_card_seconds + seen * pace.review_seconds


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
