"""``recall reviews import FILE`` / ``recall reviews export [FILE]``: review logs as CSV.

The format is the FSRS tools' review-log CSV (:mod:`recall.interop.review_csv`). Imported
rows are matched to the learner's cards by ``deck/card`` id and feed the memory model's fit only
(they do not count as reviews drilled here); every row not used is listed with its row number
and the reason. Export writes the scheduled reviews of the log, formula-safe for spreadsheets.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from recall.wording import count_of

#: Larger files are refused before reading: a review log of a lifetime is far smaller.
MAX_FILE_BYTES = 200 * 1024 * 1024
#: Problems printed at most (the count of the rest is printed after them).
SHOWN_PROBLEMS = 50


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "reviews",
        help="import or export your review history as CSV",
        description="Exchange review logs with other FSRS tools (card_id, review_time in "
        "milliseconds, review_rating 1-4, optional review_state and review_duration).",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    importing = actions.add_parser("import", help="read a review-log CSV for the memory model")
    importing.add_argument("file", type=Path, help="the CSV file")
    exporting = actions.add_parser("export", help="write your review log as CSV")
    exporting.add_argument(
        "file", type=Path, nargs="?", help="where to write (default, or -: standard output)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from recall.commands import open_workspace
    from recall.errors import ConfigError
    from recall.memory import model as memory_model

    if args.action == "import":
        path: Path = args.file
        try:
            size = path.stat().st_size
        except OSError as error:
            raise ConfigError(f"{path}: cannot read it ({error.strerror})") from error
        if size > MAX_FILE_BYTES:
            raise ConfigError(f"{path}: {size} bytes is larger than a review log can be")
    workspace = open_workspace(args)
    store = workspace.store
    try:
        if args.action == "export":
            if args.file is None or str(args.file) == "-":  # '-': standard output, as usual
                count = memory_model.export_reviews(store, sys.stdout)
            else:
                with _open_for_writing(args.file) as stream:
                    count = memory_model.export_reviews(store, stream)
                print(f"{count_of(count, 'review')} written to {args.file}")
            return 0
        with _open_for_reading(args.file) as stream:
            report = memory_model.import_reviews(store, stream)
    finally:
        workspace.close()
    print(
        f"{count_of(report.added, 'review')} imported, "
        f"{report.already_there} {'was' if report.already_there == 1 else 'were'} already there."
    )
    if report.problem_count:
        print(f"{count_of(report.problem_count, 'row')} not used:")
        for problem in report.problems[:SHOWN_PROBLEMS]:
            print(f"  {problem}")
        shown = min(SHOWN_PROBLEMS, len(report.problems))
        if report.problem_count > shown:
            print(f"  ... and {report.problem_count - shown} more")
    return 0 if not report.problem_count else 1


def _open_for_reading(path: Path) -> TextIO:
    from recall.errors import ConfigError
    from recall.regular_files import open_regular_text

    try:
        return open_regular_text(path, encoding="utf-8-sig", newline="")
    except OSError as error:
        raise ConfigError(f"{path}: cannot read it ({error.strerror})") from error


def _open_for_writing(path: Path) -> TextIO:
    from recall.errors import ConfigError
    from recall.paths import open_private_for_writing

    try:
        return open_private_for_writing(path, newline="")
    except OSError as error:
        raise ConfigError(f"{path}: cannot write it ({error.strerror})") from error
