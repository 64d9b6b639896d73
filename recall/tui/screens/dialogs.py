"""Modal dialogs that return typed results (``ModalScreen[T]``, dismissed with the value).

Any of them opened over a drill session stops its clock while it is open: the drill screen
pauses whenever something covers it (``SessionScreen.on_screen_suspend``), so a dialog needs
nothing of its own for that.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Vertical
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Input, Label, Static

from recall.session import Mode
from recall.tui.plain import plain
from recall.tui.views import SessionPlan
from recall.tui.widgets.text_input import TextInput
from recall.wording import count_of


class PauseDialog(ModalScreen[bool]):
    """The session clock is stopped while this is open; ``True`` resumes, ``False`` ends."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter", "resume", "Resume", id="pause.resume"),
        Binding("ctrl+l,e", "end", "End session", id="pause.end"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="pause-box", classes="dialog"):
            yield Static("Paused", classes="dialog-title")
            yield Static("The clock is stopped.\nEnter or Esc resumes · e ends the session")

    def action_resume(self) -> None:
        self.dismiss(True)

    def action_end(self) -> None:
        self.dismiss(False)


class ConfirmDialog(ModalScreen[bool]):
    """A yes-or-no question before something that cannot be taken back (ending a session,
    quitting mid-session): ``True`` for yes. Enter is *no*: a learner typing an answer who hit
    the key by mistake goes straight back to the card.

    ``purpose`` names what is asked (``"end"``, ``"quit"``), so the app can tell its own quit
    question on screen from another (a second Ctrl-C over the quit question quits at once)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape,enter", "answer(False)", "No, go back", id="confirm.no"),
    ]

    def __init__(self, title: str, text: str, *, purpose: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        self.purpose = purpose

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box", classes="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield Static(self.text, markup=False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    @classmethod
    def end_session(cls, reviews: int, pending: bool) -> ConfirmDialog:
        """Ctrl-L mid-session: end it now? (``pending``: a graded answer is not yet rated)."""
        said = _saved(reviews) + "."
        if pending:
            said += " The answer on screen is recorded with its suggested rating."
        return cls(
            "End this session?",
            f"{said}\ny ends it and shows the summary · n, Esc or Enter goes back",
            purpose="end",
        )

    @classmethod
    def quit_mid_session(cls, reviews: int, pending: bool = False) -> ConfirmDialog:
        """Ctrl-C mid-session: quit recall? A second Ctrl-C quits at once. (``pending``: a
        graded answer is not yet rated; quitting records it.) A session is offered again only
        if it has reviews (``Workspace.unfinished``), so only then is that promised."""
        said = _saved(reviews)
        if pending:
            said += ". The answer on screen is recorded with its suggested rating"
        if reviews or pending:
            said += "; the session can be resumed next time"
        return cls(
            "Quit recall?",
            f"{said}.\ny or Ctrl-C again quits · n, Esc or Enter goes back",
            purpose="quit",
        )


def _saved(reviews: int) -> str:
    """What stays of the session either way, said plainly (no "0 reviews stay saved")."""
    if reviews == 0:
        return "Nothing is reviewed yet in this session"
    if reviews == 1:
        return "The review so far stays saved"
    return f"The {count_of(reviews, 'review')} so far stay saved"


class SessionDialog(ModalScreen[SessionPlan | None]):
    """Choose a session: minutes or a card count, this deck or topic or all, cram or not."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="session.cancel"),
    ]

    def __init__(self, deck_id: str | None, topic: str | None) -> None:
        super().__init__()
        self.deck_id = deck_id
        self.topic = topic

    def compose(self) -> ComposeResult:
        with Vertical(id="session-box", classes="dialog"):
            yield Static("New session", classes="dialog-title")
            with Grid(id="session-grid"):
                yield Label("Minutes")
                yield TextInput("10", id="minutes", type="number")
                yield Label("or cards")
                yield TextInput("", id="cards", type="integer", placeholder="(use minutes)")
            yield Checkbox(
                plain(f"Only deck {self.deck_id}") if self.deck_id else "All decks",
                id="only-deck",
                value=False,
                disabled=self.deck_id is None,
            )
            yield Checkbox(
                plain(f"Only topic {self.topic}") if self.topic else "All topics",
                id="only-topic",
                value=False,
                disabled=self.topic is None,
            )
            yield Checkbox("Cram (leave the schedule alone)", id="cram")
            yield Static("", id="session-error")
            yield Static("Enter starts · Esc cancels", classes="dim")

    @on(Input.Submitted)
    def _submit(self) -> None:
        plan = self.read_plan()
        if plan is not None:
            self.dismiss(plan)

    def key_enter(self) -> None:
        self._submit()

    def read_plan(self) -> SessionPlan | None:
        """The plan the form describes, or ``None`` with the problem shown."""
        minutes_text = self.query_one("#minutes", Input).value.strip()
        cards_text = self.query_one("#cards", Input).value.strip()
        error = self.query_one("#session-error", Static)
        minutes: float | None = None
        cards: int | None = None
        try:
            if cards_text:
                cards = int(cards_text)
                if cards <= 0:
                    raise ValueError
            elif minutes_text:
                minutes = float(minutes_text)
                if not 0 < minutes <= 24 * 60:
                    raise ValueError
        except ValueError:
            error.update("Minutes must be between 0 and 1440, cards a positive whole number.")
            return None
        decks = (
            (self.deck_id,) if self.deck_id and self.query_one("#only-deck", Checkbox).value else ()
        )
        topic = self.topic if self.topic and self.query_one("#only-topic", Checkbox).value else None
        mode = Mode.CRAM if self.query_one("#cram", Checkbox).value else Mode.NORMAL
        return SessionPlan(minutes=minutes, cards=cards, deck_ids=decks, topic=topic, mode=mode)

    def action_cancel(self) -> None:
        self.dismiss(None)
