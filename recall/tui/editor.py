"""Open a deck file in the learner's own editor (``$VISUAL`` / ``$EDITOR``) at a line.

Both the drill screen (Ctrl-E, fix the card on screen) and the deck browser (x) do this; the
terminal is handed to the editor while the app is suspended, and given back when it exits.

A deck file's name is text recall did not write: anyone who shares a decks folder chooses it. A
file named ``-c!id>PWNED;q.toml`` handed to vim where options go runs a shell command. So the
editor is started as a program (``$EDITOR`` split with :mod:`shlex`, never given to a shell), the
path is always made absolute (it starts with ``/``, so no editor reads it as an option or a
``+command``), and where the editor understands it an end-of-options marker ``--`` comes before
the path, with the ``+LINE`` that must precede it. Editors differ in how they take a line:

* vi, vim, nvim, nano, emacs, emacsclient, kak: ``+LINE -- PATH`` (getopt or their own parser
  end options at ``--``; vim and emacs read ``+LINE`` only before it).
* helix (``hx``): ``-- PATH:LINE`` (``+LINE`` is recent; ``PATH:LINE`` is understood by every
  release that has ``--``).
* VS Code (``code``, ``codium``): ``--goto PATH:LINE`` (``--`` is not an end-of-options marker
  there).
* micro and any editor not listed: ``+LINE PATH`` without ``--`` (Go's flag parsing stops at the
  first non-option, so micro would open a file named ``--``); the absolute path keeps it safe.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App

#: Editors that end their options at ``--`` and take ``+LINE`` before it.
_PLUS_LINE_THEN_DASHES = frozenset(
    {
        "vi",
        "vim",
        "vim.basic",
        "vim.tiny",
        "vim.nox",
        "vim.gtk3",
        "gvim",
        "view",
        "nvim",
        "nano",
        "rnano",
        "pico",
        "emacs",
        "emacsclient",
        "kak",
    }
)
_HELIX = frozenset({"hx", "helix"})
_VSCODE = frozenset({"code", "code-insiders", "codium", "code-oss"})


def _editor_name(program: str) -> str:
    """The editor's bare name: ``/usr/bin/vim.basic`` is ``vim.basic``, ``Code.exe`` is
    ``code``."""
    name = os.path.basename(program).lower()
    return name.removesuffix(".exe")


def editor_command(path: str, line: int) -> list[str]:
    """The argv that opens ``path`` at ``line`` (0: unknown) in ``$VISUAL`` / ``$EDITOR``
    (default ``vi``), built so that the path can never be read as an option or a command."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    command = shlex.split(editor) or ["vi"]
    # Absolute: starts with "/" (or a drive on Windows), never with "-" or "+".
    target = os.path.abspath(path)
    name = _editor_name(command[0])
    if name in _HELIX:
        return [*command, "--", f"{target}:{line}" if line else target]
    if name in _VSCODE:
        return [*command, "--goto", f"{target}:{line}"] if line else [*command, target]
    position = [f"+{line}"] if line else []
    if name in _PLUS_LINE_THEN_DASHES:
        return [*command, *position, "--", target]
    return [*command, *position, target]


def edit_in_editor(app: App[Any], path: str, line: int) -> str:
    """Run the editor on ``path`` at ``line`` with the app suspended; returns the problem
    (empty when the editor ran: whatever it did to the file is the caller's to reload). In a
    browser (``recall serve``) the editor would open on the server: it is not run."""
    from recall.tui.browser import editor_refusal

    refusal = editor_refusal()
    if refusal:
        return refusal
    try:
        command = editor_command(path, line)
        with app.suspend():
            subprocess.run(command, check=False)
    except Exception as error:  # noqa: BLE001 - SuspendNotSupported, missing editor, ...
        return f"Could not open the editor: {error}"
    return ""
