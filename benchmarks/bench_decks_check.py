"""``recall decks check`` on generated decks: how the leak check grows with the cards.

    python benchmarks/bench_decks_check.py [--cards 500 1000 2000] [--seed 7] [--exhaustive]

For each size, writes one deck of that many cards with the generator of
``bench_many_cards.py`` (formulas, facts, reverse and cloze cards whose prompts name other
cards' words), loads it, and times :func:`recall.grading.leaks.deck_leaks` in-process (the
command's work once the deck is read): CPU seconds (steadier than wall time on a shared
machine) and wall seconds, with the findings counted. ``--exhaustive`` also times the check as
it was before the index (every card against every field of its deck, every wrong piece
diagnosed), which grows with the square of the cards, and says whether both found the same.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_many_cards import write_deck  # noqa: E402

from recall.cards.loader import load_decks  # noqa: E402
from recall.grading.leaks import DeckLeaks, deck_leaks, sibling_pairs_of  # noqa: E402


def timed(deck: object, *, exhaustive: bool) -> tuple[DeckLeaks, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    found = deck_leaks(deck, sibling_pairs_of(deck), exhaustive=exhaustive)  # type: ignore[arg-type]
    return found, time.process_time() - cpu, time.perf_counter() - wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="+", default=[500, 1000, 2000])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--exhaustive", action="store_true", help="time the old check too")
    args = parser.parse_args()
    print(f"{'cards':>6} {'check':>10} {'cpu s':>8} {'wall s':>8} {'findings':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for number, size in enumerate(args.cards, 1):
            write_deck(Path(folder), number, min(size, 2000), args.seed)
            result = load_decks([Path(folder) / f"many-{number}.toml"])
            if not result.ok:
                print(result.errors, file=sys.stderr)
                return 1
            deck = result.decks[0]
            runs = [("indexed", False)] + ([("exhaustive", True)] if args.exhaustive else [])
            seen = []
            for label, exhaustive in runs:
                found, cpu, wall = timed(deck, exhaustive=exhaustive)
                total = len(found.own) + len(found.across) + len(found.vocabulary)
                print(f"{len(deck.cards):>6} {label:>10} {cpu:>8.1f} {wall:>8.1f} {total:>9}")
                seen.append(found)
            if len(seen) == 2:
                print(f"{'':>6} same findings: {seen[0] == seen[1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
