"""Fault suite, the command line's edges (issue 10, item 9; CSV export from item 11).

Each case is ``recall`` in a child process that meets a broken environment: it must print one
clear line, exit non-zero, leave no half-written file, and never show a traceback.
"""

from __future__ import annotations

import csv
import io
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fault_helpers import recall_command, recall_env, run_recall

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX limits and pipes")


def _one_clear_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode != 0
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("recall: "), done.stderr
    return lines[0]


def _small_disk() -> None:
    """The child may write files of at most 200 bytes: a full disk, as writes see it."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))


def test_decks_new_on_a_full_disk_leaves_no_file(tmp_path: Path) -> None:
    home = tmp_path / "home"
    done = subprocess.run(
        [*recall_command(), "decks", "new", "Full disk"],
        env=recall_env(home),
        capture_output=True,
        text=True,
        preexec_fn=_small_disk,
        timeout=60,
    )
    line = _one_clear_line(done)
    assert "full-disk.toml" in line
    assert list((home / "decks").iterdir()) == []  # no 0-byte deck, no temporary file


def test_decks_export_on_a_full_disk_leaves_no_file(tmp_path: Path) -> None:
    out = tmp_path / "losses.csv"
    done = subprocess.run(
        [*recall_command(), "decks", "export", "losses", "--format", "csv", "-o", str(out)],
        env=recall_env(tmp_path / "home"),
        capture_output=True,
        text=True,
        preexec_fn=_small_disk,
        timeout=120,
    )
    assert "losses.csv" in _one_clear_line(done)
    assert list(tmp_path.glob("losses.csv*")) == []


def test_a_recall_home_that_is_a_file(tmp_path: Path) -> None:
    home = tmp_path / "not-a-folder"
    home.write_text("")
    for args in (["decks", "new", "Mine"], ["stats"]):
        line = _one_clear_line(run_recall(args, home))
        assert "Not a directory" in line or "not a directory" in line.lower()


def test_a_recall_home_that_cannot_be_created(tmp_path: Path) -> None:
    """/sys refuses new folders even to root: what a read-only parent looks like."""
    home = Path("/sys/recall-fault-home")
    if not Path("/sys").is_dir():
        pytest.skip("no /sys")
    for args in (["decks", "new", "Mine"], ["stats"]):
        line = _one_clear_line(run_recall(args, home))
        assert "/sys/recall-fault-home" in line


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("sqlite:///{tmp}/x.db?timeout=abc", "?timeout=abc"),
        ("sqlite:///{tmp}/x%00y.db", "contains a NUL byte"),
        ("sqlite:///{tmp}/" + "n" * 300 + ".db", "a name of 303 bytes"),
        ("sqlite:///{tmp}/x.db?timeout=-1", "is not a number of seconds"),
        ("postgresql+psycopg://u@127.0.0.1:1/db?connect_timeout=soon", "?connect_timeout=soon"),
        ("sqlite:///{tmp}/missing/x.db", "does not exist"),
    ],
)
def test_a_database_url_that_cannot_work(tmp_path: Path, url: str, says: str) -> None:
    done = run_recall(["stats"], tmp_path / "home", RECALL_DB=url.format(tmp=tmp_path))
    assert done.returncode == 2
    assert says in _one_clear_line(done)


def test_output_closed_early_is_one_line_and_a_non_zero_exit(tmp_path: Path) -> None:
    """``recall decks list | head -1``: the reader is gone before recall writes."""
    reader, writer = os.pipe()
    os.close(reader)  # the reader has already gone
    done = subprocess.run(
        [*recall_command(), "decks", "list"],
        env=recall_env(tmp_path / "home"),
        stdout=writer,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
    )
    os.close(writer)
    assert done.returncode == 141
    assert done.stderr == "recall: the output was closed before everything was written\n"


def test_csv_export_never_hands_a_spreadsheet_a_formula(tmp_path: Path) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "cells.toml").write_text(
        '[deck]\nid = "cells"\nname = "Cells"\n'
        '[[card]]\nid = "eq"\nkind = "fact"\nprompt = "=HYPERLINK(\\"http://x\\")"\nvalue = -3\n'
        '[[card]]\nid = "at"\nkind = "fact"\nprompt = "@SUM(A1)"\nvalue = 2\n'
        '[[card]]\nid = "plus"\nkind = "fact"\nprompt = "+1+1"\nvalue = 2\n'
        '[[card]]\nid = "minus"\nkind = "formula"\nprompt = "-log p?"\nanswer = "-log(p)"\n'
        '[card.symbols]\np = "(0, 1)"\n'
    )
    home = tmp_path / "home"
    out = tmp_path / "cells.csv"
    done = run_recall(
        ["--decks", str(folder), "decks", "export", "cells", "--format", "csv", "-o", str(out)],
        home,
    )
    assert done.returncode == 0, done.stderr
    rows = [r for r in csv.reader(io.StringIO(out.read_text())) if r and not r[0].startswith("#")]
    cells = [cell for row in rows for cell in row]
    assert cells, out.read_text()
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert '\'=HYPERLINK("http://x")' in cells and "'-log(p)" in cells
    # and recall reads its own export back as it was
    imported = run_recall(
        ["decks", "import", str(out), "--id", "back", "-o", str(tmp_path / "b.toml")], home
    )
    assert imported.returncode == 0, imported.stderr
    text = (tmp_path / "b.toml").read_text()
    assert "=HYPERLINK" in text and "'=HYPERLINK" not in text
