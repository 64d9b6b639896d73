"""The summary at the end of every session: the store's figures, the missed cards with their
answers, and one key to drill the missed ones again."""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from recall.mistakes import mistake_words
from recall.session import Mode
from recall.tui.plain import plain
from recall.tui.screens.base import RecallScreen
from recall.tui.views import SessionPlan, SummaryView
from recall.tui.widgets.footer import Footer
from recall.wording import count_of, plural


class SummaryScreen(RecallScreen):
    """What the session did, from the review log."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "again", "Drill missed again", id="summary.again"),
        Binding("escape,enter,h", "home", "Home", id="summary.home"),
    ]

    def __init__(self, summary: SummaryView, plan: SessionPlan) -> None:
        super().__init__()
        self.summary = summary
        self.plan = plan

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="summary-body"):
            yield Static(summary_figures(self.summary), id="summary-figures")
            yield Static(missed_table(self.summary), id="summary-missed")
            points = missed_points_text(self.summary)
            if points is not None:
                yield Static(points, id="summary-points")
        yield Footer()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "again":
            return bool(self.summary.missed)
        return True

    def action_again(self) -> None:
        if not self.summary.missed:
            return
        keys = tuple(card.key for card in self.summary.missed)
        plan = SessionPlan(minutes=None, cards=None, mode=Mode.MISSED, card_keys=keys)
        self.recall.start_session(plan, replace=True)

    def action_home(self) -> None:
        self.app.pop_screen()


def summary_figures(summary: SummaryView) -> RenderableType:
    """The headline numbers as a two-column table."""
    title = Text("Session done", style="bold")
    if summary.mode != "normal":
        title.append(f"  ({summary.mode}: the schedule was not changed)", style="dim")
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold")
    table.add_column()
    table.add_row(str(summary.reviews), _plural(summary.reviews, "review"))
    if summary.off_schedule:
        table.add_row(str(summary.cards), _plural(summary.cards, "card") + " drilled")
    else:
        # The words of the home screen and `recall today`: a card in its first steps is
        # "learning", never "review". Cards, by how each was first seen in the session (under
        # the reviews, which count a card once per showing).
        table.add_row(
            f"{summary.new} / {summary.learning} / {summary.review} / {summary.relearn}",
            "cards: new / learning / review / relearn",
        )
    accuracy = summary.first_try_accuracy
    table.add_row(
        "—" if accuracy is None else f"{accuracy:.0%}",
        f"right first time, without help (of {summary.cards} {_plural(summary.cards, 'card')})",
    )
    # Two honest figures: how long an answer takes (up to Enter or Space, the verdict not
    # read yet), and all the time the session used (verdicts, skips and undos included).
    median = summary.median_answer_seconds
    table.add_row("—" if median is None else f"{median:.1f} s", "median time to answer a card")
    minutes, seconds = divmod(int(summary.elapsed_seconds), 60)
    table.add_row(f"{minutes}:{seconds:02d}", "time spent in all (verdicts, skips, undos too)")
    table.add_row(str(summary.due_tomorrow), "due tomorrow")
    table.add_row(str(summary.due_week), "due in the next 7 days")
    table.add_row(str(summary.streak_days), "day streak")  # a 6-day streak, not "6 days streak"
    parts: list[RenderableType] = [title, table]
    if summary.leeches:
        parts.append(
            Text(
                "leeches (missed again and again; rewrite or suspend them): "
                + ", ".join(summary.leeches),
                style="yellow",
            )
        )
    if summary.mistakes:
        mistakes = Text("common mistakes: ", style="dim")
        mistakes.append(
            ", ".join(
                f"{mistake_words(kind)} ({count_of(count, 'time')})"
                for kind, count in summary.mistakes
            )
        )
        parts.append(mistakes)
    return Group(*parts)


def missed_table(summary: SummaryView) -> RenderableType:
    """The missed cards: what was typed and what was right."""
    if not summary.missed:
        return Text("Nothing missed.", style="green")
    table = Table(title="Missed", title_justify="left", expand=True, show_lines=False)
    table.add_column("card", ratio=2, overflow="fold")
    table.add_column("you typed", ratio=1, overflow="fold")
    table.add_column("answer", ratio=1, overflow="fold")
    listed = {key for key, _points in summary.missed_points}
    for card in summary.missed:
        answer: RenderableType = FittedDrawing(card.reference, card.reference_line)
        if card.key in listed:  # an explanation: its model answer, point by point, is below
            answer = Text("its key points left out: below", style="dim")
        if card.value:  # the number asked for, above its formula
            answer = Group(plain(card.value, "bold"), answer)
        table.add_row(plain(card.prompt), plain(card.answer or "—"), answer)
    footer = Text("r drills these again", style="dim")
    return Group(table, footer)


class FittedDrawing:
    """A formula drawn in 2-D where the drawing fits the width it is given, else on one line as
    typed (folded at the edge): a 2-D drawing wrapped by the table is pieces of fraction bars
    and root signs that no longer read as a formula."""

    def __init__(self, drawing: str, line: str) -> None:
        self.drawing = drawing
        self.line = line or drawing

    def _widest(self) -> int:
        return max((cell_len(row) for row in self.drawing.splitlines()), default=0)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        fits = self._widest() <= options.max_width
        yield plain(self.drawing if fits else self.line)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(self._widest(), 8), max(self._widest(), 1))


def missed_points_text(summary: SummaryView) -> RenderableType | None:
    """The key points left out of each explanation, in the model's words."""
    if not summary.missed_points:
        return None
    parts: list[RenderableType] = [Text("Key points left out", style="bold")]
    for key, points in summary.missed_points:
        parts.append(plain(key, "dim"))
        listing = Table.grid(padding=(0, 1))  # a point's second line starts under its first
        listing.add_column(width=3, justify="right")
        listing.add_column()
        for point in points:
            listing.add_row("✗", plain(point))
        parts.append(listing)
    return Group(*parts)


def _plural(count: int, word: str) -> str:
    return plural(word, count)
