"""The exam planner's day-by-day simulation: FSRS on whole days, every answer right.

:func:`simulate` runs the rules of :mod:`recall.scheduling.exam` over the days up to the exam
and returns the :class:`~recall.scheduling.exam_plan.ExamPlan` they give, feasible or not;
:func:`best_plan` tries an even spread of new cards first and an early one second.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import fsrs

from recall.scheduling.exam_plan import (
    EXAM_DAY_TARGET,
    FINAL_DAYS,
    REQUIRED_REVIEWS,
    ExamCard,
    ExamDay,
    ExamPlan,
)
from recall.scheduling.state import CardState, Phase
from recall.scheduling.today import Pace


class ExamModel:
    """FSRS on whole days, every review answered right (Good), no fuzz."""

    def __init__(self, parameters: Sequence[float] | None, desired_retention: float) -> None:
        kwargs: dict[str, Any] = {}
        if parameters is not None:
            kwargs["parameters"] = tuple(parameters)
        self.scheduler = fsrs.Scheduler(
            desired_retention=desired_retention,
            learning_steps=(),
            relearning_steps=(),
            enable_fuzzing=False,
            **kwargs,
        )
        self._cache: dict[tuple[float | None, float | None, int | None], fsrs.Card] = {}

    def review(self, card: fsrs.Card | None, moment: datetime) -> fsrs.Card:
        """The card after a right answer at ``moment`` (``None``: a new card's first)."""
        elapsed = (
            None if card is None or card.last_review is None else (moment - card.last_review).days
        )
        key = (None, None, None) if card is None else (card.stability, card.difficulty, elapsed)
        cached = self._cache.get(key)
        if cached is None:
            start = card or fsrs.Card(card_id=1, state=fsrs.State.Learning, step=0, due=moment)
            cached, _log = self.scheduler.review_card(start, fsrs.Rating.Good, moment)
            self._cache[key] = cached
        # Same memory, this card's dates (the cache is keyed on elapsed days only).
        return fsrs.Card(
            card_id=1,
            state=cached.state,
            step=cached.step,
            stability=cached.stability,
            difficulty=cached.difficulty,
            due=moment + (cached.due - cached.last_review) if cached.last_review else moment,
            last_review=moment,
        )

    def recall(self, card: fsrs.Card | None, moment: datetime) -> float:
        if card is None or card.last_review is None:
            return 0.0
        return float(self.scheduler.get_card_retrievability(card, moment))


def _moment(day: date) -> datetime:
    """The instant a plan day stands for: noon UTC (the plan is kept in whole days)."""
    return datetime.combine(day, time(12), tzinfo=UTC)


def as_fsrs_card(state: CardState) -> fsrs.Card | None:
    """A seen card's memory as an ``fsrs`` review card (``None`` for a new one)."""
    if state.phase is Phase.NEW or state.stability is None or state.last_review is None:
        return None
    due = state.due or state.last_review
    return fsrs.Card(
        card_id=1,
        state=fsrs.State.Review,
        stability=state.stability,
        difficulty=state.difficulty,
        due=due.astimezone(UTC),
        last_review=state.last_review.astimezone(UTC),
    )


# --------------------------------------------------------------------------- simulation


@dataclass
class _Track:
    """One card in the simulation. ``due_index`` and ``last_index`` are day indices (negative:
    before the plan began), kept with ``memory`` by :meth:`remember`."""

    key: str
    deck: str
    memory: fsrs.Card | None
    group: str = ""
    reviews: int = 0
    last_day: int | None = None  # day index of its last answer in the plan
    due_index: int = 0
    last_index: int = 0

    @classmethod
    def of(cls, card: ExamCard, today: date) -> _Track:
        track = cls(card.key, card.deck, None, card.group, reviews=card.done)
        memory = as_fsrs_card(card.state)
        if memory is not None:
            assert memory.last_review is not None
            track.remember(memory, (memory.last_review.date() - today).days, today)
        return track

    def remember(self, memory: fsrs.Card, index: int, today: date) -> None:
        self.memory = memory
        self.due_index = (memory.due.date() - today).days
        self.last_index = index

    def required_left(self) -> int:
        return REQUIRED_REVIEWS - self.reviews if self.reviews < REQUIRED_REVIEWS else 0

    def deadline(self, days: int) -> int:
        """The last day index its next required review may take."""
        return days - self.required_left()


def simulate(
    cards: Sequence[ExamCard],
    today: date,
    exam: date,
    daily_minutes: float,
    pace: Pace,
    model: ExamModel,
    *,
    front_load: bool = False,
) -> ExamPlan:
    """Run the plan day by day (see the module docstring for the rules, in order)."""
    run = _Run(cards, today, exam, daily_minutes * 60.0, pace, model, front_load)
    plan_days = tuple(run.day(index) for index in range(run.days))
    exam_moment = _moment(exam)
    recall = {t.key: model.recall(t.memory, exam_moment) for t in run.tracks}
    reviews_before = {t.key: t.reviews for t in run.tracks}
    feasible = all(n >= REQUIRED_REVIEWS for n in reviews_before.values()) and all(
        d.minutes * 60.0 <= run.capacity + 1e-6 for d in plan_days
    )
    return ExamPlan(
        today=today,
        exam=exam,
        daily_minutes=daily_minutes,
        pace=pace,
        days=plan_days,
        feasible=feasible,
        reviews_before=reviews_before,
        recall=recall,
        decks={t.key: t.deck for t in run.tracks},
    )


class _Run:
    """The state of one simulation: every card's track, and the new cards still waiting."""

    def __init__(
        self,
        cards: Sequence[ExamCard],
        today: date,
        exam: date,
        capacity: float,
        pace: Pace,
        model: ExamModel,
        front_load: bool,
    ) -> None:
        self.today = today
        self.exam_moment = _moment(exam)
        self.days = max(0, (exam - today).days)
        self.capacity = capacity
        self.pace = pace
        self.model = model
        self.front_load = front_load
        self.tracks = [_Track.of(card, today) for card in cards]
        # A card seen but with no memory to go on (no stability) is learned again.
        self.waiting = [t for t in self.tracks if t.memory is None]
        #: New cards are introduced on day indices 0 .. intro_days - 1.
        self.intro_days = self.days - REQUIRED_REVIEWS
        self._index = 0
        self._moment = _moment(today)
        self._spent = 0.0
        self._groups: set[str] = set()  # sibling groups with a card answered today

    def day(self, index: int) -> ExamDay:
        self._index = index
        self._moment = _moment(self.today + timedelta(days=index))
        self._spent = 0.0
        self._groups = set()
        reviews: list[str] = []
        new: list[str] = []
        weakest: list[str] = []
        active = [t for t in self.tracks if t.memory is not None]
        # 1. Required reviews whose deadline is today, whatever the time they take.
        for track in active:
            if track.required_left() and track.deadline(self.days) <= index and self._free(track):
                self._answer(track, reviews)
        # 2. New cards that must start today to leave room for their two reviews.
        if index == self.intro_days - 1:
            self._introduce([t for t in self.waiting if self._free(t)], new)
        # 3. Reviews FSRS asks for by today, the most urgent first.
        if self._room():
            # A review the plan no longer needs waits while a sibling waits to be introduced:
            # one card of a group a day, and the new one must start in time for its reviews.
            waiting = (
                {t.group for t in self.waiting if t.group} if index < self.intro_days else set()
            )
            due = [
                t
                for t in active
                if t.due_index <= index
                and self._free(t)
                and not (t.group in waiting and not t.required_left())
            ]
            self._answer_while_room(sorted(due, key=self._urgency), reviews)
        # 4. An even share of the new cards left over the days left to introduce them.
        if self.waiting and index < self.intro_days:
            share = len(self.waiting)
            if not self.front_load:
                share = math.ceil(share / (self.intro_days - index))
            room = int(max(0.0, self.capacity - self._spent) // self.pace.new_card_seconds)
            self._introduce([t for t in self.waiting if self._free(t)][: min(share, room)], new)
        # 5. Spare time: required reviews pulled in once half the wait to their deadline has
        #    passed; on the last days, the cards weakest on the exam day.
        if self._room():
            ready = [t for t in active if t.required_left() and self._free(t) and self._ripe(t)]
            self._answer_while_room(sorted(ready, key=self._urgency), reviews)
        if index >= self.days - FINAL_DAYS and self._room():
            weak = [t for t in active if self._free(t) and self._exam_recall(t) < EXAM_DAY_TARGET]
            self._answer_while_room(sorted(weak, key=self._exam_recall), weakest)
        return ExamDay(
            day=self.today + timedelta(days=index),
            new=tuple(new),
            reviews=tuple(reviews),
            weakest=tuple(weakest),
            minutes=round(self._spent / 60.0, 1),
        )

    def _room(self) -> bool:
        """Time is left today for one more review."""
        return self._spent + self.pace.review_seconds <= self.capacity

    def _free(self, track: _Track) -> bool:
        """Not answered today yet (a card is answered at most once a day in the plan), nor a
        sibling of it (one card of a sibling group a day, as sessions do)."""
        return track.last_day != self._index and not (track.group and track.group in self._groups)

    def _ripe(self, track: _Track) -> bool:
        """Half the time from its last answer to its deadline has passed."""
        waited = self._index - track.last_index
        return waited >= max(1, (track.deadline(self.days) - self._index) // 2)

    def _urgency(self, track: _Track) -> tuple[int, float]:
        deadline = track.deadline(self.days) if track.required_left() else self.days
        return deadline, self.model.recall(track.memory, self._moment)

    def _exam_recall(self, track: _Track) -> float:
        return self.model.recall(track.memory, self.exam_moment)

    def _answer(self, track: _Track, into: list[str]) -> None:
        if track.group:
            self._groups.add(track.group)
        track.remember(self.model.review(track.memory, self._moment), self._index, self.today)
        track.reviews += 1
        track.last_day = self._index
        self._spent += self.pace.review_seconds
        into.append(track.key)

    def _answer_while_room(self, tracks: Sequence[_Track], into: list[str]) -> None:
        for track in tracks:
            if self._spent + self.pace.review_seconds > self.capacity:
                return
            if self._free(track):
                self._answer(track, into)

    def _introduce(self, tracks: Sequence[_Track], into: list[str]) -> None:
        chosen = []
        for track in tracks:
            if not self._free(track):
                continue  # a sibling was introduced a moment ago: tomorrow
            if track.group:
                self._groups.add(track.group)
            chosen.append(track)
            track.remember(self.model.review(None, self._moment), self._index, self.today)
            track.last_day = self._index
            self._spent += self.pace.new_card_seconds
            into.append(track.key)
        done = {id(t) for t in chosen}
        self.waiting = [t for t in self.waiting if id(t) not in done]


def best_plan(
    cards: Sequence[ExamCard],
    today: date,
    exam: date,
    daily_minutes: float,
    pace: Pace,
    model: ExamModel,
) -> ExamPlan:
    """The evenly spread plan, or when that does not fit, the one that introduces new cards as
    early as the minutes allow (more room for their reviews later); the even one if neither
    fits (its figures explain best what is missing)."""
    even = simulate(cards, today, exam, daily_minutes, pace, model)
    if even.feasible:
        return even
    early = simulate(cards, today, exam, daily_minutes, pace, model, front_load=True)
    return early if early.feasible else even


def fits(
    cards: Sequence[ExamCard],
    today: date,
    exam: date,
    daily_minutes: float,
    pace: Pace,
    model: ExamModel,
) -> bool:
    return best_plan(cards, today, exam, daily_minutes, pace, model).feasible
