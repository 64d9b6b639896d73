"""The learner's own memory model, as the commands and the TUI use it.

This joins the store (the review log, the cards, the fitted parameter sets, imported reviews) to
the pure library in :mod:`recall.scheduling` (history, fitting, calibration, simulation,
review-log CSV). Every function takes an open :class:`~recall.store.Store` and the learner's
:class:`~recall.config.Settings`, so ``recall optimize``, ``recall plan``, ``recall reviews`` and
the stats screen all compute the same things the same way.

The scheduler uses the parameters in use from the next review on:
:func:`scheduler_settings` is :meth:`Settings.scheduler_settings` with them filled in.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, tzinfo
from pathlib import Path
from typing import IO, Any

from recall.clock import utc_now
from recall.config import Settings
from recall.inert import quote
from recall.interop.review_csv import RevlogRow, RowProblem, iter_revlog
from recall.interop.review_csv import write_revlog as write_csv
from recall.memory.report import (
    ModelHealth,
    events_from_revlog,
    events_from_scheduled,
    merged,
    planned_card,
    revlog_rows,
)
from recall.memory.sentences import verdict_sentence
from recall.scheduling.fitting import FitResult, fit_parameters, should_refit
from recall.scheduling.fsrs_adapter import SchedulerSettings
from recall.scheduling.history import History
from recall.scheduling.rating import Rating
from recall.scheduling.simulation import Plan, PlanInputs, plan_workload
from recall.scheduling.state import Phase
from recall.scheduling.today import PACE_WINDOW, pace_from_log
from recall.store import Store
from recall.store.memory import ImportedReview, MemoryModelStore, ParameterSet
from recall.wording import count_of


def default_parameters() -> tuple[float, ...]:
    """FSRS-6's defaults, as the scheduler has them."""
    return SchedulerSettings().parameters


def parameters_in_use(store: Store) -> tuple[float, ...]:
    """The fitted parameters marked in use, else the defaults."""
    fit = MemoryModelStore(store).in_use()
    return fit.parameters if fit is not None else default_parameters()


def scheduler_settings(
    store: Store, settings: Settings, *, enable_fuzzing: bool = True
) -> SchedulerSettings:
    """The scheduler's settings with the learner's parameters in use."""
    return settings.scheduler_settings(
        enable_fuzzing=enable_fuzzing, parameters=parameters_in_use(store)
    )


def apply_desired_retention(value: float, path: Path | None = None) -> Settings:
    """Save ``value`` as the desired retention in the settings file (``path``: the default
    one) and return the saved settings. It is validated by the setting's own range, so a
    point of the workload curve and ``recall config retention`` are refused alike
    (:class:`~recall.errors.ConfigError`, nothing saved) when out of it."""
    from recall.config import load_settings, save_settings, set_value

    saved = set_value(load_settings(path), "desired_retention", repr(float(value)))
    save_settings(saved, path)
    return saved


def load_history(store: Store, settings: Settings, tz: tzinfo | None = None) -> History:
    """The scheduled reviews of the log plus imported ones (a review counted once)."""
    cards = store.cards_by_key()
    topics = {key: card.topic for key, card in cards.items() if card.topic}
    own = events_from_scheduled(MemoryModelStore(store).scheduled_reviews(), topics)
    imported = events_from_revlog(
        (_as_row(r) for r in MemoryModelStore(store).imported_reviews()), topics
    )
    return History.from_events(merged(own, imported), settings.day_rollover_hour, tz)


def _as_row(review: ImportedReview) -> RevlogRow:
    return RevlogRow(
        row=0,
        card_id=review.card_key,
        reviewed_at=review.reviewed_at,
        rating=Rating(review.rating),
        state=None if review.state is None else Phase(review.state),
        duration_ms=review.duration_ms,
    )


@dataclass(frozen=True)
class Optimization:
    """What ``recall optimize`` did: the fit's result and, when recorded, its database row."""

    result: FitResult
    recorded: ParameterSet | None


