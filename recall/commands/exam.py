"""``recall exam DATE [--deck ID …|--topic T] [--minutes N] [--json]``: ready by a date.

Every card of the chosen decks (all of them by default) is introduced early enough to be
reviewed at least twice before the exam, new cards are spread so no day takes more than the
daily minutes, and the last days go to the weakest cards (:mod:`recall.scheduling.exam`). The
plan shows the cards of each day and the predicted recall on the exam day; when no plan fits,
it says why and what would fit (more minutes, a later date, fewer cards). Nothing is changed.

With ``--follow`` the plan drives the days until the exam: each study day's new cards and the
desired retention come from it, made again every day from what was done (a missed day is spread
over the days left), the last days are reviews only, weakest first, and after the exam the normal
schedule is back by itself. ``recall exam --stop`` goes back to it at once.

Exit status: 0 when the plan is feasible (and followed, with ``--follow``), 1 when it is not,
2 for a bad argument.
"""

from __future__ import annotations

import argparse
import json
import sys

from recall.commands import minutes_argument


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "exam",
        help="plan the days to an exam so every card is ready by then",
        description="Introduce every card of the chosen decks early enough to review it at "
        "least twice before DATE, within the minutes you have each day; the last days go to "
        "the weakest cards. Shows each day's cards and the predicted recall on the exam day. "
        "Nothing is changed. Exit status 0: feasible; 1: not feasible (the reason is printed).",
    )
    parser.add_argument(
        "date", metavar="DATE", nargs="?", help="the exam day: 2026-12-24, +14, 14d or 3w"
    )
    following = parser.add_mutually_exclusive_group()
    following.add_argument(
        "--follow",
        action="store_true",
        help="follow the plan: until DATE each day's new cards and retention come from it",
    )
    following.add_argument(
        "--stop", action="store_true", help="stop following the exam plan (normal schedule)"
    )
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument(
        "--deck", action="append", default=[], metavar="ID", help="only this deck (repeatable)"
    )
    chosen.add_argument("--topic", metavar="T", help="only the cards of this topic")
    parser.add_argument(
        "--minutes",
        type=minutes_argument,
        metavar="N",
        help="minutes a day you can study (default: the session_minutes setting)",
    )
    parser.add_argument("--json", action="store_true", help="print the plan as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from recall.commands import open_workspace
    from recall.planning import exam_plan_dict, render_exam

    if args.stop:
        return _stop(args)
    if args.date is None:
        print("recall exam: give the exam DATE (or --stop)", file=sys.stderr)
        return 2
    workspace = open_workspace(args)
    try:
        if args.follow:
            plan = workspace.follow_exam(
                args.date, decks=args.deck, topic=args.topic, minutes=args.minutes
            )
        else:
            plan = workspace.plan_exam(
                args.date, decks=args.deck, topic=args.topic, minutes=args.minutes
            )
    finally:
        workspace.close()
    print(json.dumps(exam_plan_dict(plan), indent=2) if args.json else render_exam(plan))
    if args.follow and not args.json:
        print()
        if plan.feasible:
            print(
                f"Following this plan until {plan.exam.isoformat()}: each day's new cards and "
                "retention come from it, made again every study day from what you did; the last "
                "days are reviews only, weakest first. `recall exam --stop` returns to the "
                "normal schedule."
            )
        else:
            print("Not followed: no plan fits. Try one of the changes above.")
    return 0 if plan.feasible else 1


def _stop(args: argparse.Namespace) -> int:
    from recall.commands import open_workspace

    workspace = open_workspace(args, sync=False)
    try:
        stopped = workspace.stop_following_exam()
    finally:
        workspace.close()
    print(
        "Stopped following the exam plan: back to the normal schedule."
        if stopped
        else "No exam plan is followed."
    )
    return 0
