"""Stats: a review heatmap, the forecast, retention by deck and topic, the common mistakes, and
the numbers behind each picture."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Footer, Sparkline, Static

from recall.mistakes import mistake_words
from recall.tui.screens.base import RecallScreen
from recall.tui.views import StatsView
from recall.tui.widgets.heatmap import heatmap_text
from recall.wording import count_of


class StatsScreen(RecallScreen):
    """Figures from the review log, computed in a worker."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "Back", id="stats.back"),
        Binding("r", "reload", "Refresh", id="stats.refresh"),
    ]

    class Loaded(Message):
        """The stats worker's result."""

        def __init__(self, stats: StatsView) -> None:
            super().__init__()
            self.stats = stats

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="stats-body"):
            yield Static("Reviews per day", classes="section-title")
            yield Static("Counting…", id="heatmap")
            yield Static("Due per day, next 30 days", classes="section-title")
            yield Sparkline([0], id="stats-forecast", summary_function=max)
            yield Static("", id="forecast-numbers")
            yield Static("", id="retention")
            yield Static("", id="mistakes")
        yield Footer()

    def on_mount(self) -> None:
        self.action_reload()

    def action_reload(self) -> None:
        self.load_stats()

    @work(thread=True, exclusive=True, exit_on_error=False, group="stats")
    def load_stats(self) -> None:
        self.post_message(self.Loaded(self.services.stats()))

    def on_stats_screen_loaded(self, message: Loaded) -> None:
        self.show(message.stats)

    def show(self, stats: StatsView) -> None:
        heat = heatmap_text(stats.heatmap)
        heat.append(
            f"\n{_plural(stats.total_reviews, 'review')} in this period · "
            f"streak {_plural(stats.streak_days, 'day')}",
            style="dim",
        )
        if stats.extra:
            heat.append("\n" + " · ".join(f"{k} {v}" for k, v in stats.extra.items()))
        self.query_one("#heatmap", Static).update(heat)
        self.query_one("#stats-forecast", Sparkline).data = list(stats.forecast) or [0]
        numbers = Text("today → ", style="dim")
        numbers.append(" ".join(str(n) for n in stats.forecast[:14]) or "nothing due")
        self.query_one("#forecast-numbers", Static).update(numbers)
        self.query_one("#retention", Static).update(retention_table(stats))
        self.query_one("#mistakes", Static).update(mistakes_table(stats))


def retention_table(stats: StatsView) -> Table | Text:
    rows = [("deck", *row) for row in stats.retention_by_deck] + [
        ("topic", *row) for row in stats.retention_by_topic
    ]
    if not rows:
        return Text(
            "No retention yet: it counts reviews of cards that have graduated from learning.",
            style="dim",
        )
    table = Table(title="Retention (share of reviews recalled)", title_justify="left", expand=True)
    table.add_column("by")
    table.add_column("name", ratio=1, overflow="fold")
    table.add_column("retention", justify="right")
    table.add_column("bar", ratio=1)
    table.add_column("reviews", justify="right")
    for by, name, retention, reviews in rows:
        filled = round(retention * 10)
        table.add_row(
            by, name, f"{retention:.0%}", "█" * filled + "·" * (10 - filled), str(reviews)
        )
    return table


def mistakes_table(stats: StatsView) -> Table | Text:
    if not stats.mistakes:
        return Text("No mistakes recorded yet.", style="dim")
    table = Table(title="Most common mistakes", title_justify="left", expand=True)
    table.add_column("mistake", ratio=1)
    table.add_column("times", justify="right")
    for kind, count in stats.mistakes:
        table.add_row(mistake_words(kind), str(count))
    return table


def _plural(count: int, word: str) -> str:
    return count_of(count, word)
