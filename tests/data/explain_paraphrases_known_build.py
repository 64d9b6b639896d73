"""Rewrite ``tests/data/explain_paraphrases_known.jsonl``: the labels of the measured batches
that the matcher does not agree with yet.

Usage::

    python tests/data/explain_paraphrases_known_build.py          # rewrite the list
    python tests/data/explain_paraphrases_known_build.py --check  # say what would change

The blind batches (``explain_paraphrases_fresh3.jsonl``, ``..._fresh4.jsonl``) are training
data once they have served as a measure. ``tests/test_explain_fresh_batches.py`` asserts every
label of them, except the disagreements listed here, one line each: the batch, the card, the
text, the point and the side (``credit``: the text states the point and the matcher misses it;
``refuse``: the text denies it and the matcher credits it). The test also fails on a listed
line the matcher now agrees with, so the list only shrinks by being rewritten here, on purpose,
and every rewrite shows in the diff.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent
ROOT = DATA.parent.parent
KNOWN = DATA / "explain_paraphrases_known.jsonl"
#: The batches asserted label by label, by the name the known list gives them.
BATCHES = {
    "fresh3": DATA / "explain_paraphrases_fresh3.jsonl",
    "fresh4": DATA / "explain_paraphrases_fresh4.jsonl",
}


def read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def disagreements(made_points: Any) -> list[dict[str, Any]]:
    """Every label of every batch the matcher disagrees with; ``made_points(card, text)`` is
    the set of point indices the matcher credits."""
    found = []
    for batch, path in BATCHES.items():
        for entry in read(path):
            made = made_points(entry["card"], entry["text"])
            for side, indices in (("credit", entry["states"]), ("refuse", entry["denies"])):
                for index in indices:
                    if (index in made) != (side == "credit"):
                        found.append(
                            {
                                "batch": batch,
                                "card": entry["card"],
                                "text": entry["text"],
                                "point": index,
                                "side": side,
                            }
                        )
    return found


def render(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from recall.cards.loader import load_decks
    from recall.cards.model import CardKind
    from recall.grading import grade
    from recall.paths import builtin_decks_dir

    cards = {c.key: c for c in load_decks([builtin_decks_dir()]).cards}
    cards = {key: card for key, card in cards.items() if card.kind is CardKind.EXPLAIN}

    def made_points(card: str, text: str) -> set[int]:
        return {i for i, o in enumerate(grade(cards[card], text).points) if o.made}

    text = render(disagreements(made_points))
    old = KNOWN.read_text(encoding="utf-8") if KNOWN.exists() else ""
    count = text.count("\n")
    if args.check:
        print(f"{KNOWN.name}: {'up to date' if old == text else 'would change'}, {count} lines")
        return 0 if old == text else 1
    KNOWN.write_text(text, encoding="utf-8")
    print(f"wrote {KNOWN.name}: {count} known disagreements")
    return 0


if __name__ == "__main__":
    sys.exit(main())
