"""What row-level security costs the queries a learner waits on (PostgreSQL).

    eval "$(bash .ci/postgres.sh)"                    # a throwaway server, as a superuser
    python benchmarks/bench_row_security.py           # 1,000 learners x 669 cards
    python benchmarks/bench_row_security.py --learners 200 --runs 400

Sets up a shared server as docs/learners.md says (an owner role owning a new database, the
schema made by recall as the owner, one learner added with ``recall learners add``'s function),
then gives ``--learners`` more learners a state row for each of 669 cards (a spread of due
times and queues), server-side. For the learner added, it times the next 50 due cards
(``Store.due_cards``) and the home screen's per-deck counts (``Store.deck_counts``) two ways:
logged in as the superuser with the learner named (row security bypassed: the store's own
filter only) and logged in as the learner's role (the policy applies too). Prints p50 and p99
of each in milliseconds and the ratio. The database and the roles are dropped afterwards.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from recall.cards.model import Card, CardKind, Deck  # noqa: E402
from recall.store import open_store  # noqa: E402
from recall.store.engine import make_engine, parse_url  # noqa: E402
from recall.store.learners import add_learner  # noqa: E402

CARDS = 669
DECKS = 17


def decks() -> list[Deck]:
    per = -(-CARDS // DECKS)
    made = []
    for d in range(DECKS):
        ids = [f"c{i}" for i in range(d * per, min(CARDS, (d + 1) * per))]
        cards = tuple(
            Card(deck_id=f"d{d}", id=i, kind=CardKind.FORMULA, prompt=i, answer="x") for i in ids
        )
        made.append(Deck(id=f"d{d}", name=f"D{d}", cards=cards, builtin=True))
    return made


def timed(action: Callable[[], object], runs: int) -> list[float]:
    action()  # warm: plans cached, connection pooled
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return times


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--learners", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument(
        "--keep", action="store_true", help="keep the database and roles (prints their URLs)"
    )
    args = parser.parse_args()
    base_text = os.environ.get("RECALL_TEST_PG_URL")
    if not base_text:
        print('RECALL_TEST_PG_URL is not set: eval "$(bash .ci/postgres.sh)" first')
        return 2
    base = make_url(base_text)
    tag = uuid.uuid4().hex[:8]
    owner, database, role = f"bench_owner_{tag}", f"bench_rls_{tag}", f"bench_learner_{tag}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE ROLE "{owner}" LOGIN CREATEROLE'))
        conn.execute(text(f'CREATE DATABASE "{database}" OWNER "{owner}"'))
    try:
        owner_url = base.set(username=owner, database=database).render_as_string(False)
        store = open_store(owner_url)
        store.sync_decks(decks(), now=datetime(2026, 1, 1, tzinfo=UTC))
        store.close()
        engine = make_engine(parse_url(owner_url))
        added = add_learner(engine, "measured", role)
        me = added.learner.id
        start = time.perf_counter()
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO learners (id, name, role_name, created_at) "
                    "SELECT g, 'l' || g, NULL, 0 "
                    "FROM generate_series(CAST(:a AS integer), CAST(:b AS integer)) g"
                ),
                {"a": me + 1, "b": me + args.learners},
            )
            # every learner, the measured one included: a spread of due times and queues
            conn.execute(text("DELETE FROM card_state WHERE learner_id = :me"), {"me": me})
            conn.execute(
                text(
                    "INSERT INTO card_state (learner_id, card_id, deck_id, queue, phase, step, "
                    "stability, difficulty, due, last_review, reps, lapses, suspended) "
                    "SELECT l.id, c.id, c.deck_id, q.queue, q.queue, 0, 5.0, 5.0, "
                    "  1767225600000 "
                    "  + CAST((l.id * 7919 + c.id * 104729) % (60 * 86400) AS bigint) * 1000, "
                    "  1767225600000, 3, 0, false "
                    "FROM learners l CROSS JOIN cards c "
                    "CROSS JOIN LATERAL (SELECT ((l.id + c.id) % 3) AS queue) q "
                    "WHERE l.id >= :me"
                ),
                {"me": me},
            )
            conn.execute(text("ANALYZE"))
        engine.dispose()
        rows = (args.learners + 1) * CARDS
        print(
            f"{args.learners + 1:,} learners x {CARDS} cards: {rows:,} state rows "
            f"(built in {time.perf_counter() - start:.1f} s)"
        )
        now = datetime(2026, 1, 20, tzinfo=UTC)
        superuser_url = base.set(database=database).render_as_string(False)
        learner_url = base.set(username=role, password=added.password, database=database)
        ways = {
            "superuser, store filter only": open_store(superuser_url, learner=me),
            "learner's login, RLS on": open_store(learner_url.render_as_string(False)),
        }
        results: dict[str, dict[str, list[float]]] = {}
        for way, opened in ways.items():
            assert opened.learner_id == me
            results[way] = {
                "next 50 due": timed(lambda s=opened: s.due_cards(now, limit=50), args.runs),
                "home counts": timed(
                    lambda s=opened: s.deck_counts(
                        now, now + timedelta(hours=4), new_limit=20, due_limit=200
                    ),
                    args.runs,
                ),
            }
            opened.close()
        for query in ("next 50 due", "home counts"):
            plain = results["superuser, store filter only"][query]
            secured = results["learner's login, RLS on"][query]
            print(
                f"{query}: store filter only p50 {statistics.median(plain):.2f} ms, "
                f"p99 {p(plain, 0.99):.2f} ms; RLS on p50 {statistics.median(secured):.2f} ms, "
                f"p99 {p(secured, 0.99):.2f} ms; ratio of p50 "
                f"{statistics.median(secured) / statistics.median(plain):.2f}"
            )
    finally:
        if args.keep:
            print(f"kept: owner {owner}, learner {role}, database {database}")
        else:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)'))
                for name in (role, owner):
                    conn.execute(text(f'DROP ROLE IF EXISTS "{name}"'))
        admin.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
