"""The FSRS adapter: new phase, counters, UTC discipline, fuzz control, retrievability."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import numpy as np
import pytest

from recall.scheduling import (
    NEW_STATE,
    CardState,
    Phase,
    Rating,
    Scheduler,
    SchedulerSettings,
    became_leech,
    is_leech,
)

T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def scheduler() -> Scheduler:
    return Scheduler(SchedulerSettings(enable_fuzzing=False))


def walk(scheduler: Scheduler, ratings: list[Rating], start: datetime = T0) -> list[CardState]:
    """Review a new card with each rating in turn, each review when the card falls due."""
    states, state, now = [], NEW_STATE, start
    for rating in ratings:
        state = scheduler.review(7, state, rating, now)
        states.append(state)
        assert state.due is not None
        now = state.due
    return states


def test_a_new_card_enters_learning_on_its_first_review(scheduler: Scheduler) -> None:
    first = scheduler.review(1, NEW_STATE, Rating.Good, T0)
    assert first.phase is Phase.LEARNING
    assert first.reps == 1 and first.lapses == 0
    assert first.last_review == T0
    assert first.due == T0 + timedelta(minutes=10)  # second learning step


def test_graduation_and_a_lapse_are_counted(scheduler: Scheduler) -> None:
    states = walk(scheduler, [Rating.Good, Rating.Good, Rating.Good, Rating.Again])
    assert states[1].phase is Phase.REVIEW
    assert states[3].phase is Phase.RELEARNING
    assert [s.lapses for s in states] == [0, 0, 0, 1]
    assert [s.reps for s in states] == [1, 2, 3, 4]


def test_again_while_learning_is_not_a_lapse(scheduler: Scheduler) -> None:
    states = walk(scheduler, [Rating.Again, Rating.Again])
    assert states[-1].lapses == 0


def test_times_come_back_in_utc_whatever_zone_goes_in(scheduler: Scheduler) -> None:
    paris = T0.astimezone(ZoneInfo("Europe/Paris"))
    state = scheduler.review(1, NEW_STATE, Rating.Good, paris)
    assert state.due is not None and state.due.tzinfo is UTC
    assert state.last_review == T0


def test_naive_times_are_refused(scheduler: Scheduler) -> None:
    with pytest.raises(ValueError, match="naive"):
        scheduler.review(1, NEW_STATE, Rating.Good, datetime(2025, 1, 1))


def test_no_fuzz_is_deterministic_and_seeded_fuzz_is_reproducible() -> None:
    ratings = [Rating.Good] * 6
    plain = Scheduler(SchedulerSettings(enable_fuzzing=False))
    assert walk(plain, ratings) == walk(plain, ratings)
    fuzzy = Scheduler(SchedulerSettings(enable_fuzzing=True))
    random.seed(1234)
    first = walk(fuzzy, ratings)
    random.seed(1234)
    assert walk(fuzzy, ratings) == first


def test_higher_desired_retention_gives_shorter_intervals() -> None:
    def interval(retention: float) -> timedelta:
        sched = Scheduler(SchedulerSettings(desired_retention=retention, enable_fuzzing=False))
        last = walk(sched, [Rating.Good] * 4)[-1]
        assert last.due is not None and last.last_review is not None
        return last.due - last.last_review

    assert interval(0.95) < interval(0.9) < interval(0.8)


def test_preview_gives_one_due_time_per_rating_in_order(scheduler: Scheduler) -> None:
    state = walk(scheduler, [Rating.Good] * 3)[-1]
    assert state.due is not None
    due = scheduler.preview(7, state, state.due)
    assert due[Rating.Again] < due[Rating.Hard] <= due[Rating.Good] < due[Rating.Easy]


def test_vectorised_retrievability_matches_fsrs(scheduler: Scheduler) -> None:
    states = walk(scheduler, [Rating.Good, Rating.Good, Rating.Hard, Rating.Good])
    elapsed = [0, 1, 5, 40]
    for s in states:
        assert s.last_review is not None
        single = [scheduler.retrievability(s, s.last_review + timedelta(days=d)) for d in elapsed]
        many = scheduler.retrievability_many([s.stability] * len(elapsed), elapsed)
        np.testing.assert_allclose(many, single, rtol=1e-12)
    assert scheduler.retrievability(NEW_STATE, T0) == 0.0
    assert scheduler.retrievability_many([np.nan], [3])[0] == 0.0


def test_leech_is_flagged_once_at_the_threshold() -> None:
    assert not is_leech(7, 8) and is_leech(8, 8)
    assert became_leech(7, 8, 8) and not became_leech(8, 9, 8)
    assert not is_leech(100, 0)  # 0 turns leech detection off


def test_mature_means_stable_for_three_weeks() -> None:
    assert CardState(phase=Phase.REVIEW, stability=21.0).is_mature
    assert not CardState(phase=Phase.REVIEW, stability=5.0).is_mature
    assert not NEW_STATE.is_mature
