"""The ``recall`` command line.

A thin dispatcher: global options (``--db``, ``--decks``) are parsed here and passed down with
the arguments (``args.db``, ``args.decks``: see :mod:`recall.commands`), and each subcommand
lives in its own module under :mod:`recall.commands` exposing ``register(subparsers)``, which adds
its parser and sets ``func`` to a ``run(args) -> int`` callable. Command modules import their
heavy dependencies inside ``run`` so ``recall --help`` stays instant.

With no subcommand, ``recall`` opens the TUI home screen.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from recall import __version__
from recall.errors import ConfigError, RecallError
from recall.paths import redact_url

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
    "recall.commands.help",
)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="recall",
        description="Drill machine-learning formulas with spaced repetition; typed math is "
        "graded by a computer algebra system.",
    )
    parser.add_argument("--version", action="version", version=f"recall {__version__}")
    parser.add_argument(
        "--db",
        metavar="URL",
        help="SQLAlchemy database URL (default: SQLite file in the data directory; env RECALL_DB)",
    )
    parser.add_argument(
        "--decks",
        metavar="DIR",
        help="folder of custom decks (default: decks/ in the data directory; env RECALL_DECKS)",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``recall`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    try:
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
    from recall.commands import custom_decks, database_url

    precheck_database_url(database_url(args) or os.environ.get("RECALL_DB"))
    from recall.tui.launch import run_app

    return run_app(db_url=database_url(args), custom_decks=custom_decks(args))


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


_URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def precheck_database_url(url: str | None) -> None:
    """Refuse a database URL that cannot work, without importing SQLAlchemy: not a URL at all,
    or a SQLite file in a folder that does not exist. Raises :class:`ConfigError`."""
    if not url:
        return
    if not _URL_SCHEME.match(url):
        raise ConfigError(
            f"'{redact_url(url)}' is not a database URL. Use e.g. "
            "sqlite:////path/to/recall.sqlite3 or postgresql+psycopg://user@host/dbname"
        )
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :].split("?", 1)[0]
        if path and path != ":memory:":
            folder = Path(path).expanduser().parent
            if not folder.is_dir():
                raise ConfigError(f"cannot create {path}: the folder {folder} does not exist")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
