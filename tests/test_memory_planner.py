"""The workload planner: seeded, reproducible, and monotone where it must be."""

from __future__ import annotations

import random

import pytest

from recall.scheduling.simulation import (
    RETENTIONS,
    PlanInputs,
    PlannedCard,
    plan_workload,
)
from recall.scheduling.today import Pace
from tests.simulated_learners import DEFAULTS, FORGETFUL


def collection(reviewed: int, new: int, seed: int = 0) -> list[PlannedCard]:
    rng = random.Random(seed)
    cards = [
        PlannedCard(
            stability=rng.uniform(1, 60),
            difficulty=rng.uniform(3, 8),
            days_since_review=rng.randint(1, 30),
            due_in_days=rng.randint(-3, 30),
        )
        for _ in range(reviewed)
    ]
    return cards + [PlannedCard() for _ in range(new)]


@pytest.fixture(scope="module")
def inputs() -> PlanInputs:
    return PlanInputs(
        DEFAULTS, collection(120, 80), Pace(12.0, 30.0), new_per_day=5, days=45, seed=7
    )


def test_minutes_per_day_rise_with_desired_retention(inputs: PlanInputs) -> None:
    """From 0.80 up, asking to remember more must cost more time. Below it the curve may
    flatten: lapses there cost relearning, which eats into the time longer intervals save."""
    plan = plan_workload(inputs, current_retention=0.9)
    retentions = [p.desired_retention for p in plan.points]
    assert retentions == sorted(retentions) and 0.9 in retentions
    upper = [p for p in plan.points if p.desired_retention >= 0.80]
    minutes = [p.minutes_per_day for p in upper]
    assert all(a < b for a, b in zip(minutes, minutes[1:], strict=False)), minutes
    reviews = [p.reviews for p in upper]
    assert all(a < b for a, b in zip(reviews, reviews[1:], strict=False)), reviews
    assert plan.points[0].minutes_per_day < plan.points[-1].minutes_per_day / 2
    # More reviewing, more remembered: the ends of the curve, where the gap is large.
    assert plan.points[-1].remembered_at_end > plan.points[0].remembered_at_end
    assert all(p.new_cards == 80 for p in plan.points)  # 5 a day for 45 days covers all 80


def test_same_seed_same_plan_other_seed_other_plan(inputs: PlanInputs) -> None:
    first = plan_workload(inputs, 0.9)
    assert plan_workload(inputs, 0.9) == first
    assert first.to_dict() == plan_workload(inputs, 0.9).to_dict()
    other = plan_workload(PlanInputs(**{**inputs.__dict__, "seed": 8}), 0.9)
    assert other != first


def test_the_current_setting_is_marked_and_added() -> None:
    plan = plan_workload(PlanInputs(DEFAULTS, collection(10, 10), days=10), current_retention=0.9)
    marked = [p for p in plan.points if p.current]
    assert [p.desired_retention for p in marked] == [0.9]
    assert plan.current is marked[0]
    assert len(plan.points) == len(RETENTIONS) + 1  # 0.90 is not among the defaults
    on_grid = plan_workload(PlanInputs(DEFAULTS, collection(10, 10), days=10), 0.85)
    assert len(on_grid.points) == len(RETENTIONS)
    assert plan_workload(PlanInputs(DEFAULTS, [], days=10)).current is None


def test_the_learners_own_parameters_and_collection_matter() -> None:
    cards = collection(100, 0)
    typical = plan_workload(PlanInputs(DEFAULTS, cards, days=30), retentions=[0.9])
    forgetful = plan_workload(PlanInputs(FORGETFUL, cards, days=30), retentions=[0.9])
    # Faster forgetting means shorter intervals: more reviews for the same cards.
    assert forgetful.points[0].reviews > typical.points[0].reviews
    overdue = [PlannedCard(5.0, 5.0, 40, -20) for _ in range(100)]
    fresh = [PlannedCard(5.0, 5.0, 0, 5) for _ in range(100)]
    day_one = PlanInputs(DEFAULTS, overdue, days=1)
    assert plan_workload(day_one, retentions=[0.9]).points[0].reviews == 100
    assert (
        plan_workload(PlanInputs(DEFAULTS, fresh, days=1), retentions=[0.9]).points[0].reviews == 0
    )


def test_pace_scales_minutes() -> None:
    cards = collection(50, 20)
    slow = plan_workload(PlanInputs(DEFAULTS, cards, Pace(30, 80), days=20), retentions=[0.9])
    fast = plan_workload(PlanInputs(DEFAULTS, cards, Pace(15, 40), days=20), retentions=[0.9])
    assert slow.points[0].minutes_per_day == pytest.approx(2 * fast.points[0].minutes_per_day)
    # A costlier relearning step costs more only through the lapses.
    pricey = PlanInputs(DEFAULTS, cards, Pace(15, 40), lapse_seconds=60, days=20)
    cheap = PlanInputs(DEFAULTS, cards, Pace(15, 40), lapse_seconds=0, days=20)
    a, b = (plan_workload(x, retentions=[0.9]).points[0] for x in (pricey, cheap))
    assert a.reviews == b.reviews and a.minutes_per_day > b.minutes_per_day


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(ValueError):
        plan_workload(PlanInputs(DEFAULTS, [], days=10), retentions=[1.0])
    with pytest.raises(ValueError):
        plan_workload(PlanInputs(DEFAULTS, [], days=0))
