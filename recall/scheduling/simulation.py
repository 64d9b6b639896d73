"""The workload planner: the learner's own next N days, simulated at several desired retentions.

A single "optimal retention" hides the trade-off (Anki removed its button for returning 70 %
too often). The planner shows it instead: for each desired retention from 0.70 to 0.97, how many
minutes a day the learner would spend and how many cards they would remember at the end, so the
learner chooses.

It simulates *this* learner, not an average one:

* their parameters (memory transitions from fsrs-rs-python's ``FSRS.next_states``, recall
  probability from the same forgetting curve the scheduler uses,
  :meth:`recall.scheduling.fsrs_adapter.Scheduler.retrievability_many`);
* their collection: every card with its current stability, difficulty and due day, and the new
  cards still to learn, introduced at their daily new-card limit;
* their pace (:class:`recall.scheduling.today.Pace`, measured from their log by
  :func:`recall.scheduling.today.pace_from_log`: seconds per review and per new card's first
  day), plus a relearning step's time for each lapse (:attr:`PlanInputs.lapse_seconds`, one
  review's time unless told).

fsrs-rs-python's own ``simulate`` starts from an empty collection (its Python binding takes no
existing cards), so the day loop is ours; it is small because the model's arithmetic is not.

Every run is seeded and every retention sees the **same random draws**: the k-th review of a card
is decided by the same uniform number at every retention (recalled when it falls below the
recall probability), and so is its passing grade. A higher retention reviews sooner, when
recall is likelier, so the same draw can only turn a lapse into a success, never the reverse:
differences between retentions are the policy's, not the dice's, and the same seed repeats a
plan exactly.

Minutes per day rise with desired retention from about 0.80 up. Below that the curve can flatten
or turn: cards are forgotten more often, and each lapse costs relearning time and a short
interval, which eats into what the longer intervals save. The planner shows that instead of
smoothing it away.

Simplifications, stated so nobody reads more into the numbers: a day's reviews are all done that
day (no review cap, no skipped days); same-day learning steps cost time (in the
new-card and lapse seconds) but do not change the memory state; intervals are not fuzzed. A
measured review pace already averages in some relearning, so with frequent lapses the absolute
minutes run a little high; the comparison between retentions is what the planner is for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from recall.scheduling.rating import Rating
from recall.scheduling.today import DEFAULT_PACE, Pace

#: The desired retentions the planner compares (the learner's own setting is added if absent).
RETENTIONS: tuple[float, ...] = (0.70, 0.73, 0.76, 0.79, 0.82, 0.85, 0.88, 0.91, 0.94, 0.97)
DEFAULT_DAYS = 90
#: Share of first ratings Again, Hard, Good, Easy (fsrs-rs's simulator defaults, from Anki users).
FIRST_RATINGS: tuple[float, float, float, float] = (0.24, 0.094, 0.495, 0.171)
#: Share of Hard, Good, Easy among recalled reviews (fsrs-rs's simulator defaults).
PASS_RATINGS: tuple[float, float, float] = (0.224, 0.631, 0.145)


@dataclass(frozen=True)
class PlannedCard:
    """A card as the planner sees it. A new card has no stability; a reviewed card has its
    memory state, the days since its last review, and the day it falls due (0 = today,
    negative = overdue, which is reviewed today)."""

    stability: float | None = None
    difficulty: float | None = None
    days_since_review: int = 0
    due_in_days: int = 0

    @property
    def is_new(self) -> bool:
        return self.stability is None


@dataclass(frozen=True)
class PlanInputs:
    """Everything a plan depends on (so a plan can be recomputed and compared)."""

    parameters: Sequence[float]
    cards: Sequence[PlannedCard]
    pace: Pace = DEFAULT_PACE
    lapse_seconds: float | None = None  # a lapse's relearning step; None: one review's time
    new_per_day: int = 10
    days: int = DEFAULT_DAYS
    maximum_interval_days: int = 36500
    first_ratings: Sequence[float] = FIRST_RATINGS
    pass_ratings: Sequence[float] = PASS_RATINGS
    seed: int = 0


@dataclass(frozen=True)
class PlanPoint:
    """One desired retention's simulated future."""

    desired_retention: float
    minutes_per_day: float
    remembered_at_end: float  # expected number of cards recalled on the last day
    reviews: int
    new_cards: int
    current: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "desired_retention": self.desired_retention,
            "minutes_per_day": self.minutes_per_day,
            "remembered_at_end": self.remembered_at_end,
            "reviews": self.reviews,
            "new_cards": self.new_cards,
            "current": self.current,
        }


@dataclass(frozen=True)
class Plan:
    """The curve: one :class:`PlanPoint` per retention, in increasing retention."""

    days: int
    cards: int
    seed: int
    points: tuple[PlanPoint, ...]

    @property
    def current(self) -> PlanPoint | None:
        return next((p for p in self.points if p.current), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "days": self.days,
            "cards": self.cards,
            "seed": self.seed,
            "points": [p.to_dict() for p in self.points],
        }


