"""Fault suite, ``recall check --batch`` (issue 10, item 7), through the console script.

Every input line gets exactly one output line, in order, whatever it holds: a verdict, or
``{"id": ..., "error": "line N: ..."}`` for a line that cannot be read; the run always goes on.
A batch file that cannot be opened and an unusable tolerance are one clear line and exit 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fault_helpers import run_recall

GOOD = b'{"id": "ok", "expected": "x^2", "answer": "x*x"}'

HOSTILE: list[tuple[bytes, str]] = [
    (b'{"id": "\\ud800", "expected": "x", "answer": "x"}', "verdict"),  # a lone surrogate id
    (b'{"id": "s", "expected": "x", "answer": "\\udc00"}', "verdict"),
    (b"[" * 100_000 + b"]" * 100_000, "error"),  # nested too deep for json
    (b'{"id": "deep", "expected": "x", "answer": "x", "vars": ' + b"[" * 50_000 + b"}", "error"),
    (b'\xff\xfe{"id": "bytes"}', "error"),  # invalid UTF-8
    (b'{"id": "caf\xc3', "error"),  # a UTF-8 sequence cut short
    (b"", "error"),  # a blank line is a line too
    (b'{"id": "big", "expected": "1", "answer": "1", "tolerance": 1e400}', "verdict"),
    (b'{"id": "nan", "expected": "1", "answer": "1", "tolerance": NaN}', "verdict"),
    (b'{"id": "neg", "expected": "1", "answer": "1", "tolerance": -0.5}', "verdict"),
    (b'{"id": "x" , "expected": "1", "answer": "1", "tolerance": "1%"}', "verdict"),
    (b"x" * (2 << 20), "error"),  # longer than the line limit
]


def test_every_line_gets_exactly_one_answer_in_order(tmp_path: Path) -> None:
    lines = [GOOD]
    for text, _ in HOSTILE:
        lines += [text, GOOD]
    batch = tmp_path / "batch.jsonl"
    batch.write_bytes(b"\n".join(lines) + b"\n")
    done = run_recall(["check", "--batch", str(batch)], tmp_path / "home")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(lines)
    for number, (answer, line) in enumerate(zip(answers, lines, strict=True), start=1):
        if line == GOOD:
            assert answer["id"] == "ok" and answer["verdict"] == "correct", (number, answer)
    for index, (_, kind) in enumerate(HOSTILE):
        answer = answers[1 + 2 * index]
        assert kind in answer, (index, answer)
        if kind == "error":
            assert answer["error"].startswith(f"line {2 + 2 * index}: "), answer
    for index in (7, 8, 9):  # 1e400, NaN and a negative tolerance are refused with the reason
        answer = answers[1 + 2 * index]
        assert answer["verdict"] == "invalid"
        assert "a tolerance must be a finite number from 0" in answer["message"]
    assert answers[1]["id"] == "\ud800"


def test_the_batch_reads_stdin_bytes_too(tmp_path: Path) -> None:
    done = run_recall(["check", "--batch", "-"], tmp_path / "home", input=b"\xff\n" + GOOD)
    assert done.returncode == 0
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first == {"id": None, "error": "line 1: not UTF-8 text (byte 1)"}
    assert second["verdict"] == "correct"


@pytest.mark.parametrize("target", ["missing.jsonl", "."])
def test_a_batch_file_that_cannot_be_read_is_one_line_and_exit_2(
    tmp_path: Path, target: str
) -> None:
    done = run_recall(["check", "--batch", str(tmp_path / target)], tmp_path / "home")
    assert done.returncode == 2
    assert done.stderr.startswith("recall: cannot read the batch file")
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("tolerance", ["nan", "-0.01", "inf", "1e400", "2", "abc"])
def test_an_unusable_tolerance_is_refused_with_the_reason(tmp_path: Path, tolerance: str) -> None:
    done = run_recall(["check", "1", "1", "--tolerance", tolerance], tmp_path / "home")
    assert done.returncode == 2
    assert "argument --tolerance:" in done.stderr
    assert "Traceback" not in done.stderr
