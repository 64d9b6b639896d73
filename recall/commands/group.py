"""``recall group report [--exam DATE] [--json]`` and ``recall group add-reader ROLE``: what
whoever runs a group may see, and the login that may see it.

A group reader logs in as a PostgreSQL role that may read per-card aggregates only, through a
view (:mod:`recall.store.group`): each shared card's miss rate and lapses across learners, the
ten most-missed formulas, and with ``--exam`` how many learners are on track (at least 90% of
their active cards in review and not due again before the exam day, so FSRS expects them
recalled then). Never a learner's name, answers or single reviews. ``add-reader`` is run by the
database's owner (docs/learners.md).
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, date, datetime, time
from pathlib import Path

from recall.errors import ConfigError
from recall.inert import quote


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "group",
        help="a shared database's figures across learners (per card, never a learner's)",
        description="For whoever runs a group on a shared PostgreSQL database: per-card "
        "figures across learners, read through a view that holds no learner's rows.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    report = actions.add_parser(
        "report",
        help="each card's miss rate and lapses, the most-missed formulas, who is on track",
    )
    report.add_argument(
        "--exam",
        metavar="DATE",
        help="count the learners on track for this exam day (2026-12-24, +14, 3w)",
    )
    report.add_argument("--json", action="store_true", help="print the figures as JSON")
    report.set_defaults(func=run_report)
    reader = actions.add_parser(
        "add-reader",
        help="create a login that may read the group's figures only (run as the owner)",
    )
    reader.add_argument("role", metavar="ROLE")
    reader.add_argument(
        "--password-file",
        metavar="FILE",
        type=Path,
        help="write the password to FILE (created with mode 600) instead of printing it",
    )
    reader.set_defaults(func=run_add_reader)


def _database(args: argparse.Namespace) -> str:
    import os

    from recall.commands import database_url

    url = database_url(args) or os.environ.get("RECALL_DB")
    if not url:
        raise ConfigError(
            "recall group needs the shared PostgreSQL database: give --db or RECALL_DB"
        )
    return url


def _exam_moment(text: str) -> tuple[date, datetime]:
    from recall.planning import parse_exam_date

    try:
        day = parse_exam_date(text, datetime.now(UTC).date())
    except ValueError as error:
        raise ConfigError(str(error)) from None
    return day, datetime.combine(day, time(0, 0), tzinfo=UTC)


def run_report(args: argparse.Namespace) -> int:
    from recall.store.group import read_group_report

    exam = _exam_moment(args.exam) if args.exam else None
    report = read_group_report(_database(args), exam[1] if exam else None)
    top = report.most_missed_formulas()
    on_track = None
    if report.learners is not None:
        on_track = sum(learner.on_track for learner in report.learners)
    if args.json:
        print(
            json.dumps(
                {
                    "cards": [
                        {
                            "deck": c.deck,
                            "card": c.card,
                            "kind": c.kind,
                            "learners": c.learners,
                            "reviews": c.reviews,
                            "misses": c.misses,
                            "miss_rate": c.miss_rate,
                            "lapses": c.lapses,
                        }
                        for c in report.cards
                    ],
                    "most_missed_formulas": [f"{c.deck}/{c.card}" for c in top],
                    "exam": exam[0].isoformat() if exam else None,
                    "learners": None if report.learners is None else len(report.learners),
                    "on_track": on_track,
                },
                indent=2,
            )
        )
        return 0
    reviewed = [c for c in report.cards if c.reviews]
    print(f"{len(reviewed)} of {len(report.cards)} shared cards reviewed by the group.")
    if reviewed:
        print("\nCard                                  learners  reviews  missed  lapses")
        ordered = sorted(reviewed, key=lambda c: (-(c.miss_rate or 0.0), c.deck, c.card))
        for c in ordered:
            name = quote(f"{c.deck}/{c.card}", 36)
            print(f"{name:<38}{c.learners:>8}{c.reviews:>9}{c.miss_rate or 0.0:>8.0%}{c.lapses:>8}")
    print("\nMost-missed formulas:")
    if not top:
        print("  none missed yet")
    for rank, c in enumerate(top, 1):
        print(
            f"  {rank:>2}. {quote(f'{c.deck}/{c.card}', 60)}: {c.misses} missed of "
            f"{c.reviews} ({c.miss_rate or 0.0:.0%})"
        )
    if exam is not None and report.learners is not None:
        print(
            f"\nOn track for {exam[0].isoformat()}: {on_track} of {len(report.learners)} "
            "learners (at least 90% of their active cards ready: in review and not due "
            "before the exam)."
        )
    return 0


def run_add_reader(args: argparse.Namespace) -> int:
    from recall.store import open_learners
    from recall.store.group import add_group_reader

    target: Path | None = args.password_file
    if target is not None and (target.exists() or target.is_symlink()):
        raise ConfigError(f"--password-file {quote(str(target))}: the file exists already")
    learners = open_learners(_database(args))  # created or upgraded, as the owner
    try:
        password = add_group_reader(learners.engine, args.role)
    finally:
        learners.close()
    print(f"Added group reader '{quote(args.role)}': it may read recall group report only.")
    if target is not None:
        from recall.paths import write_new_private_file

        try:
            write_new_private_file(target, password + "\n")
        except OSError as error:  # the role exists now: the password must not be lost
            print(
                f"recall: cannot write {quote(str(target))} ({error.strerror}); the password "
                "is printed below instead",
                file=sys.stderr,
            )
            print(f"Password (shown once, not kept anywhere): {password}")
        else:
            print(
                f"The password is in {quote(str(target))} (mode 600); it is not kept anywhere else."
            )
    else:
        print(f"Password (shown once, not kept anywhere): {password}")
    return 0
