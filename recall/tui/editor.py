"""Open a deck file in the learner's own editor (``$VISUAL`` / ``$EDITOR``) at a line.

Both the drill screen (Ctrl-E, fix the card on screen) and the deck browser (x) do this; the
terminal is handed to the editor while the app is suspended, and given back when it exits.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App


def editor_command(path: str, line: int) -> list[str]:
    """``$VISUAL`` / ``$EDITOR`` (default ``vi``) with ``+LINE`` when the line is known."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    command = shlex.split(editor)
    if line:
        command.append(f"+{line}")
    command.append(path)
    return command


def edit_in_editor(app: App[Any], path: str, line: int) -> str:
    """Run the editor on ``path`` at ``line`` with the app suspended; returns the problem
    (empty when the editor ran: whatever it did to the file is the caller's to reload). In a
    browser (``recall serve``) the editor would open on the server: it is not run."""
    from recall.tui.browser import editor_refusal

    refusal = editor_refusal(path)
    if refusal:
        return refusal
    try:
        with app.suspend():
            subprocess.run(editor_command(path, line), check=False)
    except Exception as error:  # noqa: BLE001 - SuspendNotSupported, missing editor, ...
        return f"Could not open the editor: {error}"
    return ""
