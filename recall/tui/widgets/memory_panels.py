"""The stats screen's memory-model panels as Rich renderables: the verdict in words, the
calibration chart, true retention against the desired one, the workload curve and a fit's
outcome.

The charts are the same plain-text ones ``recall stats`` and ``recall plan`` print
(:mod:`recall.memory.charts`), drawn at the width the screen has; they are imported when
first drawn, which is after the worker that computed the figures has loaded them anyway. Text
from the learner's decks (deck and topic names) goes in as plain text, never as markup.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from recall.tui.memory_views import ModelView, OptimizeView, WorkloadView
from recall.tui.plain import plain
from recall.wording import count_of, plural

#: Verdict colours by the verdict's kind: good news green, too little history neutral, the
#: rest (fit again) a warning.
_VERDICT_STYLES = {"good": "bold green", "too_little_history": "bold"}


def model_text(view: ModelView) -> Text:
    """The verdict, which parameters it is about, and what to do next."""
    text = Text(view.verdict, style=_VERDICT_STYLES.get(view.health, "bold yellow"))
    text.append(f"\nParameters: {view.source} · desired retention {view.desired:.0%}", style="dim")
    if view.advice:
        text.append(f"\n{view.advice}")
    text.append("\no fits the model to your reviews (kept only if it predicts better)", style="dim")
    return text


def calibration_text(view: ModelView, width: int) -> Text:
    """Predicted against recalled per bin, or why there is nothing to draw yet."""
    if not view.bins:
        return Text(
            "Nothing to chart yet: the chart compares the model's predictions with what you "
            "recalled, for reviews of cards seen on an earlier day.",
            style="dim",
        )
    from recall.memory.charts import calibration_chart

    chart_width = max(10, min(30, width - 41))
    text = Text(calibration_chart(view.bins, chart_width))
    text.append(
        "\nEach bar is the share you recalled of the reviews the model gave that chance; "
        "│ marks its prediction. A model that predicts you well ends each bar at its mark.",
        style="dim",
    )
    return text


def true_retention_table(view: ModelView) -> Table | Text:
    """Per deck and topic: the share recalled against the desired retention (the mark)."""
    if not view.retention:
        return Text(
            "No reviews of cards seen on an earlier day yet: true retention counts those.",
            style="dim",
        )
    from recall.memory.charts import marked_bar

    table = Table(
        title=f"You asked for {view.desired:.0%} (│ on the bar); predicted is the model's guess",
        title_justify="left",
        expand=True,
    )
    table.add_column("by")
    table.add_column("name", ratio=1, overflow="fold")
    table.add_column("recalled", justify="right")
    table.add_column("against desired", no_wrap=True)
    table.add_column("predicted", justify="right")
    table.add_column("reviews", justify="right")
    for row in view.retention:
        short = row.observed < row.desired - 0.05
        table.add_row(
            row.by,
            plain(row.name),
            Text(f"{row.observed:.0%}", style="yellow" if short else ""),
            marked_bar(row.observed, row.desired, 12),
            f"{row.predicted:.0%}",
            str(row.reviews),
        )
    return table


def workload_text(view: WorkloadView, chosen: int | None, width: int) -> Text:
    """The curve with the chosen point marked, and that point in a sentence."""
    from recall.memory.charts import workload_curve

    plan = view.plan
    chart_width = max(6, min(30, width - 66))
    text = Text(workload_curve(plan, chart_width, chosen=chosen))
    current = plan.current
    if chosen is not None and plan.points:
        point = plan.points[chosen]
        sentence = (
            f"\nAt {point.desired_retention:.0%}: {point.minutes_per_day:.1f} min a day, "
            f"{count_of(round(point.remembered_at_end), 'card')} remembered after "
            f"{count_of(plan.days, 'day')}"
        )
        if current is not None and not point.current:
            sentence += (
                f" (now {current.desired_retention:.0%}: {current.minutes_per_day:.1f} min, "
                f"{count_of(round(current.remembered_at_end), 'card')})."
            )
        else:
            sentence += " (your setting)."
        text.append(sentence)
    text.append(
        "\n- and + choose a desired retention; Enter applies it (recall config retention R).",
        style="dim",
    )
    return text


def optimize_text(view: OptimizeView) -> Text:
    """What the fit did, and the comparison it rests on."""
    if view.status == "too_little_history":
        return Text(
            f"Too little history to fit: {view.reviews_needed} more "
            f"{plural('review', view.reviews_needed)} needed ({count_of(view.reviews, 'review')} "
            "so far; only reviews a day or more after a card's previous one "
            "count).",
            style="bold",
        )
    headline = (
        "Fit kept: the new parameters predict your latest reviews better and are now in use."
        if view.kept
        else "Fit not kept: it did not predict your latest reviews clearly better; the "
        "parameters in use stay."
    )
    text = Text(headline, style="bold green" if view.kept else "bold")
    if view.current is not None and view.candidate is not None:
        latest = count_of(view.test_reviews, "review")
        text.append(f"\nOn your latest {latest} (lower is better):", style="dim")
        text.append(f"\n  {'':<12}{'in use':>10}{'new fit':>10}")
        text.append(f"\n  {'log loss':<12}{view.current[0]:>10.4f}{view.candidate[0]:>10.4f}")
        text.append(f"\n  {'RMSE (bins)':<12}{view.current[1]:>10.2%}{view.candidate[1]:>10.2%}")
    return text
