"""Soak: several processes drill one database while they are killed at random; nothing is lost.

Four worker processes drill the built-in decks on one database through the public API
(:func:`recall.store.open_store`, :class:`recall.session.Session`), half of them on the schedule
(normal mode, their clock jumping ahead whenever nothing is due) and half in cram mode. Each
review's typed answer is a unique token, and a worker writes the token to its journal only
after ``Session.record`` returned, i.e. after the commit. Every 0.2-2 s the soak SIGKILLs a random
worker that is drilling and starts a new one in its place. At the end it checks the database's
integrity and counts:

* **lost**: tokens a worker journaled (so it saw committed) that are not in the review log;
  must be 0;
* **duplicated**: tokens in the log more than once; must be 0;
* **unjournaled**: reviews committed in the instant before a kill, before the journal line
  (expected, not an error: the commit won the race);
* **state mismatches**: cards whose review count (``reps``) differs from their on-schedule
  log entries; must be 0.

    python benchmarks/soak.py                               # SQLite, 60 s
    eval "$(bash .ci/postgres.sh)"; python benchmarks/soak.py --postgres "$RECALL_TEST_PG_URL"
    python benchmarks/soak.py --seconds 10 --workers 2      # a quick look

It prints one block of figures per database and exits 1 if anything was lost, duplicated or
inconsistent. Not a test (it takes minutes): a durability figure for the README.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

TOKEN_PREFIX = "soak:"


# ---------------------------------------------------------------------------------- worker


def worker(url: str, journal: Path, worker_id: int, cram: bool, seed: int) -> None:
    """Drill until killed: each committed review's token goes to ``journal`` after the commit."""
    from recall.cards.loader import load_decks
    from recall.clock import utc_now
    from recall.config import Settings
    from recall.scheduling import Rating
    from recall.session import Budget, Mode, Session
    from recall.store import open_store

    rng = random.Random(seed)
    store = open_store(url)
    cards = load_decks().cards
    settings = Settings(new_per_day=100_000, reviews_per_day=1_000_000)
    offset = timedelta(0)

    def clock() -> datetime:
        return utc_now() + offset

    mode = Mode.CRAM if cram else Mode.NORMAL
    sequence = 0
    with open(journal, "a", encoding="utf-8") as out:
        while True:
            session = Session.start(
                store, cards, budget=Budget.cards(50), mode=mode, settings=settings, clock=clock
            )
            while session.next_card() is not None:
                sequence += 1
                token = f"{TOKEN_PREFIX}{worker_id}:{os.getpid()}:{sequence}"
                good = rng.random() < 0.8
                session.record(
                    verdict="correct" if good else "incorrect",
                    rating=Rating.Good if good else Rating.Again,
                    answer=token,
                    seconds=rng.uniform(1, 20),
                )
                out.write(token + "\n")  # only now: record() has committed
                out.flush()
            session.end()
            offset += timedelta(days=rng.randint(1, 30))  # let reviews fall due again


# ---------------------------------------------------------------------------------- soak


@dataclass
class Figures:
    backend: str
    seconds: float
    workers: int
    kills: int
    journaled: int
    logged: int
    lost: int
    duplicated: int
    unjournaled: int
    state_mismatches: int
    integrity: str

    def ok(self) -> bool:
        return (
            self.logged > 0  # a soak that drilled nothing proves nothing
            and self.lost == 0
            and self.duplicated == 0
            and self.state_mismatches == 0
            and self.integrity == "ok"
        )

    def show(self) -> str:
        rate = self.logged / self.seconds if self.seconds else 0.0
        return "\n".join(
            [
                f"{self.backend}: {self.workers} processes, {self.seconds:.0f} s, "
                f"{self.kills} SIGKILLs",
                f"  reviews committed (log) {self.logged:>7}   ({rate:.0f}/s)",
                f"  journaled after commit  {self.journaled:>7}",
                f"  lost                    {self.lost:>7}   (must be 0)",
                f"  duplicated              {self.duplicated:>7}   (must be 0)",
                f"  committed, not journaled{self.unjournaled:>7}   (killed between the two)",
                f"  card state mismatches   {self.state_mismatches:>7}   (must be 0)",
                f"  integrity check         {self.integrity:>7}",
                f"  verdict                 {'PASS' if self.ok() else 'FAIL':>7}",
            ]
        )


def _prepare(url: str) -> None:
    from recall.cards.loader import load_decks
    from recall.store import open_store

    store = open_store(url)
    store.sync_decks(load_decks().decks)
    store.close()


def _journal(folder: Path, worker_id: int, generation: int) -> Path:
    return folder / f"journal-{worker_id}-{generation}.txt"


