"""Review history ─▶ FSRS items: study days, targets, the time-series split."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from recall.scheduling.history import History, ReviewEvent, time_split
from recall.scheduling.rating import Rating

T0 = datetime(2025, 3, 3, 12, tzinfo=UTC)


def ev(card: str, at: datetime, rating: Rating = Rating.Good, seconds: float | None = None):
    return ReviewEvent(card, at, rating, seconds=seconds)


def test_deltas_count_study_days_with_the_rollover() -> None:
    # 23:30 and 01:30 the next calendar day are the same study day with a 4 am rollover.
    late = datetime(2025, 3, 3, 23, 30, tzinfo=UTC)
    history = History.from_events(
        [
            ev("a", late),
            ev("a", late + timedelta(hours=2)),  # 01:30: same study day
            ev("a", late + timedelta(hours=6)),  # 05:30: next study day
        ],
        rollover_hour=4,
        tz=UTC,
    )
    (card,) = history.cards
    assert card.delta_days == (0, 0, 1)
    assert [t.index for t in history.targets] == [2]


def test_events_are_sorted_per_card_and_same_day_reviews_are_not_targets() -> None:
    history = History.from_events(
        [
            ev("a", T0 + timedelta(days=3), Rating.Again),
            ev("a", T0),
            ev("b", T0 + timedelta(days=1)),
            ev("a", T0 + timedelta(minutes=10)),
        ],
        tz=UTC,
    )
    a = history.by_card()["a"]
    assert [e.reviewed_at for e in a.events] == sorted(e.reviewed_at for e in a.events)
    assert a.delta_days == (0, 0, 3)
    targets = history.targets
    assert [(t.card, t.index, t.elapsed_days, t.recalled) for t in targets] == [("a", 2, 3, False)]
    assert a.review_pairs(targets[0].index + 1) == [(3, 0), (3, 0), (1, 3)]
    assert "delta_t: 3" in repr(history.items_for(targets)[0])
    assert len(history) == 4


def test_targets_are_in_time_order_across_cards() -> None:
    history = History.from_events(
        [
            ev("a", T0),
            ev("b", T0),
            ev("a", T0 + timedelta(days=5)),
            ev("b", T0 + timedelta(days=2)),
        ],
        tz=UTC,
    )
    assert [t.card for t in history.targets] == ["b", "a"]


def test_time_split_holds_out_the_latest_and_never_splits_a_tie() -> None:
    history = History.from_events(
        [ev(f"c{i}", T0) for i in range(8)]
        + [ev(f"c{i}", T0 + timedelta(days=1 + i // 2)) for i in range(8)],
        tz=UTC,
    )
    targets = history.targets
    train, test = time_split(targets, 0.25)
    assert len(train) + len(test) == len(targets) == 8
    assert max(t.reviewed_at for t in train) < min(t.reviewed_at for t in test)
    # Four equal times at the cut: a share that falls inside the tie moves the cut past it.
    tied = [ev(f"d{i}", T0) for i in range(4)] + [
        ev(f"d{i}", T0 + timedelta(days=1)) for i in range(4)
    ]
    train, test = time_split(History.from_events(tied, tz=UTC).targets, 0.5)
    assert (len(train), len(test)) == (4, 0)
    with pytest.raises(ValueError):
        time_split(targets, 1.0)


def test_a_plain_integer_rating_counts_the_same_as_the_enum() -> None:
    history = History.from_events(
        [
            ReviewEvent("a", T0, 3),  # type: ignore[arg-type]
            ReviewEvent("a", T0 + timedelta(days=2), 1),  # type: ignore[arg-type]
        ],
        tz=UTC,
    )
    (target,) = history.targets
    assert target.recalled is False
