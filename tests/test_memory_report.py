"""From the store's records to the memory model's inputs, and the health report."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from recall.memory.report import (
    events_from_log,
    model_health,
    planned_card,
    rating_shares,
)
from recall.scheduling.history import History, ReviewEvent
from recall.scheduling.rating import Rating
from recall.scheduling.simulation import FIRST_RATINGS, PASS_RATINGS
from recall.scheduling.state import NEW_STATE, CardState, Phase, ReviewKind
from recall.store.records import ReviewEntry
from tests.simulated_learners import DEFAULTS, simulate_history

NOW = datetime(2025, 3, 10, 12, tzinfo=UTC)


def entry(key: str, at: datetime, rating: int, *, scheduled: bool = True, seconds: float = 9.0):
    state = CardState(Phase.REVIEW, None, 3.0, 5.0, at + timedelta(days=3), at, 1, 0)
    return ReviewEntry(
        id=1,
        card_db_id=1,
        card_key=key,
        session_id=None,
        reviewed_at=at,
        kind=ReviewKind.NEW if scheduled else ReviewKind.OFF_SCHEDULE,
        rating=Rating(rating),
        suggested=None,
        verdict="correct",
        diagnosis=None,
        answer=None,
        seconds=seconds,
        hint_used=False,
        seed=None,
        params=None,
        before=NEW_STATE if scheduled else None,
        after=state if scheduled else None,
    )


def test_log_entries_become_events_without_cramming() -> None:
    entries = [
        entry("ml/a", NOW, 3),
        entry("ml/a", NOW + timedelta(hours=1), 1, scheduled=False),  # cram: not scheduled
        entry("stats/b", NOW, 4, seconds=0.0),
    ]
    events = events_from_log(entries, {"ml/a": "attention"})
    assert [(e.card, e.rating, e.deck, e.topic, e.seconds) for e in events] == [
        ("ml/a", Rating.Good, "ml", "attention", 9.0),
        ("stats/b", Rating.Easy, "stats", None, None),
    ]


def test_planned_card_counts_study_days() -> None:
    assert planned_card(NEW_STATE, NOW).is_new
    state = CardState(
        Phase.REVIEW, None, 12.0, 6.0, NOW + timedelta(days=4), NOW - timedelta(days=8), 3, 0
    )
    card = planned_card(state, NOW, rollover_hour=4, tz=UTC)
    assert (card.stability, card.difficulty, card.days_since_review, card.due_in_days) == (
        12.0,
        6.0,
        8,
        4,
    )
    overdue = CardState(
        Phase.REVIEW, None, 2.0, 6.0, NOW - timedelta(days=2), NOW - timedelta(days=5)
    )
    assert planned_card(overdue, NOW, tz=UTC).due_in_days == -2


def test_rating_shares_are_the_learners_own_once_there_are_enough() -> None:
    history = History.from_events(simulate_history(DEFAULTS, cards=200, days=60, seed=4))
    first, passing = rating_shares(history)
    assert sum(first) == pytest.approx(1.0) and sum(passing) == pytest.approx(1.0)
    # The simulated learner grades first showings 20/10/50/20 % and passes 15/70/15 %.
    assert first == pytest.approx((0.2, 0.1, 0.5, 0.2), abs=0.08)
    assert passing == pytest.approx((0.15, 0.7, 0.15), abs=0.05)
    few = History.from_events([ReviewEvent("a", NOW, Rating.Good)])
    assert rating_shares(few) == (FIRST_RATINGS, PASS_RATINGS)


def test_model_health_report_is_json_ready() -> None:
    history = History.from_events(
        simulate_history(DEFAULTS, cards=120, days=90, seed=5, decks=("ml", "stats"))
    )
    report = model_health(history, DEFAULTS, 0.9)
    data = report.to_dict()
    assert data["verdict"]["health"] == "good", data["verdict"]["message"]
    assert len(data["calibration"]) == 10
    assert [g["group"] for g in data["retention_by_deck"]] == ["ml", "stats"]
    assert {g["group"] for g in data["retention_by_topic"]} == {"topic0", "topic1", "topic2"}
    total = sum(b["reviews"] for b in data["calibration"])
    assert total == len(history.targets) == sum(g["reviews"] for g in data["retention_by_deck"])


def test_export_import_round_trip_through_csv_and_dedupe() -> None:
    import io

    from recall.interop.review_csv import read_revlog, write_revlog
    from recall.memory.report import events_from_revlog, merged, revlog_rows

    entries = [
        entry("ml/a", NOW, 3, seconds=4.25),
        entry("ml/a", NOW + timedelta(hours=1), 1, scheduled=False),
        entry("=cmd/b", NOW + timedelta(days=1), 2),
    ]
    rows = revlog_rows(entries)
    assert [(r.row, r.card_id, r.state, r.duration_ms) for r in rows] == [
        (2, "ml/a", Phase.NEW, 4250),
        (3, "=cmd/b", Phase.NEW, 9000),
    ]
    out = io.StringIO()
    write_revlog(rows, out)
    back = read_revlog(io.StringIO(out.getvalue()))
    assert back.problems == () and back.rows == tuple(rows)
    imported = events_from_revlog(back.rows, {"ml/a": "attention"})
    assert [(e.card, e.deck, e.topic, e.seconds) for e in imported] == [
        ("ml/a", "ml", "attention", 4.25),
        ("=cmd/b", "=cmd", None, 9.0),
    ]
    own = events_from_log(entries)
    assert merged(own, imported) == own  # the same reviews, counted once
