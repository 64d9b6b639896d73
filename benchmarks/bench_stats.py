"""``recall stats`` on a big history: the whole command, and where its time goes.

    python benchmarks/bench_stats.py              # about 100k reviews (4,000 cards, two years)
    python benchmarks/bench_stats.py --quick      # about 10k reviews
    python benchmarks/bench_stats.py --profile    # also print the top of a cProfile run

A simulated forgetful learner's log (seeded; :mod:`tests.simulated_learners`) is written into a
fresh SQLite database in a temporary ``RECALL_HOME`` for four custom decks of fact cards, as
scheduled reviews with the states around them. Printed, best of N:

* ``recall stats`` as a learner runs it (a new process: imports, opening, deck sync, figures);
* in one process: the review figures (:meth:`recall.workspace.Workspace.stats`); the memory
  model's health as ``recall stats`` computes it (:func:`recall.memory.model.health`: the log
  read as columns, :class:`recall.scheduling.review_table.ReviewTable`); and, for comparison,
  the same report the event way that ``recall optimize`` still reads its history in
  (:func:`recall.memory.model.load_history`, then
  :func:`recall.memory.report.model_health`).

To time another checkout's code on the same data, copy this script into its ``benchmarks/``
and run it there from its top folder with the same ``--home DIR``.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.simulated_learners import FORGETFUL, simulate_history  # noqa: E402

DECKS = ("d0", "d1", "d2", "d3")
#: (cards, days, new per day): about 100k and 10k scheduled reviews.
SIZES = {"100k": (4000, 730, 12), "10k": (600, 300, 6)}


def best_of(runs: int, action: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def write_decks(folder: Path, cards: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for number, deck in enumerate(DECKS):
        lines = [f'[deck]\nid = "{deck}"\nname = "Bench {deck}"\ntopic = "Bench"\n']
        for card in range(number, cards, len(DECKS)):
            lines.append(
                f'[[card]]\nid = "c{card}"\nkind = "fact"\nprompt = "Card {card}?"\n'
                f"value = {card}\ntolerance = {{ exact = true }}\n"
            )
        (folder / f"{deck}.toml").write_text("\n".join(lines), encoding="utf-8")


def populate(cards: int, days: int, new_per_day: int) -> None:
    """Sync the decks and write the simulated log as scheduled reviews."""
    from sqlalchemy import insert

    from recall.commands import open_workspace
    from recall.store.models import KIND_LEARNING, KIND_NEW, KIND_REVIEW, ReviewRow

    events = simulate_history(
        FORGETFUL, cards=cards, days=days, new_per_day=new_per_day, seed=1, decks=DECKS
    )
    workspace = open_workspace(argparse.Namespace(db=None))
    try:
        ids = {key: card.db_id for key, card in workspace.store.cards_by_key().items()}
        seen: set[str] = set()
        rows = []
        for event in events:
            first = event.card not in seen
            seen.add(str(event.card))
            rows.append(
                {
                    "card_id": ids[str(event.card)],
                    "session_id": None,
                    "reviewed_at": event.reviewed_at,
                    "kind": KIND_NEW if first else KIND_REVIEW,
                    "rating": int(event.rating),
                    "suggested": int(event.rating),
                    "verdict": "correct" if int(event.rating) > 1 else "incorrect",
                    "diagnosis": None if int(event.rating) > 1 else "sign",
                    "answer": "42",
                    "duration_ms": round((event.seconds or 10.0) * 1000),
                    "hint_used": False,
                    "seed": None,
                    "params": None,
                    "before_phase": None if first else 2,
                    "before_step": None,
                    "before_stability": None if first else 5.0,
                    "before_difficulty": None if first else 5.0,
                    "before_due": None if first else event.reviewed_at,
                    "before_last_review": None if first else event.reviewed_at - timedelta(1),
                    "before_lapses": 0,
                    "after_phase": 2 if int(event.rating) > 1 else KIND_LEARNING,
                    "after_step": None,
                    "after_stability": 6.0,
                    "after_difficulty": 5.0,
                    "after_due": event.reviewed_at + timedelta(days=6),
                }
            )
        engine = workspace.store._engine  # noqa: SLF001 - bulk rows, not one review at a time
        with engine.begin() as conn:
            conn.execute(insert(ReviewRow), rows)
    finally:
        workspace.close()


def bench_command(runs: int) -> float:
    command = [sys.executable, "-m", "recall.cli", "stats"]
    return best_of(
        runs, lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=os.environ)
    )


def bench_parts(runs: int, profile: bool) -> None:
    from recall.commands import open_workspace
    from recall.memory import model as memory_model
    from recall.memory.report import model_health

    workspace = open_workspace(argparse.Namespace(db=None))
    try:
        store, settings = workspace.store, workspace.settings
        figures = best_of(runs, lambda: workspace.stats(days=30))
        health = best_of(runs, lambda: memory_model.health(store, settings))
        reading = best_of(runs, lambda: memory_model.load_history(store, settings))
        history = memory_model.load_history(store, settings)
        parameters = memory_model.parameters_in_use(store)
        report = best_of(runs, lambda: model_health(history, parameters, 0.9))
        print(f"  review figures (Workspace.stats)               {figures:6.2f} s")
        print(f"  memory model's health (memory_model.health)   {health:6.2f} s")
        print(f"  the event way: reading (load_history)          {reading:6.2f} s")
        print(f"  the event way: report (model_health)           {report:6.2f} s")
        if profile:
            profiler = cProfile.Profile()
            profiler.enable()
            workspace.stats(days=30)
            memory_model.health(store, settings)
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
    finally:
        workspace.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="about 10k reviews, not 100k")
    parser.add_argument("--runs", type=int, default=3, help="best of N (default 3)")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one run")
    parser.add_argument(
        "--home", type=Path, help="build the data directory here once and reuse it afterwards"
    )
    args = parser.parse_args()
    cards, days, new = SIZES["10k" if args.quick else "100k"]
    with tempfile.TemporaryDirectory() as scratch:
        home = args.home or Path(scratch)
        os.environ["RECALL_HOME"] = str(home)
        os.environ["RECALL_DECKS"] = str(home / "decks")
        os.environ.pop("RECALL_DB", None)
        if not (home / "decks").is_dir():
            write_decks(home / "decks", cards)
            populate(cards, days, new)
        rows = review_count()
        print(
            f"recall stats over {rows:,} reviews of {cards:,} cards ({days} days), best of "
            f"{args.runs}:"
        )
        command = bench_command(args.runs)
        print(f"  `recall stats` (a new process)                 {command:6.2f} s")
        bench_parts(args.runs, args.profile)


def review_count() -> int:
    from recall.store import open_store

    store = open_store()
    try:
        return store.review_count()
    finally:
        store.close()


if __name__ == "__main__":
    main()
