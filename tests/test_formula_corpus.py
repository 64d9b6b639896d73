"""The grading corpus: every line's verdict must match, and the corpus must cover both sheets.

``tests/data/grading_corpus.jsonl`` holds one graded pair per line::

    {"id", "section", "expected", "answer", "vars", "funcs", "tolerance"?, "verdict", "why"}

Each verdict was decided by hand and checked independently (high-precision evaluation at random
points, real-valued semantics). When the engine disagrees with a line, the line is right unless
someone shows the mathematics says otherwise: a false accept is the worst failure a grader has.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from recall.formula import SymbolTable, Tolerance, check

CORPUS = Path(__file__).parent / "data" / "grading_corpus.jsonl"

# Every section of both formula sheets, plus the trap families the engine must get right.
REQUIRED_SECTIONS = {
    "cheatsheet/information-theory",
    "cheatsheet/gaussians",
    "cheatsheet/core-models",
    "cheatsheet/transformers",
    "cheatsheet/diffusion-flow",
    "cheatsheet/training-scaling",
    "cheatsheet/alignment",
    "cheatsheet/retrieval-evaluation",
    "cheatsheet/numeric-reference",
    "formula-sheet/losses",
    "formula-sheet/gradients",
    "formula-sheet/activations",
    "formula-sheet/normalization",
    "formula-sheet/attention",
    "formula-sheet/regularization",
    "formula-sheet/optimizers",
    "formula-sheet/metrics",
    "formula-sheet/probability",
    "formula-sheet/scaling",
    "traps/algebra",
    "traps/numeric",
    "traps/exactness",
    "traps/invalid",
}
VERDICTS = {"correct", "incorrect", "invalid"}


def load_corpus() -> list[dict[str, Any]]:
    """The corpus lines, in file order."""
    with CORPUS.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


LINES = load_corpus()


def grade(line: dict[str, Any], seed: int = 0) -> Any:
    """Run one corpus line through the engine, as ``recall check --batch`` would."""
    table = SymbolTable.build(variables=line.get("vars") or {}, functions=line.get("funcs") or [])
    tolerance = line.get("tolerance")
    return check(
        line["expected"],
        line["answer"],
        table,
        tolerance=None if tolerance is None else Tolerance.relative(tolerance),
        seed=seed,
    )


@pytest.mark.parametrize("line", LINES, ids=[line["id"] for line in LINES])
def test_corpus_line(line: dict[str, Any]) -> None:
    verdict = grade(line)
    assert str(verdict.status) == line["verdict"], (
        f"{line['id']}: expected {line['verdict']} ({line['why']}), engine said "
        f"{verdict.status} by {verdict.method}: {verdict.message}"
    )


_SEED_ZERO: dict[str, str] = {}


def _status_at_seed_zero(line: dict[str, Any]) -> str:
    if line["id"] not in _SEED_ZERO:
        _SEED_ZERO[line["id"]] = str(grade(line).status)
    return _SEED_ZERO[line["id"]]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_verdicts_do_not_depend_on_the_seed(seed: int) -> None:
    """The random test points change with the seed; a verdict must not. A wrong answer that
    passes under some seed is a false accept waiting for the review that draws that seed.
    Lines already wrong at seed 0 are left to ``test_corpus_line``."""
    changed = [
        f"{line['id']}: {status}"
        for line in LINES
        if line["verdict"] != "invalid"
        and _status_at_seed_zero(line) == line["verdict"]
        and (status := str(grade(line, seed).status)) != line["verdict"]
    ]
    assert not changed, f"seed {seed} changes verdicts: {changed}"


def test_corpus_is_large_enough() -> None:
    assert len(LINES) >= 300


def test_every_sheet_section_is_represented() -> None:
    sections = Counter(line["section"] for line in LINES)
    missing = REQUIRED_SECTIONS - set(sections)
    assert not missing, f"sections with no corpus line: {sorted(missing)}"
    assert set(sections) <= REQUIRED_SECTIONS, "a line names a section the test does not know"


def test_each_formula_section_has_right_and_wrong_answers() -> None:
    for section in REQUIRED_SECTIONS - {"traps/invalid"}:
        verdicts = {line["verdict"] for line in LINES if line["section"] == section}
        assert {"correct", "incorrect"} <= verdicts, section


def test_lines_are_well_formed() -> None:
    ids = [line["id"] for line in LINES]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for line in LINES:
        assert line["verdict"] in VERDICTS, line["id"]
        assert isinstance(line["expected"], str) and isinstance(line["answer"], str), line["id"]
        assert isinstance(line["vars"], dict), line["id"]
        assert isinstance(line["funcs"], (list, dict)), line["id"]
        assert line["why"].strip(), line["id"]
        if "tolerance" in line:
            assert line["tolerance"] >= 0, line["id"]
