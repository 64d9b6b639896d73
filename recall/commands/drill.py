"""``recall drill``: straight into a drill session in the TUI, then its summary.

``--minutes N`` (default: the ``session_minutes`` setting, ten) or ``--cards N`` sets the budget;
``--deck ID`` (repeatable) and ``--topic T`` narrow the cards; ``--cram`` drills without touching
the schedule. Textual is imported only when the command runs, so ``recall --help`` stays instant.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from recall.inert import quote

if TYPE_CHECKING:
    from recall.tui.views import SessionPlan


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{quote(repr(text))} is not a number of minutes"
        ) from None
    if not 0 < value <= 24 * 60:
        raise argparse.ArgumentTypeError("minutes must be more than 0 and at most 1440")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{quote(repr(text))} is not a whole number of cards"
        ) from None
    if value <= 0:
        raise argparse.ArgumentTypeError("the card count must be at least 1")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "drill",
        help="start a drill session in the TUI",
        description="Open the TUI straight into a drill session; the summary follows it. "
        "Ctrl-C leaves at any moment with every answer saved.",
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument(
        "--minutes", type=_positive_float, metavar="N", help="time budget (default: 10 minutes)"
    )
    budget.add_argument("--cards", type=_positive_int, metavar="N", help="card budget")
    parser.add_argument(
        "--deck", action="append", default=[], metavar="ID", help="only this deck (repeatable)"
    )
    parser.add_argument("--topic", metavar="T", help="only decks of this topic")
    parser.add_argument(
        "--cram", action="store_true", help="drill any cards without changing the schedule"
    )
    parser.set_defaults(func=run)


def plan_from_args(args: argparse.Namespace, default_minutes: float = 10.0) -> SessionPlan:
    """The :class:`recall.tui.views.SessionPlan` the arguments describe."""
    from recall.session import Mode
    from recall.tui.views import SessionPlan

    minutes = args.minutes
    if minutes is None and args.cards is None:
        minutes = default_minutes
    return SessionPlan(
        minutes=minutes,
        cards=args.cards,
        deck_ids=tuple(args.deck),
        topic=args.topic,
        mode=Mode.CRAM if args.cram else Mode.NORMAL,
    )


def run(args: argparse.Namespace) -> int:
    from recall.commands import custom_decks, database_url
    from recall.tui.launch import run_app
    from recall.tui.settings import read_settings

    settings, problem = read_settings()  # read once: the app gets the same settings
    plan = plan_from_args(args, settings.session_minutes)
    return run_app(
        plan=plan,
        settings=settings,
        settings_problem=problem,
        db_url=database_url(args),
        custom_decks=custom_decks(args),
    )