def optimize(
    store: Store, settings: Settings, *, now: datetime | None = None, tz: tzinfo | None = None
) -> Optimization:
    """Fit to the history; record the fit (kept or not) unless there was too little history."""
    history = load_history(store, settings, tz)
    result = fit_parameters(
        history,
        parameters_in_use(store),
        relearning_steps=max(1, len(settings.relearning_steps)),
    )
    if result.comparison is None:
        return Optimization(result, None)
    recorded = MemoryModelStore(store).record_fit(
        result.parameters if result.kept else (result.candidate or result.parameters),
        kept=result.kept,
        reviews=result.reviews,
        comparison=result.comparison.to_dict(),
        now=now or utc_now(),
    )
    return Optimization(result, recorded)


def revert(store: Store) -> ParameterSet | None:
    """Go back to the parameters used before the current fit (``None``: the defaults)."""
    return MemoryModelStore(store).revert()


def refit_suggested(store: Store, history: History) -> bool:
    """Whether the history grew by half since the last fit (or there is none and enough)."""
    fits = MemoryModelStore(store).fits()
    last = fits[-1].reviews if fits else None
    return should_refit(last, len(history.targets))


@dataclass(frozen=True)
class ModelStatus:
    """The health report plus what the stats screen says around it: which parameters are in
    use and whether a new fit is due (the history grew by half since the last one)."""

    health: ModelHealth
    fitted: ParameterSet | None
    refit_suggested: bool
    ever_fitted: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.health.to_dict(),
            "parameters": "defaults" if self.fitted is None else "fitted",
            "fitted_at": None if self.fitted is None else self.fitted.created_at.isoformat(),
            "refit_suggested": self.refit_suggested,
        }


def health(store: Store, settings: Settings, tz: tzinfo | None = None) -> ModelStatus:
    """Calibration, retention per deck and topic, and the verdict, for the parameters in use.

    The history is read as columns (:class:`~recall.scheduling.review_table.ReviewTable`), not
    as one event per review: at 100k reviews this is what keeps ``recall stats`` quick. It is
    the same history :func:`load_history` reads, predicted the same way."""
    from recall.memory.report import model_health_of_table
    from recall.scheduling.review_table import ReviewTable

    model_store = MemoryModelStore(store)
    table = ReviewTable.build(*model_store.review_columns(), settings.day_rollover_hour, tz)
    cards = store.cards_by_key().values()
    decks = {card.db_id: card.deck for card in cards}
    topics = {card.db_id: card.topic for card in cards if card.topic}
    fits = model_store.fits()
    fitted = next((f for f in fits if f.in_use), None)
    parameters = default_parameters() if fitted is None else fitted.parameters
    report = model_health_of_table(table, parameters, settings.desired_retention, decks, topics)
    suggested = should_refit(fits[-1].reviews if fits else None, int(table.targets.sum()))
    return ModelStatus(report, fitted, suggested, bool(fits))


def plan(
    store: Store,
    settings: Settings,
    *,
    days: int = 90,
    seed: int = 0,
    now: datetime | None = None,
    tz: tzinfo | None = None,
) -> Plan:
    """The workload curve for the learner's collection, parameters, pace and rating habits."""
    from recall.memory.report import rating_shares_of_table
    from recall.scheduling.review_table import ReviewTable

    moment = now or utc_now()
    table = ReviewTable.build(
        *MemoryModelStore(store).review_columns(), settings.day_rollover_hour, tz
    )
    first, passing = rating_shares_of_table(table)
    pace = pace_from_log(MemoryModelStore(store).recent_answers(PACE_WINDOW))
    cards = [
        planned_card(c.state, moment, settings.day_rollover_hour, tz)
        for c in store.cards_by_key().values()
        if not c.suspended and not c.retired
    ]
    inputs = PlanInputs(
        parameters=parameters_in_use(store),
        cards=cards,
        pace=pace,
        new_per_day=settings.new_per_day,
        days=days,
        maximum_interval_days=settings.maximum_interval_days,
        first_ratings=first,
        pass_ratings=passing,
        seed=seed,
    )
    return plan_workload(inputs, current_retention=settings.desired_retention)


