"""Two real TUI windows on one database never answer one card (issue 17, item 6).

Two ``recall drill`` processes run side by side in tmux on one store (a SQLite file, and
PostgreSQL when ``RECALL_TEST_PG_URL`` is set), both started (queues built) before either
answers, over a small deck of fact cards whose answers the test reads off the screen. They answer
alternately, 50 answers in all, mostly Again so that cards keep coming back. Then:

* the two windows never showed the same card at the same moment (read off both screens), and
* through the store's review log: a card answered in one window is answered in the other only
  once it is due again (never seconds later, ahead of its step), and each card is introduced
  (answered while new) once.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from store_fixtures import db_url  # noqa: F401 - the fixture: a fresh database per backend

from recall.store import open_store

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
]

CARDS = 10
ANSWERS = 50
WAIT = 60.0  # seconds one screen change may take before the test fails (a loaded machine)
CARD_LINE = re.compile(r"Card (\d+): type (\d+)\.")
DONE = re.compile(r"(\d+) done")


def _deck() -> str:
    lines = ["[deck]", 'id = "pairs"', 'name = "Pairs"', ""]
    for i in range(CARDS):
        value = 100 + 7 * i
        lines += ["[[card]]", f'id = "c{i}"', 'kind = "fact"']
        lines += [f'prompt = "Card {i}: type {value}."', f"value = {value}", ""]
    return "\n".join(lines)


class Tmux:
    """A private tmux server (its own socket), killed at the end."""

    def __init__(self) -> None:
        self.base = ["tmux", "-L", f"recall-two-{uuid.uuid4().hex[:8]}"]

    def __call__(self, *args: str) -> str:
        done = subprocess.run(
            [*self.base, *args], capture_output=True, text=True, timeout=30, check=False
        )
        return done.stdout

    def screen(self, window: str) -> str:
        return self("capture-pane", "-p", "-t", window)

    def kill(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=30, check=False)


def _asking(screen: str) -> tuple[int, int, int] | None:
    """(done, card number, value) when the window asks a card with an empty answer box."""
    card = CARD_LINE.search(screen)
    done = DONE.search(screen)
    if card is None or done is None or "Enter accepts" in screen or "your answer" not in screen:
        return None
    return int(done.group(1)), int(card.group(1)), int(card.group(2))


def _wait(tmux: Tmux, window: str, test: object, what: str) -> str:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        screen = tmux.screen(window)
        if test(screen):  # type: ignore[operator]
            return screen
        time.sleep(0.05)
    raise AssertionError(f"window {window}: no {what} within {WAIT:.0f} s:\n{tmux.screen(window)}")


def test_two_tuis_never_answer_one_card(db_url: str, tmp_path: Path) -> None:  # noqa: F811
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "pairs.toml").write_text(_deck(), encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    program = [sys.executable, "-c", "from recall.cli import main; raise SystemExit(main())"]
    command = [
        "env",
        f"RECALL_HOME={home}",
        *program,
        "--db",
        db_url,
        "--decks",
        str(decks),
        "drill",
        "--deck",
        "pairs",
        "--cards",
        "500",
    ]
    tmux = Tmux()
    try:
        for window in ("a", "b"):
            tmux("new-session", "-d", "-s", window, "-x", "100", "-y", "30", shlex.join(command))
            # Each window's queue is built before the other answers anything.
            _wait(tmux, window, _asking, "first card")
        answers = 0
        turn = 0
        while answers < ANSWERS:
            window, other = ("a", "b") if turn % 2 == 0 else ("b", "a")
            turn += 1
            screen = _wait(tmux, window, _asking, "card to answer")
            asked = _asking(screen)
            assert asked is not None
            done, number, value = asked
            elsewhere = _asking(tmux.screen(other))
            assert elsewhere is None or elsewhere[1] != number, (
                f"card {number} on screen in both windows"
            )
            tmux("send-keys", "-t", window, "-l", str(value))
            tmux("send-keys", "-t", window, "Enter")
            _wait(tmux, window, lambda s: "Enter accepts" in s, "verdict")
            # Mostly Again (the card comes back in a minute), every fourth Good.
            tmux("send-keys", "-t", window, "Enter" if answers % 4 == 3 else "1")
            _wait(
                tmux,
                window,
                lambda s, done=done: f"{done + 1} done" in s and "Enter accepts" not in s,
                "next card",
            )
            answers += 1
    finally:
        tmux.kill()

    store = open_store(db_url)
    try:
        log = sorted(store.reviews(), key=lambda entry: (entry.reviewed_at, entry.id))
    finally:
        store.close()
    assert len(log) == ANSWERS
    assert len({entry.session_id for entry in log}) == 2
    introduced: dict[str, int] = {}
    previous: dict[str, object] = {}
    for entry in log:
        assert entry.before is not None and entry.after is not None
        if entry.before.is_new:
            introduced[entry.card_key] = introduced.get(entry.card_key, 0) + 1
        last = previous.get(entry.card_key)
        if last is not None and last.session_id != entry.session_id:  # type: ignore[attr-defined]
            due = last.after.due  # type: ignore[attr-defined]
            assert due is not None and entry.reviewed_at >= due, (
                f"{entry.card_key} answered in session {entry.session_id} at "
                f"{entry.reviewed_at:%H:%M:%S}, {(due - entry.reviewed_at).total_seconds():.0f} s "
                f"before due, after session {last.session_id} answered it"  # type: ignore[attr-defined]
            )
        previous[entry.card_key] = entry
    assert all(count == 1 for count in introduced.values()), introduced


def test_the_deck_is_what_the_screen_parser_reads() -> None:
    """The parser the tmux test relies on reads the asking screen, not the verdict screen."""
    asking = " 3 done · new card\n Card 4: type 128.\n ▊  your answer ▎\n"
    assert _asking(asking) == (3, 4, 128)
    assert _asking(asking + "Enter accepts") is None
    assert os.path.basename(__file__).startswith("test_")
