# ruff: noqa: F811  (pytest fixtures imported from store_fixtures shadow their parameters)
"""Two recall processes on one database at once lose no review."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine, event, insert, select, text, update
from store_fixtures import PG_SKIP_REASON, PG_URL, T0, db_url, make_deck, pg_worker_url  # noqa: F401

from recall.scheduling import Rating, Scheduler, SchedulerSettings
from recall.store import ReviewInput, Store, StoreError, open_store
from recall.store.models import CardStateRow, ReviewRow

WORKER = textwrap.dedent(
    """
    import sys
    from datetime import timedelta
    from recall.scheduling import Rating, Scheduler, SchedulerSettings
    from recall.store import ReviewInput, open_store
    from store_fixtures import T0

    url, name, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    sched = Scheduler(SchedulerSettings(enable_fuzzing=False))
    store = open_store(url)
    cards = sorted(c.db_id for c in store.cards_by_key().values())
    for i in range(rounds):
        card_id = cards[i % len(cards)]  # both processes review the same cards
        at = T0 + timedelta(seconds=i)
        data = ReviewInput(rating=3, reviewed_at=at, verdict="correct", seconds=1, answer=name)
        store.apply_review(card_id, data, lambda s: sched.review(card_id, s, Rating.Good, at))
    store.close()
    print("done", name)
    """
)


def subprocess_env() -> dict[str, str]:
    """The environment for a child that imports recall and store_fixtures from this checkout."""
    here = Path(__file__).resolve().parent
    paths = [str(here.parent), str(here), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def test_two_processes_reviewing_the_same_cards_lose_nothing(db_url: str) -> None:
    store = open_store(db_url)
    store.sync_decks([make_deck("d", "a", "b", "c")], now=T0)
    store.close()
    rounds = 30
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, db_url, name, str(rounds)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=subprocess_env(),
        )
        for name in ("first", "second")
    ]
    outputs = [p.communicate(timeout=120) for p in procs]
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err
        assert out.startswith("done")
    store = open_store(db_url)
    entries = store.reviews()
    assert len(entries) == 2 * rounds
    assert sum(1 for e in entries if e.answer == "first") == rounds
    cards = store.cards_by_key().values()
    # Each review was applied to the state the previous one left: reps add up exactly.
    assert sum(c.state.reps for c in cards) == 2 * rounds
    for card in cards:
        chain = [e for e in entries if e.card_db_id == card.db_id]
        for earlier, later in zip(chain, chain[1:], strict=False):
            assert later.before is not None and earlier.after is not None
            assert later.before.stability == earlier.after.stability
    store.close()


@pytest.fixture
def pg_url() -> str:
    """PostgreSQL only: SQLite's BEGIN IMMEDIATE already serialises whole write transactions."""
    if not PG_URL:
        pytest.skip(PG_SKIP_REASON)
    return pg_worker_url(os.environ.get("PYTEST_XDIST_WORKER", "main"))


def test_undo_racing_a_review_from_another_process_loses_nothing(pg_url: str) -> None:
    """Another process reviews the card between undo reading the log and locking the card:
    undo must see that review and refuse, not restore the state over it."""
    store = open_store(pg_url)
    store.sync_decks([make_deck("d", "a")], now=T0)
    card_id = store.cards_by_key()["d/a"].db_id
    sched = Scheduler(SchedulerSettings(enable_fuzzing=False))
    first = store.apply_review(
        card_id,
        ReviewInput(rating=3, reviewed_at=T0, verdict="correct", seconds=1),
        lambda s: sched.review(card_id, s, Rating.Good, T0),
    )
    later = T0 + timedelta(minutes=10)
    after_first = first.card.state
    second_state = sched.review(card_id, after_first, Rating.Good, later)

    other = create_engine(pg_url)
    with other.connect() as conn:
        lock = conn.begin()  # the other process, mid-review: it holds the card's row
        conn.execute(
            select(CardStateRow.card_id)
            .where(CardStateRow.learner_id == store.learner_id, CardStateRow.card_id == card_id)
            .with_for_update()
        )
        outcome: list[BaseException | None] = []

        def undo() -> None:
            try:
                store.undo_review(first.entry.id)
                outcome.append(None)
            except BaseException as error:  # noqa: BLE001 - reported to the main thread
                outcome.append(error)

        worker = threading.Thread(target=undo)
        worker.start()
        waiting = text("SELECT count(*) FROM pg_locks WHERE NOT granted")
        for _ in range(3000):  # until undo waits on the row lock (or has finished)
            if outcome or conn.execute(waiting).scalar():
                break
            time.sleep(0.01)
        conn.execute(
            insert(ReviewRow).values(
                learner_id=store.learner_id,
                card_id=card_id,
                reviewed_at=later,
                kind=int(after_first.phase),
                rating=3,
                verdict="correct",
                duration_ms=1000,
                hint_used=False,
                before_phase=int(after_first.phase),
                before_lapses=0,
                after_phase=int(second_state.phase),
                after_stability=second_state.stability,
            )
        )
        conn.execute(
            update(CardStateRow)
            .where(CardStateRow.learner_id == store.learner_id, CardStateRow.card_id == card_id)
            .values(
                phase=int(second_state.phase),
                stability=second_state.stability,
                due=second_state.due,
                reps=2,
            )
        )
        lock.commit()
        worker.join(timeout=60)
    other.dispose()
    assert len(outcome) == 1 and isinstance(outcome[0], StoreError), outcome
    assert "reviewed again" in str(outcome[0])
    assert store.review_count() == 2
    assert store.card(card_id).state.reps == 2
    store.close()


def test_two_processes_syncing_the_same_new_cards_at_once_both_succeed(pg_url: str) -> None:
    """Two windows start together after a deck gained cards: both insert the same rows. The
    second must wait for the first and then find them, not fail on the unique key."""
    open_store(pg_url).close()
    first, second = open_store(pg_url), open_store(pg_url)
    deck = make_deck("d", "a", "b")
    inserted, release = threading.Event(), threading.Event()

    @event.listens_for(first._engine, "after_cursor_execute")  # noqa: SLF001
    def _pause(_conn, _cursor, statement, *_args):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
        if statement.startswith("INSERT INTO cards") and not inserted.is_set():
            inserted.set()
            release.wait(60)  # mid-transaction, the rows not yet committed

    errors: list[BaseException] = []

    def sync(store: Store) -> None:
        try:
            store.sync_decks([deck], now=T0)
        except BaseException as error:  # noqa: BLE001 - reported to the main thread
            errors.append(error)

    one = threading.Thread(target=sync, args=(first,))
    one.start()
    assert inserted.wait(60)
    two = threading.Thread(target=sync, args=(second,))
    two.start()
    watcher = create_engine(pg_url)
    with watcher.connect() as conn:
        for _ in range(3000):  # until the second sync waits on the first (or has finished)
            if (
                not two.is_alive()
                or conn.execute(text("SELECT count(*) FROM pg_locks WHERE NOT granted")).scalar()
            ):
                break
            time.sleep(0.01)
    watcher.dispose()
    release.set()
    one.join(60)
    two.join(60)
    assert errors == []
    assert sorted(second.cards_by_key()) == ["d/a", "d/b"]
    first.close()
    second.close()