def _spawn(url: str, folder: Path, worker_id: int, generation: int) -> subprocess.Popen[bytes]:
    journal = _journal(folder, worker_id, generation)
    return subprocess.Popen(
        [
            sys.executable,
            __file__,
            "--worker",
            url,
            str(journal),
            str(worker_id),
            "cram" if worker_id % 2 else "normal",
            str(random.randrange(1 << 30)),
        ],
        stdout=subprocess.DEVNULL,
        stderr=open(folder / f"stderr-{worker_id}-{generation}.txt", "wb"),  # noqa: SIM115
    )


def soak(url: str, backend: str, seconds: float, workers: int, folder: Path) -> Figures:
    _prepare(url)
    generation = collections.Counter[int]()
    running = {i: _spawn(url, folder, i, 0) for i in range(workers)}
    kills = 0
    started = time.monotonic()
    try:
        while time.monotonic() - started < seconds:
            time.sleep(random.uniform(0.2, 2.0))
            # Kill only workers that are drilling (a kill during start-up tests nothing).
            drilling = [
                i
                for i in running
                if _journal(folder, i, generation[i]).is_file()
                and _journal(folder, i, generation[i]).stat().st_size > 0
            ]
            if not drilling:
                continue
            victim = random.choice(drilling)
            running[victim].send_signal(signal.SIGKILL)
            running[victim].wait()
            kills += 1
            generation[victim] += 1
            running[victim] = _spawn(url, folder, victim, generation[victim])
    finally:
        for process in running.values():
            process.send_signal(signal.SIGKILL)
            process.wait()
    elapsed = time.monotonic() - started
    _report_crashes(folder)
    return _count(url, backend, elapsed, workers, kills, folder)


def _report_crashes(folder: Path) -> None:
    """A worker that died of an error (not of our SIGKILL) would make the figures meaningless."""
    for path in sorted(folder.glob("stderr-*.txt")):
        text = path.read_text(errors="replace").strip()
        if text:
            print(f"worker output {path.name}:\n{text[-2000:]}", file=sys.stderr)


def _count(
    url: str, backend: str, elapsed: float, workers: int, kills: int, folder: Path
) -> Figures:
    from recall.store import open_store

    journaled: set[str] = set()
    for path in folder.glob("journal-*.txt"):
        journaled.update(line for line in path.read_text().splitlines() if line)
    store = open_store(url)
    try:
        entries = [e for e in store.reviews() if (e.answer or "").startswith(TOKEN_PREFIX)]
        tokens = collections.Counter(e.answer for e in entries)
        scheduled = collections.Counter(e.card_key for e in entries if e.after is not None)
        cards = store.cards_by_key()
        mismatches = sum(
            1 for key, card in cards.items() if card.state.reps != scheduled.get(key, 0)
        )
    finally:
        store.close()
    integrity = _integrity(url)
    return Figures(
        backend=backend,
        seconds=elapsed,
        workers=workers,
        kills=kills,
        journaled=len(journaled),
        logged=len(entries),
        lost=len(journaled - set(tokens)),
        duplicated=sum(count - 1 for count in tokens.values() if count > 1),
        unjournaled=len(set(tokens) - journaled),
        state_mismatches=mismatches,
        integrity=integrity,
    )


def _integrity(url: str) -> str:
    """SQLite's integrity and foreign-key checks; PostgreSQL's foreign keys are enforced."""
    if not url.startswith("sqlite:///"):
        return "ok"
    with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
        result = conn.execute("PRAGMA integrity_check").fetchone()[0]
        orphans = conn.execute("PRAGMA foreign_key_check").fetchall()
    return "ok" if result == "ok" and not orphans else f"{result}; {len(orphans)} orphans"


def _fresh_postgres(url: str) -> str:
    """A new, empty schema-less database next to ``url``'s, so every soak starts clean."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    base = make_url(url)
    name = f"recall_soak_{os.getpid()}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--worker"]:
        url, journal, worker_id, mode, seed = argv[1:6]
        worker(url, Path(journal), int(worker_id), mode == "cram", int(seed))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--postgres", metavar="URL", help="also soak this PostgreSQL server")
    parser.add_argument("--no-sqlite", action="store_true", help="PostgreSQL only")
    args = parser.parse_args(argv)
    figures: list[Figures] = []
    with tempfile.TemporaryDirectory(prefix="recall-soak-") as temp:
        os.environ["RECALL_HOME"] = str(Path(temp) / "home")  # workers inherit it
        if not args.no_sqlite:
            folder = Path(temp) / "sqlite"
            folder.mkdir()
            url = f"sqlite:///{folder / 'soak.sqlite3'}"
            figures.append(soak(url, "SQLite", args.seconds, args.workers, folder))
            print(figures[-1].show(), flush=True)
        if args.postgres:
            folder = Path(temp) / "postgres"
            folder.mkdir()
            url = _fresh_postgres(args.postgres)
            figures.append(soak(url, "PostgreSQL", args.seconds, args.workers, folder))
            print(figures[-1].show(), flush=True)
    return 0 if all(f.ok() for f in figures) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
