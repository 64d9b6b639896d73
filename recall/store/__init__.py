"""The store: the only package that speaks SQL.

Open it with :func:`open_store`; everything it returns is a plain frozen dataclass
(:mod:`recall.store.records`), so no caller ever holds a database session::

    store = open_store()                      # RECALL_DB / --db, else the SQLite file
    report = store.sync_decks(decks)          # new cards appear, edits keep state
    due = store.due_cards(now, limit=50)      # learning + review cards due now
    applied = store.apply_review(card.db_id, ReviewInput(...), schedule)  # committed on return
    store.undo_review(applied.entry.id)

Errors are :class:`recall.errors.StoreError`, with a message for a person. Alembic is imported
only when an old database must be migrated (see :mod:`recall.store.schema`).
"""

from __future__ import annotations

import os

from sqlalchemy import Engine
from sqlalchemy.engine import URL

from recall.errors import StoreError
from recall.paths import create_private_file, default_database_url, ensure_data_dir
from recall.store.engine import DATABASE_ERRORS, make_engine, parse_url, sqlite_path, store_error
from recall.store.learners import LEARNER_ENV, Learners, resolve_learner
from recall.store.models import DEFAULT_LEARNER
from recall.store.records import (
    AppliedReview,
    CardClaim,
    DeckCounts,
    ReviewEntry,
    ReviewInput,
    SessionInfo,
    StoredCard,
    SyncReport,
)
from recall.store.schema import HEAD, prepare
from recall.store.store import Store


def _prepared_engine(url: str | None) -> tuple[Engine, URL]:
    """An engine on a database made ready for this recall (created, checked or upgraded), for
    the URL as :func:`open_store` reads it (``None``: the default; a SQLite file is created
    ``0600`` in a folder that must exist, never in memory)."""
    if url is None:
        if not os.environ.get("RECALL_DB"):
            ensure_data_dir()
        url = default_database_url()
    parsed = parse_url(url)
    path = sqlite_path(parsed)
    if path is None and parsed.get_backend_name() == "sqlite":
        raise StoreError(
            f"{url!r} is a SQLite database in memory: recall would forget every review when it "
            "exits. Give --db a database file, e.g. sqlite:////path/to/recall.sqlite3"
        )
    if path is not None:
        if not path.parent.is_dir():
            raise StoreError(f"cannot create {path}: the folder {path.parent} does not exist")
        if path.is_dir():
            raise StoreError(f"{path} is a folder; --db needs a database file")
        if "mode" not in parsed.query:
            # SQLite would create it with the umask's mode (0644): the reviews are the
            # learner's alone. Its journal and WAL files take the database file's mode.
            try:
                create_private_file(path)
            except OSError:
                pass  # SQLite says why it cannot create it (a read-only folder, ...)
    engine = make_engine(parsed)
    try:
        prepare(engine, parsed)
    except DATABASE_ERRORS as error:
        engine.dispose()
        raise store_error(error, parsed) from error
    except BaseException:
        engine.dispose()
        raise
    return engine, parsed


def open_learners(url: str | None = None) -> Learners:
    """The learners of the database at ``url`` (``None`` as for :func:`open_store`), to add,
    list and remove them (``recall learners``; the database is created or upgraded first)."""
    engine, parsed = _prepared_engine(url)
    return Learners(engine, parsed)


def open_store(url: str | None = None, *, learner: int | str | None = None) -> Store:
    """Open (creating or upgrading if needed) the database at ``url``.

    ``None`` means :func:`recall.paths.default_database_url` (``RECALL_DB``, else
    ``recall.sqlite3`` in the data directory, which is created). Raises :class:`StoreError`
    for a bad URL, an in-memory SQLite database (nothing would be kept), a file that is not a
    recall database, a damaged or read-only file, or a database written by a newer recall.
    Every read and write of the store is ``learner``'s: an id, or a name looked up in
    ``learners`` (an unknown one is a :class:`StoreError`); ``None`` means ``RECALL_LEARNER``
    if set, else on PostgreSQL the learner whose role logged in, else learner 1 (a SQLite
    database's only one). See :func:`recall.store.learners.resolve_learner`.
    """
    engine, parsed = _prepared_engine(url)
    path = sqlite_path(parsed)
    if learner is None and not os.environ.get(LEARNER_ENV) and path is not None:
        learner = DEFAULT_LEARNER  # a SQLite file's one learner, without asking it
    if isinstance(learner, int):
        return Store(engine, parsed, learner_id=learner)
    try:
        with engine.connect() as conn:
            learner_id = resolve_learner(conn, learner)
    except DATABASE_ERRORS as error:
        engine.dispose()
        raise store_error(error, parsed) from error
    except BaseException:
        engine.dispose()
        raise
    return Store(engine, parsed, learner_id=learner_id)


__all__ = [
    "HEAD",
    "Learners",
    "AppliedReview",
    "CardClaim",
    "DeckCounts",
    "ReviewEntry",
    "ReviewInput",
    "SessionInfo",
    "Store",
    "StoreError",
    "StoredCard",
    "SyncReport",
    "open_learners",
    "open_store",
]
