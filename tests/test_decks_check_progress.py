"""``recall decks check`` tells a terminal what it is doing (it reads for half a minute over the
built-in decks) and tells a pipe nothing beyond its result."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from tests.fault_helpers import Terminal, recall_command, recall_env, run_recall

DECK = """\
    [deck]
    id = "{id}"
    name = "Deck {id}"

    [[card]]
    id = "one"
    kind = "cloze"
    text = "LayerNorm normalises over the {{{{}}}} dimension."
    accept = ["feature"]
    """


def _decks(folder: Path) -> list[Path]:
    folder.mkdir()
    paths = []
    for index, name in enumerate(["first.toml", "odd\x1b[2Jname.toml"]):
        path = folder / name
        path.write_text(textwrap.dedent(DECK.format(id=f"deck-{index}")), encoding="utf-8")
        paths.append(path)
    return paths


def test_a_terminal_sees_progress_deck_by_deck(tmp_path: Path) -> None:
    paths = _decks(tmp_path / "decks")
    terminal = Terminal(
        [*recall_command(), "decks", "check", *map(str, paths)], recall_env(tmp_path / "home")
    )
    try:
        assert terminal.wait_exit(120) == 0
        terminal.drain(0.5)
    finally:
        terminal.close()
    shown = terminal.screen.decode("utf-8", "replace")
    assert "Checking deck 1/2: deck-0" in shown and "Checking deck 2/2: deck-1" in shown
    assert "first.toml…" in shown and "odd␛[2Jname.toml…" in shown  # the file name made inert
    # the only controls written: the status line's return and erase-line, and line ends
    assert set(re.findall(r"\x1b\[[0-9;]*[A-Za-z]", shown)) == {"\x1b[K"}
    assert "2 decks checked: 0 giveaways to fix" in shown


def test_a_pipe_sees_only_the_result(tmp_path: Path) -> None:
    paths = _decks(tmp_path / "decks")
    done = run_recall(["decks", "check", *map(str, paths)], tmp_path / "home")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "2 decks checked: 0 giveaways to fix; 0 pairs of cards answering each other"
    ]
    assert "\r" not in done.stderr and "\x1b" not in done.stderr
