"""Hostile input: every case is rejected, nothing escapes, and nothing happens on the side.

``tests/data/hostile_inputs.jsonl`` lists the cases: code injection, size bombs (power towers,
deep nesting, megabyte strings, huge literals), Unicode tricks and LaTeX bombs. Long inputs are
described by a ``build`` recipe (``prefix + repeat * times + suffix``) rather than stored.
``{SENTINEL}`` in an answer is replaced by a path in the test's temporary directory: a command
that ran would create that file.

Each case must come back as one of its ``verdicts`` (``invalid``, or for a few that read as valid
math, ``incorrect``), never ``correct``, without an exception escaping ``check``, ``preview``
or ``parse`` (which may only raise :class:`recall.errors.FormulaError`). Speed is measured in
``benchmarks/bench_grading.py``, not asserted here.
"""

from __future__ import annotations

import builtins
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from recall.errors import FormulaError
from recall.formula import SymbolTable, check, parse, preview

CASES_FILE = Path(__file__).parent / "data" / "hostile_inputs.jsonl"
REPO = Path(__file__).resolve().parent.parent

# Pairs whose grading once ran into C-level big-integer arithmetic that no in-process timeout
# can interrupt (ANCHORS: keep a worker that can be killed from outside). They run in a child
# process that is killed if it does not finish: the assertion is that grading terminates with
# the right verdict, the limit is only a guard against a hung test run, not a speed target.
TERMINATION_CASES = [
    pytest.param(
        "a^(b*c)",
        "(a^b)^c",
        {"a": "positive", "b": "real", "c": "real"},
        "correct",
        id="nested-power-exact-root",
    ),
]
TERMINATION_GUARD_SECONDS = 30


def load_cases() -> list[dict[str, Any]]:
    with CASES_FILE.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def build_answer(case: dict[str, Any], sentinel: Path) -> str:
    """The answer text of a case, with long inputs expanded and the sentinel path filled in."""
    if "build" in case:
        recipe = case["build"]
        text = recipe["prefix"] + recipe["repeat"] * recipe["times"] + recipe["suffix"]
    else:
        text = case["answer"]
    return text.replace("{SENTINEL}", str(sentinel))


CASES = load_cases()


@pytest.fixture
def sentinel(tmp_path: Path) -> Path:
    return tmp_path / "pwned"


def _builtins_snapshot() -> dict[str, int]:
    return {name: id(value) for name, value in vars(builtins).items()}


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_hostile_input_is_rejected_without_side_effects(
    case: dict[str, Any], sentinel: Path
) -> None:
    answer = build_answer(case, sentinel)
    table = SymbolTable.build(variables=case["vars"])
    builtins_before = _builtins_snapshot()
    system_before = os.system
    modules_before = set(sys.modules)

    verdict = check(case["expected"], answer, table)

    assert str(verdict.status) in case["verdicts"], (
        f"{case['id']} ({case['why']}): {verdict.status} by {verdict.method}: {verdict.message}"
    )
    assert str(verdict.status) != "correct"
    assert verdict.message, "a rejection must say why"
    assert not sentinel.exists(), "a command in the answer ran"
    assert _builtins_snapshot() == builtins_before, "builtins were modified"
    assert os.system is system_before
    # Grading may import the engine's own lazy modules, but nothing a payload names.
    loaded = set(sys.modules) - modules_before
    assert not {"subprocess", "pty", "ctypes", "pickle"} & loaded


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_preview_and_parse_never_escape(case: dict[str, Any], sentinel: Path) -> None:
    answer = build_answer(case, sentinel)
    table = SymbolTable.build(variables=case["vars"])
    shown = preview(answer, table)
    if "invalid" in case["verdicts"] and case["verdicts"] == ["invalid"]:
        assert not shown.ok, f"{case['id']}: preview accepted an input that must be invalid"
        assert shown.message
    try:
        parse(answer, table)
    except FormulaError:
        pass
    assert not sentinel.exists()


def test_every_category_is_present() -> None:
    categories = {case["category"] for case in CASES}
    assert {"injection", "size", "unicode", "latex"} <= categories


def test_no_case_may_be_accepted() -> None:
    for case in CASES:
        assert case["verdicts"], case["id"]
        assert "correct" not in case["verdicts"], case["id"]


@pytest.mark.parametrize(("expected", "answer", "variables", "verdict"), TERMINATION_CASES)
def test_grading_terminates_in_a_killable_worker(
    expected: str, answer: str, variables: dict[str, str], verdict: str
) -> None:
    program = (
        "import json, sys\n"
        "from recall.formula import SymbolTable, check\n"
        "expected, answer, variables = json.loads(sys.argv[1])\n"
        "print(check(expected, answer, SymbolTable.build(variables=variables)).status)\n"
    )
    try:
        result = subprocess.run(
            [sys.executable, "-c", program, json.dumps([expected, answer, variables])],
            capture_output=True,
            text=True,
            cwd=REPO,
            timeout=TERMINATION_GUARD_SECONDS,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"grading {answer!r} against {expected!r} did not terminate (child killed)")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == verdict