#: Rows not used that a report keeps with their reasons (the rest are counted).
KEPT_PROBLEMS = 1_000


@dataclass(frozen=True)
class ImportReport:
    """What ``recall reviews import`` did: the rows it did not use (the first
    :data:`KEPT_PROBLEMS`, with why) and how many there were in all."""

    added: int
    already_there: int
    problems: tuple[RowProblem, ...]
    problem_count: int = -1

    def __post_init__(self) -> None:
        if self.problem_count < 0:
            object.__setattr__(self, "problem_count", len(self.problems))


def import_reviews(
    store: Store, stream: Iterable[str], now: datetime | None = None
) -> ImportReport:
    """Read a review-log CSV, keep the rows matching the learner's cards, store them once.

    Streamed: rows are parsed, matched and stored as they are read (in batches, each its own
    short write transaction), so memory does not grow with the file (a million rows once took
    1.16 GB). A row repeating an earlier one of the file counts as already there."""
    known = set(store.cards_by_key())
    kept: list[RowProblem] = []
    count = 0

    def matched() -> Iterator[ImportedReview]:
        nonlocal count
        for item in iter_revlog(stream):
            if isinstance(item, RevlogRow) and item.card_id not in known:
                item = RowProblem(item.row, f"no card '{quote(item.card_id)}' in your collection")
            if isinstance(item, RowProblem):
                count += 1
                if len(kept) < KEPT_PROBLEMS:
                    kept.append(item)
                continue
            yield ImportedReview(
                item.card_id,
                item.reviewed_at,
                int(item.rating),
                None if item.state is None else int(item.state),
                item.duration_ms,
            )

    added, duplicates = MemoryModelStore(store).import_reviews(matched(), now=now)
    return ImportReport(added, duplicates, tuple(kept), count)


def export_reviews(store: Store, stream: IO[str]) -> int:
    """Write the scheduled reviews of the log as a review-log CSV; returns the row count."""
    return write_csv(revlog_rows(store.reviews()), stream)


def model_source(status: ModelStatus) -> str:
    """Which parameters the report is about, in words: the defaults or the learner's fit."""
    if status.fitted is None:
        return "FSRS defaults"
    return f"fitted to your reviews on {status.fitted.created_at:%Y-%m-%d}"


def refit_advice(status: ModelStatus, how: str) -> str:
    """The suggestion to fit (again), ending with ``how`` (the command or the key); empty when
    no fit is due."""
    if not status.refit_suggested:
        return ""
    if status.ever_fitted:
        return f"Your history has grown by half since the last fit: {how}."
    return f"There is enough history to fit the model to you: {how}."


def health_lines(status: ModelStatus) -> list[str]:
    """The health report as text for ``recall stats``: the verdict, the calibration chart and
    true retention against the desired one per deck."""
    from recall.memory.charts import calibration_chart

    report = status.health
    lines = [f"memory model ({model_source(status)})", f"  {verdict_sentence(report.verdict)}"]
    advice = refit_advice(status, "run `recall optimize`")
    if advice:
        lines.append(f"  {advice}")
    if report.verdict.reviews:
        lines += ["", *("  " + line for line in calibration_chart(report.bins).splitlines())]
    if report.by_deck:
        lines += ["", f"true retention by deck (you asked for {report.desired_retention:.0%})"]
        width = max(len(g.group) for g in report.by_deck)
        for group in report.by_deck:
            lines.append(
                f"  {group.group:<{width}}  {group.observed:>4.0%}  predicted "
                f"{group.mean_predicted:.0%}  ({count_of(group.reviews, 'review')})"
            )
    return lines
