# ruff: noqa: F811  (pytest fixtures imported from store_fixtures shadow their parameters)
"""Stats over a period: retention by deck and topic, heatmap, forecast, mistakes, streak, and
the `recall stats` command."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from store_fixtures import T0, db_url, make_deck, store  # noqa: F401

from recall.analytics import compute_stats, day_buckets, streak
from recall.commands import stats as stats_command
from recall.scheduling import Rating, Scheduler, SchedulerSettings
from recall.store import ReviewInput, Store

UTC = UTC
SCHED = Scheduler(SchedulerSettings(enable_fuzzing=False))


def review(store: Store, card_id: int, rating: Rating, at: datetime, **extra: object) -> None:
    verdict = "correct" if rating > 1 else "incorrect"
    data = ReviewInput(rating=int(rating), reviewed_at=at, verdict=verdict, seconds=5, **extra)  # type: ignore[arg-type]
    store.apply_review(card_id, data, lambda s: SCHED.review(card_id, s, rating, at))


def graduate(store: Store, card_id: int, at: datetime) -> datetime:
    """Two Good reviews: the card is in the review phase; returns when it is due."""
    review(store, card_id, Rating.Good, at)
    review(store, card_id, Rating.Good, at + timedelta(minutes=10))
    due = store.card(card_id).state.due
    assert due is not None
    return due


def test_retention_counts_only_reviews_of_learnt_cards_by_deck_and_topic(store: Store) -> None:
    store.sync_decks(
        [make_deck("a", "x", "y", topic="losses"), make_deck("b", "z", topic="optim")], now=T0
    )
    ids = {k: c.db_id for k, c in store.cards_by_key().items()}
    due = {k: graduate(store, i, T0) for k, i in ids.items()}
    review(store, ids["a/x"], Rating.Good, due["a/x"])
    review(store, ids["a/y"], Rating.Again, due["a/y"], diagnosis="sign")
    review(store, ids["b/z"], Rating.Hard, due["b/z"])
    now = max(due.values()) + timedelta(hours=1)
    stats = compute_stats(store, days=30, now=now, rollover_hour=4, tz=UTC)
    assert stats.reviews == 9
    assert (stats.retention.passed, stats.retention.total) == (2, 3)
    assert stats.retention_by_deck["a"].rate == pytest.approx(0.5)
    assert stats.retention_by_deck["b"].rate == pytest.approx(1.0)
    assert set(stats.retention_by_topic) == {"losses", "optim"}
    assert stats.mistakes == [("sign", 1)]


def test_heatmap_counts_reviews_per_study_day_with_the_rollover(store: Store) -> None:
    store.sync_decks([make_deck("d", "a", "b")], now=T0)
    ids = [c.db_id for c in store.cards_by_key().values()]
    day = datetime(2025, 5, 5, 12, tzinfo=UTC)
    review(store, ids[0], Rating.Good, day)
    review(store, ids[1], Rating.Good, day + timedelta(hours=14))  # 02:00 next morning
    stats = compute_stats(
        store, days=3, now=day + timedelta(days=1, hours=10), rollover_hour=4, tz=UTC
    )
    assert stats.heatmap == [(date(2025, 5, 4), 0), (date(2025, 5, 5), 2), (date(2025, 5, 6), 0)]
    assert stats.study_days == 1


def test_forecast_puts_overdue_cards_on_today(store: Store) -> None:
    store.sync_decks([make_deck("d", "a", "b", "c")], now=T0)
    ids = [c.db_id for c in store.cards_by_key().values()]
    dues = sorted(graduate(store, i, T0) for i in ids)
    now = dues[0] + timedelta(days=1)  # the first is overdue by a day
    stats = compute_stats(store, now=now, rollover_hour=0, tz=UTC, forecast_days=10)
    assert sum(n for _d, n in stats.forecast) == 3
    assert stats.forecast[0][1] >= 1
    assert stats.due_today >= 1 and stats.due_next_7_days == 3


def test_streak_counts_consecutive_study_days() -> None:
    now = datetime(2025, 5, 10, 12, tzinfo=UTC)
    days = [now - timedelta(days=n) for n in (1, 2, 3, 5)]
    assert streak(days, now, 4, UTC) == 3  # nothing yet today: yesterday's streak still counts
    assert streak([*days, now], now, 4, UTC) == 4
    assert streak([now - timedelta(days=2)], now, 4, UTC) == 0


def test_stats_on_an_empty_database(store: Store) -> None:
    stats = compute_stats(store, days=7, now=T0, tz=UTC)
    assert stats.reviews == 0 and stats.retention.rate is None and stats.streak == 0
    assert len(stats.heatmap) == 7 and stats.first_try_accuracy is None
    json.dumps(stats.to_dict())


def test_recall_stats_prints_text_and_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("RECALL_HOME", str(tmp_path))
    monkeypatch.delenv("RECALL_DB", raising=False)
    parser = argparse.ArgumentParser()
    stats_command.register(parser.add_subparsers())
    assert stats_command.run(parser.parse_args(["stats", "--days", "14"])) == 0
    text = capsys.readouterr().out
    assert "retention" in text and "reviews per day" in text and "Mon" in text
    assert stats_command.run(parser.parse_args(["stats", "--json"])) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["reviews"] == 0 and len(figures["heatmap"]) == 30
    with pytest.raises(SystemExit):
        parser.parse_args(["stats", "--days", "0"])


def test_day_buckets_follow_daylight_saving() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    # 2025-03-30 is 23 hours long in Berlin; days start at 04:00 local time.
    times = [
        datetime(2025, 3, 30, 1, 30, tzinfo=UTC),  # 03:30 CET: still the 29th's study day
        datetime(2025, 3, 30, 2, 30, tzinfo=UTC),  # 04:30 CEST: the 30th
        datetime(2025, 3, 31, 1, 30, tzinfo=UTC),  # 03:30 CEST: still the 30th
        datetime(2025, 3, 31, 2, 30, tzinfo=UTC),  # 04:30 CEST: the 31st
    ]
    millis = [t.timestamp() * 1000 for t in times]
    counts = day_buckets(millis, date(2025, 3, 29), 3, 4, berlin)
    assert counts == [1, 2, 1]
    assert day_buckets(millis, date(2025, 4, 2), 2, 4, berlin) == [0, 0]


def test_a_buried_card_is_due_again_from_the_next_study_day(store: Store) -> None:
    """Reviewing a card buries its due sibling for the rest of the day: not due today, but
    waiting tomorrow, in the counts and in the forecast alike."""
    store.sync_decks([make_deck("att", "attn.formula", "attn.scale", "other")], now=T0)
    ids = {c.id: c.db_id for c in store.cards_by_key().values()}
    due = max(graduate(store, i, T0) for i in ids.values())
    now = due + timedelta(hours=1)
    day_end = datetime.combine(now.date() + timedelta(days=1), datetime.min.time(), UTC)
    card_id = ids["attn.formula"]
    data = ReviewInput(rating=3, reviewed_at=now, verdict="correct", seconds=3)
    applied = store.apply_review(
        card_id,
        data,
        lambda s: SCHED.review(card_id, s, Rating.Good, now),
        bury_siblings_until=day_end,
    )
    assert applied.buried == 1
    reviewed_due = applied.card.state.due
    assert reviewed_due is not None and reviewed_due > day_end + timedelta(days=1)
    stats = compute_stats(store, now=now, rollover_hour=0, tz=UTC, forecast_days=60)
    assert stats.due_today == 1  # "other"; the buried sibling cannot be studied today
    # ... but it falls due tomorrow: "due tomorrow" is the forecast's tomorrow (issue 11)
    assert stats.due_tomorrow == 1
    assert [n for _d, n in stats.forecast[:2]] == [1, 1]
    assert sum(n for _d, n in stats.forecast) == 3
