"""Panels that show math: the live "interpreted as" preview and the grading feedback."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from recall.inert import inert
from recall.tui.views import FeedbackView, PreviewView, Rating
from recall.verdicts import PointOutcome, Status

RATING_LABELS = {
    Rating.Again: "Again",
    Rating.Hard: "Hard",
    Rating.Good: "Good",
    Rating.Easy: "Easy",
}


class PreviewPanel(Static):
    """How the answer box is being read, redrawn on every keystroke."""

    def show(self, preview: PreviewView | None) -> None:
        """Draw ``preview`` (``None`` clears the panel)."""
        if preview is None or not preview.text.strip():
            self.update(Text("Type your answer; Enter checks it.", style="dim"))
            self.set_class(False, "-error")
            return
        self.set_class(not preview.ok, "-error")
        self.update(render_preview(preview))


def render_preview(preview: PreviewView) -> RenderableType:
    """The preview as Rich renderables (shared with the deck editor's live preview)."""
    if not preview.math and (preview.ok or not preview.message):
        return Text.assemble(("answer: ", "dim"), preview.text)
    if preview.ok:
        return Group(Text("interpreted as", style="dim"), Text(preview.rendered))
    parts: list[RenderableType] = [Text(preview.message, style="bold")]
    caret = preview.caret_line()
    if caret:
        parts.append(Text(caret, style="red"))
    return Group(*parts)


class FeedbackPanel(Static, can_focus=True):
    """The verdict, the diagnosis, the reference rendered and the worked computation. The
    suggested rating is not in it: it is the drill screen's rating row, below the scrolling
    body, so a long verdict at 80x24 never pushes it out of sight."""

    def show(self, feedback: FeedbackView) -> None:
        style = {
            Status.CORRECT: "bold green",
            Status.INCORRECT: "bold red",
            Status.INVALID: "bold yellow",
            Status.SELF: "bold",
        }[feedback.outcome]
        parts: list[RenderableType] = [Text(feedback.headline, style=style)]
        if feedback.diagnosis:
            parts.append(Text(feedback.diagnosis, style="italic"))
        if feedback.points:
            parts.append(points_text(feedback.points))
        if feedback.answer_marked is not None:
            before, part, after = feedback.answer_marked
            parts.append(Text("─ your answer, the part that differs marked", style="dim"))
            parts.append(Text.assemble(before, (part, "bold reverse red"), after))
        if feedback.reference:
            label = "─ model answer" if feedback.points else "─ reference answer"
            parts.append(Text(label, style="dim"))
            parts.append(Text(feedback.reference))
        if feedback.worked:
            parts.append(Text("─ worked", style="dim"))
            parts.append(Text(feedback.worked))
        self.set_class(feedback.outcome is Status.CORRECT, "-correct")
        self.set_class(feedback.outcome is Status.INCORRECT, "-incorrect")
        self.update(Group(*parts))

    def show_reveal(self, model_answer: str, numbers: tuple[str, ...]) -> None:
        """The model answer of an explain card, for self-rating."""
        parts: list[RenderableType] = [Text("Model answer", style="bold"), Text(model_answer)]
        if numbers:
            parts.append(Text("numbers to have ready", style="dim"))
            parts.extend(Text(f"• {n}") for n in numbers)
        # The rating row is the drill screen's, below the scrolling body (visible at 80x24).
        self.set_class(False, "-correct")
        self.set_class(False, "-incorrect")
        self.update(Group(*parts))


def points_text(points: tuple[PointOutcome, ...]) -> RenderableType:
    """Each key point of a checked explanation: made (with the words that made it) or missed
    (with its model sentence), one row each, a long point wrapping under its own text."""
    made = sum(point.made for point in points)
    listing = Table.grid(padding=(0, 1))
    listing.add_column(width=1)
    listing.add_column()
    for point in points:
        if point.made:
            said = Text(inert(point.say))
            said.append(f"  (you said: {inert(point.said, one_line=True)})", style="dim")
            listing.add_row(Text("✓", style="green"), said)
        else:
            missed = Text("missed: ", style="red")
            missed.append(inert(point.say))
            listing.add_row(Text("✗", style="red"), missed)
    return Group(Text(f"{made} of {len(points)} key points", style="dim"), listing)


def rating_line(
    suggested: Rating | None, hinted: bool, unavailable: frozenset[Rating] = frozenset()
) -> Text:
    """``1 Again  2 Hard  [3 Good]  4 Easy`` with the suggestion marked and the ratings this
    answer may not get struck through."""
    text = Text()
    for rating in Rating:
        label = f"{rating.key} {RATING_LABELS[rating]}"
        if rating is suggested:
            text.append(f"[{label}]", style="bold reverse")
        elif rating in unavailable:
            text.append(" ")
            text.append(label, style="dim strike")
            text.append(" ")
        else:
            text.append(f" {label} ", style="dim")
        text.append(" ")
    if suggested is not None:
        text.append("  Enter accepts", style="dim")
        if hinted and suggested is Rating.Hard:
            text.append(" (hint used)", style="dim")
    else:
        text.append("  rate yourself", style="dim")
    return text
