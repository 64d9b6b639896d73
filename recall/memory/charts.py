"""Terminal charts for the memory model: calibration and the workload curve, as plain text.

Both are strings of fixed-width lines, so ``recall stats``/``recall plan`` print them and the TUI
puts them in a ``Static`` unchanged; nothing here knows about Textual. Bars use Unicode eighth
blocks for resolution; ``unicode=False`` draws with ``#`` and ``|`` for terminals without them.
"""

from __future__ import annotations

from collections.abc import Sequence

from recall.scheduling.calibration import CalibrationBin
from recall.scheduling.simulation import Plan

_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(fraction: float, width: int, *, unicode: bool = True) -> str:
    """A left-aligned bar ``fraction`` (0..1) of ``width`` cells, padded to ``width``."""
    fraction = min(max(fraction, 0.0), 1.0)
    if not unicode:
        filled = round(fraction * width)
        return ("#" * filled).ljust(width)
    eighths = round(fraction * width * 8)
    full, part = divmod(eighths, 8)
    text = "█" * full + (_EIGHTHS[part] if part else "")
    return text.ljust(width)


def marked_bar(fraction: float, mark_at: float, width: int, *, unicode: bool = True) -> str:
    """:func:`bar` of ``fraction`` with a mark (``│``) in the cell of ``mark_at`` (0..1): an
    observed share against what was predicted or asked for."""
    cells = list(bar(fraction, width, unicode=unicode))
    at = min(width - 1, max(0, int(mark_at * width)))
    cells[at] = "│" if unicode else "|"
    return "".join(cells)


def calibration_chart(
    bins: Sequence[CalibrationBin], width: int = 30, *, unicode: bool = True
) -> str:
    """One line per bin of predicted recall: the bar is the share you recalled, the mark the
    model's mean prediction for those reviews. Empty bins are listed as such so the scale
    stays readable."""
    mark = "│" if unicode else "|"
    lines = [
        f"{'predicted':>9}  {'recalled (' + mark + ' = predicted)':<{width}}  "
        f"{'recalled':>8} {'predicted':>9} {'reviews':>7}"
    ]
    for b in bins:
        label = f"{b.low * 100:3.0f}-{b.high * 100:.0f}%"
        if not b.reviews or b.observed is None or b.mean_predicted is None:
            lines.append(f"{label:>9}  {'':<{width}}  {'':>8} {'':>9} {0:>7}")
            continue
        cells = marked_bar(b.observed, b.mean_predicted, width, unicode=unicode)
        lines.append(
            f"{label:>9}  {cells}  {b.observed:>8.0%} {b.mean_predicted:>9.0%} {b.reviews:>7}"
        )
    return "\n".join(lines)


def workload_curve(
    plan: Plan, width: int = 30, *, unicode: bool = True, chosen: int | None = None
) -> str:
    """One line per desired retention: minutes a day as a bar (scaled to the largest), the
    minutes and the cards remembered at the end; the learner's own setting is marked.

    ``chosen`` (an index into ``plan.points``) is the point a learner is choosing on the stats
    screen: every line then gets a two-cell margin, with a pointer in the chosen one's."""
    top = max((p.minutes_per_day for p in plan.points), default=0.0) or 1.0
    pointer = "◀" if unicode else "<"
    choosing = chosen is not None
    lines = [
        f"{'  ' if choosing else ''}{'desired':>7}  {'minutes a day':<{width}}  {'min/day':>7}  "
        f"{'remembered after ' + str(plan.days) + ' days':>26}"
    ]
    for index, p in enumerate(plan.points):
        tail = f"  {pointer} your setting" if p.current else ""
        margin = ""
        if choosing:
            margin = ("▸ " if unicode else "> ") if index == chosen else "  "
            if index == chosen and not p.current:
                tail = f"  {pointer} Enter applies"
        lines.append(
            f"{margin}{p.desired_retention:>7.0%}  "
            f"{bar(p.minutes_per_day / top, width, unicode=unicode)}"
            f"  {p.minutes_per_day:>7.1f}  {p.remembered_at_end:>20.0f} cards{tail}"
        )
    return "\n".join(lines)
