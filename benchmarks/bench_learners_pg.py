"""One learner's hot reads on a PostgreSQL database shared by many learners, against a database
holding that learner alone (issue 22's goal: within 1.5x).

    eval "$(bash .ci/postgres.sh)"                       # a throwaway server
    python benchmarks/bench_learners_pg.py --scale 0.01  # 10 learners, 50,000 reviews
    python benchmarks/bench_learners_pg.py               # 1,000 learners, 5,000,000 reviews

Builds two databases on the server (dropped and created again: ``bench_learners_shared`` and
``bench_learners_single``, or ``--prefix``), each created by recall at its head schema (row
security included), then filled on the server by ``INSERT ... SELECT`` over
``generate_series``, never row by row: 669 cards in 17 built-in decks; in the shared one
``--learners`` learners, each with a state row for every card and ``--reviews`` reviews in all;
in the single one the measured learner alone, with the very same rows (the same formulas,
seeded by the learner's number, under learner id 1). States are spread as a learner's are: most
cards in review, due over two months around now, some new, a few learning and suspended.

Then, for the measured learner (the middle one), times what the home screen and a session
wait for, through recall's store: the next 50 due cards (``Store.due_cards``) and the home
counts (``Store.deck_counts``: per deck new, learning and due, capped as the home screen asks),
``--runs`` times each after a warm-up, alternating the databases. Printed: p50 and p99 in
milliseconds for the single database, for the shared one read by the owner (the store's
``learner_id`` filter alone; the owner role's policy passes every row) and for the shared one
read as the learner's own login role (the store's filter and row-level security's policy),
with the ratios to the single database.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CARDS = 669
DECKS = 17
LEARNERS = 1_000
REVIEWS = 5_000_000
DAY_MS = 86_400_000
#: "Now" for the data and the reads (fixed, so every run measures the same rows).
NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
NOW_MS = int(NOW.timestamp() * 1000)


def admin_connect(url: str):  # type: ignore[no-untyped-def]
    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(url).set(drivername="postgresql", database="postgres")
    return psycopg.connect(base.render_as_string(hide_password=False), autocommit=True)


def fresh_database(url: str, name: str) -> str:
    """``url`` pointed at a new, empty database ``name`` (dropped first if it exists)."""
    from sqlalchemy.engine import make_url

    with admin_connect(url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def fill(url: str, *, learners: int, reviews_each: int, only: int | None) -> float:
    """Create recall's schema and fill it server-side; returns the seconds it took. ``only``:
    the database holds that learner's rows alone, as learner 1."""
    import psycopg
    from sqlalchemy.engine import make_url

    from recall.store import open_store

    started = time.perf_counter()
    open_store(url).close()  # recall's schema at head, learner 1, row security
    plain = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    # (learner id in this database, learner number the rows are made from)
    if only is None:
        pairs = "SELECT n AS id, n AS src FROM generate_series(1, %(learners)s) n"
    else:
        pairs = "SELECT 1 AS id, %(only)s AS src"
    params = {"learners": learners, "only": only, "reviews": reviews_each, "now": NOW_MS}
    with psycopg.connect(plain, autocommit=False) as conn:
        conn.execute(
            "INSERT INTO learners (id, name, role_name, created_at) "
            "SELECT n, 'learner' || n, NULL, 0 FROM generate_series(2, %(n)s) n",
            {"n": learners if only is None else 1},
        )
        conn.execute(
            "INSERT INTO decks (id, slug, name, topic, path, builtin, synced_at) "
            "SELECT d, 'deck' || d, 'Deck ' || d, 'Topic ' || d, '', true, 0 "
            "FROM generate_series(1, %(decks)s) d",
            {"decks": DECKS},
        )
        conn.execute(
            "INSERT INTO cards (id, deck_id, key, kind, content_hash, position, created_at) "
            "SELECT c, 1 + (c - 1) %% %(decks)s, 'card' || c, 'formula', 'h', c, 0 "
            "FROM generate_series(1, %(cards)s) c",
            {"decks": DECKS, "cards": CARDS},
        )
        # A learner's state of each card, from a hash of (learner, card): 60 % in review due
        # from 20 days ago to 40 days ahead, 25 % new, 7 % learning, 5 % suspended, 3 % buried
        # until tomorrow.
        conn.execute(
            f"""
            WITH l AS ({pairs}),
            s AS (
                SELECT l.id AS learner, c.id AS card, c.deck_id AS deck,
                       abs(hashtextextended(l.src || ':' || c.id, 7)) %% 1000 AS h
                FROM l CROSS JOIN cards c
            )
            INSERT INTO card_state (learner_id, card_id, deck_id, queue, phase, step, stability,
                                    difficulty, due, last_review, reps, lapses, suspended,
                                    buried_until)
            SELECT learner, card, deck,
                   CASE WHEN h < 600 THEN 2 WHEN h < 850 THEN 0 WHEN h < 920 THEN 1
                        WHEN h < 970 THEN -1 ELSE -3 END,
                   CASE WHEN h < 600 THEN 2 WHEN h < 850 THEN 0 WHEN h < 920 THEN 1
                        ELSE 2 END,
                   CASE WHEN h >= 850 AND h < 920 THEN 0 END,
                   CASE WHEN h < 850 AND h >= 600 THEN NULL ELSE 1 + h %% 90 END,
                   CASE WHEN h < 850 AND h >= 600 THEN NULL ELSE 3 + (h %% 60) / 10.0 END,
                   card * 60000::bigint + CASE  -- a minute apart: no two due together
                        WHEN h < 600 THEN %(now)s + ((h %% 60) - 20) * {DAY_MS}::bigint
                        WHEN h < 850 THEN NULL
                        WHEN h < 920 THEN %(now)s + ((h %% 12) - 6) * 3600000::bigint
                        ELSE %(now)s + (h %% 30) * {DAY_MS}::bigint END,
                   CASE WHEN h < 850 AND h >= 600 THEN NULL
                        ELSE %(now)s - (1 + h %% 30) * {DAY_MS}::bigint END,
                   CASE WHEN h < 850 AND h >= 600 THEN 0 ELSE 1 + h %% 12 END,
                   CASE WHEN h < 850 AND h >= 600 THEN 0 ELSE h %% 3 END,
                   h >= 920 AND h < 970,
                   CASE WHEN h >= 970 THEN %(now)s + {DAY_MS}::bigint END
            FROM s
            """,
            params,
        )
        # Each learner's reviews: a card a review, spread over the last 400 days.
        conn.execute(
            f"""
            WITH l AS ({pairs})
            INSERT INTO review_log (learner_id, card_id, reviewed_at, kind, rating, verdict,
                                    duration_ms, answer_ms, hint_used, after_phase,
                                    after_stability, after_difficulty, after_due)
            SELECT l.id, 1 + (i * 37 + l.src) %% {CARDS},
                   %(now)s - ((%(reviews)s - i) * (400 * {DAY_MS}::bigint / %(reviews)s)),
                   CASE WHEN i %% 7 = 0 THEN 0 ELSE 2 END,
                   1 + (i + l.src) %% 4,
                   CASE WHEN (i + l.src) %% 4 = 0 THEN 'incorrect' ELSE 'correct' END,
                   4000 + (i %% 50) * 100, 3000, false, 2, 10.0, 5.0,
                   %(now)s + (i %% 30) * {DAY_MS}::bigint
            FROM l CROSS JOIN generate_series(1, %(reviews)s) i
            """,
            params,
        )
        conn.commit()
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
    return time.perf_counter() - started


