"""In a real (pseudo-)terminal: Ctrl-C quits cleanly, and so does closing the terminal (SIGHUP).

The app runs as ``recall`` in a child process on a pty with a throwaway data directory; the test
waits for the database to exist (the home screen has loaded), then sends the key or the signal
and expects a clean exit status, not a traceback.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")


def _start(home: Path) -> tuple[subprocess.Popen[bytes], int]:
    import pty

    leader, follower = pty.openpty()
    env = {**os.environ, "RECALL_HOME": str(home), "TERM": "xterm-256color"}
    for name in ("RECALL_DB", "RECALL_DECKS"):
        env.pop(name, None)
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; from recall.cli import main; sys.exit(main([]))"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        start_new_session=True,
    )
    os.close(follower)
    return child, leader


def _drain(leader: int, seconds: float) -> bytes:
    """Read what the app draws for a while (a full pty would block it)."""
    import select

    out = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([leader], [], [], 0.1)
        if ready:
            try:
                out += os.read(leader, 65536)
            except OSError:
                break
    return out


def _wait_loaded(home: Path, leader: int) -> None:
    deadline = time.monotonic() + 60
    while not (home / "recall.sqlite3").exists() and time.monotonic() < deadline:
        _drain(leader, 0.2)
    _drain(leader, 1.0)


@pytest.mark.slow
def test_ctrl_c_in_a_terminal_exits_cleanly(tmp_path: Path) -> None:
    child, leader = _start(tmp_path)
    try:
        _wait_loaded(tmp_path, leader)
        os.write(leader, b"\x03")  # Ctrl-C
        deadline = time.monotonic() + 30
        while child.poll() is None and time.monotonic() < deadline:
            _drain(leader, 0.2)
        assert child.returncode == 0
    finally:
        if child.poll() is None:
            child.kill()
        os.close(leader)


@pytest.mark.slow
def test_closing_the_terminal_exits_cleanly(tmp_path: Path) -> None:
    child, leader = _start(tmp_path)
    try:
        _wait_loaded(tmp_path, leader)
        os.killpg(child.pid, signal.SIGHUP)
        deadline = time.monotonic() + 30
        while child.poll() is None and time.monotonic() < deadline:
            _drain(leader, 0.2)
        assert child.returncode == 0
    finally:
        if child.poll() is None:
            child.kill()
        os.close(leader)
