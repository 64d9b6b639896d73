"""Build and verify ``tests/data/explain_paraphrases_fresh.jsonl`` from hand-written text.

Usage::

    python tests/data/explain_paraphrases_fresh_build.py          # rewrite the corpus file
    python tests/data/explain_paraphrases_fresh_build.py --check  # verify it, change nothing

The corpus is a second, independent set of learner answers to the built-in explain cards, written
for issue 23 without looking at the matcher (``recall/grading/explain.py``), at the phrasings the
decks accept for a point, or at the first corpus (``explain_paraphrases.jsonl``) beyond its field
names. Its author read only each explain card's id, prompt, model answer and each point's ``say``.

Every answer was typed by hand into ``explain_paraphrases_fresh_src/*.txt``, one per line::

    STATES ¦ DENIES ¦ TEXT ¦ WHY

``STATES`` lists the points (indices into the card's ``[[card.points]]``) the text makes and
that must be credited; ``DENIES`` the points it contradicts, gets wrong or swaps, which must not
be credited. A point the author was unsure about is in neither list. A ``== deck/card`` line
starts a card's block; ``#`` lines are comments. This script only assembles the JSON and checks
the labels' shape; it writes no text of its own.

Checks: every card exists and is an explain card, every index names one of its points, no point is
both stated and denied, every entry labels at least one point, no text repeats for a card, every
explain card has at least 5 entries and the sheet's four "Saying it out loud" cards at least 20,
and (with ``--check``) the JSONL file equals what the source builds.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from collections import Counter
from pathlib import Path
from typing import TypedDict

DATA = Path(__file__).resolve().parent
ROOT = DATA.parent.parent
SOURCE = DATA / "explain_paraphrases_fresh_src"
TARGET = DATA / "explain_paraphrases_fresh.jsonl"

SEPARATOR = "¦"
MIN_PER_CARD = 5
MIN_OUT_LOUD = 20
OUT_LOUD = (
    "losses/why-cross-entropy",
    "normalization/batchnorm-vs-layernorm",
    "attention-transformers/explain-sqrt-dk",
    "inference-cost/explain-where-compute-goes",
)


class Entry(TypedDict):
    """One line of the corpus, its fields in the order the first corpus uses."""

    card: str
    text: str
    states: list[int]
    denies: list[int]
    why: str


def explain_cards() -> dict[str, int]:
    """Every built-in card with key points, as ``deck/card`` to its number of points."""
    cards: dict[str, int] = {}
    for path in sorted((ROOT / "decks").glob("*.toml")):
        with path.open("rb") as handle:
            deck = tomllib.load(handle)
        deck_id = deck.get("deck", {}).get("id", path.stem)
        for card in deck.get("card", []):
            if "points" in card:
                cards[f"{deck_id}/{card['id']}"] = len(card["points"])
    return cards


def indices(field: str, where: str) -> list[int]:
    """The comma-separated point indices of one label field (may be empty)."""
    field = field.strip()
    if not field:
        return []
    try:
        return sorted({int(part) for part in field.split(",")})
    except ValueError:
        raise SystemExit(f"{where}: bad point list {field!r}") from None


def parse() -> list[Entry]:
    """All entries of the source files, in file order."""
    entries: list[Entry] = []
    for path in sorted(SOURCE.glob("*.txt")):
        card = None
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{path.name}:{number}"
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("== "):
                card = line[3:].strip()
                continue
            if card is None:
                raise SystemExit(f"{where}: entry before any '== deck/card' line")
            fields = line.split(SEPARATOR)
            if len(fields) != 4:
                raise SystemExit(f"{where}: expected 4 fields, found {len(fields)}")
            states, denies, text, why = fields
            entries.append(
                {
                    "card": card,
                    "text": text.strip(),
                    "states": indices(states, where),
                    "denies": indices(denies, where),
                    "why": why.strip(),
                }
            )
    return entries


def problems(entries: list[Entry], cards: dict[str, int]) -> list[str]:
    """What is wrong with the entries' labels and counts (empty when all is well)."""
    found: list[str] = []
    seen: set[tuple[str, str]] = set()
    for entry in entries:
        card, text = entry["card"], entry["text"]
        states, denies = entry["states"], entry["denies"]
        label = f"{card}: {text!r}"
        if card not in cards:
            found.append(f"{label}: no such explain card")
            continue
        if not text:
            found.append(f"{label}: empty text")
        if not states and not denies:
            found.append(f"{label}: labels no point")
        if set(states) & set(denies):
            found.append(f"{label}: a point both stated and denied")
        for index in states + denies:
            if not 0 <= index < cards[card]:
                found.append(f"{label}: point {index} out of range (card has {cards[card]})")
        if (card, text) in seen:
            found.append(f"{label}: repeated")
        seen.add((card, text))
    counts = Counter(entry["card"] for entry in entries)
    for card in cards:
        least = MIN_OUT_LOUD if card in OUT_LOUD else MIN_PER_CARD
        if counts[card] < least:
            found.append(f"{card}: {counts[card]} entries, needs at least {least}")
    return found


def render(entries: list[Entry]) -> str:
    """The JSONL text: one entry per line, fields in a fixed order."""
    return "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="verify the file, change nothing")
    arguments = parser.parse_args()
    cards = explain_cards()
    entries = parse()
    found = problems(entries, cards)
    for problem in found:
        print(problem, file=sys.stderr)
    if found:
        return 1
    text = render(entries)
    if arguments.check:
        if TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.name} differs from its source; rebuild it", file=sys.stderr)
            return 1
    else:
        TARGET.write_text(text, encoding="utf-8")
    counts = Counter(entry["card"] for entry in entries)
    stated = sum(len(entry["states"]) for entry in entries)
    denied = sum(len(entry["denies"]) for entry in entries)
    print(
        f"{len(entries)} entries over {len(counts)} of {len(cards)} explain cards; "
        f"{stated} must-credit and {denied} must-not-credit labels; "
        f"out-loud cards: {', '.join(f'{card} {counts[card]}' for card in OUT_LOUD)}; "
        f"fewest on any card: {min(counts[card] for card in cards)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
