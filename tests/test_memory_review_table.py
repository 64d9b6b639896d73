# ruff: noqa: F811  (pytest fixtures imported from store_fixtures shadow their parameters)
"""The health report from columns (``ReviewTable``) is the report from the event history.

``recall stats`` computes the memory model's health from NumPy columns so that 100k reviews cost
a fraction of a second; these tests hold it to the event-based report it replaces
(:func:`recall.memory.report.model_health` over a ``History``), on simulated learners,
with repeated reviews, and through the store with imported reviews.
"""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from recall.config import Settings
from recall.memory import model as memory_model
from recall.memory.report import (
    merged,
    model_health,
    model_health_of_table,
    rating_shares,
    rating_shares_of_table,
)
from recall.memory.sentences import verdict_sentence
from recall.scheduling.day import study_date
from recall.scheduling.history import History, ReviewEvent
from recall.scheduling.rating import Rating
from recall.scheduling.review_table import ReviewTable, study_day_numbers
from recall.scheduling.simulation import FIRST_RATINGS, PASS_RATINGS
from recall.store.memory import ImportedReview, MemoryModelStore
from tests.simulated_learners import DEFAULTS, FORGETFUL, simulate_history
from tests.store_fixtures import T0, db_url, make_deck, store  # noqa: F401

EPOCH_DAY = date(1970, 1, 1)


def _millis(moment: datetime) -> int:
    return int((moment - datetime(1970, 1, 1, tzinfo=UTC)).total_seconds() * 1000)


