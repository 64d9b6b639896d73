"""``recall check``: exit codes, JSON, and the batch mode that never stops on a bad line."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from recall.cli import main
from recall.commands.check import run_batch


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["x^2", "x*x"], 0),
        (["x/2", "x"], 1),
        (["x", "x +"], 2),
        (["log(sigma^2)", "2 log(sigma)", "--var", "sigma=positive"], 0),
        (["log(s^2)", "2 log(s)", "--var", "s=real"], 1),
        (["f(x) + f(x)", "2 f(x)", "--func", "f"], 0),
        (["100", "101", "--tolerance", "0.02"], 0),
        (["100", "101"], 1),
    ],
)
def test_exit_status(args, code, capsys) -> None:
    assert main(["check", *args]) == code
    assert "verdict:" in capsys.readouterr().out


def test_json_output(capsys) -> None:
    assert main(["check", "x/2", "x", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "incorrect"
    assert data["diagnosis"]["kind"] == "factor"
    assert data["interpreted"] == "x"
    assert data["ms"] >= 0


def test_bad_domain_is_a_clear_error(capsys) -> None:
    assert main(["check", "x", "x", "--var", "x=sideways"]) == 2
    assert "unknown domain 'sideways'" in capsys.readouterr().err


def test_batch_answers_every_line_in_order() -> None:
    lines = [
        {"id": "a", "expected": "x^2", "answer": "x*x"},
        "this is not json",
        {"id": "c", "expected": "0.5", "answer": "1/2", "tolerance": 0},
        {"id": "d", "expected": "p*(1-p)", "answer": "p - p^2", "vars": {"p": "(0, 1)"}},
        {"id": "e", "expected": "f(x)", "answer": "g(x)", "funcs": ["f", "g"]},
        {"id": "f", "expected": "x", "answer": "9^9^9^9"},
        {"id": "g", "expected": 3, "answer": "3"},
        {"id": "h", "expected": "x", "answer": "x", "vars": {"x": "nowhere"}},
    ]
    source = "\n".join(item if isinstance(item, str) else json.dumps(item) for item in lines)
    out = io.StringIO()
    assert run_batch(io.StringIO(source + "\n"), out) == 0
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["id"] for r in results] == ["a", None, "c", "d", "e", "f", "g", "h"]
    assert [r["verdict"] for r in results] == [
        "correct",
        "invalid",
        "correct",
        "correct",
        "incorrect",
        "invalid",
        "invalid",
        "invalid",
    ]
    assert all(set(r) == {"id", "verdict", "method", "message", "ms"} for r in results)
    assert "line 2" in results[1]["message"]


@pytest.mark.parametrize(
    "funcs",
    [["sigma=sigmoid"], [" sigma = sigmoid "], {"sigma": "sigmoid"}],
)
def test_batch_reads_funcs_as_the_command_line_does(funcs, capsys) -> None:
    """``"funcs": ["sigma=sigmoid"]`` is an alias in a batch line exactly as ``--func
    sigma=sigmoid`` is on the command line: one reader for both paths."""
    expected, answer = "sigma(x)*(1 - sigma(x))", "sigmoid(x) - sigmoid(x)^2"
    assert main(["check", expected, answer, "--func", "sigma=sigmoid", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    line = {"id": 1, "expected": expected, "answer": answer, "funcs": funcs}
    out = io.StringIO()
    run_batch(io.StringIO(json.dumps(line) + "\n"), out)
    batch = json.loads(out.getvalue())
    assert (
        (batch["verdict"], batch["method"])
        == (one["verdict"], one["method"])
        == (
            "correct",
            one["method"],
        )
    )


@pytest.mark.parametrize("funcs", [[3], "sigma=sigmoid", [["f"]]])
def test_batch_refuses_funcs_it_cannot_read(funcs) -> None:
    out = io.StringIO()
    line = {"id": 1, "expected": "x", "answer": "x", "funcs": funcs}
    run_batch(io.StringIO(json.dumps(line) + "\n"), out)
    result = json.loads(out.getvalue())
    assert result["verdict"] == "invalid"
    assert "funcs" in result["message"]


def test_console_script_runs_in_a_fresh_process() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "recall.cli",
            "check",
            "sigmoid(x)*(1-sigmoid(x))",
            "sigmoid(x) - sigmoid(x)^2",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "correct" in done.stdout


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("notaurl", "is not a database URL"),
        ("sqlite:////nonexistent-folder-for-recall/x.db", "does not exist"),
    ],
)
def test_a_wrong_database_url_is_refused_before_the_tui_opens(url, fragment, tmp_path) -> None:
    """Bare ``recall`` with a bad --db says what is wrong and exits non-zero: no screen."""
    import os

    env = {**os.environ, "RECALL_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "recall.cli", "--db", url],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2
    assert fragment in done.stderr
