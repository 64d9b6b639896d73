"""The exam planner's values: the cards asked for, and the plan's days and outcome.

See :mod:`recall.scheduling.exam` for the planner itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from enum import StrEnum
from typing import Any, Final

from recall.scheduling.state import CardState
from recall.scheduling.today import Pace

REQUIRED_REVIEWS: Final = 2
#: Days before the exam whose spare time goes to the weakest cards.
FINAL_DAYS: Final = 2
#: On those days, a card whose recall on the exam day would be below this is reviewed again
#: when there is time (weakest first): FSRS's 90 % is a long-run target, an exam is one day.
EXAM_DAY_TARGET: Final = 0.97


@dataclass(frozen=True)
class ExamCard:
    """A card to prepare: its identity and its memory state now (new cards have the new
    state). Cards are given with the new ones in introduction order."""

    deck: str
    card: str
    topic: str = ""
    state: CardState = field(default_factory=CardState)
    #: Its sibling group ("" for none): cards that give each other's answers away are never
    #: drilled on one day, so the plan gives a group at most one card a day.
    group: str = ""
    #: Reviews it already had towards the plan (a followed plan made again on a later day:
    #: the days it was reviewed since the plan was adopted, its first day left out).
    done: int = 0

    @property
    def key(self) -> str:
        return f"{self.deck}/{self.card}"


@dataclass(frozen=True)
class ExamDay:
    """One study day of the plan: the cards introduced, reviewed, and (on the last days)
    reviewed again because they are the weakest; ``minutes`` is the time it should take."""

    day: date
    new: tuple[str, ...] = ()
    reviews: tuple[str, ...] = ()
    weakest: tuple[str, ...] = ()
    minutes: float = 0.0

    @property
    def cards(self) -> int:
        return len(self.new) + len(self.reviews) + len(self.weakest)

    def to_dict(self) -> dict[str, Any]:
        return {
            "day": self.day.isoformat(),
            "new": len(self.new),
            "reviews": len(self.reviews),
            "weakest": len(self.weakest),
            "minutes": self.minutes,
            "cards": {
                "new": list(self.new),
                "reviews": list(self.reviews),
                "weakest": list(self.weakest),
            },
        }


class Shortfall(StrEnum):
    """Why a plan does not meet the rules. The planner decides; the words a learner reads are
    :func:`recall.planning.problem_sentence`'s. Each kind's ``figures`` are listed beside it."""

    EXAM_NOT_AHEAD = "exam_not_ahead"  # exam
    NEW_CARDS_NEED_DAYS = "new_cards_need_days"  # new, days
    REVIEWS_NEED_DAYS = "reviews_need_days"  # days
    #: cards, new, needed_minutes, new_card_seconds, review_seconds, days, daily_minutes,
    #: available_minutes
    NOT_ENOUGH_TIME = "not_enough_time"
    #: short, cards, daily_minutes, sibling_group (0: not the reason), sibling_days
    CARDS_SHORT = "cards_short"
    DAY_OVER = "day_over"  # day, minutes, daily_minutes


class RemedyKind(StrEnum):
    """What would make a plan feasible (each found by running the planner), worded by
    :func:`recall.planning.remedy_sentence`. Each kind's ``figures`` are listed beside it."""

    MORE_MINUTES = "more_minutes"  # minutes, daily_minutes
    LATER_EXAM = "later_exam"  # exam, daily_minutes
    FEWER_NEW_CARDS = "fewer_new_cards"  # fit, new
    FEWER_DECKS = "fewer_decks"  # (none)


def _plain(figures: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v.isoformat() if isinstance(v, date) else v for k, v in figures.items()}


@dataclass(frozen=True)
class Problem:
    """One reason a plan is not feasible, with the figures behind it."""

    kind: Shortfall
    figures: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": str(self.kind), **_plain(self.figures)}


@dataclass(frozen=True)
class Remedy:
    """One change that would make a plan feasible, with its figures."""

    kind: RemedyKind
    figures: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": str(self.kind), **_plain(self.figures)}


@dataclass(frozen=True)
class ExamPlan:
    """The plan from today to the exam, or why there is none.

    ``reviews_before`` is each card's number of reviews in the plan (introductions not
    counted); ``recall`` the predicted probability of recalling each card on the exam day.
    """

    today: date
    exam: date
    daily_minutes: float
    pace: Pace
    days: tuple[ExamDay, ...]
    feasible: bool
    problems: tuple[Problem, ...] = ()
    suggestions: tuple[Remedy, ...] = ()
    reviews_before: dict[str, int] = field(default_factory=dict)
    recall: dict[str, float] = field(default_factory=dict)
    decks: dict[str, str] = field(default_factory=dict)  # card key -> deck
    #: Each card's predicted recall on the exam day under the normal schedule alone (no plan
    #: followed): what the plan is shown against. Empty when not worked out.
    baseline: dict[str, float] = field(default_factory=dict)

    @property
    def predicted_recall(self) -> float | None:
        """Mean predicted recall over the cards on the exam day (``None`` without cards)."""
        return sum(self.recall.values()) / len(self.recall) if self.recall else None

    def recall_by_deck(self) -> dict[str, float]:
        totals: dict[str, list[float]] = {}
        for key, value in self.recall.items():
            totals.setdefault(self.decks.get(key, ""), []).append(value)
        return {deck: sum(v) / len(v) for deck, v in totals.items()}

    def baseline_by_deck(self) -> dict[str, float]:
        totals: dict[str, list[float]] = {}
        for key, value in self.baseline.items():
            totals.setdefault(self.decks.get(key, ""), []).append(value)
        return {deck: sum(v) / len(v) for deck, v in totals.items()}

    @property
    def busiest_minutes(self) -> float:
        return max((d.minutes for d in self.days), default=0.0)

    def to_dict(self) -> dict[str, Any]:
        predicted = self.predicted_recall
        return {
            "today": self.today.isoformat(),
            "exam": self.exam.isoformat(),
            "daily_minutes": self.daily_minutes,
            "feasible": self.feasible,
            "problems": [problem.to_dict() for problem in self.problems],
            "suggestions": [remedy.to_dict() for remedy in self.suggestions],
            "cards": len(self.reviews_before),
            "predicted_recall": None if predicted is None else round(predicted, 4),
            "recall_by_deck": {d: round(r, 4) for d, r in self.recall_by_deck().items()},
            "normal_schedule_recall_by_deck": {
                d: round(r, 4) for d, r in self.baseline_by_deck().items()
            },
            "days": [day.to_dict() for day in self.days],
            "pace": self.pace.to_dict(),
        }
