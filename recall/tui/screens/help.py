"""Help: every key of every screen, with the binding id to remap it in the config file.

The table is built by :func:`recall.tui.keys.keys_table` and handed in by the app, so this
screen knows no other screen.
"""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static


class HelpScreen(ModalScreen[None]):
    """Every key, scrollable; Esc, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="help.close"),
    ]

    def __init__(self, keys: RenderableType, under: Screen[object] | None = None) -> None:
        super().__init__()
        self.keys = keys
        self.under = under

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box", classes="dialog"):
            yield Static("Keys", classes="dialog-title")
            yield Static(self.keys, id="help-keys")
            yield Static(
                "Ctrl-P opens the command palette: every action by name. "
                "Remap a key by its id: recall config keys.ID KEY (e.g. keys.drill.hint f3).",
                classes="dim",
                markup=False,
            )

    def action_close(self) -> None:
        self.dismiss()
