"""Stats: the memory model's health, a review heatmap, the forecast, retention by deck and topic,
the calibration chart, true against desired retention, the workload curve and the common
mistakes.

Three kinds of work feed it, each in its own thread worker so the screen never waits: the review
figures (one store read), the memory model (the health report, then the workload simulation:
fsrs-rs-python and NumPy), and, on ``o``, a fit of the model. Until each arrives its panel says
what is being computed. ``-``/``+`` choose a point of the workload curve and Enter applies its
desired retention (as ``recall config retention R`` does).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Header, Sparkline, Static

from recall.mistakes import mistake_words
from recall.tui.memory_views import ModelView, OptimizeView, WorkloadView
from recall.tui.messages import WorkerFailed
from recall.tui.plain import plain
from recall.tui.screens.base import RecallScreen
from recall.tui.views import StatsView
from recall.tui.widgets.footer import Footer
from recall.tui.widgets.heatmap import heatmap_text
from recall.tui.widgets.memory_panels import (
    calibration_text,
    model_text,
    optimize_text,
    true_retention_table,
    workload_text,
)
from recall.wording import count_of

COMPUTING_MODEL = "Computing the memory model…"
COMPUTING_WORKLOAD = "Simulating your next 90 days at each desired retention…"
FITTING = "Fitting the memory model to your reviews…"


@dataclass
class ModelLoaded(Message):
    """The memory-model worker's health report."""

    view: ModelView


@dataclass
class WorkloadLoaded(Message):
    """The memory-model worker's workload curve."""

    view: WorkloadView


@dataclass
class Optimized(Message):
    """The fit worker's outcome."""

    view: OptimizeView


@dataclass
class RetentionApplied(Message):
    """The desired retention was saved (``value``), or refused (``problem``, for a person)."""

    value: float | None
    problem: str = ""