def plan_workload(
    inputs: PlanInputs,
    current_retention: float | None = None,
    retentions: Sequence[float] = RETENTIONS,
) -> Plan:
    """Simulate ``inputs`` at each retention; ``current_retention`` is marked (and added)."""
    chosen = sorted({round(r, 4) for r in retentions})
    if current_retention is not None:
        chosen = sorted({*chosen, round(current_retention, 4)})
    for r in chosen:
        if not 0.0 < r < 1.0:
            raise ValueError(f"desired retention must be between 0 and 1, not {r}")
    if inputs.days < 1:
        raise ValueError("a plan needs at least one day")
    draws = _Draws.make(inputs)
    points = tuple(
        _simulate(
            inputs,
            r,
            draws,
            current=current_retention is not None and r == round(current_retention, 4),
        )
        for r in chosen
    )
    return Plan(inputs.days, len(inputs.cards), inputs.seed, points)


@dataclass(frozen=True)
class _Draws:
    """The random numbers every retention shares: recall and grade per (card, k-th review), and
    each new card's first grade."""

    recall: Any
    grade: Any
    first: Any

    @classmethod
    def make(cls, inputs: PlanInputs) -> _Draws:
        import numpy as np

        rng = np.random.default_rng(inputs.seed)
        n = len(inputs.cards)
        recall = rng.random((n, inputs.days + 1))
        grade = rng.random((n, inputs.days + 1))
        first = rng.random(n)
        return cls(recall, grade, first)


def _grade_from(u: float, shares: Sequence[float], grades: Sequence[Rating]) -> Rating:
    """The grade a uniform draw ``u`` picks from ``shares`` (cumulative, in order)."""
    total = float(sum(shares))
    running = 0.0
    for share, grade in zip(shares, grades, strict=True):
        running += share / total
        if u < running:
            return grade
    return grades[-1]


def _simulate(inputs: PlanInputs, retention: float, draws: _Draws, *, current: bool) -> PlanPoint:
    import fsrs_rs_python
    import numpy as np

    from recall.scheduling.fsrs_adapter import Scheduler, SchedulerSettings

    params = [float(w) for w in inputs.parameters]
    model = fsrs_rs_python.FSRS(params)
    curve = Scheduler(SchedulerSettings(parameters=tuple(params), enable_fuzzing=False))
    cards = inputs.cards
    stability = np.array([c.stability if c.stability else np.nan for c in cards], dtype=float)
    difficulty = np.array([c.difficulty if c.difficulty else 5.0 for c in cards], dtype=float)
    last = np.array([-c.days_since_review for c in cards], dtype=np.int64)
    due = np.array([max(0, c.due_in_days) for c in cards], dtype=np.int64)
    active = ~np.isnan(stability)
    reviewed = np.zeros(len(cards), dtype=np.int64)  # reviews so far in the plan, per card
    waiting = [i for i, c in enumerate(cards) if c.is_new]
    waiting.reverse()  # pop() introduces them in collection order
    pass_grades = (Rating.Hard, Rating.Good, Rating.Easy)
    seconds = 0.0
    reviews = introduced = 0
    max_ivl = max(1, inputs.maximum_interval_days)
    review_cost = inputs.pace.review_seconds
    lapse_cost = review_cost if inputs.lapse_seconds is None else inputs.lapse_seconds

    def schedule(i: int, state: Any, rating: Rating, day: int) -> None:
        item = (state.again, state.hard, state.good, state.easy)[int(rating) - 1]
        stability[i] = item.memory.stability
        difficulty[i] = item.memory.difficulty
        last[i] = day
        due[i] = day + int(min(max(1, round(item.interval)), max_ivl))

    for day in range(inputs.days):
        today = np.flatnonzero(active & (due <= day))
        if today.size:
            elapsed = day - last[today]
            recall_p = curve.retrievability_many(stability[today], elapsed)
            nth = reviewed[today]
            recalled = draws.recall[today, nth] < recall_p
            grades = draws.grade[today, nth]
            reviewed[today] += 1
            for i, ok, gap, u in zip(
                today.tolist(), recalled.tolist(), elapsed.tolist(), grades.tolist(), strict=True
            ):
                if ok:
                    rating = _grade_from(u, inputs.pass_ratings, pass_grades)
                    seconds += review_cost
                else:
                    rating = Rating.Again
                    seconds += review_cost + lapse_cost
                memory = fsrs_rs_python.MemoryState(float(stability[i]), float(difficulty[i]))
                schedule(i, model.next_states(memory, retention, int(gap)), rating, day)
            reviews += int(today.size)
        for _ in range(min(inputs.new_per_day, len(waiting))):
            i = waiting.pop()
            rating = _grade_from(draws.first[i], inputs.first_ratings, tuple(Rating))
            schedule(i, model.next_states(None, retention, 0), rating, day)
            active[i] = True
            seconds += inputs.pace.new_card_seconds
            introduced += 1

    known = np.flatnonzero(active)
    remembered = 0.0
    if known.size:
        remembered = float(
            curve.retrievability_many(stability[known], inputs.days - last[known]).sum()
        )
    return PlanPoint(
        desired_retention=retention,
        minutes_per_day=seconds / inputs.days / 60.0,
        remembered_at_end=remembered,
        reviews=reviews,
        new_cards=introduced,
        current=current,
    )