@pytest.mark.parametrize(
    "zone", [None, "UTC", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu"]
)
@pytest.mark.parametrize("rollover", [0, 4, 23])
def test_study_day_numbers_agree_with_study_date(zone: str | None, rollover: int) -> None:
    tz = None if zone is None else ZoneInfo(zone)
    rng = random.Random(5)
    start = datetime(2024, 3, 1, tzinfo=UTC)
    # Random moments over a year, plus every ten minutes around both 2024 DST changes.
    moments = [start + timedelta(seconds=rng.randrange(0, 366 * 86400)) for _ in range(3000)]
    for change in (datetime(2024, 3, 10, tzinfo=UTC), datetime(2024, 11, 3, tzinfo=UTC)):
        moments += [change + timedelta(minutes=10 * k) for k in range(-50, 300)]
    moments += [datetime(2024, 4, 6, 14, 59, 59, 999000, tzinfo=UTC)]  # Lord Howe's change
    got = study_day_numbers([_millis(m) for m in moments], rollover, tz)
    expected = [(study_date(m, rollover, tz) - EPOCH_DAY).days for m in moments]
    assert got.tolist() == expected


def _events(parameters: tuple[float, ...], seed: int) -> list[ReviewEvent]:
    return simulate_history(
        parameters, cards=120, days=200, new_per_day=3, seed=seed, decks=("ml", "stats")
    )


def _table_health(events: list[ReviewEvent], parameters: tuple[float, ...]):
    codes = {key: i for i, key in enumerate(sorted({str(e.card) for e in events}), start=10)}
    table = ReviewTable.build(
        [codes[str(e.card)] for e in events],
        [_millis(e.reviewed_at) for e in events],
        [int(e.rating) for e in events],
        4,
        UTC,
    )
    decks = {code: key.partition("/")[0] for key, code in codes.items()}
    topics = {code: t for e in events if (t := e.topic) for code in [codes[str(e.card)]]}
    return table, model_health_of_table(table, parameters, 0.9, decks, topics)


def _same_report(a, b) -> None:  # noqa: ANN001
    assert a.verdict.health == b.verdict.health
    assert verdict_sentence(a.verdict) == verdict_sentence(b.verdict)
    assert a.verdict.reviews == b.verdict.reviews
    assert [x.reviews for x in a.bins] == [x.reviews for x in b.bins]
    for x, y in zip(a.bins, b.bins, strict=True):
        assert (x.mean_predicted is None) == (y.mean_predicted is None)
        if x.mean_predicted is not None:
            assert (x.mean_predicted, x.observed) == pytest.approx((y.mean_predicted, y.observed))
    for mine, theirs in ((a.by_deck, b.by_deck), (a.by_topic, b.by_topic)):
        assert [(g.group, g.reviews) for g in mine] == [(g.group, g.reviews) for g in theirs]
        for x, y in zip(mine, theirs, strict=True):
            assert (x.observed, x.mean_predicted) == pytest.approx((y.observed, y.mean_predicted))


@pytest.mark.parametrize(("truth", "scored_with"), [(FORGETFUL, DEFAULTS), (DEFAULTS, FORGETFUL)])
def test_the_columns_give_the_event_historys_report(
    truth: tuple[float, ...], scored_with: tuple[float, ...]
) -> None:
    events = _events(truth, seed=2)
    # Repeats of a review (the same card at the same moment) count once on both sides.
    events = events + events[::7]
    history = History.from_events(merged(events), 4, UTC)
    table, columns = _table_health(events, scored_with)
    assert len(table) == len(history)
    assert int(table.targets.sum()) == len(history.targets)
    _same_report(columns, model_health(history, scored_with, 0.9))
    assert columns.verdict.reviews > 500


def test_an_empty_history_reports_too_little_history() -> None:
    table = ReviewTable.build([], [], [])
    report = model_health_of_table(table, DEFAULTS, 0.9, {}, {})
    assert report.verdict.reviews == 0 and "Too little history" in verdict_sentence(report.verdict)
    assert report.by_deck == () and [b.reviews for b in report.bins] == [0] * 10


def test_the_store_reports_the_same_health_as_the_event_history(store) -> None:  # noqa: ANN001, F811
    """Own reviews and imported ones together, one imported review repeating an own one."""
    from recall.scheduling import Scheduler, SchedulerSettings
    from recall.store import ReviewInput

    events = simulate_history(FORGETFUL, cards=60, days=150, new_per_day=3, seed=4)
    store.sync_decks([make_deck("deck", *(f"c{i}" for i in range(60)))], now=T0)
    cards = store.cards_by_key()
    scheduler = Scheduler(SchedulerSettings(enable_fuzzing=False))
    own = [T0 + timedelta(days=400), T0 + timedelta(days=403)]
    for at, rating in zip(own, (Rating.Good, Rating.Again), strict=True):
        card = cards["deck/c1"]
        store.apply_review(
            card.db_id,
            ReviewInput(rating=rating, reviewed_at=at, verdict="correct", seconds=5.0),
            lambda s, at=at, rating=rating, c=card: scheduler.review(c.db_id, s, rating, at),
        )
    imported = [
        ImportedReview(str(e.card), e.reviewed_at, int(e.rating), None, 9000) for e in events
    ]
    imported.append(ImportedReview("deck/c1", own[0], 3, None, 5000))  # a repeat of an own review
    MemoryModelStore(store).import_reviews(imported, now=T0)
    settings = Settings()
    status = memory_model.health(store, settings)
    history = memory_model.load_history(store, settings)
    assert status.health.verdict.reviews == len(history.targets) > 500
    _same_report(status.health, model_health(history, DEFAULTS, settings.desired_retention))


def test_rating_shares_from_the_columns_are_the_event_historys() -> None:
    events = _events(FORGETFUL, seed=3)
    history = History.from_events(merged(events), 4, UTC)
    table, _report = _table_health(events, DEFAULTS)
    first, passing = rating_shares_of_table(table)
    expected_first, expected_passing = rating_shares(history)
    assert first == pytest.approx(expected_first) and passing == pytest.approx(expected_passing)
    assert first != FIRST_RATINGS  # the learner's own: enough ratings
    few = ReviewTable.build(table.card[:20], [0] * 20, table.rating[:20])
    assert rating_shares_of_table(few) == (FIRST_RATINGS, PASS_RATINGS)
