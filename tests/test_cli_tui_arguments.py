"""``recall`` with global options only opens the TUI without building the full argument parser
(which imports every command module): the short way reads exactly what the full parser reads,
and anything else (a command, help, an abbreviation, a missing value) is left to the full
parser, so its errors and help are unchanged."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from recall.cli import COMMAND_MODULES, GLOBAL_OPTIONS, build_parser, tui_arguments

ROOT = Path(__file__).resolve().parent.parent

OPENS_THE_TUI = [
    [],
    ["--db", "sqlite:///x.sqlite3"],
    ["--db=sqlite:///x.sqlite3"],
    ["--db="],
    ["--decks", "my decks", "--learner", "ann"],
    ["--learner=ann", "--db", "postgresql://h/recall", "--decks=d"],
    ["--db-password-file", "secret.txt", "--db", "postgresql://h/recall"],
    ["--db", "a", "--db", "b"],  # the last one wins, as argparse has it
    ["--decks", "a=b"],
]

LEFT_TO_THE_FULL_PARSER = [
    ["drill"],
    ["--db", "x", "today"],
    ["today", "--db", "x"],
    ["--help"],
    ["-h"],
    ["--version"],
    ["--de", "d"],  # an abbreviation: the full parser decides
    ["--db"],  # a missing value: the full parser's error
    ["--db", "--decks", "d"],
    ["--decks", "-d"],
    ["--unknown"],
    ["-"],
    ["--"],
]


@pytest.mark.parametrize("argv", OPENS_THE_TUI)
def test_global_options_alone_read_as_the_full_parser_reads_them(argv: list[str]) -> None:
    short = tui_arguments(argv)
    assert short is not None
    assert vars(short) == vars(build_parser().parse_args(argv))


@pytest.mark.parametrize("argv", LEFT_TO_THE_FULL_PARSER)
def test_anything_else_is_left_to_the_full_parser(argv: list[str]) -> None:
    assert tui_arguments(argv) is None


def test_every_global_option_of_the_full_parser_is_known() -> None:
    """An option added to the full parser's globals is one the short way knows (or the TUI
    would need the full parser for it)."""
    parser = build_parser()
    globals_ = {
        option
        for action in parser._actions  # noqa: SLF001 - the parser's own options
        for option in action.option_strings
        if option.startswith("--") and action.dest not in ("help", "version")
    }
    assert globals_ == set(GLOBAL_OPTIONS)


_OPEN_WITHOUT_RUNNING = r"""
import json, sys
import recall.tui.launch as launch
launch.run_app = lambda **kwargs: print(json.dumps(
    {"kwargs": sorted(kwargs), "modules": [m for m in sys.modules if m.startswith("recall.")]}
)) or 0
from recall.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_opening_the_tui_imports_no_command_module(tmp_path: Path) -> None:
    env = {**os.environ, "RECALL_HOME": str(tmp_path)}
    for name in ("RECALL_DB", "RECALL_DECKS", "RECALL_LEARNER"):
        env.pop(name, None)
    done = subprocess.run(
        [sys.executable, "-c", _OPEN_WITHOUT_RUNNING, "--decks", str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["kwargs"] == ["custom_decks", "db_url", "learner"]  # the TUI was opened
    assert [m for m in COMMAND_MODULES if m in report["modules"]] == []
