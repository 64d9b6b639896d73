"""Store benchmark: 100k cards, 100k review-log rows, the queries a session makes.

    python benchmarks/bench_store.py                 # SQLite file in a temp dir
    python benchmarks/bench_store.py --url URL       # any empty database (e.g. PostgreSQL)

Prints p50/p99 for: the next 50 due cards, due counts for 50 decks, one review write with its
commit (SQLite: WAL + synchronous=FULL, so it is on disk when the call returns),
retrievability for every card (one query + NumPy), and the bytes per card plus log row.
Targets from the issue: due ≤ 2 ms p99, counts ≤ 3 ms p99, write ≤ 5 ms p99,
retrievability ≤ 10 ms, ≤ 400 bytes per card + log row.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
from sqlalchemy import insert, update

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from recall.cards.model import Card, CardKind, Deck  # noqa: E402
from recall.scheduling import Rating, Scheduler, SchedulerSettings  # noqa: E402
from recall.store import ReviewInput, open_store  # noqa: E402
from recall.store.models import CardStateRow, ReviewRow, queue_for  # noqa: E402

NOW = datetime(2025, 6, 1, 12, tzinfo=UTC)
DECKS = 50
CARDS = 100_000
LOG_ROWS = 100_000


def build_decks() -> list[Deck]:
    per_deck = CARDS // DECKS
    decks = []
    for d in range(DECKS):
        slug = f"deck-{d:02d}"
        cards = tuple(
            Card(
                deck_id=slug,
                id=f"card-{i:05d}" if i % 5 else f"grp{i // 5}.a",
                kind=CardKind.FORMULA,
                prompt=f"Prompt {i} of {slug}",
                answer="sigma^2",
                topic="",
            )
            for i in range(per_deck)
        )
        decks.append(Deck(id=slug, name=f"Deck {d}", topic=f"topic-{d % 7}", cards=cards))
    return decks


def populate(store, rng: random.Random) -> None:  # type: ignore[no-untyped-def]  # noqa: ANN001
    """60% of cards reviewed (spread over the last 90 days), 40% new; 100k log rows."""
    engine = store._engine  # noqa: SLF001 - the benchmark fills rows in bulk, not via reviews
    cards = sorted(c.db_id for c in store.cards_by_key().values())
    reviewed = cards[: int(len(cards) * 0.6)]
    updates, logs = [], []
    for card_id in reviewed:
        # A learner who keeps up: each card is somewhere in its current interval, a few are
        # up to two days overdue. (Stability: median e^2 ≈ 7 days, long tail.)
        stability = float(np.exp(rng.gauss(2.0, 1.2)))
        interval = max(1.0, stability * rng.uniform(0.8, 1.2))
        last = NOW - timedelta(days=rng.uniform(0, interval + 2))
        due = last + timedelta(days=interval)
        phase = 2 if rng.random() > 0.03 else 1
        updates.append(
            {
                "cid": card_id,
                "queue": queue_for(phase),
                "phase": phase,
                "step": None if phase == 2 else 0,
                "stability": stability,
                "difficulty": rng.uniform(2, 9),
                "due": due,
                "last_review": last,
                "reps": 3,
                "lapses": rng.choice([0, 0, 0, 1, 2]),
            }
        )
    for n in range(LOG_ROWS):
        card_id = reviewed[n % len(reviewed)]
        at = NOW - timedelta(days=rng.uniform(0, 365))
        logs.append(
            {
                "card_id": card_id,
                "session_id": None,
                "reviewed_at": at,
                "kind": 2,
                "rating": rng.choice([1, 3, 3, 3, 2, 4]),
                "suggested": 3,
                "verdict": "correct",
                "diagnosis": None,
                "answer": "sigma^2",
                "duration_ms": rng.randint(2000, 40000),
                "hint_used": False,
                "seed": None,
                "params": None,
                "before_phase": 2,
                "before_step": None,
                "before_stability": 5.1,
                "before_difficulty": 5.5,
                "before_due": at,
                "before_last_review": at - timedelta(days=5),
                "before_lapses": 0,
                "after_phase": 2,
                "after_step": None,
                "after_stability": 9.3,
                "after_difficulty": 5.4,
                "after_due": at + timedelta(days=9),
            }
        )
    from sqlalchemy import bindparam

    with engine.begin() as conn:
        conn.execute(
            update(CardStateRow)
            .where(CardStateRow.card_id == bindparam("cid"))
            .values({k: bindparam(k) for k in updates[0] if k != "cid"}),
            updates,
        )
        conn.execute(insert(ReviewRow), logs)


def timed(fn: Callable[[], object], runs: int) -> list[float]:
    fn()  # warm caches and statements
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def report(name: str, samples: list[float], target: str) -> None:
    p50 = statistics.median(samples)
    p99 = float(np.percentile(samples, 99))
    print(f"{name:<44} p50 {p50:8.3f} ms   p99 {p99:8.3f} ms   (target {target}, n={len(samples)})")


def cold_open(url: str, tries: int = 5) -> None:
    """Import the store and open the (up-to-date) database in a fresh interpreter, best of
    ``tries``, and say whether Alembic or SymPy got imported on the way (they must not)."""
    code = (
        "import sys, time; t = time.perf_counter(); from recall.store import open_store; "
        f"open_store({url!r}).close(); "
        "print(time.perf_counter() - t, 'alembic' in sys.modules, 'sympy' in sys.modules)"
    )
    root = str(Path(__file__).resolve().parent.parent)
    runs = [
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
        )
        for _ in range(tries)
    ]
    best = min(float(r.stdout.split()[0]) for r in runs)
    alembic, sympy = runs[0].stdout.split()[1:]
    print(
        f"{'cold import + open_store, best of ' + str(tries):<44} {best * 1000:8.1f} ms   "
        f"(alembic loaded: {alembic}, sympy loaded: {sympy})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", help="an empty database URL (default: a temp SQLite file)")
    parser.add_argument("--runs", type=int, default=500)
    args = parser.parse_args()
    rng = random.Random(42)
    tmp = tempfile.TemporaryDirectory()
    url = args.url or f"sqlite:///{Path(tmp.name) / 'bench.sqlite3'}"
    store = open_store(url)
    start = time.perf_counter()
    report_sync = store.sync_decks(build_decks(), now=NOW - timedelta(days=400))
    print(
        f"sync {len(report_sync.added)} new cards in 50 decks: {time.perf_counter() - start:.2f} s"
    )
    start = time.perf_counter()
    populate(store, rng)
    print(f"fill state and {LOG_ROWS} log rows: {time.perf_counter() - start:.2f} s")
    if store.dialect == "sqlite":
        with store._engine.connect() as conn:  # noqa: SLF001
            conn.exec_driver_sql("ANALYZE")
    else:
        autocommit = store._engine.connect().execution_options(isolation_level="AUTOCOMMIT")  # noqa: SLF001
        with autocommit as conn:
            conn.exec_driver_sql("VACUUM ANALYZE")
    due_now = store.due_cards(NOW, limit=100_000)
    print(f"cards due now: {len(due_now)}")
    print()
    day_end = NOW + timedelta(hours=12)
    report(
        "next 50 due cards", timed(lambda: store.due_cards(NOW, limit=50), args.runs), "≤ 2 ms p99"
    )
    report(
        "due counts for 50 decks",
        timed(lambda: store.deck_counts(NOW, day_end, new_limit=20, due_limit=200), args.runs),
        "≤ 3 ms p99",
    )

    sched = Scheduler(SchedulerSettings())
    targets = iter(rng.sample([c.db_id for c in due_now], min(len(due_now), 300)))

    def write() -> None:
        card_id = next(targets)
        data = ReviewInput(
            rating=3, reviewed_at=NOW, verdict="correct", seconds=7.5, answer="sigma^2"
        )
        store.apply_review(
            card_id,
            data,
            lambda s: sched.review(card_id, s, Rating.Good, NOW),
            bury_siblings_until=day_end,
        )

    report("one review write, committed (full sync)", timed(write, 250), "≤ 5 ms p99")

    memory = store.memory()
    stability, elapsed = memory.stability, memory.elapsed_days(NOW)
    report(
        f"retrievability, all {len(memory.card_db_ids)} cards (NumPy)",
        timed(lambda: sched.retrievability_many(stability, elapsed), 200),
        "≤ 10 ms",
    )

    def query_and_compute() -> None:
        fresh = store.memory()
        sched.retrievability_many(fresh.stability, fresh.elapsed_days(NOW))

    report("retrievability incl. reading 100k rows", timed(query_and_compute, 20), "(informative)")

    cold_open(url)

    if store.dialect == "sqlite":
        store.close()
        path = Path(url.removeprefix("sqlite:///"))
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("VACUUM")
        conn.close()
        size = path.stat().st_size
        print(
            f"\ndatabase {size / 1e6:.1f} MB after VACUUM: "
            f"{size / CARDS:.0f} bytes per card + log row (target ≤ 400)"
        )
        sizes = sqlite3.connect(path)
        try:
            rows = sizes.execute(
                "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"
            ).fetchall()
            print("  " + ", ".join(f"{name} {int(b) / CARDS:.0f}" for name, b in rows if b))
        except sqlite3.OperationalError:
            pass  # dbstat is an optional SQLite build feature
        sizes.close()
    else:
        with store._engine.connect() as conn:  # noqa: SLF001
            size = conn.exec_driver_sql("SELECT pg_database_size(current_database())").scalar()
        print(
            f"\ndatabase {size / 1e6:.1f} MB: {size / CARDS:.0f} bytes per card + log row "
            "(PostgreSQL's fixed catalog of ~7 MB included)"
        )
        store.close()
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
