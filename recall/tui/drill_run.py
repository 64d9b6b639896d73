"""One drill session as the drill screen sees it: :class:`DrillRun`, over a
:class:`recall.session.Session` that the workspace starts.

The session owns the queue, the budget on its clock, committing each review before it returns,
undo, and the summary; this adapter adds what the screen needs around it: cards as views (a
numeric card's :class:`recall.grading.Question` drawn once per review), previews and grading
through the engine, the rating suggestion, and the leech a review has just made.

Threads: :meth:`DrillRun.preview` and :meth:`DrillRun.grade` run in the screen's workers (pure
engine work; the session is only read); everything else runs on the event loop.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from recall.session.mode import Mode
from recall.tui.views import (
    CardView,
    FeedbackView,
    Leech,
    PreviewView,
    Rating,
    SessionPlan,
    SummaryView,
)

if TYPE_CHECKING:
    from recall.cards.model import Card
    from recall.grading import Question
    from recall.session import SessionSummary
    from recall.store import SessionInfo
    from recall.workspace import Workspace


class DrillRun:
    """The drill screen's session: ``plan`` started (or resumed) over ``workspace``."""

    def __init__(self, workspace: Workspace, plan: SessionPlan) -> None:
        from recall.session import Budget

        self.workspace = workspace
        self.plan = plan
        self._questions: dict[str, Question] = {}  # the card on screen, as asked this time
        self._summary: SessionSummary | None = None
        if plan.resume_id is not None:
            from recall.errors import StoreError

            recovered = workspace.recover_session(plan.resume_id)
            if recovered is None:
                raise StoreError(
                    "that session cannot be resumed: it has ended, or another window is "
                    "drilling it. Start a new one"
                )
            self.session = recovered
            return
        if plan.minutes is not None:
            budget = Budget.minutes(plan.minutes)
        elif plan.cards is not None:
            budget = Budget.cards(plan.cards)
        else:
            budget = Budget.until_done()
        mode = plan.mode
        # "Drill the missed ones again": exactly these cards, off-schedule (the schedule
        # decides its own cards, not a list).
        if plan.card_keys and mode is Mode.NORMAL:
            mode = Mode.CRAM
        self.session = workspace.start_session(
            budget=budget,
            mode=mode,
            weakest_n=plan.cards or 20,
            decks=plan.deck_ids or None,
            topic=plan.topic,
            only=plan.card_keys or None,
        )

    @property
    def info(self) -> SessionInfo:
        return self.session.info

    def next_card(self) -> CardView | None:
        """The card to ask now (``None`` when the session is over)."""
        card = self.session.next_card()
        if card is None:
            return None
        return self._view(card)

    def _view(self, card: Card, question: Question | None = None) -> CardView:
        """The card as asked now: its question is drawn here, once per review (a given one is
        kept), and the prompt, grading and the recorded review all use it. Its ``shown``
        formula comes drawn when it was drawn before; else as a plain Unicode placeholder, with
        ``shown_pending`` set (:meth:`draw_shown` draws it): the card is never held back
        for the engine's import."""
        from recall.grading import Question
        from recall.tui.presenting import card_view

        original = self.workspace.card(card.key)
        asked = question or Question.draw(original)
        self._questions[card.key] = asked
        state = self.session.current_state
        new = bool(state is not None and state.state.is_new)
        return card_view(original, question=asked, new=new, draw=False)

    def draw_shown(self, card: CardView) -> CardView:
        """``card`` with its ``shown`` formula drawn 2-D (and kept for the next start). Imports
        the engine the first time: call it from a worker thread."""
        from recall.tui.presenting import shown_formula

        original = self.workspace.card(card.key)
        return replace(card, shown=shown_formula(original), shown_pending=False)

    # ------------------------------------------------------------------ engine work (threads)

    def preview(self, card: CardView, text: str) -> PreviewView:
        """How the answer box reads (parse and render only; safe in a worker thread)."""
        from recall.grading import preview
        from recall.tui.presenting import preview_view, takes_math

        original = self.workspace.card(card.key)
        if not takes_math(original):
            return preview_view(text, None)
        return preview_view(text, preview(original, text))

    def grade(self, card: CardView, text: str, hinted: bool = False) -> FeedbackView:
        """Grade ``text`` in a worker thread: the engine only; the session is only read (the
        time on the card and its maturity, for the suggested rating)."""
        from recall.errors import GradingError
        from recall.grading import grade
        from recall.tui.presenting import feedback_view
        from recall.verdicts import Status

        original = self.workspace.card(card.key)
        started = time.perf_counter()
        try:
            asked = self._questions.get(card.key, original)
            verdict = grade(asked, text, others=self._others(original))
        except GradingError as error:
            return FeedbackView(
                outcome=Status.INVALID,
                answer=text,
                headline="This card cannot be graded",
                diagnosis=f"{error} (Ctrl-S skips it; Ctrl-E opens its file)",
            )
        complete = all(point.made for point in verdict.points)
        suggested = self.session.suggest(verdict.status, used_hint=hinted, complete=complete)
        rating = None if suggested is None else Rating(int(suggested))
        view = feedback_view(original, text, verdict, rating)
        return replace(view, grading_ms=(time.perf_counter() - started) * 1000)

    def _others(self, card: Card) -> tuple[str, ...]:
        """Names from the card's neighbours, so a typo is never forgiven toward one of them."""
        return self.workspace.neighbour_names(card)

    # ------------------------------------------------------------------ recording

    def record(
        self,
        card: CardView,
        rating: Rating,
        feedback: FeedbackView | None,
        hinted: bool = False,
    ) -> Leech | None:
        """Rate the current card; the session commits the review before this returns.

        Returns the :class:`Leech` when this very review made the card one (its lapses reached
        the ``leech_threshold`` setting), so the screen can say so at once."""
        from recall.verdicts import Status

        verdict = Status.SELF if feedback is None else feedback.outcome
        asked = self._questions.get(card.key)
        suggested = None
        if feedback is not None and feedback.suggested is not None:
            suggested = feedback.suggested
        recorded = self.session.record(
            verdict=verdict,
            rating=rating,
            suggested=suggested,
            diagnosis=(feedback.diagnosis_kind or None) if feedback else None,
            answer=feedback.answer if feedback else None,
            hint_used=hinted,
            seed=asked.seed if asked else None,
            params=asked.params if asked else None,
        )
        if not recorded.became_leech:
            return None
        return Leech(key=card.key, lapses=recorded.card.state.lapses)

    def undo(self) -> CardView | None:
        """Undo this session's last review; that card is asked again (the one on screen goes
        back to the front of the queue)."""
        card = self.session.undo()
        return None if card is None else self._view(card)

    def skip(self) -> bool:
        """Ask the card on screen later in the session (nothing is recorded); ``False`` when
        it is the only card left."""
        return self.session.set_aside(requeue=True)

    def bury(self) -> None:
        """Hide the card on screen until the next study day."""
        stored = self.session.current_state
        if stored is None:
            return
        self.workspace.bury(stored.db_id)
        self.session.set_aside(requeue=False)

    def suspend(self) -> None:
        """Take the card on screen out of every queue until it is unsuspended."""
        stored = self.session.current_state
        if stored is None:
            return
        self.workspace.suspend(stored.db_id)
        self.session.set_aside(requeue=False)

    def reload(self, card: CardView) -> CardView | None:
        """Re-read the card's deck file after an edit (the old card stays if the file broke)."""
        if not card.path or self.workspace.reload_deck(card.path) is None:
            return None
        if card.key not in self.workspace.cards:
            return None
        from recall.grading import Question

        fresh = self.workspace.card(card.key)
        old = self._questions.get(card.key)  # the same values, if the parameters still fit
        return self._view(fresh, Question.draw(fresh, old.seed if old else None))

    # ------------------------------------------------------------------ the budget

    def pause(self, reason: str = "pause") -> None:
        """Stop the session clock for ``reason`` (pauses nest: see :meth:`Session.pause`)."""
        self.session.pause(reason)

    def resume(self, reason: str = "pause") -> None:
        """End one pause for ``reason``; the clock runs when no pause is left."""
        self.session.resume(reason)

    def paused(self) -> bool:
        """Whether the session clock stands (any pause in force)."""
        return self.session.paused

    def time_up(self) -> bool:
        """A minutes budget ran out under the card on screen: it is finished, no other follows."""
        return self.session.time_up

    def mark_hint(self) -> None:
        """The hint of the card on screen was shown: its answer counts as hinted, also when it
        is taken back and given again."""
        self.session.mark_hint()

    def mark_answered(self) -> None:
        """The answer to the card on screen was given (Enter, or Space on a self-rated card):
        its answer time, the summary's time per card, stops here."""
        self.session.mark_answered()

    def ask_again(self) -> None:
        """The answer on screen was taken back: the card's answer time starts again."""
        self.session.ask_again()

    def hinted(self) -> bool:
        """Whether the card on screen carries a hint penalty (shown now, or before an undo)."""
        return self.session.current_hinted

    def seconds_left(self) -> float | None:
        remaining = self.session.remaining_seconds
        return None if remaining is None else max(0.0, remaining)

    def cards_left(self) -> int | None:
        budget = self.session.budget
        if budget.kind != "cards" or budget.value is None:
            return None
        return max(0, int(budget.value) - self.session.cards_done)

    def budget_spent(self) -> bool:
        """Time or cards used up (checked between cards: the current card is always finished)."""
        return self.session.finished

    def reviewed(self) -> int:
        return self.session.cards_done

    # ------------------------------------------------------------------ the end

    def release(self) -> None:
        """Let go of the session without ending it (the app is closing mid-session), so the
        next window offers to resume it at once."""
        if self._summary is None:
            self.session.release()

    def finish(self) -> SummaryView:
        """End the session in the store and return its summary (from the log)."""
        if self._summary is None:
            # A pause still in force (the dialog that asked to end) is fine: the card on
            # screen is counted up to the moment its clock stopped.
            self._summary = self.session.end()
        return summary_view(self._summary, self.workspace, self.session.info.set_aside_seconds)


