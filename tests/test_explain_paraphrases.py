"""Explain cards score the points a learner states and never the ones they contradict (issue 23).

``tests/data/explain_paraphrases.jsonl`` holds learner-style answers to the built-in explain
cards, written from each card's prompt, model answer and the model sentence (``say``) of its key
points only, never from the phrasings the matcher accepts: varied wording, synonyms, British and
American spelling, abbreviations, typed formulas, a typo now and then. Each line names the card,
the text, ``states`` (indices of the points the text clearly makes), ``denies`` (indices of
points the text states the opposite of: a negation, a swap of the two things compared, a wrong
number) and ``why``. Every point the text states must be made; no point it denies may be.

An entry the matcher does not yet agree with lives in ``explain_paraphrases_open.jsonl``: the
same format, checked for shape and counted and printed here, not graded as a failure, so the
disagreements stay visible while main stays green (the coverage counts count both files: an
open entry is still a paraphrase). Move a line back when the matcher learns it.

An entry for a card without points, or with an index its card does not have, fails: the corpus
and the decks change together.

``tests/data/explain_paraphrases_fresh.jsonl`` is a second batch in the same format, written
independently of the matcher and first used to measure it
(``explain_paraphrases_fresh_measure.py``); once it had served as that measure it became
training data, the matcher and the decks were fixed class by class until it agreed, and it is
asserted here as well, entry by entry, so no later change undoes those classes.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from recall.cards.loader import load_decks
from recall.cards.model import Card, CardKind
from recall.grading import grade
from recall.paths import builtin_decks_dir

DATA = Path(__file__).parent / "data"
CORPUS = DATA / "explain_paraphrases.jsonl"
OPEN = DATA / "explain_paraphrases_open.jsonl"
FIELDS = {"card", "text", "states", "denies", "why"}

#: The sheet's four "Saying it out loud" cards, each with at least this many entries.
SHEET_CARDS = (
    "losses/why-cross-entropy",
    "normalization/batchnorm-vs-layernorm",
    "attention-transformers/explain-sqrt-dk",
    "inference-cost/explain-where-compute-goes",
)
SHEET_MINIMUM = 20
#: Every other built-in explain card with key points.
OTHER_MINIMUM = 5


def _read(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


FRESH = DATA / "explain_paraphrases_fresh.jsonl"
ENTRIES = _read(CORPUS)
FRESH_ENTRIES = _read(FRESH)
OPEN_ENTRIES = _read(OPEN) if OPEN.exists() else []


@cache
def explain_cards() -> dict[str, Card]:
    """Every built-in explain card by key (``deck/card``)."""
    loaded = load_decks([builtin_decks_dir()])
    assert loaded.ok, loaded.failures
    return {card.key: card for card in loaded.cards if card.kind is CardKind.EXPLAIN}


def _checked_card(entry: dict[str, Any]) -> Card:
    """The entry's card, after checking the entry's shape against it (fails, never skips)."""
    assert set(entry) == FIELDS, f"fields {sorted(entry)}"
    assert isinstance(entry["text"], str) and entry["text"].strip()
    assert isinstance(entry["why"], str) and entry["why"].strip()
    states, denies = entry["states"], entry["denies"]
    assert all(isinstance(i, int) for i in states + denies)
    assert states or denies, "an entry states or denies at least one point"
    assert not set(states) & set(denies), "a point is both stated and denied"
    card = explain_cards().get(entry["card"])
    assert card is not None, f"{entry['card']} is not a built-in explain card"
    assert card.points, f"{entry['card']} has no key points (yet): keep its entries off main"
    for index in states + denies:
        assert 0 <= index < len(card.points), (
            f"{entry['card']} has {len(card.points)} points, the entry names point {index}: "
            "recheck the entry against the card's points"
        )
    return card


def _label(entry: dict[str, Any]) -> str:
    return f"{entry['card']}:{entry['text'][:40]}"


@pytest.mark.parametrize("entry", ENTRIES + FRESH_ENTRIES, ids=_label)
def test_stated_points_are_made_and_denied_points_are_not(entry: dict[str, Any]) -> None:
    card = _checked_card(entry)
    outcomes = grade(card, entry["text"]).points
    assert len(outcomes) == len(card.points)
    made = {index for index, outcome in enumerate(outcomes) if outcome.made}
    missed = [card.points[i].say for i in entry["states"] if i not in made]
    wrongly = [card.points[i].say for i in entry["denies"] if i in made]
    assert not missed, f"stated but not made: {missed} ({entry['why']})"
    assert not wrongly, f"contradicted but made: {wrongly} ({entry['why']})"


def test_every_explain_card_with_points_is_covered() -> None:
    """Counted over both files: an open entry is still a paraphrase of the card."""
    counts = Counter(entry["card"] for entry in ENTRIES + OPEN_ENTRIES)
    with_points = {key for key, card in explain_cards().items() if card.points}
    assert set(SHEET_CARDS) <= with_points
    short = {
        key: counts[key]
        for key in sorted(with_points)
        if counts[key] < (SHEET_MINIMUM if key in SHEET_CARDS else OTHER_MINIMUM)
    }
    assert not short, f"too few paraphrases for: {short}"


def test_every_point_is_stated_and_the_near_misses_are_there() -> None:
    """Over both files: the corpus is written without the matcher, open entries included."""
    cards = explain_cards()
    stated = {(entry["card"], i) for entry in ENTRIES + OPEN_ENTRIES for i in entry["states"]}
    denied = Counter(entry["card"] for entry in ENTRIES + OPEN_ENTRIES if entry["denies"])
    for key, card in cards.items():
        if not card.points:
            continue
        unstated = [i for i in range(len(card.points)) if (key, i) not in stated]
        assert not unstated, f"{key}: no paraphrase states points {unstated}"
        assert denied[key] >= 1, f"{key}: no near miss"
    for key in SHEET_CARDS:
        assert denied[key] >= 5, f"{key}: fewer than five near misses"


def test_texts_are_not_repeated() -> None:
    texts = Counter((entry["card"], entry["text"]) for entry in ENTRIES + OPEN_ENTRIES)
    assert not [text for text, count in texts.items() if count > 1]


def test_open_disagreements_are_counted_and_printed(capsys: pytest.CaptureFixture[str]) -> None:
    """The entries the matcher does not agree with yet: well formed, listed for the reader."""
    lines = []
    for entry in OPEN_ENTRIES:
        card = _checked_card(entry)
        made = {i for i, outcome in enumerate(grade(card, entry["text"]).points) if outcome.made}
        missed = [i for i in entry["states"] if i not in made]
        wrongly = [i for i in entry["denies"] if i in made]
        still = "open" if missed or wrongly else "agrees now: move it to the corpus"
        lines.append(
            f"  {entry['card']} missed {missed} made-though-denied {wrongly} [{still}]: "
            f"{entry['text']}"
        )
    with capsys.disabled():
        print(
            f"\n{len(OPEN_ENTRIES)} open paraphrase entries (of {len(ENTRIES) + len(OPEN_ENTRIES)})"
        )
        print("\n".join(lines))
