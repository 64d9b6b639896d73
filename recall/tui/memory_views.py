"""The stats screen's memory-model panels as plain views, and the work behind them.

The stats screen shows whether the learner's memory model predicts them (the verdict, the
calibration chart, true retention against the desired one per deck and topic), what each desired
retention would cost (the workload curve) and what a new fit did. Every function here runs in a
worker thread: each reads the store, and :func:`model_view`, :func:`workload_view` and
:func:`optimize_view` import NumPy and fsrs-rs-python through :mod:`recall.memory.model`. So
nothing heavy is imported at module level, and the views are small frozen dataclasses the screen
draws without knowing the lower layers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from recall.tui.views import ShownText

if TYPE_CHECKING:
    from recall.scheduling.calibration import CalibrationBin
    from recall.scheduling.simulation import Plan
    from recall.workspace import Workspace

#: Days the stats screen's workload curve simulates (``recall plan``'s default).
PLAN_DAYS = 90


@dataclass(frozen=True)
class RetentionRow(ShownText):
    """One deck's or topic's true retention against the desired one (and the model's guess)."""

    by: str  # "deck" or "topic"
    name: str
    observed: float
    predicted: float
    desired: float
    reviews: int


@dataclass(frozen=True)
class ModelView(ShownText):
    """The memory model's health, in words and figures."""

    verdict: str  # one sentence for the learner
    health: str  # the verdict's kind (:class:`recall.scheduling.calibration.Health` values)
    source: str  # which parameters: the defaults or the learner's fit, and when
    advice: str  # the suggestion to fit (again), or empty
    #: Predicted against recalled, per bin of predicted recall (empty: nothing predicted yet);
    #: the screen draws them at its own width (:func:`recall.memory.charts.calibration_chart`).
    bins: tuple[CalibrationBin, ...]
    retention: tuple[RetentionRow, ...]
    desired: float


@dataclass(frozen=True)
class WorkloadView(ShownText):
    """The workload curve: the simulated plan, and the learner's current setting."""

    plan: Plan
    desired: float

    @property
    def current_index(self) -> int:
        """The point of the current setting (the plan always holds one)."""
        return next((i for i, p in enumerate(self.plan.points) if p.current), 0)


@dataclass(frozen=True)
class OptimizeView(ShownText):
    """What a fit did: kept, not kept, or too little history (with how many more reviews)."""

    status: str  # :class:`recall.scheduling.fitting.FitStatus` values
    message: str
    reviews: int
    reviews_needed: int = 0
    #: (log loss, RMSE over bins) of the parameters in use and of the new fit, on the same
    #: latest reviews; ``None`` when nothing was fitted.
    current: tuple[float, float] | None = None
    candidate: tuple[float, float] | None = None
    test_reviews: int = 0

    @property
    def kept(self) -> bool:
        return self.status == "kept"


def model_view(workspace: Workspace) -> ModelView:
    """The health report for the parameters in use (a worker)."""
    from recall.memory import model as memory_model
    from recall.memory.sentences import verdict_sentence

    status = memory_model.health(workspace.store, workspace.settings)
    report = status.health
    rows = [
        RetentionRow(by, g.group, g.observed, g.mean_predicted, g.desired, g.reviews)
        for by, groups in (("deck", report.by_deck), ("topic", report.by_topic))
        for g in groups
    ]
    return ModelView(
        verdict=verdict_sentence(report.verdict),
        health=str(report.verdict.health),
        source=memory_model.model_source(status),
        advice=memory_model.refit_advice(status, "press o"),
        bins=report.bins if report.verdict.reviews else (),
        retention=tuple(rows),
        desired=report.desired_retention,
    )


def workload_view(workspace: Workspace, *, days: int = PLAN_DAYS, seed: int = 0) -> WorkloadView:
    """The workload curve over the learner's own collection, pace and parameters (a worker)."""
    from recall.memory import model as memory_model

    plan = memory_model.plan(
        workspace.store, workspace.settings, days=days, seed=seed, now=workspace.clock()
    )
    return WorkloadView(plan, workspace.settings.desired_retention)


def optimize_view(workspace: Workspace) -> OptimizeView:
    """Fit the model to the learner's history and keep it only if it predicts better (a
    worker; the same as ``recall optimize``)."""
    from recall.memory import model as memory_model
    from recall.memory.sentences import fit_sentence

    done = memory_model.optimize(workspace.store, workspace.settings, now=workspace.clock())
    result = done.result
    comparison = result.comparison
    if comparison is None:
        return OptimizeView(
            str(result.status), fit_sentence(result), result.reviews, result.reviews_needed
        )
    return OptimizeView(
        status=str(result.status),
        message=fit_sentence(result),
        reviews=result.reviews,
        current=(comparison.current.log_loss, comparison.current.rmse_bins),
        candidate=(comparison.candidate.log_loss, comparison.candidate.rmse_bins),
        test_reviews=comparison.current.reviews,
    )


def apply_retention(workspace: Workspace, value: float) -> float:
    """Save ``value`` as the desired retention (validated as ``recall config retention`` does;
    :class:`recall.errors.ConfigError` when refused) and schedule the next session with it."""
    from recall.memory import model as memory_model

    if workspace.shared_database():  # this learner's own, in the database (as recall config)
        shared = workspace.set_learner_setting("desired_retention", repr(float(value)))
        return shared.desired_retention
    saved = memory_model.apply_desired_retention(value)
    workspace.settings = replace(workspace.settings, desired_retention=saved.desired_retention)
    return saved.desired_retention
