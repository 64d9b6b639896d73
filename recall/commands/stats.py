"""``recall stats [--json] [--days N]``: review figures without opening the TUI.

Retention by deck and topic, first-try accuracy, the most common mistakes, the streak, what
is due, a forecast of reviews per day, and a heatmap of reviews per study day, over the decks as
they are now (the workspace syncs them first). ``--json``
prints the same figures for scripts (:meth:`recall.analytics.Stats.to_dict`).
"""

from __future__ import annotations

import argparse
import json
from datetime import date, timedelta
from typing import Any

from recall.inert import quote
from recall.mistakes import mistake_words
from recall.wording import count_of

SHADES = " ░▒▓█"


def _days(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{quote(repr(text))} is not a whole number of days"
        ) from None
    if not 1 <= value <= 3650:
        raise argparse.ArgumentTypeError("days must be between 1 and 3650")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "stats",
        help="show review statistics",
        description="Retention, forecast, heatmap, mistakes and streak over a period.",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--days", type=_days, default=30, metavar="N", help="period in study days (default 30)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from recall.commands import open_workspace
    from recall.memory import model as memory_model

    # Opening the workspace syncs the decks first: a deck file deleted since the last start is
    # retired, so its cards are no longer counted as due.
    workspace = open_workspace(args)
    try:
        stats = workspace.stats(days=args.days)
        health = memory_model.health(workspace.store, workspace.settings)
    finally:
        workspace.close()
    figures = {**stats.to_dict(), "memory_model": health.to_dict()}
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(render(stats.to_dict()))
        print("\n" + "\n".join(memory_model.health_lines(health)))
    return 0


def days(count: int) -> str:
    """``1 day``, ``2 days``: a count of days as a person writes it."""
    return count_of(count, "day")


def _pct(rate: float | None) -> str:
    return "—" if rate is None else f"{rate:.0%}"


def render(figures: dict[str, Any]) -> str:
    """The figures as plain text for a terminal."""
    retention = figures["retention"]
    out = [
        f"recall stats, {figures['since']} to {figures['until']}",
        "",
        f"reviews          {figures['reviews']} on {days(figures['study_days'])}",
        f"streak           {days(figures['streak'])}",
        f"retention        {_pct(retention['rate'])} "
        f"({retention['passed']}/{count_of(retention['total'], 'review')} of learnt cards)",
        f"first try        {_pct(figures['first_try_accuracy'])}",
        f"due              today {figures['due_today']}, tomorrow {figures['due_tomorrow']}, "
        f"within 7 days {figures['due_next_7_days']}",
    ]
    for title, table in (
        ("by deck", figures["retention_by_deck"]),
        ("by topic", figures["retention_by_topic"]),
    ):
        if table:
            out += ["", f"retention {title}"]
            width = max(len(k) for k in table)
            for key, value in table.items():
                share = f"({value['passed']}/{value['total']})"
                out.append(f"  {key:<{width}}  {_pct(value['rate']):>4}  {share}")
    if figures["mistakes"]:
        out += ["", "most common mistakes"]
        out += [f"  {mistake_words(kind):<36} {count}" for kind, count in figures["mistakes"]]
    forecast = figures["forecast"][:14]
    if forecast:
        top = max(n for _d, n in forecast) or 1
        out += ["", "forecast (cards due per day)"]
        for day, count in forecast:
            bar = "█" * round(20 * count / top)
            out.append(f"  {day}  {count:>5}  {bar}")
    out += ["", "reviews per day", *heatmap_lines(figures["heatmap"])]
    return "\n".join(out)


def heatmap_lines(heatmap: list[list[Any]]) -> list[str]:
    """A week-by-weekday grid (rows Monday..Sunday, one column per week) in five shades."""
    if not heatmap:
        return []
    counts = {date.fromisoformat(d): n for d, n in heatmap}
    first, last = min(counts), max(counts)
    start = first - timedelta(days=first.weekday())
    weeks = (last - start).days // 7 + 1
    top = max(counts.values()) or 1
    lines = []
    for weekday, name in enumerate(["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]):
        cells = []
        for week in range(weeks):
            day = start + timedelta(days=7 * week + weekday)
            n = counts.get(day)
            if n is None:
                cells.append(" ")
            else:
                cells.append(SHADES[0 if n == 0 else 1 + min(3, (4 * n - 1) // top)])
        lines.append(f"  {name} {''.join(cells)}")
    lines.append(f"  ( ░▒▓█: up to {count_of(top, 'review')} a day)")
    return lines
