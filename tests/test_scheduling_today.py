"""Today's plan (recall.scheduling.today): queue order, counts, limits, the time estimate."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta

import pytest

from recall.scheduling.new_order import NewAllowance, NewCard, NewOrder, order_new_cards
from recall.scheduling.today import (
    DEFAULT_PACE,
    MIN_PACE_SAMPLE,
    DueCard,
    Pace,
    pace_from_log,
    plan_today,
)

NOW = datetime(2026, 12, 1, 9, tzinfo=UTC)
DAY = date(2026, 12, 1)


def _new(deck: str, n: int, topic: str = "", groups: dict[int, str] | None = None) -> list[NewCard]:
    groups = groups or {}
    return [
        NewCard(deck, f"n{i}", topic or deck, i, groups.get(i), kind="formula") for i in range(n)
    ]


def _due(deck: str, n: int, *, learning: bool = False, group: str | None = None) -> list[DueCard]:
    return [
        DueCard(
            deck,
            f"{'l' if learning else 'r'}{i}",
            NOW - timedelta(hours=n - i),
            learning=learning,
            kind="fact",
            topic=deck.upper(),
            sibling_group=group,
        )
        for i in range(n)
    ]


def _plan(due, new, *, new_limit=20, new_spent=0, review_limit=200, review_spent=0, **kw):
    return plan_today(
        day=DAY,
        due=due,
        new_in_order=new,
        allowance=NewAllowance.left(new_limit, new_spent),
        new_limit=new_limit,
        new_spent=new_spent,
        review_limit=review_limit,
        review_spent=review_spent,
        **kw,
    )


def test_learning_first_then_reviews_with_new_cards_spread_among_them() -> None:
    due = _due("a", 4) + _due("b", 2, learning=True)
    plan = _plan(due, _new("c", 2))
    states = [card.state for card in plan.queue]
    assert states[:2] == ["learning", "learning"]
    assert states[2] == "review"  # the mixed part starts with a review
    assert states.count("new") == 2
    new_at = [i for i, s in enumerate(states) if s == "new"]
    assert new_at[1] - new_at[0] > 1  # spread, not bunched


def test_limits_cap_the_queue_and_say_what_is_left() -> None:
    plan = _plan(
        _due("a", 30), _new("b", 30), new_limit=20, new_spent=15, review_limit=25, review_spent=20
    )
    counts = plan.counts
    assert counts.new == 5
    assert counts.review == 5
    assert plan.new_limit.limit == 20 and plan.new_limit.spent == 15 and plan.new_limit.left == 0
    assert plan.review_limit.left == 0
    assert plan.new_waiting == 25


def test_a_spent_allowance_plans_no_new_cards_and_counts_those_waiting() -> None:
    plan = _plan([], _new("a", 7), new_limit=20, new_spent=20)
    assert plan.queue == ()
    assert plan.new_waiting == 7
    assert plan.minutes == 0


def test_counts_by_deck_and_topic_add_up_to_the_queue() -> None:
    new = order_new_cards(_new("x", 5, "T") + _new("y", 5, "T"), NewOrder.GATHERED, seed=1)
    plan = _plan(_due("a", 3) + _due("b", 2, learning=True), new, new_limit=6)
    assert sum(c.total for c in plan.by_deck.values()) == len(plan.queue)
    assert sum(c.total for c in plan.by_topic.values()) == len(plan.queue)
    assert plan.by_deck["a"].review == 3
    assert plan.by_deck["b"].learning == 2
    assert plan.by_topic["T"].new == 6
    assert plan.by_deck["x"].new + plan.by_deck["y"].new == 6


def test_a_new_sibling_of_a_card_due_today_waits() -> None:
    due = _due("a", 1, group="g")
    new = _new("a", 3, groups={0: "g"})
    plan = _plan(due, new)
    keys = [f"{c.deck}/{c.card}" for c in plan.queue]
    assert "a/n0" not in keys
    assert {"a/n1", "a/n2", "a/r0"} <= set(keys)


def test_no_daily_limit_is_reported_as_none() -> None:
    plan = _plan(_due("a", 3), _new("b", 3), new_limit=-1, review_limit=-1)
    assert plan.counts.new == 3 and plan.counts.review == 3
    assert plan.to_dict()["limits"]["new"] == {"limit": None, "spent": 0, "left": None}


def test_minutes_come_from_the_pace() -> None:
    pace = Pace(review_seconds=30.0, new_card_seconds=90.0, measured=True)
    plan = _plan(_due("a", 4) + _due("b", 2, learning=True), _new("c", 2), pace=pace)
    assert plan.minutes == pytest.approx((6 * 30 + 2 * 90) / 60, abs=0.05)
    default = _plan(_due("a", 4), _new("c", 2))
    expected = (4 * DEFAULT_PACE.review_seconds + 2 * DEFAULT_PACE.new_card_seconds) / 60
    assert default.minutes == pytest.approx(expected, abs=0.05)


def test_json_shape() -> None:
    plan = _plan(_due("a", 2) + _due("b", 1, learning=True), _new("c", 1))
    data = json.loads(json.dumps(plan.to_dict()))
    assert data["day"] == "2026-12-01"
    assert all(set(item) == {"deck", "card", "kind", "state"} for item in data["queue"])
    assert {item["state"] for item in data["queue"]} == {"new", "learning", "review"}
    assert data["counts"]["total"] == {"new": 1, "learning": 1, "review": 2}
    assert data["limits"]["review"] == {"limit": 200, "spent": 0, "left": 198}
    assert data["pace"]["source"] == "default"


def test_pace_defaults_until_the_log_has_enough() -> None:
    few = [("review", 5.0)] * (MIN_PACE_SAMPLE - 1)
    assert pace_from_log(few) == DEFAULT_PACE
    assert pace_from_log([]) == DEFAULT_PACE


def test_pace_from_the_log_charges_steps_to_their_cards() -> None:
    log = [("new", 40.0), ("learning", 10.0), ("learning", 10.0)] * MIN_PACE_SAMPLE
    log += [("review", 12.0), ("relearn", 6.0)] * MIN_PACE_SAMPLE
    log += [("off_schedule", 999.0)] * 5
    pace = pace_from_log(log)
    assert pace.measured
    assert pace.new_card_seconds == pytest.approx(60.0)
    assert pace.review_seconds == pytest.approx(18.0)


def test_pace_caps_a_card_left_on_screen() -> None:
    log = [("review", 10.0)] * (MIN_PACE_SAMPLE - 1) + [("review", 10_000.0)]
    pace = pace_from_log(log)
    assert pace.review_seconds < 50
