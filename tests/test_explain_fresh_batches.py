"""The measured blind batches stay learned (issue 23).

Each blind batch of learner explanations (``tests/data/explain_paraphrases_fresh3.jsonl`` and
``..._fresh4.jsonl``) first served as a measure of the matcher on text it had never seen; then it
became training data and the matcher was fixed class by class against it. Every label of those
batches is asserted here, so no later change undoes a class quietly. The disagreements left are
listed, line by line, in ``explain_paraphrases_known.jsonl`` (rewritten on purpose by
``explain_paraphrases_known_build.py``): a label outside that list must agree, and a listed one
must still disagree, or the list is stale and the test says which line to drop.

The newest batch is not here until it has been measured blind once; its figures are in
``docs/benchmarks.md`` ("Explanations").
"""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from recall.cards.loader import load_decks
from recall.cards.model import Card, CardKind
from recall.grading import grade
from recall.paths import builtin_decks_dir

DATA = Path(__file__).parent / "data"
_spec = importlib.util.spec_from_file_location(
    "explain_paraphrases_known_build", DATA / "explain_paraphrases_known_build.py"
)
assert _spec is not None and _spec.loader is not None
known_build = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(known_build)


@cache
def explain_cards() -> dict[str, Card]:
    loaded = load_decks([builtin_decks_dir()])
    assert loaded.ok, loaded.failures
    return {card.key: card for card in loaded.cards if card.kind is CardKind.EXPLAIN}


@cache
def made_points(card: str, text: str) -> frozenset[int]:
    return frozenset(i for i, o in enumerate(grade(explain_cards()[card], text).points) if o.made)


def _key(line: dict[str, Any]) -> tuple[str, str, str, int, str]:
    return (line["batch"], line["card"], line["text"], line["point"], line["side"])


KNOWN = {_key(line) for line in known_build.read(known_build.KNOWN)}


@pytest.mark.parametrize("batch", sorted(known_build.BATCHES))
def test_every_label_of_the_batch_agrees_unless_it_is_listed(batch: str) -> None:
    entries = known_build.read(known_build.BATCHES[batch])
    assert len(entries) >= 700
    found = [
        line
        for line in known_build.disagreements(made_points)
        if line["batch"] == batch and _key(line) not in KNOWN
    ]
    shown = [f"{d['card']} point {d['point']} [{d['side']}]: {d['text']}" for d in found]
    assert not found, "new disagreements:\n" + "\n".join(shown)


def test_every_listed_disagreement_still_disagrees(capsys: pytest.CaptureFixture[str]) -> None:
    """A listed label the matcher now agrees with is progress: drop it from the list (rewrite
    it with the build script) so that it is asserted from then on."""
    now = {_key(line) for line in known_build.disagreements(made_points)}
    stale = sorted(KNOWN - now)
    assert not stale, (
        "agree now (run tests/data/explain_paraphrases_known_build.py):\n"
        + "\n".join(f"{s[0]} {s[1]} point {s[3]} [{s[4]}]: {s[2]}" for s in stale)
    )
    with capsys.disabled():
        for batch in sorted(known_build.BATCHES):
            count = sum(1 for k in KNOWN if k[0] == batch)
            print(f"\n{batch}: {count} known disagreements left (explain_paraphrases_known.jsonl)")


def test_the_known_list_names_real_labels() -> None:
    """Each listed line is a label of its batch, on the side the batch gives it."""
    labels = set()
    for batch, path in known_build.BATCHES.items():
        for entry in known_build.read(path):
            for side, indices in (("credit", entry["states"]), ("refuse", entry["denies"])):
                labels |= {(batch, entry["card"], entry["text"], i, side) for i in indices}
    assert KNOWN <= labels, sorted(KNOWN - labels)[:5]
