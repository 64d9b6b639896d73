"""Queue rules: interleaving, daily limits, siblings, study days."""

from __future__ import annotations

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

from hypothesis import given
from hypothesis import strategies as st

from recall.scheduling import (
    build_queue,
    day_start,
    drop_siblings,
    interleave,
    remaining,
    sibling_group,
    study_date,
    today_bounds,
)


def test_new_cards_are_spread_among_reviews() -> None:
    queue = interleave([f"r{i}" for i in range(10)], ["n1", "n2"])
    assert queue[0] == "r0"
    positions = [queue.index("n1"), queue.index("n2")]
    assert 2 <= positions[0] <= 5 and 6 <= positions[1] <= 10
    assert queue[-1].startswith("r")


@given(st.integers(0, 60), st.integers(0, 60))
def test_interleave_keeps_every_card_once_and_each_side_in_order(n_rev: int, n_new: int) -> None:
    reviews = [("r", i) for i in range(n_rev)]
    new = [("n", i) for i in range(n_new)]
    out = interleave(reviews, new)
    assert sorted(out) == sorted(reviews + new)
    assert [x for x in out if x[0] == "r"] == reviews
    assert [x for x in out if x[0] == "n"] == new


def test_learning_cards_come_first() -> None:
    assert build_queue(["l1"], ["r1", "r2"], ["n1"])[0] == "l1"


def test_daily_limits() -> None:
    assert remaining(20, 5) == 15
    assert remaining(20, 25) == 0
    assert remaining(-1, 10_000) > 10_000  # a negative limit means no limit


def test_sibling_groups_come_from_the_id_prefix() -> None:
    assert sibling_group("attention.formula") == "attention"
    assert sibling_group("attention.scale.v2") == "attention"
    assert sibling_group("mse") is None
    assert sibling_group(".odd") is None


def test_drop_siblings_keeps_the_first_of_each_group() -> None:
    queue = ["a.1", "b", "a.2", "c.1", "a.3", "c.2", "d"]
    assert drop_siblings(queue, sibling_group) == ["a.1", "b", "c.1", "d"]


def test_study_day_rolls_over_at_the_hour_in_local_time() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    late = datetime(2025, 6, 10, 23, 30, tzinfo=UTC)  # 01:30 on the 11th in Berlin
    assert study_date(late, 4, berlin) == date(2025, 6, 10)
    assert study_date(late, 0, berlin) == date(2025, 6, 11)
    start, end = today_bounds(late, 4, berlin)
    assert start == datetime(2025, 6, 10, 2, 0, tzinfo=UTC)  # 04:00 CEST
    assert end == datetime(2025, 6, 11, 2, 0, tzinfo=UTC)


def test_day_start_follows_daylight_saving() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    winter = day_start(date(2025, 1, 15), 4, berlin)
    summer = day_start(date(2025, 7, 15), 4, berlin)
    assert (winter.hour, summer.hour) == (3, 2)
