"""Correct answers are never refused: 363 realistic learner answers over the built-in cards.

``tests/data/learner_corpus.jsonl`` is written by ``tests/data/learner_corpus_build.py``, which
checks every entry without importing ``recall`` (mpmath at random points of the card's domains
for math, the deck's value or range for facts, the accepted names for words). Here each answer
is graded through ``recall check --card``'s own path (:func:`recall.commands.card_check.
grade_on_card`: the workspace's card, the question drawn from a seed, the deck's neighbours) and
must be *correct*; an *invalid* verdict counts as a refusal too. The few entries marked
``ambiguous`` must be asked about (*invalid*, with the reading), never marked wrong. p50/p99
grading time over the corpus is printed by ``benchmarks/bench_grading.py``.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from recall.cli import main
from recall.commands.card_check import find_card, grade_on_card

DATA = Path(__file__).parent / "data"
CORPUS = DATA / "learner_corpus.jsonl"
BUILDER = DATA / "learner_corpus_build.py"
SEED = 7


def load() -> list[dict[str, Any]]:
    with CORPUS.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


LINES = load()


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """The learner's workspace as ``recall check --card`` opens it, in a fresh home."""
    from recall.workspace import Workspace

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RECALL_HOME", str(tmp_path_factory.mktemp("home")))
        yield Workspace.open(None, db_url=None, custom_decks=None, sync=False)


def test_the_corpus_is_large_and_varied() -> None:
    assert len(LINES) >= 200
    assert len({line["card"] for line in LINES}) >= 150
    forms = Counter(line["form"] for line in LINES)
    for form in ("unicode", "reordered", "expanded", "unit", "vulgar fraction", "bare call"):
        assert forms[form] >= 3, form
    assert sum(n for f, n in forms.items() if "article" in f) >= 10
    assert forms["fraction on a percent card"] >= 3 and forms["typo"] >= 3
    kinds = Counter(line["kind"] for line in LINES)
    assert set(kinds) == {"formula", "cloze", "fact", "reverse"}


@pytest.mark.parametrize("line", LINES, ids=[line["id"] for line in LINES])
def test_a_correct_answer_is_never_refused(line: dict[str, Any], workspace) -> None:
    card = find_card(workspace, line["card"])
    _, verdict = grade_on_card(workspace, card, line["answer"], SEED)
    status = str(verdict.status)
    if line.get("ambiguous"):
        assert status == "invalid", f"{line['answer']!r} ({line['why']}): {verdict.message}"
        assert "could be" in verdict.message or "did you mean" in verdict.message
        return
    assert status == "correct", (
        f"{line['card']}: {line['answer']!r} ({line['form']}: {line['why']}) was {status}: "
        f"{verdict.message}"
    )


@pytest.mark.parametrize(
    ("card", "answer"),
    [
        ("regularization/l1-prior", "a Laplace prior"),
        ("optimizers/warmup-fraction", "0.01"),
        ("inference-cost/training-memory-adam-states", "8 bytes"),
        ("losses/huber-inner", "½r²"),
    ],
)
def test_the_command_line_agrees(card: str, answer: str, capsys) -> None:
    assert main(["check", "--card", card, answer, "--json", "--seed", str(SEED)]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"] == "correct"


def test_the_file_is_what_the_independent_builder_computes() -> None:
    spec = importlib.util.spec_from_file_location("learner_corpus_build", BUILDER)
    assert spec is not None and spec.loader is not None
    builder = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = builder
    try:
        spec.loader.exec_module(builder)
        assert builder.render(builder.build()) == CORPUS.read_text(encoding="utf-8")
        assert "recall" not in {name.split(".")[0] for name in vars(builder)}
    finally:
        sys.modules.pop(spec.name, None)
