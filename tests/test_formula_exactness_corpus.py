"""The exactness corpus: built and verified without the engine, and the engine agrees with it.

``tests/data/exactness_corpus.jsonl`` is written by ``tests/data/exactness_corpus_build.py``,
which decides every verdict on its own (exact rationals, mpmath at two precisions, closed forms
of differences too small for any precision, and the documented argument bounds) and never
imports ``recall``. Here the build is re-run to show the file is what that independent check
computes, and the engine must agree with every line: a false accept is the worst failure.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from recall.formula import SymbolTable, Tolerance, check

DATA = Path(__file__).parent / "data"
CORPUS = DATA / "exactness_corpus.jsonl"
BUILDER = DATA / "exactness_corpus_build.py"
SECTIONS = {
    "exactness/saturation",
    "exactness/constant-reference",
    "exactness/tolerance",
    "exactness/bounds",
    "exactness/hard-constants",
}


def load() -> list[dict[str, Any]]:
    with CORPUS.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


LINES = load()


def grade(line: dict[str, Any]) -> Any:
    table = SymbolTable.build(variables=line["vars"], functions=line["funcs"])
    tolerance = line.get("tolerance")
    return check(
        line["expected"],
        line["answer"],
        table,
        tolerance=None if tolerance is None else Tolerance.relative(tolerance),
    )


@pytest.mark.parametrize("line", LINES, ids=[line["id"] for line in LINES])
def test_engine_agrees_with_the_independent_verdict(line: dict[str, Any]) -> None:
    verdict = grade(line)
    assert str(verdict.status) == line["verdict"], (
        f"{line['id']}: {line['expected']} vs {line['answer']} is {line['verdict']} "
        f"({line['why']}; {line['verified']}), engine said {verdict.status}: {verdict.message}"
    )


def test_no_false_accept_anywhere() -> None:
    accepted_wrongly = [
        line["id"] for line in LINES if line["verdict"] != "correct" and grade(line).is_correct
    ]
    assert accepted_wrongly == []


def test_every_class_has_at_least_fifteen_cases_both_ways() -> None:
    by_section = Counter(line["section"] for line in LINES)
    assert set(by_section) == SECTIONS
    assert min(by_section.values()) >= 15
    for section in SECTIONS:
        verdicts = {line["verdict"] for line in LINES if line["section"] == section}
        assert "incorrect" in verdicts, section
        assert verdicts - {"incorrect"}, section  # correct (or, for bounds, invalid) cases too


def test_the_file_is_what_the_independent_builder_computes() -> None:
    spec = importlib.util.spec_from_file_location("exactness_corpus_build", BUILDER)
    assert spec is not None and spec.loader is not None
    builder = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = builder  # dataclasses look their module up there
    try:
        spec.loader.exec_module(builder)
    finally:
        del sys.modules[spec.name]
    assert "recall" not in builder.__dict__
    rebuilt = builder.build()
    assert rebuilt == LINES
