# ruff: noqa: F811  (pytest fixtures imported from store_fixtures shadow their parameters)
"""Two recall processes on one database at once lose no review."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from store_fixtures import T0, db_url, make_deck  # noqa: F401

from recall.store import open_store

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
    cards = sorted(c.id for c in store.cards_by_key().values())
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
        chain = [e for e in entries if e.card_id == card.id]
        for earlier, later in zip(chain, chain[1:], strict=False):
            assert later.before is not None and earlier.after is not None
            assert later.before.stability == earlier.after.stability
    store.close()
