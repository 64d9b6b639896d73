"""``recall exam DATE [--deck ID …|--topic T] [--minutes N] [--json]``: ready by a date.

Every card of the chosen decks (all of them by default) is introduced early enough to be
reviewed at least twice before the exam, new cards are spread so no day takes more than the
daily minutes, and the last days go to the weakest cards (:mod:`recall.scheduling.exam`). The
plan shows the cards of each day and the predicted recall on the exam day; when no plan fits,
it says why and what would fit (more minutes, a later date, fewer cards). Nothing is changed.

Exit status: 0 when the plan is feasible, 1 when it is not, 2 for a bad argument.
"""

from __future__ import annotations

import argparse
import json
import re
from datetime import date, timedelta
from typing import TYPE_CHECKING

from recall.wording import count_of

if TYPE_CHECKING:
    from recall.scheduling.exam import ExamPlan

_RELATIVE = re.compile(r"^\+?(\d{1,4})\s*(d|days?|w|weeks?)$")


def parse_exam_date(text: str, today: date) -> date:
    """``2026-12-24``, or a distance from ``today``: ``+14``/``14d`` days, ``3w`` weeks.
    Raises ``argparse.ArgumentTypeError`` for anything else."""
    cleaned = text.strip().lower()
    if cleaned.startswith("+") and cleaned[1:].isdigit() and len(cleaned) <= 5:
        return today + timedelta(days=int(cleaned[1:]))
    match = _RELATIVE.match(cleaned)
    if match:
        amount = int(match.group(1))
        return today + timedelta(days=amount * (7 if match.group(2).startswith("w") else 1))
    try:
        return date.fromisoformat(cleaned)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text[:40]!r} is not a date: give it as 2026-12-24, or +14 / 14d / 3w from today"
        ) from None


def _minutes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a number of minutes") from None
    if not 0 < value <= 24 * 60:
        raise argparse.ArgumentTypeError("minutes a day must be more than 0 and at most 1440")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "exam",
        help="plan the days to an exam so every card is ready by then",
        description="Introduce every card of the chosen decks early enough to review it at "
        "least twice before DATE, within the minutes you have each day; the last days go to "
        "the weakest cards. Shows each day's cards and the predicted recall on the exam day. "
        "Nothing is changed. Exit status 0: feasible; 1: not feasible (the reason is printed).",
    )
    parser.add_argument("date", metavar="DATE", help="the exam day: 2026-12-24, +14, 14d or 3w")
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument(
        "--deck", action="append", default=[], metavar="ID", help="only this deck (repeatable)"
    )
    chosen.add_argument("--topic", metavar="T", help="only the cards of this topic")
    parser.add_argument(
        "--minutes",
        type=_minutes,
        metavar="N",
        help="minutes a day you can study (default: the session_minutes setting)",
    )
    parser.add_argument("--json", action="store_true", help="print the plan as JSON")
    parser.set_defaults(func=run)


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def render(plan: ExamPlan) -> str:
    """The plan as plain text for a terminal."""
    days = (plan.exam - plan.today).days
    cards = len(plan.reviews_before)
    new = sum(len(d.new) for d in plan.days)
    pace = "your pace" if plan.pace.measured else "a first-week pace until the log has yours"
    out = [
        f"Exam on {plan.exam.isoformat()} ({count_of(days, 'day')} from {plan.today.isoformat()}): "
        f"{count_of(cards, 'card')}, {count_of(plan.daily_minutes, 'minute')} a day "
        f"({pace}: {plan.pace.review_seconds:.0f} s a review, "
        f"{plan.pace.new_card_seconds:.0f} s a new card)."
    ]
    if not plan.feasible:
        out += ["", "Not feasible:"]
        out += [f"  - {problem}" for problem in plan.problems]
        if plan.suggestions:
            out += ["", "What would make it feasible:"]
            out += [f"  - {suggestion}" for suggestion in plan.suggestions]
        return "\n".join(out)
    by_deck = plan.recall_by_deck()
    out += [
        f"Feasible: {new} new cards introduced, and every card reviewed at least twice before "
        "the exam.",
        f"Predicted recall on the exam day: {_pct(plan.predicted_recall)} "
        "(FSRS, if every review is answered right)",
    ]
    if len(by_deck) > 1:
        weakest = sorted(by_deck.items(), key=lambda item: item[1])[:5]
        out.append("weakest decks then: " + ", ".join(f"{d} {_pct(r)}" for d, r in weakest))
    out += ["", "day          new  reviews  weakest  minutes"]
    for day in plan.days:
        out.append(
            f"{day.day.isoformat()}  {len(day.new):>4} {len(day.reviews):>8} "
            f"{len(day.weakest):>8} {day.minutes:>8g}"
        )
    return "\n".join(out)


def run(args: argparse.Namespace) -> int:
    from recall.commands import open_workspace
    from recall.errors import ConfigError
    from recall.planning import exam_cards, learner_pace
    from recall.scheduling.day import study_date
    from recall.scheduling.exam import MAX_DAYS, plan_exam

    workspace = open_workspace(args)
    try:
        settings = workspace.settings
        now = workspace.clock()
        today = study_date(now, settings.day_rollover_hour)
        try:
            exam = parse_exam_date(args.date, today)
        except argparse.ArgumentTypeError as error:
            raise ConfigError(str(error)) from None
        if (exam - today).days > MAX_DAYS:
            raise ConfigError(
                f"the exam is more than {MAX_DAYS} days away: the normal schedule prepares for "
                "it (`recall today`)"
            )
        known = {deck.id for deck in workspace.decks}
        unknown = sorted(set(args.deck) - known)
        if unknown:
            raise ConfigError(
                f"no deck {', '.join(unknown)}; the decks are: {', '.join(sorted(known))}"
            )
        cards = exam_cards(
            workspace.store,
            workspace.cards,
            decks=args.deck,
            topic=args.topic,
            seed=today.toordinal(),
        )
        if not cards:
            raise ConfigError(
                f"no cards to prepare{f' in topic {args.topic!r}' if args.topic else ''}"
            )
        scheduler = settings.scheduler_settings()
        plan = plan_exam(
            cards,
            today=today,
            exam=exam,
            daily_minutes=args.minutes or settings.session_minutes,
            pace=learner_pace(workspace.store, now),
            parameters=scheduler.parameters,
            desired_retention=scheduler.desired_retention,
        )
    finally:
        workspace.close()
    print(json.dumps(plan.to_dict(), indent=2) if args.json else render(plan))
    return 0 if plan.feasible else 1
