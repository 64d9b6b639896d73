"""Helpers for the ``recall serve`` tests: a learner's data directory whose first card is known,
``recall serve`` run as the learner runs it (a subprocess, port 0), and its child processes.

The data directory holds one custom deck of one card and a config that gives every built-in deck
a new-card limit of 0, so ``s`` on the home screen asks exactly that card.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from recall.paths import builtin_decks_dir

#: The one card the served learner is asked, and a right answer to it.
CARD_KEY = "served/square"
RIGHT_ANSWER = "x*x"

DECK = """\
[deck]
id = "served"
name = "Served"
description = "One card for the recall serve tests."
topic = "Test"

[[card]]
id = "square"
kind = "formula"
prompt = "Type x squared."
answer = "x^2"
[card.symbols]
x = { domain = "real", meaning = "a number" }
"""

URL = re.compile(r"(https?://\S+/\?token=\S+)")


def prepare_home(home: Path) -> Path:
    """A data directory whose ``s`` session asks :data:`CARD_KEY` first (and only)."""
    (home / "decks").mkdir(parents=True, exist_ok=True)
    (home / "decks" / "served.toml").write_text(DECK, encoding="utf-8")
    ids = sorted(
        tomllib.loads(path.read_text(encoding="utf-8"))["deck"]["id"]
        for path in builtin_decks_dir().glob("*.toml")
    )
    limits = "".join(f'"{deck}" = 0\n' for deck in ids)
    (home / "config.toml").write_text(f"[deck_new_limits]\n{limits}", encoding="utf-8")
    return home


@dataclass
class Served:
    """A running ``recall serve``: its process, the printed login URL, host and port."""

    process: subprocess.Popen[str]
    url: str

    @property
    def origin(self) -> str:
        return self.url.split("/?", 1)[0]

    @property
    def host(self) -> str:
        return self.origin.split("://", 1)[1]

    def children(self) -> list[int]:
        """Every process descended from the server (the app processes and their shells)."""
        return descendants(self.process.pid)


@contextmanager
def recall_serve(home: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[Served]:
    """Run ``recall serve --port 0 ARGS`` on ``home`` until the block ends; yields once the
    login URL is printed."""
    environment = {**os.environ, "RECALL_HOME": str(home), **(env or {})}
    process = subprocess.Popen(
        [sys.executable, "-m", "recall", "serve", "--port", "0", "--no-qr", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = URL.search(line)
        if not match:
            process.kill()
            _out, err = process.communicate(timeout=10)
            raise AssertionError(f"recall serve printed no URL: {line!r} {err!r}")
        yield Served(process, match.group(1))
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def descendants(pid: int) -> list[int]:
    """The live processes under ``pid`` (read from ``/proc``; Linux)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] == "Z":
            continue
        parents[int(entry.name)] = int(fields[1])
    found: list[int] = []
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, its_parent in parents.items():
            if its_parent == parent:
                found.append(child)
                frontier.append(child)
    return found


def environment_of(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    pairs = (item.split(b"=", 1) for item in raw.split(b"\0") if b"=" in item)
    return {key.decode(): value.decode(errors="replace") for key, value in pairs}


def wait_for(condition: object, timeout: float = 30.0, step: float = 0.1) -> bool:
    """Poll ``condition()`` until it is true or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(step)
    return bool(condition())  # type: ignore[operator]
