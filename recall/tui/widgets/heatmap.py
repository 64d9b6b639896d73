"""A review heatmap drawn with shade blocks: one column per week, one row per weekday."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from rich.text import Text

#: Shades from no reviews to the busiest day.
SHADES = " ░▒▓█"
WEEKDAYS = ("Mon", "", "Wed", "", "Fri", "", "Sun")


def heatmap_text(days: Sequence[tuple[date, int]], weeks: int = 26) -> Text:
    """The last ``weeks`` weeks of ``days`` (date, reviews) as seven rows of shade blocks.

    Missing days count as zero; the scale is relative to the busiest day shown, so a light week
    still shows its shape. Each cell is two characters wide so the grid reads as squares.
    """
    counts = dict(days)
    end = max(counts) if counts else date.today()
    start = end - timedelta(days=end.weekday()) - timedelta(weeks=weeks - 1)
    busiest = max((n for d, n in counts.items() if d >= start), default=0)
    text = Text()
    for weekday in range(7):
        text.append(f"{WEEKDAYS[weekday]:>3} ", style="dim")
        for week in range(weeks):
            day = start + timedelta(weeks=week, days=weekday)
            if day > end:
                text.append("  ")
                continue
            count = counts.get(day, 0)
            level = 0 if count == 0 or busiest == 0 else 1 + min(3, (4 * count - 1) // busiest)
            text.append(SHADES[level] * 2, style="green" if level else "dim")
        if weekday < 6:
            text.append("\n")
    return text
