"""Every key of the app, as the help screen lists it: built from the screens' ``BINDINGS`` and
the app's current keymap, so it can never fall out of date with the keys that actually work.

This module sits above the screens (it names each of them) and below the app (which passes
itself in), so no screen imports another screen or the app to list the keys.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rich.table import Table
from rich.text import Text
from textual.binding import Binding

from recall.wording import key_name


def binding_sections(app: type) -> list[tuple[str, type]]:
    """The places keys are bound, in the order the help lists them (``app``: the app's class,
    whose keys work everywhere)."""
    from recall.tui.screens.decks import CardForm, DecksScreen
    from recall.tui.screens.dialogs import ConfirmDialog, PauseDialog, SessionDialog
    from recall.tui.screens.drill import DrillScreen
    from recall.tui.screens.home import HomeScreen
    from recall.tui.screens.stats import StatsScreen
    from recall.tui.screens.summary import SummaryScreen
    from recall.tui.screens.today_dialogs import EmptyOfferDialog, ExamPlanDialog, LearnMoreDialog

    return [
        ("Everywhere", app),
        ("Home", HomeScreen),
        ("Drill", DrillScreen),
        ("Paused", PauseDialog),
        ("Summary", SummaryScreen),
        ("Stats", StatsScreen),
        ("Decks", DecksScreen),
        ("Card form", CardForm),
        ("New session", SessionDialog),
        ("Asked to confirm", ConfirmDialog),
        ("Learn more today", LearnMoreDialog),
        ("Nothing left today", EmptyOfferDialog),
        ("Exam plan", ExamPlanDialog),
    ]


def bindings_of(owner: type) -> Iterable[Binding]:
    for item in getattr(owner, "BINDINGS", []):
        if isinstance(item, Binding):
            yield item
        else:
            yield Binding(*item)


def binding_ids(app: type) -> frozenset[str]:
    """Every id a ``[keys]`` override can name: the ids of the bindings the help lists, plus
    the help's own close keys (in force while it is open, so not listed in it), so the keys
    that can be remapped and the keys that exist are one list (``app``: the app's class)."""
    from recall.tui.screens.help import HelpScreen

    owners = [owner for _title, owner in binding_sections(app)] + [HelpScreen]
    return frozenset(binding.id for owner in owners for binding in bindings_of(owner) if binding.id)


def usable_keymap(keys: Mapping[str, str], app: type) -> tuple[dict[str, str], list[str]]:
    """The overrides of ``keys`` that name a binding of ``app``, and a line for each that does
    not (Textual would drop those silently, leaving the learner wondering why a key is dead)."""
    from recall.config import unknown_action_problem

    known = binding_ids(app)
    kept: dict[str, str] = {}
    ignored: list[str] = []
    for action, key in keys.items():
        problem = unknown_action_problem(action, known)
        if problem:
            ignored.append(problem)
        else:
            kept[action] = key
    return kept, ignored


def key_label(keys: str) -> str:
    """``question_mark,f1`` → ``? / F1``."""
    return " / ".join(key_name(key) for key in keys.split(","))


def keys_table(keymap: Mapping[str, str], app: type, *, browser: bool = False) -> Table:
    """All bindings as a table: section, keys, what they do, binding id (``browser``: the app
    is drawn in a browser by ``recall serve``, whose alternatives it names)."""
    table = Table(expand=True, box=None, padding=(0, 1), show_header=True)
    table.add_column("keys", style="bold", no_wrap=True)
    table.add_column("does")
    table.add_column(Text("id: remap in config [keys]"), style="dim", no_wrap=True)
    for title, owner in binding_sections(app):
        table.add_row(Text(title, style="bold underline"), "", "")
        for binding in bindings_of(owner):
            keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
            does = binding.tooltip or binding.description or binding.action
            table.add_row(key_label(keys), does, binding.id or "")
    table.add_row(Text("Answer box", style="bold underline"), "", "")
    table.add_row("Enter", "check the answer", "")
    table.add_row("F1", "these keys (? is a character while you type)", "")
    word = "Alt-W" if browser else "Ctrl-W"  # a browser closes the tab on Ctrl-W
    table.add_row(f"Ctrl-U / {word}", "clear the box / delete a word", "")
    return table