class StatsScreen(RecallScreen):
    """Figures from the review log and the learner's memory model, computed in workers."""

    SUB_TITLE = "Statistics"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "app.pop_screen", "Back", id="stats.back"),
        Binding("r", "reload", "Refresh", id="stats.refresh"),
        Binding("o", "optimize", "Fit model", id="stats.optimize"),
        Binding("minus", "choose(-1)", "Lower retention", show=False, id="stats.retention_down"),
        Binding(
            "plus,equals_sign", "choose(1)", "Higher retention", show=False, id="stats.retention_up"
        ),
        Binding("enter", "apply_retention", "Apply retention", show=False, id="stats.apply"),
    ]

    class Loaded(Message):
        """The stats worker's result."""

        def __init__(self, stats: StatsView) -> None:
            super().__init__()
            self.stats = stats

    def __init__(self) -> None:
        super().__init__()
        self.model: ModelView | None = None
        self.workload: WorkloadView | None = None
        #: The point of the workload curve being chosen (``None``: not loaded yet).
        self.chosen: int | None = None
        self.fitting = False

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="∑")
        with VerticalScroll(id="stats-body"):
            yield Static("Memory model", classes="section-title")
            yield Static(COMPUTING_MODEL, id="memory-verdict")
            yield Static("", id="optimize-result")
            yield Static("Reviews per day", classes="section-title")
            yield Static("Counting…", id="heatmap")
            yield Static("Due per day, next 30 days", classes="section-title")
            yield Sparkline([0], id="stats-forecast", summary_function=max)
            yield Static("", id="forecast-numbers")
            yield Static("", id="retention")
            yield Static("Predicted against recalled", classes="section-title")
            yield Static(COMPUTING_MODEL, id="calibration")
            yield Static("True retention against desired", classes="section-title")
            yield Static(COMPUTING_MODEL, id="true-retention")
            yield Static("Workload by desired retention", classes="section-title")
            yield Static(COMPUTING_WORKLOAD, id="workload")
            yield Static("", id="mistakes")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#optimize-result").display = False
        self.action_reload()

    def action_reload(self) -> None:
        self.load_stats()
        self.load_model()

    # ------------------------------------------------------------------ workers

    @work(thread=True, exclusive=True, exit_on_error=False, group="stats")
    def load_stats(self) -> None:
        self.post_message(self.Loaded(self.services.stats()))

    @work(thread=True, exclusive=True, exit_on_error=False, group="memory-model")
    def load_model(self) -> None:
        from recall.tui.memory_views import model_view, workload_view

        workspace = self.services.workspace
        self.post_message(ModelLoaded(model_view(workspace)))
        self.post_message(WorkloadLoaded(workload_view(workspace)))

    @work(thread=True, exclusive=True, exit_on_error=False, group="optimize")
    def run_fit(self) -> None:
        from recall.tui.memory_views import optimize_view

        self.post_message(Optimized(optimize_view(self.services.workspace)))

    @work(thread=True, exclusive=True, exit_on_error=False, group="retention")
    def save_retention(self, value: float) -> None:
        from recall.errors import ConfigError
        from recall.tui.memory_views import apply_retention

        try:
            self.post_message(RetentionApplied(apply_retention(self.services.workspace, value)))
        except ConfigError as error:
            self.post_message(RetentionApplied(None, str(error)))

    # ------------------------------------------------------------------ results

    def on_stats_screen_loaded(self, message: Loaded) -> None:
        self.show(message.stats)

    def on_model_loaded(self, message: ModelLoaded) -> None:
        self.model = message.view
        self._draw_model()

    def on_workload_loaded(self, message: WorkloadLoaded) -> None:
        self.workload = message.view
        self.chosen = message.view.current_index
        self._draw_workload()
        self.refresh_bindings()

    def on_optimized(self, message: Optimized) -> None:
        self.fitting = False
        self._show_fit(optimize_text(message.view))
        if message.view.kept:  # new parameters: the health report and the curve change
            self.load_model()

    def on_retention_applied(self, message: RetentionApplied) -> None:
        if message.value is None:
            self.notify(message.problem, title="Retention not changed", severity="error")
            return
        self.notify(
            f"Desired retention is now {message.value:.0%}: the next session schedules for it.",
            title="Retention applied",
        )
        self.load_model()

    def on_worker_failed(self, message: WorkerFailed) -> None:
        """A worker died (already reported): say so where its figures would be."""
        if message.group == "memory-model":
            failed = Text("The memory model could not be computed: press r to try again.")
            for selector in ("#memory-verdict", "#calibration", "#true-retention", "#workload"):
                self.query_one(selector, Static).update(failed)
        elif message.group == "optimize":
            self.fitting = False
            self._show_fit(Text("The fit failed; the parameters in use stay."))

    def on_resize(self, event: events.Resize) -> None:
        self._draw_model()
        self._draw_workload()

    # ------------------------------------------------------------------ actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose":
            return self.workload is not None
        if action == "apply_retention":
            if self.workload is None or self.chosen is None:
                return False
            return not self.workload.plan.points[self.chosen].current
        if action == "optimize":
            return None if self.fitting else True
        return True

    def action_optimize(self) -> None:
        if self.fitting:
            return
        self.fitting = True
        self._show_fit(Text(FITTING, style="dim"))
        self.refresh_bindings()
        self.run_fit()

    def action_choose(self, step: int) -> None:
        if self.workload is None or self.chosen is None:
            return
        last = len(self.workload.plan.points) - 1
        self.chosen = min(max(self.chosen + step, 0), last)
        self._draw_workload()
        self.refresh_bindings()

    def action_apply_retention(self) -> None:
        if self.workload is None or self.chosen is None:
            return
        point = self.workload.plan.points[self.chosen]
        if not point.current:
            self.save_retention(point.desired_retention)

    # ------------------------------------------------------------------ drawing

    def _width(self) -> int:
        """Cells a panel's line may use (the body's width less padding and scroll bar)."""
        body = self.query_one("#stats-body")
        return max(40, (body.size.width or self.app.size.width) - 4)

    def _show_fit(self, text: Text) -> None:
        panel = self.query_one("#optimize-result", Static)
        panel.update(text)
        panel.display = True

    def _draw_model(self) -> None:
        if self.model is None:
            return
        width = self._width()
        self.query_one("#memory-verdict", Static).update(model_text(self.model))
        self.query_one("#calibration", Static).update(calibration_text(self.model, width))
        self.query_one("#true-retention", Static).update(true_retention_table(self.model))

    def _draw_workload(self) -> None:
        if self.workload is None:
            return
        text = workload_text(self.workload, self.chosen, self._width())
        self.query_one("#workload", Static).update(text)

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
            by, plain(name), f"{retention:.0%}", "█" * filled + "·" * (10 - filled), str(reviews)
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
