"""Fault suite, the TUI's process lifecycle (issue 10, items 1, 2 and 6), in real terminals.

* Ctrl-C while the decks are still loading, then the terminal closes (tmux, exactly as the issue
  reports it): the process must be gone, not spinning on the dead terminal.
* A grade that never returns (a thread stuck in C code cannot be interrupted): Ctrl-Q, Ctrl-C and
  a closed terminal must each still end the process.
* A database that is not recall's: the app says why and the *process* exits 2.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.fault_helpers import Terminal, process_alive, recall_command, recall_env

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty"),
    pytest.mark.slow,
]


def _wait_gone(pid: int, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while process_alive(pid) and time.monotonic() < end:
        time.sleep(0.05)
    return not process_alive(pid)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
@pytest.mark.parametrize("delay", [0.3, 1.0])
def test_ctrl_c_while_loading_then_a_closed_terminal_ends_the_process(
    tmp_path: Path, delay: float
) -> None:
    """The issue's reproduction, step for step: start, Ctrl-C within the first second, kill the
    terminal (SIGHUP and SIGCONT reach the app), then the process must not remain."""
    home, pidfile = tmp_path / "home", tmp_path / "pid"
    socket = f"recall-fault-{os.getpid()}-{int(delay * 10)}"
    tmux = ["tmux", "-L", socket]
    command = (
        f"echo $$ > {shlex.quote(str(pidfile))}; "
        f"RECALL_HOME={shlex.quote(str(home))} exec {shlex.join(recall_command())}"
    )
    env = recall_env(home)
    subprocess.run(
        [*tmux, "new-session", "-d", "-s", "t", "-x", "100", "-y", "30", command],
        check=True,
        env=env,
    )
    pid = 0
    try:
        time.sleep(delay)
        subprocess.run([*tmux, "send-keys", "-t", "t", "C-c"], check=False)
        time.sleep(0.5)
        pid = int(pidfile.read_text())
        subprocess.run([*tmux, "kill-session", "-t", "t"], check=False)
        assert _wait_gone(pid, 15), "recall outlived its terminal"
    finally:
        subprocess.run([*tmux, "kill-server"], check=False, capture_output=True)
        if pid and process_alive(pid):
            os.kill(pid, signal.SIGKILL)


_STUCK_GRADE = """
import sys, time
from pathlib import Path
from recall.tui import drill_run

def stuck_grade(self, card, text, hinted=False):
    Path(sys.argv[1]).touch()
    time.sleep(3600)  # like SymPy deep in C code: nothing can interrupt this thread

assert hasattr(drill_run.DrillRun, "grade")
drill_run.DrillRun.grade = stuck_grade
from recall.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("leave", ["ctrl-q", "ctrl-c", "hangup"])
def test_quitting_ends_the_process_while_a_grade_is_stuck(tmp_path: Path, leave: str) -> None:
    marker = tmp_path / "grading"
    terminal = Terminal(
        [sys.executable, "-c", _STUCK_GRADE, str(marker), "drill", "--cards", "2"],
        recall_env(tmp_path / "home"),
    )
    try:
        # Answer until the (stuck) grade has started: the session opens once the decks load.
        assert terminal.wait_for(
            lambda: marker.exists() or terminal.send(b"x\r") or False, seconds=90
        ), "the drill session never graded an answer"
        terminal.drain(0.3)
        if leave == "hangup":
            os.killpg(terminal.process.pid, signal.SIGHUP)
        else:
            # Mid-session Ctrl-C asks before quitting; pressed twice it quits at once.
            terminal.send(b"\x11" if leave == "ctrl-q" else b"\x03\x03")
        status = terminal.wait_exit(15)
        assert status is not None, f"{leave} did not end the process while grading was stuck"
        assert status == 0
    finally:
        terminal.close()


def test_a_foreign_database_makes_the_process_exit_2(tmp_path: Path) -> None:
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as db:
        db.execute("create table invoices (id integer primary key, total real)")
    terminal = Terminal(
        [*recall_command(), "--db", f"sqlite:///{foreign}"], recall_env(tmp_path / "home")
    )
    try:
        status = terminal.wait_exit(90)
        assert status == 2, terminal.screen[-2000:]
        said = b"".join(terminal.drain(0.2).split())  # the message wraps at the terminal's width
        assert b"notarecalldatabase" in said
    finally:
        terminal.close()
