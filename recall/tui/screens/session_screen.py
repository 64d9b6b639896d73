"""The life of a drill session around its cards: the clock, covering, pausing, leaving, ending.

:class:`SessionScreen` is the base of :class:`recall.tui.screens.drill.DrillScreen`. It is split
off so each module has one job: ``drill.py`` is one card's flow (ask, grade, rate, and the card
actions: hint, undo, skip, bury, suspend, edit), and this module is what holds for the whole
session whatever card is on screen: the countdown's questions to the budget, the clock standing
while anything covers the screen, the pause dialog, ending early (asked first), saving a graded
but unrated answer on the way out, and the summary at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any

from textual.reactive import var
from textual.screen import Screen

from recall.tui.drill_run import DrillRun
from recall.tui.messages import DataChanged
from recall.tui.screens.base import RecallScreen
from recall.tui.views import CardView, FeedbackView, SessionPlan
from recall.tui.widgets.countdown import Countdown


class Phase(Enum):
    """Where the current card is in its flow (see the diagram at the top of ``drill.py``)."""

    ASKING = "asking"  # the answer box takes typing; every change is previewed
    CHECKING = "checking"  # Enter pressed: the grade worker has the answer
    FEEDBACK = "feedback"  # the verdict is shown: Enter accepts the suggestion, 1-4 override
    REVEAL = "reveal"  # a self-rated card: say it, then Space shows the model answer
    REVEALED = "revealed"  # the model answer is shown: 1-4 rate it
    DONE = "done"  # the session is over (or being left): nothing more is recorded


class SessionScreen(RecallScreen):
    """A screen drilling one session (``plan``): the session's state and its life cycle.

    The card flow itself (showing, grading, rating) is the subclass's; this base only needs the
    card and its verdict to know whether a graded answer is pending when the session ends."""

    #: Where the card on screen is in its flow; every key and worker result checks it first.
    #: A ``var``: changing it repaints nothing by itself (the footer is refreshed by hand, a frame
    #: after a verdict, because rebuilding it costs more than grading: bench_verdict.py).
    phase: var[Phase] = var(Phase.ASKING)

    def __init__(self, plan: SessionPlan) -> None:
        super().__init__()
        self.plan = plan
        self.run: DrillRun | None = None
        self.card: CardView | None = None
        self.feedback: FeedbackView | None = None
        self.hinted = False
        #: Whether another screen covers this one (help, palette, a dialog): the clock stands.
        self._covered = False

    # ------------------------------------------------------------------ budget, for the clock

    def _seconds_left(self) -> float | None:
        return self.run.seconds_left() if self.run is not None else None

    def _cards_left(self) -> int | None:
        return self.run.cards_left() if self.run is not None else None

    def _clock_paused(self) -> bool:
        return self.run is not None and self.phase is not Phase.DONE and self.run.paused()

    def _time_up(self) -> bool:
        return self.run is not None and self.phase is not Phase.DONE and self.run.time_up()

    @property
    def in_progress(self) -> bool:
        """A session is being drilled here (started, not yet ended): leaving it is asked."""
        return self.run is not None and self.phase is not Phase.DONE

    # ------------------------------------------------------------------ covered: the clock stands

    def on_screen_suspend(self) -> None:
        """Another screen went over this one (help, the command palette, any dialog): time
        spent there is not time on the card. One pause however many overlays stack up; it ends
        when this screen is on top again."""
        if self.run is not None and self.phase is not Phase.DONE and not self._covered:
            self._covered = True
            self.run.pause("covered")
            self.query_one(Countdown).tick()
            # Time off the clock is not time to read the question: the card is hidden until
            # this screen is on top again (recall.tcss, ``.-covered``).
            self.add_class("-covered")

    def on_screen_resume(self) -> None:
        if self.run is not None and self._covered:
            self._covered = False
            self.run.resume("covered")
            self.query_one(Countdown).tick()
        self.remove_class("-covered")
        self._on_top_again()

    def _on_top_again(self) -> None:
        """This screen is in front again (an overlay closed): the subclass puts the focus
        where the card on screen needs it. Nothing here: the base has no widgets of its own."""

    # ------------------------------------------------------------------ a pending answer

    def let_go(self) -> None:
        """The app is closing mid-session (after :meth:`save_pending`): release the session
        so the next window offers to resume it (a crash leaves it held by a dead process,
        which is offered too)."""
        if self.run is not None:
            self.run.release()

    def _has_pending(self) -> bool:
        """A graded answer is on screen, not yet rated, with a rating to record it by."""
        return (
            self.phase is Phase.FEEDBACK
            and self.run is not None
            and self.card is not None
            and self.feedback is not None
            and self.feedback.suggested is not None
        )

    def save_pending(self) -> None:
        """Record a graded-but-unrated answer with its suggested rating (on leaving)."""
        if self._has_pending():
            assert self.run is not None and self.card is not None and self.feedback is not None
            assert self.feedback.suggested is not None
            self.run.record(self.card, self.feedback.suggested, self.feedback, hinted=self.hinted)
            self.phase = Phase.DONE
            self.post_message(DataChanged("a review was recorded"))

    # ------------------------------------------------------------------ pause and leave

    def action_pause(self) -> None:
        """A break: the pause dialog covers the screen, which stops the clock."""
        from recall.tui.screens.dialogs import PauseDialog

        if self.run is None or self.phase is Phase.DONE:
            return
        self._ask_after_typed_keys(PauseDialog, self._after_pause)

    def _ask_after_typed_keys(
        self, dialog: Callable[[], Screen[Any]], callback: Callable[[Any], None]
    ) -> None:
        """Open ``dialog()`` once the keys typed before it are handled: a key is read by the
        screen on top when it is handled, so an Enter still waiting in the answer box's queue
        would otherwise land on the dialog (and the answer would never be graded). Made when
        it opens, so it says what is true then (a verdict that arrived meanwhile)."""

        def push() -> None:
            if self.in_progress and self.app.screen is self:
                self.app.push_screen(dialog(), callback)

        (self.focused or self).call_later(push)

    def _after_pause(self, resume: bool | None) -> None:
        if resume is False:
            self.end_now()  # "end" chosen in the pause dialog: that was the question

    def action_leave(self) -> None:
        """Ctrl-L: ask, then end the session (the reviews so far stay; the summary follows)."""
        from recall.tui.screens.dialogs import ConfirmDialog

        if not self.in_progress:
            return
        run = self.run
        assert run is not None
        self._ask_after_typed_keys(
            lambda: ConfirmDialog.end_session(run.reviewed(), self._has_pending()),
            self._after_leave_asked,
        )

    def _after_leave_asked(self, yes: bool | None) -> None:
        if yes:
            self.end_now()

    def end_now(self) -> None:
        """End the session without asking: save what is pending and go to the summary."""
        if not self.in_progress:
            return
        self.save_pending()
        self._finish()

    def _finish(self) -> None:
        from recall.tui.screens.summary import SummaryScreen

        if self.run is None:
            return
        self.phase = Phase.DONE
        summary = self.run.finish()
        self.app.switch_screen(SummaryScreen(summary, self.plan))
