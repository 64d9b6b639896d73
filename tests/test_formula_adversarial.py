"""The adversarial corpus: pairs built to break the formula engine, each with the verdict the
mathematics demands.

``tests/data/adversarial_corpus.jsonl`` has the fields of the grading corpus
(``id, section, expected, answer, vars, funcs, tolerance?, verdict, why``) plus two optional ones:

* ``tolerance_kind``: ``relative`` (the default, as in the grading corpus), ``absolute`` or
  ``sigfigs``; it says how ``tolerance`` is read;
* ``diagnosis_not``: diagnosis kinds that would mislead the learner on this pair (an answer that
  is right only for small ``x`` is not "a rounded decimal"; ``1`` for ``1e-300`` is not "off by a
  sign"). The verdict must match and, when a diagnosis is given, its kind must not be one of them.

The lines probe where a random-point checker is weakest: points that never leave ``|x| <= 40``,
integer domains without ``0``, sign patterns that repeat across variables, float64 overflow,
differences below a fixed absolute threshold, digit caps, numeric answers past float64's range,
tolerances at zero, parser readings of superscripts and LaTeX, and unknown functions. Every
verdict was decided by hand and re-checked with an independent high-precision evaluator (real
semantics: a root or log of a negative number is undefined, never complex). Nothing here is
skipped or expected to fail: when the engine disagrees with a line, the engine is wrong unless
someone shows the mathematics says otherwise.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from recall.formula import SymbolTable, Tolerance, check

CORPUS = Path(__file__).parent / "data" / "adversarial_corpus.jsonl"
VERDICTS = {"correct", "incorrect", "invalid"}
TOLERANCE_KINDS = {"relative", "absolute", "sigfigs"}


def load_corpus() -> list[dict[str, Any]]:
    """The corpus lines, in file order."""
    with CORPUS.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


LINES = load_corpus()


def tolerance_of(line: dict[str, Any]) -> Tolerance | None:
    """The line's tolerance; ``None`` (exact) when it gives none."""
    value = line.get("tolerance")
    if value is None:
        return None
    kind = line.get("tolerance_kind", "relative")
    if kind == "absolute":
        return Tolerance.absolute(value)
    if kind == "sigfigs":
        return Tolerance.sigfigs(int(value))
    return Tolerance.relative(value)


def grade(line: dict[str, Any]) -> Any:
    """Run one line through the engine's public API, as ``recall check`` would."""
    table = SymbolTable.build(variables=line.get("vars") or {}, functions=line.get("funcs") or [])
    return check(line["expected"], line["answer"], table, tolerance=tolerance_of(line))


@pytest.mark.parametrize("line", LINES, ids=[line["id"] for line in LINES])
def test_adversarial_line(line: dict[str, Any]) -> None:
    verdict = grade(line)
    assert str(verdict.status) == line["verdict"], (
        f"{line['id']}: expected {line['verdict']} ({line['why']}), engine said "
        f"{verdict.status} by {verdict.method}: {verdict.message}"
    )
    misleading = set(line.get("diagnosis_not", []))
    if misleading and verdict.diagnosis is not None:
        assert verdict.diagnosis.kind not in misleading, (
            f"{line['id']}: misleading diagnosis {verdict.diagnosis.kind!r}: "
            f"{verdict.diagnosis.message} ({line['why']})"
        )


def test_corpus_is_large_enough() -> None:
    assert len(LINES) >= 150


def test_corpus_has_right_and_wrong_answers_in_most_sections() -> None:
    verdicts: dict[str, set[str]] = {}
    for line in LINES:
        verdicts.setdefault(line["section"], set()).add(line["verdict"])
    mixed = [section for section, seen in verdicts.items() if {"correct", "incorrect"} <= seen]
    assert len(mixed) >= len(verdicts) // 2, verdicts


def test_lines_are_well_formed() -> None:
    ids = [line["id"] for line in LINES]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]
    for line in LINES:
        assert line["section"].startswith("adversarial/"), line["id"]
        assert line["verdict"] in VERDICTS, line["id"]
        assert isinstance(line["expected"], str) and isinstance(line["answer"], str), line["id"]
        assert isinstance(line["vars"], dict), line["id"]
        assert isinstance(line["funcs"], (list, dict)), line["id"]
        assert line["why"].strip(), line["id"]
        if "tolerance" in line:
            assert line["tolerance"] >= 0, line["id"]
        assert line.get("tolerance_kind", "relative") in TOLERANCE_KINDS, line["id"]
        if "tolerance_kind" in line:
            assert "tolerance" in line, line["id"]
        assert isinstance(line.get("diagnosis_not", []), list), line["id"]
