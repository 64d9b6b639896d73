"""The ``recall`` subcommands, one module each (see :mod:`recall.cli`).

The global options ``--db`` and ``--decks`` reach a command as ``args.db`` and ``args.decks``;
the helpers here turn them into what the lower layers take, passed down explicitly (never by
rewriting the environment). A command's parser built on its own (as some tests do) has no
global options: the helpers then fall back to ``RECALL_DB`` / ``RECALL_DECKS`` and the defaults.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import TYPE_CHECKING

from recall.errors import ConfigError
from recall.inert import quote
from recall.paths import redact_url

if TYPE_CHECKING:
    from collections.abc import Callable

    from recall.config import Settings
    from recall.workspace import Workspace


def database_url(args: argparse.Namespace) -> str | None:
    """``--db``, if given (``None``: ``RECALL_DB``, else the SQLite file)."""
    return getattr(args, "db", None) or None


def learner_name(args: argparse.Namespace) -> str | None:
    """``--learner``, if given (``None``: ``RECALL_LEARNER``, else the learner who logged in,
    else the database's first; resolved by :func:`recall.store.open_store`)."""
    return getattr(args, "learner", None) or None


def learner_choice(args: argparse.Namespace) -> int | str | None:
    """The learner a command runs for: ``args.learner_id`` when a caller chose one by id
    (tests), else ``--learner`` (:func:`learner_name`)."""
    chosen = getattr(args, "learner_id", None)
    return chosen if chosen is not None else learner_name(args)


def custom_decks(args: argparse.Namespace) -> Path | None:
    """``--decks``, if given (``None``: ``RECALL_DECKS``, else the data directory's decks/)."""
    folder = getattr(args, "decks", None)
    return Path(folder).expanduser() if folder else None


def custom_folder(args: argparse.Namespace) -> Path:
    """The custom deck folder the arguments name, or the default one."""
    from recall.paths import custom_decks_dir

    return custom_decks(args) or custom_decks_dir()


def open_workspace(
    args: argparse.Namespace,
    *,
    settings: Settings | None = None,
    sync: bool = True,
    progress: Callable[[str], None] | None = None,
) -> Workspace:
    """The learner's workspace as the global options describe it (:func:`learner_choice` is
    whose it is); with ``sync`` the store is opened and brought in line
    with the deck files first (so counts never include a deleted deck), without it only the deck
    files are read. Shared decks a learner's login could not bring in line (another recall
    version's, on a shared database) are said on stderr, with whose move it is."""
    from recall.workspace import Workspace

    workspace = Workspace.open(
        settings,
        db_url=database_url(args),
        custom_decks=custom_decks(args),
        sync=sync,
        learner=learner_choice(args),
        progress=progress,
    )
    notice = workspace.shared_decks_notice
    if notice is not None:
        import sys

        print(f"recall: {notice}", file=sys.stderr)
    return workspace


_URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def precheck_database_url(url: str | None) -> None:
    """Refuse a database URL that cannot work, without importing SQLAlchemy: not a URL at all,
    or a SQLite file in a folder that does not exist. Raises :class:`ConfigError`."""
    if not url:
        return
    if not _URL_SCHEME.match(url):
        raise ConfigError(
            f"'{quote(redact_url(url))}' is not a database URL. Use e.g. "
            "sqlite:////path/to/recall.sqlite3 or postgresql+psycopg://user@host/dbname"
        )
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :].split("?", 1)[0]
        if path and path != ":memory:":
            folder = Path(path).expanduser().parent
            if not folder.is_dir():
                raise ConfigError(f"cannot create {path}: the folder {folder} does not exist")


def minutes_argument(text: str) -> float:
    """An argparse type: a number of minutes, more than 0 and at most a day (``recall exam
    --minutes``, ``recall serve --idle-minutes``); the error quotes the text bounded and inert."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"'{quote(text, 40)}' is not a number of minutes"
        ) from None
    if not 0 < value <= 24 * 60:
        raise argparse.ArgumentTypeError("minutes must be more than 0 and at most 1440")
    return value
