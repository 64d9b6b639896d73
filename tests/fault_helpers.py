"""Helpers for the fault suite (``tests/test_fault_*.py``): run ``recall`` the way a learner does.

Every fault is reproduced through the real entry point: the installed console script (or
``python -m recall.cli`` where it is missing) in a child process, on a pty for the TUI. Nothing
here patches recall itself; a test that needs a misbehaving part (a grade that never returns)
says so in its own wrapper.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path


def recall_command() -> list[str]:
    """The ``recall`` console script next to this interpreter, else ``python -m recall.cli``."""
    script = Path(sys.executable).with_name("recall")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "recall.cli"]


def recall_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a learner whose data directory is ``home`` (nothing else leaks in)."""
    env = {k: v for k, v in os.environ.items() if k not in ("RECALL_DB", "RECALL_DECKS")}
    env.update(RECALL_HOME=str(home), TERM="xterm-256color", **extra)
    return env


def run_recall(
    args: Sequence[str],
    home: Path,
    *,
    input: bytes | None = None,
    timeout: float = 60,
    **extra_env: str,
) -> subprocess.CompletedProcess[str]:
    """Run ``recall ARGS`` to the end and capture its output as text (errors replaced)."""
    done = subprocess.run(
        [*recall_command(), *args],
        input=input,
        capture_output=True,
        env=recall_env(home, **extra_env),
        timeout=timeout,
    )
    return subprocess.CompletedProcess(
        done.args,
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


class Terminal:
    """A child process on a pseudo-terminal, as a learner's terminal window runs it."""

    def __init__(self, argv: Sequence[str], env: dict[str, str]) -> None:
        import pty

        self.leader, follower = pty.openpty()
        self.process = subprocess.Popen(
            list(argv),
            stdin=follower,
            stdout=follower,
            stderr=follower,
            env=env,
            start_new_session=True,
        )
        os.close(follower)
        self.screen = b""

    def drain(self, seconds: float) -> bytes:
        """Read what the app draws for a while (a full pty would block it)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.leader], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(self.leader, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                self.screen += chunk
        return self.screen

    def send(self, data: bytes) -> None:
        os.write(self.leader, data)

    def wait_for(self, condition: object, seconds: float = 60) -> bool:
        """Drain until ``condition()`` holds (or the time runs out); returns whether it did."""
        assert callable(condition)
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if condition():
                return True
            self.drain(0.1)
        return bool(condition())

    def wait_exit(self, seconds: float) -> int | None:
        """The exit status once the process has ended, or None if it is still running."""
        end = time.monotonic() + seconds
        while self.process.poll() is None and time.monotonic() < end:
            self.drain(0.05)
        return self.process.poll()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        try:
            os.close(self.leader)
        except OSError:
            pass


def process_alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
