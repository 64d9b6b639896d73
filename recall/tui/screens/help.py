"""Help: every key of every screen, with the binding id to remap it in the config file.

The list is built from the screens' ``BINDINGS`` and the app's current keymap, so it can never
fall out of date with the keys that actually work.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static


def binding_sections() -> list[tuple[str, type]]:
    """The places keys are bound, in the order the help lists them."""
    from recall.tui.app import RecallApp
    from recall.tui.screens.decks import CardForm, DecksScreen
    from recall.tui.screens.dialogs import PauseDialog, SessionDialog
    from recall.tui.screens.drill import DrillScreen
    from recall.tui.screens.home import HomeScreen
    from recall.tui.screens.stats import StatsScreen
    from recall.tui.screens.summary import SummaryScreen

    return [
        ("Everywhere", RecallApp),
        ("Home", HomeScreen),
        ("Drill", DrillScreen),
        ("Paused", PauseDialog),
        ("Summary", SummaryScreen),
        ("Stats", StatsScreen),
        ("Decks", DecksScreen),
        ("Card form", CardForm),
        ("New session", SessionDialog),
    ]


def bindings_of(owner: type) -> Iterable[Binding]:
    for item in getattr(owner, "BINDINGS", []):
        if isinstance(item, Binding):
            yield item
        else:
            yield Binding(*item)


def key_label(keys: str) -> str:
    """``question_mark,f1`` → ``? / F1``."""
    names = {"question_mark": "?", "space": "Space", "escape": "Esc", "enter": "Enter"}
    labels = []
    for key in keys.split(","):
        key = key.strip()
        label = names.get(key, key)
        if label.startswith("ctrl+"):
            label = "Ctrl-" + label[5:].upper()
        elif label.startswith("f") and label[1:].isdigit():
            label = label.upper()
        labels.append(label)
    return " / ".join(labels)


def keys_table(keymap: Mapping[str, str]) -> Table:
    """All bindings as a table: section, keys, what they do, binding id."""
    table = Table(expand=True, box=None, padding=(0, 1), show_header=True)
    table.add_column("keys", style="bold", no_wrap=True)
    table.add_column("does")
    table.add_column(Text("id: remap in config [keys]"), style="dim", no_wrap=True)
    for title, owner in binding_sections():
        table.add_row(Text(title, style="bold underline"), "", "")
        for binding in bindings_of(owner):
            keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
            table.add_row(key_label(keys), binding.description or binding.action, binding.id or "")
    table.add_row(Text("Answer box", style="bold underline"), "", "")
    table.add_row("Enter", "check the answer", "")
    table.add_row("F1", "these keys (? is a character while you type)", "")
    table.add_row("Ctrl-U / Ctrl-W", "clear the box / delete a word", "")
    return table


class HelpScreen(ModalScreen[None]):
    """Every key, scrollable; Esc, q or ? closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="help.close"),
    ]

    def __init__(self, under: Screen[object] | None = None) -> None:
        super().__init__()
        self.under = under

    def compose(self) -> ComposeResult:
        keymap = getattr(self.app, "_keymap", {})
        with VerticalScroll(id="help-box", classes="dialog"):
            yield Static("Keys", classes="dialog-title")
            yield Static(keys_table(keymap), id="help-keys")
            yield Static(
                "Ctrl-P opens the command palette: every action by name. "
                "Remap a key by its id: recall config keys.ID KEY (e.g. keys.drill.hint f3).",
                classes="dim",
                markup=False,
            )

    def action_close(self) -> None:
        self.dismiss()
