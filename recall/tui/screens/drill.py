"""The drill screen: one card at a time, typed answers graded in a worker, ratings recorded.

The flow of one card::

    ASKING ──Enter──▶ CHECKING (grade worker) ──Graded──▶ FEEDBACK ──Enter / 1–4──▶ record ─▶ next
       ▲                  │ invalid answer: back to ASKING, costs nothing
    explain cards: REVEAL ──Space──▶ REVEALED ──1–4──▶ record ─▶ next
    explain cards with key points are ASKING like the others (the explanation is checked point
    by point); Enter on an empty box says it aloud instead: REVEALED, self-rated.

A review is committed by the session before the next card is shown. When the time budget runs
out the current card is still finished (the countdown says "time is up, finish this card"); the
session then ends on the summary screen. Anything covering the screen (help, the command palette,
any dialog) stops the session clock while it is open. Ending early (Ctrl-L) asks first; leaving
(quitting, closing the terminal) records a graded-but-unrated answer with its suggested rating, so
nothing typed is lost.

Ctrl-Z with a verdict (or a revealed model answer) on screen takes back *that* answer: the card
is asked again (nothing of it was recorded yet; its time stays spent, its hint penalty stays).
With a card being asked, it takes back the last recorded review instead (:meth:`Session.undo`).

This module is the card's flow; the session's life around it (the clock, covering, pausing,
leaving, ending) is its base class's, in ``session_screen.py``.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Input, Static

from recall.errors import RecallError
from recall.tui.asking import asking_header, graded_header
from recall.tui.messages import DataChanged, Graded, PreviewReady, ShownDrawn, WorkerFailed
from recall.tui.plain import plain
from recall.tui.screens.session_screen import Phase, SessionScreen
from recall.tui.views import CardView, Leech, PreviewView, Rating, SessionPlan
from recall.tui.widgets.answer_input import AnswerInput
from recall.tui.widgets.countdown import Countdown
from recall.tui.widgets.footer import Footer
from recall.tui.widgets.math_panels import FeedbackPanel, PreviewPanel, rating_line
from recall.verdicts import Status
from recall.wording import count_of

#: The longest answer the box accepts; the engine refuses longer ones anyway (docs/syntax.md).
MAX_ANSWER = 2000


class DrillScreen(SessionScreen):
    """Drill one session (``plan``) card by card.

    The session's life around the cards (the clock, covering, pausing, leaving, ending) is the
    base class's, :class:`recall.tui.screens.session_screen.SessionScreen`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "accept", "Accept rating", id="drill.accept", show=False),
        Binding("1", "rate('again')", "Again", id="drill.again", show=False),
        Binding("2", "rate('hard')", "Hard", id="drill.hard", show=False),
        Binding("3", "rate('good')", "Good", id="drill.good", show=False),
        Binding("4", "rate('easy')", "Easy", id="drill.easy", show=False),
        Binding("space", "reveal", "Reveal", id="drill.reveal", show=False),
        Binding("ctrl+g", "hint", "Hint", id="drill.hint", priority=True),
        Binding("ctrl+z", "undo", "Undo", id="drill.undo", priority=True),
        Binding("ctrl+s", "skip", "Skip", id="drill.skip", priority=True),
        Binding("ctrl+b", "bury", "Bury", id="drill.bury", priority=True, show=False),
        Binding("ctrl+n", "suspend_card", "Suspend", id="drill.suspend", priority=True, show=False),
        Binding("ctrl+e", "edit_card", "Edit card", id="drill.edit", priority=True, show=False),
        Binding("escape", "pause", "Pause", id="drill.pause", priority=True),
        Binding(
            "ctrl+l", "leave", "End", id="drill.leave", priority=True, tooltip="End the session"
        ),
    ]

    def __init__(self, plan: SessionPlan) -> None:
        super().__init__(plan)
        self._preview_serial = 0
        self._submitted_at = 0.0
        #: Seconds from Enter to the verdict painted, per graded answer (the verdict benchmark).
        self.verdict_seconds: list[float] = []

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Horizontal(id="drill-header"):
            # "Drill · 10 min": where the learner is, then the session asked for.
            yield Static(plain(f"Drill · {self.plan.describe()}"), id="drill-plan")
            yield Static("", id="drill-progress")
            yield Countdown(
                self._seconds_left,
                self._cards_left,
                paused=self._clock_paused,
                time_up=self._time_up,
                id="countdown",
            )
        with VerticalScroll(id="drill-body"):
            yield Static("", id="card-source")
            yield Static("", id="prompt")
            yield Static("", id="shown")
            yield Static("", id="symbols")
            yield Static("", id="hint")
            with Horizontal(id="answer-row"):
                yield AnswerInput(
                    placeholder="your answer",
                    id="answer",
                    max_length=MAX_ANSWER,
                    select_on_focus=False,
                )
                yield Static("", id="unit")
            yield PreviewPanel("", id="preview")
            yield FeedbackPanel("", id="feedback")
        # Outside the scrolling body, so a long model answer never pushes it off the screen.
        yield Static(rating_line(None, False), id="rating-row")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#feedback").display = False
        self.query_one("#rating-row").display = False
        try:
            self.run = self.services.begin(self.plan)
        except RecallError as error:
            self.notify(str(error), title="Could not start the session", severity="error")
            self.app.pop_screen()
            return
        self.post_message(DataChanged("a session started"))
        self.query_one(Countdown).tick()
        self._advance()

    # ------------------------------------------------------------------ showing a card

    def _advance(self) -> None:
        """Show the next card, or end the session when the budget or the queue is spent."""
        assert self.run is not None
        card = None if self.run.budget_spent() else self.run.next_card()
        if card is None:
            self._finish()
            return
        self._show(card)

    def _show(self, card: CardView) -> None:
        self.card = card
        self.feedback = None
        # A card back after an undo keeps the penalty of a hint it used (the session knows).
        self.hinted = self.run is not None and self.run.hinted()
        # Nothing derived from the answer before grading: the id and source come with the verdict.
        self.query_one("#card-source", Static).update(Text(asking_header(card), style="dim"))
        self.query_one("#prompt", Static).update(Text(card.prompt))
        shown = self.query_one("#shown", Static)
        shown.update(Text(card.shown))
        shown.display = bool(card.shown)
        if card.shown_pending:  # drawn once the card is on screen: see draw_shown
            self.call_after_refresh(self.draw_shown, card)
        symbols = self.query_one("#symbols", Static)
        symbols.update(_symbols_text(card))
        symbols.display = bool(card.symbols)
        # A penalty without a hint (an undone wrong verdict) shows no "No hint" line.
        self._show_hint(self.hinted and bool(card.hint))
        self.query_one("#unit", Static).update(plain(card.unit))
        feedback = self.query_one("#feedback", FeedbackPanel)
        feedback.display = False
        rating_row = self.query_one("#rating-row", Static)
        rating_row.update(rating_line(None, False))  # a narrow screen's verdict may have set it
        rating_row.display = False
        answer = self.query_one("#answer", AnswerInput)
        answer.locked = False
        answer.value = ""
        preview = self.query_one("#preview", PreviewPanel)
        if card.self_rated:
            self.phase = Phase.REVEAL
            self.query_one("#answer-row").display = False
            preview.display = True
            preview.update(
                Text("Say it out loud, then Space or Enter shows the model answer.", style="dim")
            )
            self.set_focus(None)
        else:
            self.phase = Phase.ASKING
            self.query_one("#answer-row").display = True
            answer.locked = False
            answer.placeholder = "your explanation" if card.key_points else "your answer"
            answer.prose = bool(card.key_points)
            preview.display = True
            preview.show(None)
            if card.key_points:
                preview.update(_EXPLAIN_HELP)
            answer.focus()
        self._update_progress()
        self.query_one("#drill-body", VerticalScroll).scroll_home(animate=False)
        self.refresh_bindings()

    @work(thread=True, exit_on_error=False, group="draw")
    def draw_shown(self, card: CardView) -> None:
        """Draw the card's ``shown`` formula, which no start had drawn before (the first one
        imports SymPy: started after the card's frame, so the prompt never waits for it)."""
        assert self.run is not None
        self.post_message(ShownDrawn(self.run.draw_shown(card)))

    def on_shown_drawn(self, message: ShownDrawn) -> None:
        """The drawing replaces the placeholder, if its card is still the one asked
        (answered, skipped or undone meanwhile: the card shown now has its own)."""
        drawn = message.card
        if self.card is None or self.card.key != drawn.key or not self.card.shown_pending:
            return
        self.card = replace(self.card, shown=drawn.shown, shown_pending=False)
        self.query_one("#shown", Static).update(Text(drawn.shown))

    def _on_top_again(self) -> None:
        """An overlay closed over a card being asked: the answer box takes the keys again, even
        if Tab or a click had moved the focus before it opened (Textual would give it back
        there), so whatever the learner types next lands in the box."""
        if self.phase is Phase.ASKING and self.card is not None:
            answer = self.query_one("#answer", AnswerInput)
            if not answer.has_focus:
                answer.focus(scroll_visible=False)

    def _update_progress(self) -> None:
        if self.run is None:
            return
        done = self.run.reviewed()
        text = Text(f"{done} done")
        if self.card is not None and self.card.new:
            text.append(" · new card", style="green")
        self.query_one("#drill-progress", Static).update(text)

    # ------------------------------------------------------------------ typing and preview

    @on(Input.Changed, "#answer")
    def _answer_changed(self, event: Input.Changed) -> None:
        if self.phase is not Phase.ASKING or self.card is None:
            return
        self._preview_serial += 1
        if self.card.key_points:
            self._echo_explanation(event.value)
            return
        if not event.value.strip():
            self.query_one("#preview", PreviewPanel).show(None)
            return
        self.read_answer(self._preview_serial, self.card, event.value)

    def _echo_explanation(self, typed: str) -> None:
        """An explanation longer than the one-line box shows is echoed in full below it,
        wrapped, so the learner reads back all they wrote before Enter (the box scrolls
        sideways); a short one leaves the help line. Nothing is parsed: prose has no preview."""
        preview = self.query_one("#preview", PreviewPanel)
        box = self.query_one("#answer", AnswerInput)
        if len(typed) < max(box.content_region.width - 2, 20):
            preview.update(_EXPLAIN_HELP)
            return
        words = count_of(len(typed.split()), "word")
        echo = Text(f"your explanation ({words}), Enter checks it:\n", style="dim")
        preview.update(echo.append_text(plain(typed, one_line=True)))

    @work(thread=True, exclusive=True, exit_on_error=False, group="preview")
    def read_answer(self, serial: int, card: CardView, text: str) -> None:
        """Parse and render only (no grading): cheap enough for every keystroke."""
        assert self.run is not None
        self.post_message(PreviewReady(serial, self.run.preview(card, text)))

    def on_preview_ready(self, message: PreviewReady) -> None:
        if message.serial == self._preview_serial and self.phase is Phase.ASKING:
            self.query_one("#preview", PreviewPanel).show(message.preview)

    # ------------------------------------------------------------------ grading

    @on(Input.Submitted, "#answer")
    def _answer_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.phase is not Phase.ASKING or self.card is None or self.run is None:
            return
        if not event.value.strip():
            if self.card.key_points:
                self.phase = Phase.REVEAL  # said out loud: self-rated against the model
                self.action_reveal()
                return
            self.notify("Type an answer first (Ctrl-S skips the card).", timeout=3)
            return
        self.phase = Phase.CHECKING
        self._submitted_at = time.perf_counter()
        self.run.mark_answered()
        self.query_one("#preview", PreviewPanel).update(Text("checking…", style="dim"))
        self.grade_answer(self.card, event.value, self.hinted)

    @work(thread=True, exclusive=True, exit_on_error=False, group="grade")
    def grade_answer(self, card: CardView, text: str, hinted: bool) -> None:
        """Grade in a thread so the screen never freezes, however long the engine takes."""
        assert self.run is not None
        self.post_message(Graded(card.key, self.run.grade(card, text, hinted=hinted)))

    def on_graded(self, message: Graded) -> None:
        if (
            self.phase is not Phase.CHECKING
            or self.card is None
            or message.card_key != self.card.key
        ):
            return  # a late result for a card that was skipped or undone
        feedback = message.feedback
        if feedback.outcome is Status.INVALID:
            self.phase = Phase.ASKING
            self.query_one("#preview", PreviewPanel).show(
                PreviewView(
                    text=feedback.answer,
                    ok=False,
                    message=feedback.diagnosis or feedback.headline,
                    column=feedback.error_column,
                    math=self.card.math_answer,
                )
            )
            self.query_one("#answer", Input).focus()
            return
        self.feedback = feedback
        self.phase = Phase.FEEDBACK
        self._name_card()
        # Locked, not disabled and not unfocused: moving focus rebuilds the footer, which
        # cost more than the grading itself (see benchmarks/bench_verdict.py).
        self.query_one("#answer", AnswerInput).locked = True
        self.query_one("#preview", PreviewPanel).display = False
        panel = self.query_one("#feedback", FeedbackPanel)
        panel.show(feedback)
        panel.display = True
        # The suggested rating is outside the scrolling body: in view whatever the verdict's
        # length and however late the scroll below happens.
        rating_row = self.query_one("#rating-row", Static)
        rating_row.update(rating_line(feedback.suggested, self.hinted, feedback.unavailable))
        if self.narrow:
            rating_row.styles.height = "auto"  # "Enter accepts" wraps below, never cut
        rating_row.display = True
        self.call_after_refresh(panel.scroll_visible, animate=False)
        self.call_after_refresh(self._verdict_painted)

    def _name_card(self) -> None:
        """The answer is out: the header may now name the card and its source."""
        if self.card is not None:
            header = self.query_one("#card-source", Static)
            header.update(Text(graded_header(self.card), style="dim"))

    def _verdict_painted(self) -> None:
        self.verdict_seconds.append(time.perf_counter() - self._submitted_at)
        del self.verdict_seconds[:-1000]
        self.refresh_bindings()  # the footer catches up a frame after the verdict

    def on_worker_failed(self, message: WorkerFailed) -> None:
        """The grade worker died (already reported): let the learner try again."""
        if message.group == "grade" and self.phase is Phase.CHECKING:
            self.phase = Phase.ASKING
            self.query_one("#preview", PreviewPanel).show(None)
            self.query_one("#answer", Input).focus()

    # ------------------------------------------------------------------ rating

    def action_accept(self) -> None:
        if self.phase is Phase.REVEAL:
            self.action_reveal()  # Enter reveals as Space does
            return
        if self.phase is Phase.FEEDBACK and self.feedback and self.feedback.suggested:
            self._record(self.feedback.suggested)

    def action_rate(self, name: str) -> None:
        if self.phase not in (Phase.FEEDBACK, Phase.REVEALED):
            return
        rating = Rating.named(name)
        if self.feedback is not None and rating in self.feedback.unavailable:
            # Refused here, before the session would refuse it: nothing changes on screen.
            self.notify(
                "A wrong answer is never rated Hard (Hard means you remembered it): "
                "1 Again, or 3 / 4 if the grader got it wrong.",
                timeout=3,
            )
            return
        self._record(rating)

    def _record(self, rating: Rating) -> None:
        """Commit the review, then (and only then) show the next card."""
        assert self.run is not None and self.card is not None
        try:
            leech = self.run.record(self.card, rating, self.feedback, hinted=self.hinted)
        except RecallError as error:
            self.notify(str(error), title="The review was not saved", severity="error")
            return
        self.post_message(DataChanged("a review was recorded"))
        if leech is not None:
            self._announce(leech)
        self._advance()

    def _announce(self, leech: Leech) -> None:
        """Say at once that the card just reviewed has become a leech, and what to do."""
        self.notify(
            f"{leech.key} has been forgotten {leech.lapses} times: drilling it as it is will "
            "not help. Rewrite it (Ctrl-E next time it comes up) or suspend it (Ctrl-N).",
            title="This card is now a leech",
            severity="warning",
            timeout=10,
        )

    def action_reveal(self) -> None:
        if self.phase is not Phase.REVEAL or self.card is None:
            return
        self.phase = Phase.REVEALED
        if self.run is not None:
            self.run.mark_answered()  # said out loud: the model answer is only the check
        self._name_card()
        self.query_one("#preview", PreviewPanel).display = False
        panel = self.query_one("#feedback", FeedbackPanel)
        panel.show_reveal(self.card.model_answer, self.card.numbers)
        panel.display = True
        rating_row = self.query_one("#rating-row", Static)
        rating_row.update(rating_line(None, False))
        rating_row.display = True
        # The body takes focus, so the arrow and page keys scroll a long answer; it starts at
        # the top of the model answer.
        body = self.query_one("#drill-body", VerticalScroll)
        body.focus()
        self.call_after_refresh(panel.scroll_visible, top=True, animate=False)
        self.refresh_bindings()

    # ------------------------------------------------------------------ card actions

    def action_hint(self) -> None:
        if self.card is None or self.phase not in (Phase.ASKING, Phase.REVEAL):
            return
        self._show_hint(True)
        if self.card.hint and self.run is not None:
            self.hinted = True
            self.run.mark_hint()

    def _show_hint(self, shown: bool) -> None:
        """Show the card's hint line (or hide it): once used, a hint stays in view for that card."""
        hint = self.query_one("#hint", Static)
        if not shown or self.card is None:
            hint.update("")
            hint.display = False
            return
        hint.update(Text.assemble(("hint ", "dim"), self.card.hint or "No hint on this card."))
        hint.display = True

    def action_undo(self) -> None:
        if self.run is None or self.phase in (Phase.CHECKING, Phase.DONE):
            return
        if self.phase in (Phase.FEEDBACK, Phase.REVEALED) and self.card is not None:
            self._take_back_answer(self.card)
            return
        card = self.run.undo()
        if card is None:
            self.notify("Nothing to undo in this session.", timeout=3)
            return
        self.post_message(DataChanged("a review was undone"))
        # Not the card's key: the card is back, unanswered, and its id may name the answer.
        self.notify("Undid the last review: that card is back.", timeout=3)
        self._show(card)

    def _take_back_answer(self, card: CardView) -> None:
        """Undo the answer on screen, not the card before it: nothing of it was recorded, so
        the card is simply asked again (the same question). Its time on screen keeps running
        (undo gives no time back) and a hint it used still counts.

        A wrong verdict showed the reference answer: typing it in after the undo would earn a
        Good the learner's memory did not. So the retake carries the hint penalty (Hard at
        best, logged as helped), as if the answer had been a hint. A right verdict taken back
        showed nothing the learner did not know, and costs nothing.

        The retake's answer time starts now: the time before stays spent, but it was the
        answer taken back's, not this one's."""
        assert self.run is not None
        self.run.ask_again()
        if self.feedback is not None and self.feedback.outcome is Status.INCORRECT:
            self.run.mark_hint()
            self.notify(
                "Took back that answer. You have seen the reference, so the retake counts as "
                "helped (Hard at best).",
                timeout=4,
            )
        else:
            self.notify("Took back that answer: answer the card again.", timeout=3)
        self._show(card)

    def action_skip(self) -> None:
        self._set_aside("skip")

    def action_bury(self) -> None:
        self._set_aside("bury")

    def action_suspend_card(self) -> None:
        self._set_aside("suspend")

    def _set_aside(self, how: str) -> None:
        if (
            self.run is None
            or self.card is None
            or self.phase
            not in (
                Phase.ASKING,
                Phase.REVEAL,
                Phase.REVEALED,
            )
        ):
            return
        if getattr(self.run, how)() is False:
            self.notify("Nothing else to drill: answer this one, or end the session.", timeout=3)
            return
        if how != "skip":
            self.post_message(DataChanged(f"a card was {how}"))
            # Unnamed: the card comes back (tomorrow, or when unsuspended) still unanswered.
            done = "Buried the card until tomorrow" if how == "bury" else "Suspended the card"
            self.notify(f"{done}.", timeout=3)
        self._advance()

    def action_edit_card(self) -> None:
        """Open the card's deck file in ``$EDITOR`` at its line (the session clock paused),
        then reload the card."""
        if self.card is None or not self.card.path or self.run is None:
            self.notify("This card has no file to edit.", timeout=3)
            return
        from recall.tui.editor import edit_in_editor

        # Fixing a card is not drilling it: the session clock stops while the editor is open.
        self.run.pause("editor")
        try:
            problem = edit_in_editor(self.app, self.card.path, self.card.line)
        finally:
            self.run.resume("editor")
        if problem:
            self.notify(problem, severity="error")
            return
        card = self.run.reload(self.card)
        self.post_message(DataChanged("a deck file was edited"))
        if card is not None and self.phase in (Phase.ASKING, Phase.REVEAL):
            self._show(card)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that do something in the current phase."""
        if action == "accept":
            return self.phase in (Phase.FEEDBACK, Phase.REVEAL)
        if action == "rate":
            return self.phase in (Phase.FEEDBACK, Phase.REVEALED)
        if action == "reveal":
            return self.phase is Phase.REVEAL
        if action == "hint":
            return self.phase in (Phase.ASKING, Phase.REVEAL)
        return True


_EXPLAIN_HELP = Text(
    "Type your explanation; Enter checks it against its key points. "
    "Or say it out loud and press Enter on the empty box to see the model answer.",
    style="dim",
)


def _symbols_text(card: CardView) -> Text:
    text = Text()
    for index, (name, meaning) in enumerate(card.symbols):
        if index:
            text.append("\n")
        text.append(name, style="bold")
        text.append(f"  {meaning}")
    return text