def learner_login(url: str, learner: int) -> str:
    """A login role for ``learner`` in the shared database (as ``recall learners add`` makes
    one: the row names it, the grant function gives it the learner's tables); its URL."""
    import psycopg
    from sqlalchemy.engine import make_url

    role = f"bench_learner_{learner}"
    plain = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
        if not exists:
            conn.execute(f'CREATE ROLE "{role}" LOGIN')
        conn.execute("UPDATE learners SET role_name = %s WHERE id = %s", (role, learner))
        conn.execute("SELECT recall_grant_learner(%s)", (role,))
    return make_url(url).set(username=role, password=None).render_as_string(hide_password=False)


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def measure(stores: dict[str, object], runs: int) -> dict[str, dict[str, list[float]]]:
    """Milliseconds of each read on each store, the stores taken in turn (so a load on the
    shared machine falls on all of them alike)."""
    day_end = NOW + timedelta(hours=12)
    reads: dict[str, Callable[[object], object]] = {
        "next 50 due": lambda s: s.due_cards(NOW, limit=50),  # type: ignore[attr-defined]
        "home counts": lambda s: s.deck_counts(  # type: ignore[attr-defined]
            NOW, day_end, new_limit=20, due_limit=200
        ),
    }
    times: dict[str, dict[str, list[float]]] = {r: {n: [] for n in stores} for r in reads}
    for read, run in reads.items():
        for store in stores.values():  # warm-up: plans cached, pages in memory
            for _ in range(5):
                run(store)
        for _ in range(runs):
            for name, store in stores.items():
                started = time.perf_counter()
                run(store)
                times[read][name].append((time.perf_counter() - started) * 1000)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=os.environ.get("RECALL_TEST_PG_URL"), help="server URL")
    parser.add_argument("--scale", type=float, default=1.0, help="share of learners and reviews")
    parser.add_argument("--runs", type=int, default=300, help="timed runs of each read")
    parser.add_argument("--prefix", default="bench_learners", help="names of the databases")
    parser.add_argument("--reuse", action="store_true", help="keep the databases already built")
    args = parser.parse_args()
    if not args.url:
        parser.error('no server: give --url or run eval "$(bash .ci/postgres.sh)" first')
    from recall.store import open_store

    learners = max(2, round(LEARNERS * args.scale))
    reviews_each = max(1, round(REVIEWS * args.scale) // learners)
    target = (learners + 1) // 2
    print(
        f"{learners:,} learners x {CARDS} cards = {learners * CARDS:,} card states, "
        f"{learners * reviews_each:,} reviews ({reviews_each:,} each); measured: learner {target}"
    )
    from sqlalchemy.engine import make_url

    names = {"shared": f"{args.prefix}_shared", "single": f"{args.prefix}_single"}
    if args.reuse:
        urls = {
            k: make_url(args.url).set(database=v).render_as_string(hide_password=False)
            for k, v in names.items()
        }
    else:
        urls = {k: fresh_database(args.url, v) for k, v in names.items()}
        seconds = fill(urls["shared"], learners=learners, reviews_each=reviews_each, only=None)
        print(f"shared database filled in {seconds:.1f} s")
        seconds = fill(urls["single"], learners=1, reviews_each=reviews_each, only=target)
        print(f"single-learner database filled in {seconds:.1f} s")
    stores = {
        "single": open_store(urls["single"], learner=1),
        "shared (owner)": open_store(urls["shared"], learner=target),
        "shared (learner role, RLS)": open_store(
            learner_login(urls["shared"], target), learner=target
        ),
    }
    first = {name: store.due_cards(NOW, limit=50) for name, store in stores.items()}
    keys = {name: [c.key for c in cards] for name, cards in first.items()}
    assert len(set(map(tuple, keys.values()))) == 1, "the three reads disagree"
    assert keys["single"], "nothing due: the data was not made as intended"
    times = measure(stores, args.runs)
    for read, by_store in times.items():
        print(f"\n{read} ({args.runs} runs each), ms:")
        base = statistics.median(by_store["single"])
        base99 = percentile(by_store["single"], 0.99)
        for name, samples in by_store.items():
            p50, p99 = statistics.median(samples), percentile(samples, 0.99)
            print(
                f"  {name:<28} p50 {p50:7.3f}  p99 {p99:7.3f}   "
                f"x{p50 / base:4.2f} p50, x{p99 / base99:4.2f} p99"
            )
    for store in stores.values():
        store.close()  # type: ignore[attr-defined]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
