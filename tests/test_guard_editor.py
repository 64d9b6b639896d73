"""Ctrl-E starts the learner's editor on a deck file whose name anyone chose (issue 17, item 4).

A deck file named ``-c!id>PWNED;q.toml`` in the decks folder, loaded the way ``--decks .``
loads it (a relative path), must reach the editor as a file, never as an option: with a real
``vi`` running the argv recall builds, no ``PWNED`` file may appear, and vi must have opened that
very file at the card's line.
"""

from __future__ import annotations

import os
import pty
import select
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from recall.cards.loader import load_decks
from recall.tui.editor import editor_command

HOSTILE_NAME = "-c!id>PWNED;q.toml"

DECK = """\
[deck]
id = "hostile"
name = "Hostile"

[[card]]
id = "four"
kind = "fact"
prompt = "Two plus two."
value = 4
"""

needs_vi = pytest.mark.skipif(shutil.which("vi") is None, reason="needs a real vi")


def _hostile_card_path(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, int]:
    """The card's path and line as the loader gives them for ``--decks .`` run in ``folder``."""
    (folder / HOSTILE_NAME).write_text(DECK, encoding="utf-8")
    monkeypatch.chdir(folder)
    result = load_decks(["."])
    assert result.ok, result.errors
    (card,) = result.cards
    assert os.path.basename(card.path) == HOSTILE_NAME
    return card.path, card.line


@needs_vi
def test_vi_opens_a_hostile_deck_name_as_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """vi in ex mode with the argv recall builds: runs no shell, opens the file at the line."""
    decks = tmp_path / "decks"
    decks.mkdir()
    path, line = _hostile_card_path(decks, monkeypatch)
    report = tmp_path / "opened"
    # The learner's $EDITOR may carry options; these make vi report what it opened and quit.
    opened = f"autocmd VimEnter * call writefile([expand('%:p'), line('.')], '{report}')"
    monkeypatch.setenv("VISUAL", f'vi -N -u NONE -i NONE -es --cmd "{opened}"')
    command = editor_command(path, line)
    subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, timeout=30, check=False)
    assert not (decks / "PWNED").exists(), command
    assert not (tmp_path / "PWNED").exists(), command
    assert line > 1
    assert report.read_text(encoding="utf-8").splitlines() == [str(decks / HOSTILE_NAME), str(line)]


@needs_vi
def test_plain_vi_in_a_terminal_runs_no_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default editor (``vi``, no options) on a pty, quit with ``:qa!`` as a person would."""
    decks = tmp_path / "decks"
    decks.mkdir()
    path, line = _hostile_card_path(decks, monkeypatch)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    command = editor_command(path, line)
    assert command[0] == "vi"
    env = {**os.environ, "HOME": str(tmp_path), "TERM": "xterm", "VIMINIT": "set nocp"}
    main, child = pty.openpty()
    process = subprocess.Popen(
        command, stdin=child, stdout=child, stderr=child, env=env, start_new_session=True
    )
    os.close(child)
    screen = b""
    try:
        deadline = time.monotonic() + 20
        while process.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.2)
            if ready:
                try:
                    screen += os.read(main, 65536)
                except OSError:
                    break
            if b"Two plus two" in screen or len(screen) > 200:
                os.write(main, b"\x1b:qa!\r")
        assert process.wait(timeout=5) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(main)
    assert b"Two plus two" in screen, screen[-500:]
    assert not (decks / "PWNED").exists(), command
    assert not (tmp_path / "PWNED").exists(), command


@pytest.mark.parametrize(
    ("editor", "expected"),
    [
        ("vi", ["vi", "+3", "--", "/d/-x.toml"]),
        ("/usr/bin/vim.basic -N", ["/usr/bin/vim.basic", "-N", "+3", "--", "/d/-x.toml"]),
        ("nvim", ["nvim", "+3", "--", "/d/-x.toml"]),
        ("nano -w", ["nano", "-w", "+3", "--", "/d/-x.toml"]),
        ("emacs -nw", ["emacs", "-nw", "+3", "--", "/d/-x.toml"]),
        ("emacsclient -t", ["emacsclient", "-t", "+3", "--", "/d/-x.toml"]),
        ("hx", ["hx", "--", "/d/-x.toml:3"]),
        ("code --wait", ["code", "--wait", "--goto", "/d/-x.toml:3"]),
        ("micro", ["micro", "+3", "/d/-x.toml"]),
        ("'/opt/my editor/ed'", ["/opt/my editor/ed", "+3", "/d/-x.toml"]),
    ],
)
def test_each_editor_gets_the_path_where_files_go(
    editor: str, expected: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EDITOR", editor)
    monkeypatch.delenv("VISUAL", raising=False)
    assert editor_command("/d/-x.toml", 3) == expected


@pytest.mark.parametrize("name", ["-c!id>PWNED;q.toml", "+!id.toml", "--cmd=x.toml", "-"])
def test_a_relative_path_is_made_absolute(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the editor, the path handed over starts with ``/``: never an option or
    ``+command``, and without a line there is no ``+0``."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("VISUAL", raising=False)
    for editor in ("vi", "micro", "hx", "code", "someeditor"):
        monkeypatch.setenv("EDITOR", editor)
        for line in (0, 12):
            command = editor_command(name, line)
            path_arg = command[-1].removesuffix(f":{line}")
            assert path_arg == str(tmp_path / name)
            assert all(not arg.startswith("+0") for arg in command)
