"""Fault suite, the settings file (issue 10, item 10, and the config limits of item 4).

A value that would make ``config.toml`` unreadable is refused when it is written; a file that
is broken anyway (by hand, by another tool) is reported with its line, and the app still opens
on the defaults.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.fault_helpers import Terminal, recall_command, recall_env, run_recall


@pytest.mark.parametrize(
    "binding", ["f3\x7f", "f3\x1b", "ctrl+\x01", "f3 x", "ctrl+", "hyperx+a", ",", "a" * 101]
)
def test_a_bad_key_binding_is_refused_and_nothing_is_written(tmp_path: Path, binding: str) -> None:
    home = tmp_path / "home"
    done = run_recall(["config", "keys.hint", binding], home)
    assert done.returncode == 2
    assert "nothing was changed" in done.stderr and "Traceback" not in done.stderr
    assert not (home / "config.toml").exists()
    assert run_recall(["config"], home).returncode == 0  # every command still works


def test_good_bindings_are_kept(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for binding in ("f3", "ctrl+s", "enter,s", "?", "ctrl+shift+a"):
        done = run_recall(["config", "keys.drill.hint", binding], home)
        assert done.returncode == 0, done.stderr
        assert run_recall(["config", "keys.drill.hint"], home).stdout.strip() == binding


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('theme = "dark"\n[keys]\n"drill.hint" = "f3\x7f"\n', "(at line 3, column 19)"),
        ('theme = "dark"\n[keys]\n"drill.hint" = "f3 x"\n', "config.toml:3: 'f3 x' in the bind"),
        ("theme = 'dark'\nnew_per_day = -4\n", "config.toml:2: new_per_day = -4 must be between"),
        ("a = " + "[" * 3000 + "]" * 3000 + "\n", "config.toml:1: arrays and tables are nested"),
        ("k" + ".k" * 20_000 + " = 1\n", "config.toml:1: a key has more than 4 dotted parts"),
    ],
)
def test_a_broken_config_file_is_reported_with_its_line(
    tmp_path: Path, text: str, says: str
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text(text, encoding="utf-8")
    done = run_recall(["config", "theme"], home)
    assert done.returncode == 2
    assert says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_a_huge_config_file_is_refused_unread(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    with open(home / "config.toml", "wb") as sparse:
        sparse.truncate(4 << 30)  # sparse: no disk used
    done = run_recall(["config", "theme"], home)
    assert done.returncode == 2
    assert "larger than 64 KiB, the limit for a config file" in done.stderr


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
def test_the_app_opens_on_defaults_whatever_the_config_file_holds(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text("a = " + "[" * 3000 + "]" * 3000 + "\n")
    terminal = Terminal(recall_command(), recall_env(home))
    try:
        assert terminal.wait_for(lambda: (home / "recall.sqlite3").exists(), 90)
        terminal.drain(1.0)
        terminal.send(b"\x03")
        assert terminal.wait_exit(30) == 0
    finally:
        terminal.close()
