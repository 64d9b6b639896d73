"""Migration 0008 (learners) on a SQLite file with 100k reviews: how long the upgrade takes.

    python benchmarks/bench_learner_migration.py               # 100,000 reviews, 669 cards
    python benchmarks/bench_learner_migration.py --reviews N

Builds a database at schema 0007 (669 cards with state, a session, 100k reviews with their
before/after state, as a real log has), then opens it with recall, which copies it aside and
runs 0008: SQLite rebuilds ``card_state``, ``review_log`` and the other per-learner tables to
give them ``learner_id`` and their new keys. Prints the file size, the backup, the migration
alone and the whole open, each the median of ``--runs`` fresh copies.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from recall.store import open_store  # noqa: E402
from recall.store.engine import WRITE, make_engine, parse_url  # noqa: E402
from recall.store.schema import backup_sqlite  # noqa: E402

CARDS = 669
T0 = 1_746_000_000_000  # epoch milliseconds


def build(path: Path, reviews: int) -> None:
    """A recall database at schema 0007 holding ``reviews`` reviews of ``CARDS`` cards."""
    from recall.store.migrate import upgrade

    engine = make_engine(parse_url(f"sqlite:///{path}"))
    with engine.connect().execution_options(**WRITE) as conn, conn.begin():
        upgrade(conn, "0007")
    engine.dispose()
    rng = random.Random(7)
    db = sqlite3.connect(path)
    with db:
        db.execute("INSERT INTO recall_meta (key, value) VALUES ('app', 'recall')")
        db.execute(
            "INSERT INTO decks (id, slug, name, topic, path, builtin, synced_at) "
            "VALUES (1, 'ml', 'ML', 'ML', '', 1, 0)"
        )
        db.executemany(
            "INSERT INTO cards (id, deck_id, key, kind, content_hash, position, created_at) "
            "VALUES (?, 1, ?, 'formula', 'h', ?, 0)",
            [(i, f"c{i}", i) for i in range(1, CARDS + 1)],
        )
        db.executemany(
            "INSERT INTO card_state (card_id, deck_id, queue, phase, stability, difficulty, due, "
            "last_review, reps, lapses, suspended) VALUES (?, 1, 2, 2, ?, 5.0, ?, ?, 9, 1, 0)",
            [(i, rng.uniform(1, 90), T0 + i * 60_000, T0) for i in range(1, CARDS + 1)],
        )
        db.execute(
            "INSERT INTO sessions (id, started_at, last_active_at, budget_kind, mode) "
            "VALUES (1, ?, ?, 'minutes', 'normal')",
            (T0, T0),
        )
        db.executemany(
            "INSERT INTO review_log (card_id, session_id, reviewed_at, kind, rating, verdict, "
            "diagnosis, answer, duration_ms, answer_ms, hint_used, seed, params, before_phase, "
            "before_step, before_stability, before_difficulty, before_due, before_last_review, "
            "before_lapses, after_phase, after_step, after_stability, after_difficulty, "
            "after_due) VALUES (?, 1, ?, 2, ?, 'correct', NULL, 'x^2 + y', 4000, 3000, 0, "
            "12345, '{\"a\": 2}', 2, NULL, 3.1, 5.2, ?, ?, 0, 2, NULL, 7.4, 5.1, ?)",
            [
                (
                    rng.randrange(1, CARDS + 1),
                    T0 + n * 1000,
                    rng.choice((1, 3, 3, 3, 4)),
                    T0 + n * 1000,
                    T0 + n * 1000 - 86_400_000,
                    T0 + n * 1000 + 86_400_000,
                )
                for n in range(reviews)
            ],
        )
    db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reviews", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "source.sqlite3"
        build(source, args.reviews)
        size = source.stat().st_size
        backup, migration, whole = [], [], []
        for run in range(args.runs):
            copy = Path(tmp) / f"run{run}.sqlite3"
            shutil.copyfile(source, copy)
            started = time.perf_counter()
            backup_path = backup_sqlite(copy, "0007")
            backup.append(time.perf_counter() - started)
            backup_path.unlink()

            from recall.store.migrate import upgrade  # imported before timing: not the migration

            engine = make_engine(parse_url(f"sqlite:///{copy}"))
            started = time.perf_counter()
            with engine.connect().execution_options(**WRITE) as conn:
                conn.connection.driver_connection.execute("PRAGMA foreign_keys = OFF")  # type: ignore[union-attr]
                with conn.begin():
                    upgrade(conn, "head")
            migration.append(time.perf_counter() - started)
            engine.dispose()

            copy2 = Path(tmp) / f"open{run}.sqlite3"
            shutil.copyfile(source, copy2)
            started = time.perf_counter()
            open_store(f"sqlite:///{copy2}").close()
            whole.append(time.perf_counter() - started)
        print(f"reviews: {args.reviews:,}  cards: {CARDS}  file at 0007: {size / 1e6:.1f} MB")
        print(f"backup copy (median of {args.runs}):        {statistics.median(backup):.2f} s")
        print(
            f"migration 0007 -> 0008 (median of {args.runs}): {statistics.median(migration):.2f} s"
        )
        print(f"open_store, backup + upgrade (median):  {statistics.median(whole):.2f} s")


if __name__ == "__main__":
    main()
