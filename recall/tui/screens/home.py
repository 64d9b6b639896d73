"""The home screen: the decks with what is due, today's streak, and one key to start.

It is the first thing painted, so it is built from cheap modules only and shows "loading" until
the app's load worker posts :class:`recall.tui.messages.HomeLoaded`.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Footer, Header, Sparkline, Static

from recall.session import Mode
from recall.tui.screens.base import RecallScreen
from recall.tui.views import DeckRow, HomeData, SessionPlan

#: Size of the "weakest N" session.
WEAKEST_COUNT = 20


class HomeScreen(RecallScreen):
    """Decks grouped by topic with new / learning / due counts, and the session launchers."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Footer labels are short so the footer fits 80 columns; the tooltip is what the help
        # and the palette say. Cram and q are in both, not in the footer (Ctrl-Q quits there).
        Binding("s", "start", "Start", id="home.start", tooltip="Start a session"),
        Binding("l", "custom", "Custom", id="home.custom", tooltip="Choose a session"),
        Binding("d", "deck", "One deck", id="home.deck", tooltip="Drill this deck"),
        Binding("o", "topic", "This topic", id="home.topic", show=False),
        Binding("c", "cram", "Cram", id="home.cram", show=False),
        Binding("w", "weakest", f"Weakest {WEAKEST_COUNT}", id="home.weakest", show=False),
        Binding("m", "missed", "Missed last time", id="home.missed", show=False),
        Binding("u", "resume", "Resume unfinished", id="home.resume", show=False),
        Binding("t", "stats", "Stats", id="home.stats"),
        Binding("b", "decks", "Decks", id="home.decks"),
        Binding("r", "reload", "Reload decks", id="home.reload", show=False),
        Binding("q", "app.quit", "Quit", id="home.quit", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        #: Reviews or edits changed the data since the counts were shown (set by the app on
        #: :class:`recall.tui.messages.DataChanged`): recount when shown again.
        self._stale = False

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="∑")
        with Vertical(id="home-body"):
            with Horizontal(id="today"):
                yield Static("Loading decks…", id="today-figures")
                yield Sparkline([], id="forecast", summary_function=max)
            yield Static("", id="home-resume")
            yield Static("", id="home-problems")
            yield DataTable(id="decks", cursor_type="row", zebra_stripes=False)
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#decks", DataTable)
        table.add_column("Topic", key="topic", width=20)
        table.add_column("Deck", key="deck", width=28)
        table.add_column("New", key="new", width=5)
        table.add_column("Learn", key="learn", width=5)
        table.add_column("Due", key="due", width=5)
        table.focus()
        if self.recall.home_data is not None:
            self.show_data(self.recall.home_data)
        self.call_after_refresh(self.recall.first_frame_painted)

    # ------------------------------------------------------------------ data in

    def show_data(self, data: HomeData) -> None:
        """Fill the table and the figures from the load worker's result."""
        table = self.query_one("#decks", DataTable)
        selected = self.selected_deck()
        table.clear()
        previous_topic = None
        for deck in sorted(data.decks, key=lambda d: (d.topic.lower(), d.name.lower())):
            topic = _fit(deck.topic, 20) if deck.topic != previous_topic else ""
            previous_topic = deck.topic
            name = _fit(deck.name if deck.builtin else f"{deck.name} (mine)", 28)
            table.add_row(
                Text(topic, style="bold"),
                name,
                _count(deck.new, "new"),
                _count(deck.learning, "learning"),
                _count(deck.due, "due"),
                key=deck.id,
            )
        if selected is not None and selected.id in table.rows:
            table.move_cursor(row=table.get_row_index(selected.id))
        figures = Text()
        figures.append(f"{data.due_total}", style="bold")
        figures.append(" due · ")
        figures.append(f"{data.new_total}", style="bold")
        figures.append(" new · ")
        figures.append(f"{data.reviewed_today}", style="bold")
        figures.append(" done today · streak ")
        figures.append(f"{data.streak_days}", style="bold")
        figures.append("d")
        if data.forecast:
            figures.append(f"\nnext {len(data.forecast)} days: ")
            figures.append(" ".join(str(n) for n in data.forecast[:7]))
            if len(data.forecast) > 7:
                figures.append(" …")
        self.query_one("#today-figures", Static).update(figures)
        self.query_one("#forecast", Sparkline).data = list(data.forecast) or [0]
        resume = self.query_one("#home-resume", Static)
        if data.unfinished is not None:
            resume.update(
                Text.assemble(
                    ("An unfinished session ", "bold"),
                    f"({data.unfinished.describe()}, {data.unfinished_done} done) ",
                    ("u resumes it", "dim"),
                )
            )
        resume.display = data.unfinished is not None
        problems = self.query_one("#home-problems", Static)
        if data.failures:
            count = len(data.failures)
            first = data.failures[0]
            problems.update(
                Text.assemble(
                    (f"{count} deck file{'s' if count > 1 else ''} did not load: ", "bold"),
                    f"{Path(first.path).name} {first.message.splitlines()[0]}",
                    ("  (b: see why)", "dim"),
                )
            )
            problems.display = True
        else:
            problems.display = False

    # ------------------------------------------------------------------ helpers

    def selected_deck(self) -> DeckRow | None:
        data = self.recall.home_data
        table = self.query_one("#decks", DataTable)
        if data is None or table.row_count == 0:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        except Exception:  # noqa: BLE001 - an empty or stale cursor means "no deck"
            return None
        return next((deck for deck in data.decks if deck.id == key), None)

    @property
    def _minutes(self) -> float:
        """The learner's default session length (``session_minutes``, ten unless changed)."""
        return self.recall.settings.session_minutes

    def _ready(self) -> bool:
        if self.recall.home_data is None:
            self.notify("Still loading the decks…", timeout=2)
            return False
        return True

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a deck drills that deck."""
        event.stop()
        self.action_deck()

    # ------------------------------------------------------------------ actions

    def action_start(self) -> None:
        if self._ready():
            self.recall.start_session(SessionPlan(minutes=self._minutes))

    def action_custom(self) -> None:
        from recall.tui.screens.dialogs import SessionDialog

        if not self._ready():
            return
        deck = self.selected_deck()
        self.app.push_screen(
            SessionDialog(deck.id if deck else None, deck.topic if deck else None),
            self._start_if_chosen,
        )

    def _start_if_chosen(self, plan: SessionPlan | None) -> None:
        if plan is not None:
            self.recall.start_session(plan)

    def action_deck(self) -> None:
        deck = self.selected_deck()
        if self._ready() and deck is not None:
            self.recall.start_session(SessionPlan(minutes=self._minutes, deck_ids=(deck.id,)))

    def action_topic(self) -> None:
        deck = self.selected_deck()
        if self._ready() and deck is not None:
            self.recall.start_session(SessionPlan(minutes=self._minutes, topic=deck.topic))

    def action_cram(self) -> None:
        deck = self.selected_deck()
        if self._ready():
            decks = (deck.id,) if deck is not None else ()
            self.recall.start_session(
                SessionPlan(minutes=self._minutes, deck_ids=decks, mode=Mode.CRAM)
            )

    def action_weakest(self) -> None:
        if self._ready():
            self.recall.start_session(
                SessionPlan(minutes=None, cards=WEAKEST_COUNT, mode=Mode.WEAKEST)
            )

    def action_missed(self) -> None:
        if self._ready():
            self.recall.start_session(SessionPlan(minutes=None, mode=Mode.MISSED))

    def action_resume(self) -> None:
        data = self.recall.home_data
        if not self._ready() or data is None:
            return
        if data.unfinished is None:
            self.notify("There is no unfinished session to resume.", timeout=3)
            return
        self.recall.start_session(data.unfinished)

    def action_stats(self) -> None:
        from recall.tui.screens.stats import StatsScreen

        if self._ready():
            self.app.push_screen(StatsScreen())

    def action_decks(self) -> None:
        from recall.tui.screens.decks import DecksScreen

        if self._ready():
            self.app.push_screen(DecksScreen())

    def action_reload(self) -> None:
        self.query_one("#today-figures", Static).update("Reloading decks…")
        self.recall.refresh_home()

    def mark_stale(self) -> None:
        """The counts on this screen are out of date (see :class:`DataChanged`)."""
        self._stale = True

    def on_screen_resume(self) -> None:
        """Back from a session or an edit that changed the data: recount."""
        if self._stale:
            self._stale = False
            self.recall.refresh_home()


def _count(value: int, kind: str) -> Text:
    if not value:
        return Text("·", style="dim", justify="right")
    style = {"new": "green", "learning": "yellow"}.get(kind, "red")
    return Text(str(value), style=f"bold {style}", justify="right")


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
