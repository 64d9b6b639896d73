"""Build and verify ``tests/data/explain_paraphrases_fresh3.jsonl`` from hand-written text.

Usage::

    python tests/data/explain_paraphrases_fresh3_build.py          # rewrite the corpus file
    python tests/data/explain_paraphrases_fresh3_build.py --check  # verify it, change nothing

A third, blind batch of learner answers to the built-in explain cards (issue 23), written to
measure the matcher at the end of a session. Its author saw only each explain card's id, prompt,
model answer and each point's ``say`` statement (never the phrasings a deck accepts for a point,
the matcher, the explain tests or the earlier corpora), plus the two formula sheets for facts.

Answers are typed by hand into ``explain_paraphrases_fresh3_src/*.txt``. A ``== deck/card`` line
starts a card's block, ``#`` lines are comments, blank lines are skipped, and every other line is
one answer::

    STATES :: DENIES :: WHY :: TEXT

``STATES`` and ``DENIES`` are comma-separated point indices (``-`` for none): the points the text
clearly makes (must be credited) and the points it contradicts, reverses or gets wrong (must not
be credited). ``WHY`` is a short label of the case's class. A point the text leaves out is in
neither list.

Checks (the build fails on any): the card exists in ``decks/*.toml`` and has key points; every
index names one of its points; no point is both stated and denied; every entry labels at least
one point; no text repeats within a card; every explain card has at least 8 entries and the
sheet's four "Saying it out loud" cards at least 25; at least 700 entries in all; and, with
``--check``, the JSONL file equals what the source builds.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections import Counter
from pathlib import Path

DATA = Path(__file__).resolve().parent
ROOT = DATA.parent.parent
SOURCE = DATA / "explain_paraphrases_fresh3_src"
CORPUS = DATA / "explain_paraphrases_fresh3.jsonl"
OUT_LOUD = (
    "losses/why-cross-entropy",
    "normalization/batchnorm-vs-layernorm",
    "attention-transformers/explain-sqrt-dk",
    "inference-cost/explain-where-compute-goes",
)
MIN_OUT_LOUD = 25
MIN_OTHER = 8
MIN_TOTAL = 700


def point_counts() -> dict[str, int]:
    """How many key points each explain card declares, by ``deck/card`` id."""
    counts: dict[str, int] = {}
    for path in sorted((ROOT / "decks").glob("*.toml")):
        with path.open("rb") as handle:
            deck = tomllib.load(handle)
        for card in deck.get("card", []):
            if card.get("points"):
                counts[f"{path.stem}/{card['id']}"] = len(card["points"])
    return counts


def parse_indices(field: str, where: str) -> list[int]:
    field = field.strip()
    if field == "-":
        return []
    try:
        return [int(part) for part in field.split(",")]
    except ValueError:
        raise SystemExit(f"{where}: bad index list {field!r}") from None


def build(counts: dict[str, int], source: Path = SOURCE) -> list[dict[str, object]]:
    """Every entry of the source files under ``source``, checked line by line."""
    entries: list[dict[str, object]] = []
    seen: set[tuple[str, str]] = set()
    for path in sorted(source.glob("*.txt")):
        card = ""
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{path.name}:{number}"
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("=="):
                card = line[2:].strip()
                if card not in counts:
                    raise SystemExit(f"{where}: {card!r} is not an explain card")
                continue
            if not card:
                raise SystemExit(f"{where}: an answer before any '== deck/card' line")
            fields = line.split(" :: ", 3)
            if len(fields) != 4:
                raise SystemExit(f"{where}: expected 'STATES :: DENIES :: WHY :: TEXT'")
            states = parse_indices(fields[0], where)
            denies = parse_indices(fields[1], where)
            why, text = fields[2].strip(), fields[3].strip()
            for index in states + denies:
                if not 0 <= index < counts[card]:
                    raise SystemExit(f"{where}: {card} has no point {index}")
            if len(set(states)) != len(states) or len(set(denies)) != len(denies):
                raise SystemExit(f"{where}: a point is listed twice")
            if set(states) & set(denies):
                raise SystemExit(f"{where}: a point is both stated and denied")
            if not states and not denies:
                raise SystemExit(f"{where}: the entry labels no point")
            if not why or not text:
                raise SystemExit(f"{where}: empty label or text")
            if (card, text) in seen:
                raise SystemExit(f"{where}: the text repeats for {card}")
            seen.add((card, text))
            entries.append(
                {"card": card, "text": text, "states": states, "denies": denies, "why": why}
            )
    return entries


def check_coverage(entries: list[dict[str, object]], counts: dict[str, int]) -> None:
    per_card = Counter(str(entry["card"]) for entry in entries)
    for card in sorted(counts):
        wanted = MIN_OUT_LOUD if card in OUT_LOUD else MIN_OTHER
        if per_card[card] < wanted:
            raise SystemExit(f"{card}: {per_card[card]} entries, at least {wanted} wanted")
    if len(entries) < MIN_TOTAL:
        raise SystemExit(f"{len(entries)} entries, at least {MIN_TOTAL} wanted")


def render(entries: list[dict[str, object]]) -> str:
    return "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries)


def main(source: Path = SOURCE, corpus: Path = CORPUS, about: str | None = None) -> int:
    """Build ``corpus`` from ``source`` (or, with ``--check``, verify it): later batches written
    in the same format call this with their own folder and file."""
    parser = argparse.ArgumentParser(description=(about or __doc__).splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify the corpus, write nothing")
    args = parser.parse_args()
    counts = point_counts()
    entries = build(counts, source)
    check_coverage(entries, counts)
    text = render(entries)
    if args.check:
        if not corpus.exists() or corpus.read_text(encoding="utf-8") != text:
            raise SystemExit(f"{corpus.name} differs from what the source builds")
        print(f"{corpus.name}: {len(entries)} entries over {len(counts)} cards, checked")
        return 0
    corpus.write_text(text, encoding="utf-8")
    print(f"wrote {corpus.name}: {len(entries)} entries over {len(counts)} cards")
    return 0


if __name__ == "__main__":
    sys.exit(main())
