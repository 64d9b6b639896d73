"""``MemoryModelStore.adopt_states`` on its own: the schedules an Anki import adopts.

Usage::

    python benchmarks/bench_adopt_states.py [--cards 10000]

A fresh SQLite store with one deck of ``--cards`` cards, and a schedule seen by a later review
for each (every 50th suspended); adopted once (every card takes its schedule) and again (none
does: what a repeat import costs). Prints each call's wall and CPU time; figures are printed,
never asserted (``docs/benchmarks.md``, "Anki import").
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from recall.scheduling.state import CardState, Phase  # noqa: E402
from recall.store import open_store  # noqa: E402
from recall.store.memory import MemoryModelStore  # noqa: E402
from tests.store_fixtures import make_deck  # noqa: E402

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10_000)
    cards = parser.parse_args().cards
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite:///{folder}/recall.sqlite3")
        ids = [f"c{n}" for n in range(cards)]
        store.sync_decks([make_deck("deck", *ids)], now=T0)
        states = {
            f"deck/{card}": (
                CardState(
                    phase=Phase.REVIEW,
                    stability=10.0 + n % 7,
                    difficulty=5.0,
                    due=T0 + timedelta(days=20 + n % 30),
                    last_review=T0 + timedelta(days=5, seconds=n),
                    reps=3,
                ),
                n % 50 == 0,
            )
            for n, card in enumerate(ids)
        }
        model = MemoryModelStore(store)
        try:
            for label in ("first (every card adopts)", "again (none does)"):
                wall, cpu = time.perf_counter(), time.process_time()
                adopted, kept = model.adopt_states(states)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                figures = f"{wall:.3f} s wall, {cpu:.3f} s CPU"
                print(f"{label}: {adopted} adopted, {kept} kept in {figures}")
        finally:
            store.close()


if __name__ == "__main__":
    main()
