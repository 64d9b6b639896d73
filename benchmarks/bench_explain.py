"""Grading typed explanations: latency over the asserted paraphrase corpus and a worst case.

Usage::

    python benchmarks/bench_explain.py [--rounds 2] [--clock wall|cpu]

Prints, in milliseconds:

* every entry of ``tests/data/explain_paraphrases.jsonl`` graded as the session grades it
  (``recall.grading.grade`` on its built-in card), after one warm-up pass, each timed on its own
  (wall clock, or this thread's CPU time with ``--clock cpu`` on a shared machine): p50, p99,
  max, and the slowest entries;
* 2,000-character explanations built to cost the formula path the most (formula-looking runs,
  equations and glued names, for the built-in cards with the most formula points), each graded
  on first sight and again, the worse counting.

The goal from issue 23: a 2,000-character explanation grades in well under a second. Figures are
printed, never asserted: tests do not measure time.
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

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "explain_paraphrases.jsonl"


def _ms(seconds: float) -> float:
    return seconds * 1000


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


CLOCK = time.perf_counter


def _timed(card: Card, text: str) -> float:
    start = CLOCK()
    grade(card, text)
    return CLOCK() - start


def _worst_texts(cards: dict[str, Card]) -> list[tuple[str, str, str]]:
    pieces = [
        "so ||a−b||² = 2 − 2cos θ, hence",
        "w − η(g + 2λw) = (1 − 2ηλ)w − ηg and",
        "D*(x) = p_data(x)/(p_data(x)+p_g(x)) while",
        "λ·η·t ≈ 1 ≈ 6ND → C = 6·N·D,",
        "m̂_t = m_t/(1 − β₁^t) = v̂/(1 − β₂^t);",
        "(1−ε)·onehot + ε/C = y_smooth ≠ 2^2^2^2^2",
    ]
    text = " ".join(pieces)
    text = (text + " ") * (2000 // len(text) + 1)
    ranked = sorted(cards.values(), key=lambda c: -sum(len(p.formulas) for p in c.points))
    worst = [(card.key, text[:2000]) for card in ranked[:5]]
    # Every part uses a point formula's own names but is wrong, so each one is compared.
    for card in ranked[:5]:
        wrong = []
        for point in card.points:
            for formula in point.formulas:
                side = formula.split("=")[-1].strip()
                for i in range(2, 6):
                    wrong.append(f"so ({side})^{i} + {i}/({side}) = {i}*({side}), and")
        filler = " ".join(wrong) or "nothing"
        worst.append((card.key + " (wrong formulas)", (filler + " ") * (2000 // len(filler) + 1)))
    return [(key.split(" (")[0], text[:2000], key) for key, text in worst]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--clock", choices=("wall", "cpu"), default="wall", help="cpu: this thread's CPU time"
    )
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.thread_time if args.clock == "cpu" else time.perf_counter
    loaded = load_decks([builtin_decks_dir()])
    cards = {card.key: card for card in loaded.cards if card.kind is CardKind.EXPLAIN}
    entries = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    for entry in entries:  # warm-up: imports, stemmer, parse caches
        grade(cards[entry["card"]], entry["text"])
    times: dict[int, float] = {}
    for _ in range(args.rounds):
        for index, entry in enumerate(entries):
            elapsed = _timed(cards[entry["card"]], entry["text"])
            times[index] = max(times.get(index, 0.0), elapsed)
    values = [_ms(t) for t in times.values()]
    print(f"explain corpus: {len(values)} entries, {args.rounds} rounds (worse counts)")
    print(
        f"  p50 {statistics.median(values):.2f} ms  p99 {_percentile(values, 0.99):.2f} ms  "
        f"max {max(values):.2f} ms"
    )
    slowest = sorted(times.items(), key=lambda item: -item[1])[:3]
    for index, seconds in slowest:
        print(f"  {_ms(seconds):7.2f} ms  {entries[index]['card']}: {entries[index]['text'][:60]}")
    print("2,000-character formula-heavy explanations (first sight and again, worse counts):")
    for key, text, label in _worst_texts(cards):
        worst = max(_timed(cards[key], text), _timed(cards[key], text))
        print(f"  {_ms(worst):7.2f} ms  {label}")
    print("4,000-character hostile explanations (worse of two):")
    key = "probability-statistics/explain-clt"
    for label, text in (
        ("4,000 open brackets", "(" * 4000),
        ("a list of terms", "bce mse sigmoid log cancel slope " * 150),
        ("antonyms throughout", "larger smaller wrong right positive negative " * 90),
    ):
        worst = max(_timed(cards[key], text), _timed(cards[key], text))
        print(f"  {_ms(worst):7.2f} ms  {label}")


if __name__ == "__main__":
    main()
