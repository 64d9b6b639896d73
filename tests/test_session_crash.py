# ruff: noqa: F811  (pytest fixtures imported from store_fixtures shadow their parameters)
"""Kill -9 in the middle of a session: every answered card is in the log, the database is
intact, and the session can be resumed."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

from store_fixtures import T0, db_url, make_deck  # noqa: F401

from recall.session import Session
from recall.store import open_store

CHILD = textwrap.dedent(
    """
    import sys
    from recall.scheduling import Rating
    from recall.session import Budget, Session
    from recall.store import open_store
    from store_fixtures import FakeClock, make_deck

    store = open_store(sys.argv[1])
    deck = make_deck("d", *[f"c{i}" for i in range(400)])
    clock = FakeClock()
    session = Session.start(store, deck.cards, budget=Budget.until_done(), clock=clock, fuzz=False)
    print("session", session.id, flush=True)
    while (card := session.next_card()) is not None:
        clock.advance(3)
        rating = Rating.Again if len(card.id) % 3 == 0 else Rating.Good
        verdict = "correct" if rating > 1 else "incorrect"
        session.record(verdict=verdict, rating=rating, answer="x" * 50)
        print("answered", card.key, flush=True)  # only after record() returned
    print("ran out of cards", flush=True)
    """
)


def child_env() -> dict[str, str]:
    here = Path(__file__).resolve().parent
    paths = [str(here.parent), str(here), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def test_sigkill_mid_session_loses_no_answered_card(db_url: str) -> None:
    store = open_store(db_url)
    deck = make_deck("d", *[f"c{i}" for i in range(400)])
    store.sync_decks([deck], now=T0)
    store.close()
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, db_url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(),
    )
    assert proc.stdout is not None
    answered: list[str] = []
    header = proc.stdout.readline().split()
    assert header[0] == "session", proc.stderr.read() if proc.stderr else ""
    session_id = int(header[1])
    while len(answered) < 40:
        line = proc.stdout.readline()
        assert line.startswith("answered"), line or (proc.stderr.read() if proc.stderr else "")
        answered.append(line.split()[1])
    os.kill(proc.pid, signal.SIGKILL)  # while it is busy writing the next reviews
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL

    if db_url.startswith("sqlite"):
        path = db_url.removeprefix("sqlite:///")
        conn = sqlite3.connect(path)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        conn.close()

    store = open_store(db_url)
    logged = [e.card_key for e in store.reviews(session_id=session_id)]
    assert set(answered) <= set(logged)
    assert len(logged) >= len(answered)
    # Every logged review left the card's state consistent with the log.
    for key, card in store.cards_by_key().items():
        assert card.state.reps == logged.count(key)
    resumed = Session.recover(store, deck.cards, fuzz=False, clock=lambda: T0)
    assert resumed is not None and resumed.id == session_id
    assert resumed.cards_done == len(logged)
    store.close()
