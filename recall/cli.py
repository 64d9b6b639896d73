"""The ``recall`` command line.

A thin dispatcher: global options (``--db``, ``--decks``) are parsed here and passed down with
the arguments (``args.db``, ``args.decks``: see :mod:`recall.commands`), and each subcommand
lives in its own module under :mod:`recall.commands` exposing ``register(subparsers)``, which adds
its parser and sets ``func`` to a ``run(args) -> int`` callable. Command modules import their
heavy dependencies inside ``run`` so ``recall --help`` stays instant.

With no subcommand, ``recall`` opens the TUI home screen; given global options only, its
arguments are read without building the full parser (:func:`tui_arguments`), so no command
module is imported on the way to the home screen.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from recall import __version__
from recall.commands import precheck_database_url
from recall.errors import ConfigError, RecallError

#: Subcommand modules, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "recall.commands.check",
    "recall.commands.config",
    "recall.commands.decks",
    "recall.commands.stats",
    "recall.commands.drill",
    "recall.commands.today",
    "recall.commands.exam",
    "recall.commands.optimize",
    "recall.commands.plan",
    "recall.commands.reviews",
    "recall.commands.anki",
    "recall.commands.help",
    "recall.commands.serve",
    "recall.commands.learners",
    "recall.commands.group",
)


#: The global options, each of which takes a value (``--version`` and ``--help`` are the full
#: parser's).
GLOBAL_OPTIONS: tuple[str, ...] = ("--db", "--db-password-file", "--learner", "--decks")


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="recall",
        description="Drill machine-learning formulas with spaced repetition; typed math is "
        "graded by a computer algebra system.",
    )
    parser.add_argument("--version", action="version", version=f"recall {__version__}")
    _add_global_options(parser)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


def tui_arguments(argv: Sequence[str]) -> argparse.Namespace | None:
    """The arguments of ``recall`` given global options only (the TUI opens), parsed without
    the full parser: building it imports every command module (29 modules, 0.01 s of every
    start, 0.03 s without bytecode). ``None`` for anything else (a command, ``--help``,
    ``--version``, an abbreviated or unknown option, a missing value): the full parser reads
    it, so its errors and help read as ever."""
    at = 0
    while at < len(argv):
        name, has_value, _value = argv[at].partition("=")
        if name not in GLOBAL_OPTIONS:
            return None
        if not has_value:
            at += 1
            if at == len(argv) or argv[at].startswith("-"):
                return None
        at += 1
    parser = argparse.ArgumentParser(prog="recall", add_help=False, allow_abbrev=False)
    _add_global_options(parser)
    args = parser.parse_args(argv)
    args.command = None  # as the full parser says it: no command given
    return args


def _add_global_options(parser: argparse.ArgumentParser) -> None:
    """The options every command (and the TUI) takes: see :data:`GLOBAL_OPTIONS`."""
    parser.add_argument(
        "--db",
        metavar="URL",
        help="SQLAlchemy database URL (default: SQLite file in the data directory; env "
        "RECALL_DB). Keep a password out of it: every user sees it in ps. Use RECALL_DB, "
        "~/.pgpass (or PGPASSFILE) or --db-password-file",
    )
    parser.add_argument(
        "--db-password-file",
        metavar="FILE",
        type=Path,
        help="read the database password from the first line of FILE (mode 600) and add it "
        "to the --db / RECALL_DB URL, instead of writing it where ps shows it",
    )
    parser.add_argument(
        "--learner",
        metavar="NAME",
        help="the learner to run as, in a database several learners share (default: the one "
        "whose database login this is, else the database's first; env RECALL_LEARNER)",
    )
    parser.add_argument(
        "--decks",
        metavar="DIR",
        help="folder of custom decks (default: decks/ in the data directory; env RECALL_DECKS)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``recall`` console script; returns the exit status.

    Everything a command writes to stdout and stderr passes :func:`recall.inert.inert` on the
    way (:func:`~recall.inert.inert_output`): deck text, typed answers, file names and error
    messages never reach the terminal with a control character in them. Textual writes its
    own escape sequences to ``sys.__stderr__``, past it; the TUI's views make deck text inert.

    Ctrl-C while the parser is still being built (the command modules are imported then) is
    status 130 without a traceback, as it is once the command runs.
    """
    from recall.inert import inert_output

    try:
        with inert_output():
            given = list(sys.argv[1:] if argv is None else argv)
            args = tui_arguments(given) or build_parser().parse_args(given)
            return _run(args)
    except KeyboardInterrupt:
        return 130


def _run(args: argparse.Namespace) -> int:
    """Run the parsed command (or open the TUI) and turn a failure into one line and a status."""
    func = getattr(args, "func", None)
    try:
        _keep_password_private(args)
        refuse_missing_decks_folder(args.decks or os.environ.get("RECALL_DECKS"))
        status = _open_tui(args) if func is None else int(func(args) or 0)
        sys.stdout.flush()  # a closed pipe is found here, not after main has returned
        return status
    except RecallError as error:
        print(f"recall: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return _output_closed()
    except OSError as error:  # a file recall could not read or write: one line, not a traceback
        where = f"{error.filename}: " if error.filename else ""
        print(f"recall: {where}{error.strerror or error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _keep_password_private(args: argparse.Namespace) -> None:
    """Warn when ``--db`` carries a password (``ps`` shows it to every user); with
    ``--db-password-file``, add the file's password to the URL in memory."""
    from recall.db_secrets import apply_password_file, password_warning

    if args.db and (warning := password_warning(args.db)):
        print(warning, file=sys.stderr)
    if getattr(args, "db_password_file", None) is not None:
        args.db = apply_password_file(args.db or os.environ.get("RECALL_DB"), args.db_password_file)


def _output_closed() -> int:
    """The reader of our output went away (``recall decks list | head -1``): one line on stderr
    saying so, no traceback, and the status of a process ended by SIGPIPE."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # so the final flush at exit has nowhere to fail
    try:
        print("recall: the output was closed before everything was written", file=sys.stderr)
    except (OSError, ValueError):
        pass  # stderr is gone too: the status alone says it
    return 128 + 13


def _open_tui(args: argparse.Namespace) -> int:
    """Open the TUI home screen (imported only now: Textual is heavy).

    A database URL that is wrong on its face is refused here, before the screen opens; the
    store itself is opened (and any other problem reported) by the app, after the first frame.
    """
    from recall.commands import custom_decks, database_url, learner_name

    precheck_database_url(database_url(args) or os.environ.get("RECALL_DB"))
    from recall.tui.launch import run_app

    return run_app(
        db_url=database_url(args), custom_decks=custom_decks(args), learner=learner_name(args)
    )


def refuse_missing_decks_folder(folder: str | None) -> None:
    """A custom deck folder named with ``--decks`` (or ``RECALL_DECKS``) must exist: a typo would
    otherwise run with none of the learner's decks and say nothing. Raises :class:`ConfigError`.
    (The default folder in the data directory may be missing: it is created when first needed.)"""
    if not folder:
        return
    path = Path(folder).expanduser()
    if path.is_dir():
        return
    what = "is not a folder" if path.exists() else "does not exist"
    raise ConfigError(
        f"--decks {folder}: the folder {what}. Create it first (mkdir -p {folder}), "
        "or leave --decks out to use the decks folder in the data directory"
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