def summary_view(
    summary: SessionSummary, workspace: Workspace, set_aside_seconds: float = 0.0
) -> SummaryView:
    """The session layer's summary as the summary screen shows it (answers rendered).

    Its time spent is what the budget counted: the reviews' seconds plus ``set_aside_seconds``
    (cards skipped, buried or suspended, and answers undone: none of that time comes back)."""
    from recall.grading import reference_answer
    from recall.tui.presenting import reference_rendered
    from recall.tui.views import MissedCard

    missed = []
    for item in summary.missed:
        card = workspace.cards.get(item.key)
        reference = reference_rendered(card) if card is not None else item.right_answer
        line = reference_answer(card) if card is not None else ""
        missed.append(
            MissedCard(
                key=item.key,
                prompt=item.prompt or item.key,
                answer=item.typed or "",
                reference=reference or item.right_answer,
                reference_line=line if line != reference else "",
                value=item.value,
            )
        )
    by_kind = summary.by_kind
    return SummaryView(
        reviews=summary.reviews,
        cards=summary.cards,
        new=by_kind.get("new", 0),
        learning=by_kind.get("learning", 0),
        review=by_kind.get("review", 0),
        relearn=by_kind.get("relearn", 0),
        off_schedule=by_kind.get("off_schedule", 0),
        first_try_accuracy=summary.first_try_accuracy,
        median_answer_seconds=summary.median_answer_seconds,
        elapsed_seconds=summary.seconds_on_cards + set_aside_seconds,
        missed=tuple(missed),
        mistakes=tuple(summary.mistakes),
        leeches=tuple(summary.leeches),
        due_tomorrow=summary.due_tomorrow,
        due_week=summary.due_next_7_days,
        streak_days=summary.streak_days,
        mode=summary.mode,
        missed_points=summary.missed_points,
    )
