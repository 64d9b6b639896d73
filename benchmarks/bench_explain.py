"""Explain-card checking latency: every typed explanation of the paraphrase corpora, and a
worst case.

Usage::

    python benchmarks/bench_explain.py [--rounds 3] [--clock cpu|wall]

Prints, in milliseconds, the time to grade one typed explanation (``recall.grading.grade`` on
a built-in explain card: every point's phrasings, opposites, numbers and formulas) over every
line of ``tests/data/explain_paraphrases.jsonl`` and ``..._open.jsonl``, after one warm-up
pass: p50, p99, max, the whole corpus's total per round and the three slowest answers; then
the worst case, a 4,000-character answer (the most that is read) made of the card's own key
words repeated, so every phrasing finds candidates in every clause. ``--clock cpu`` times this
thread's CPU (for a shared machine). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from recall.cards.loader import load_decks
from recall.cards.model import Card, CardKind
from recall.grading import grade
from recall.paths import builtin_decks_dir

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
#: The asserted corpus and its open entries (a held-out batch, if any, is measured elsewhere).
CORPORA = (DATA / "explain_paraphrases.jsonl", DATA / "explain_paraphrases_open.jsonl")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = parser.parse_args()
    clock = time.thread_time if args.clock == "cpu" else time.perf_counter

    cards = {
        card.key: card
        for card in load_decks([builtin_decks_dir()]).cards
        if card.kind is CardKind.EXPLAIN and card.points
    }
    entries = [
        json.loads(line)
        for path in CORPORA
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    pairs = [(cards[entry["card"]], entry["text"]) for entry in entries if entry["card"] in cards]
    for card, text in pairs:  # warm-up: stems, phrasings and the engine's imports cached
        grade(card, text)
    times: list[float] = []
    totals: list[float] = []
    slowest: list[tuple[float, str, str]] = []
    for _ in range(args.rounds):
        round_start = clock()
        for card, text in pairs:
            start = clock()
            grade(card, text)
            times.append(clock() - start)
            slowest.append((times[-1], card.key, text))
        totals.append(clock() - round_start)
    times.sort()
    slowest.sort(reverse=True)
    ms = 1000.0
    print(f"{len(pairs)} explanations x {args.rounds} rounds ({args.clock} clock)")
    print(
        f"per answer: p50 {statistics.median(times) * ms:.2f} ms, "
        f"p99 {times[int(0.99 * (len(times) - 1))] * ms:.2f} ms, max {times[-1] * ms:.2f} ms"
    )
    print(f"whole corpus: {min(totals):.2f} s per round (best of {args.rounds})")
    for seconds, key, text in slowest[:3]:
        print(f"  slow: {seconds * ms:.1f} ms {key}: {text[:60]}")
    worst = max(_worst_case(card) for card in cards.values())
    print(f"worst case, 4,000 characters of key words (slowest card): {worst * ms:.1f} ms")
    return 0


def _worst_case(card: Card) -> float:
    """Seconds to grade 4,000 characters of the card's own phrasing words, no punctuation."""
    words = " ".join(w for point in card.points for p in point.words for w in p.split("|"))
    text = (words + " ") * (4000 // max(len(words) + 1, 1) + 1)
    start = time.perf_counter()
    grade(card, text[:4000])
    return time.perf_counter() - start


if __name__ == "__main__":
    raise SystemExit(main())
