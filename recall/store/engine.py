"""Engines, per-connection SQLite setup, and database errors turned into sentences.

SQLite needs three things per connection that its defaults get wrong for us:

* ``foreign_keys=ON`` (off by default, per connection);
* ``synchronous=FULL``: with WAL, a committed review survives a power cut, not only a crash;
* ``busy_timeout``: a second recall process waits for the lock instead of failing at once.

WAL itself (readers do not block the writer) is a property stored in the database file, not
of a connection: :func:`use_wal` sets it once :mod:`.schema` knows the file is a recall
database, so a file that is not ours is never rewritten by merely being opened.

And the ``sqlite3`` driver must really begin transactions: on Python 3.11 it opens them lazily
and only before DML, so we switch its own handling off (``isolation_level = None``) and emit
``BEGIN`` ourselves from SQLAlchemy's ``begin`` event (SQLAlchemy's SQLite dialect docs,
"Serializable isolation / Savepoints / Transactional DDL"). Write transactions ask for
``BEGIN IMMEDIATE`` (execution option ``recall_write``): they take the write lock up front, so
two processes that read then write queue on the busy timeout instead of one of them failing
with "database is locked" when it upgrades a read lock.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, SQLAlchemyError

from recall.errors import StoreError

BUSY_TIMEOUT_MS = 15_000
WRITE = {"recall_write": True}


def parse_url(url: str) -> URL:
    """A SQLAlchemy URL, or a :class:`StoreError` that says what a URL looks like."""
    try:
        return make_url(url)
    except ArgumentError:
        raise StoreError(
            f"{url!r} is not a database URL. Use e.g. sqlite:////path/to/recall.sqlite3 or "
            "postgresql+psycopg://user@host/dbname"
        ) from None


def sqlite_path(url: URL) -> Path | None:
    """The file behind a SQLite URL, or ``None`` (another backend, or in-memory)."""
    if url.get_backend_name() != "sqlite":
        return None
    database = url.database or ""
    if database.startswith("file:"):  # a URI filename: sqlite:///file:/path?mode=ro&uri=true
        database = database.removeprefix("file:")
    if not database or database == ":memory:" or url.query.get("mode") == "memory":
        return None
    return Path(database)


def make_engine(url: URL) -> Engine:
    """An engine for ``url``, with the SQLite setup described above when it is SQLite."""
    try:
        if url.get_backend_name() == "sqlite":
            engine = create_engine(
                url,
                connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
            )
            _setup_sqlite(engine)
        else:
            engine = create_engine(url, pool_pre_ping=True)
    except (NoSuchModuleError, ImportError) as error:
        raise StoreError(
            f"no database driver for {url.render_as_string(hide_password=True)}: {error}. "
            "For PostgreSQL install recall[postgres] and use postgresql+psycopg://..."
        ) from None
    return engine


def _setup_sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: sqlite3.Connection, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.execute("PRAGMA synchronous = FULL")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        immediate = connection.get_execution_options().get("recall_write")
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def use_wal(engine: Engine) -> None:
    """Put a SQLite database (known to be recall's) in WAL mode; a no-op once it is, and for
    other backends. Runs outside any transaction, as SQLite requires."""
    if engine.dialect.name != "sqlite":
        return
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
        finally:
            cursor.close()
    finally:
        raw.close()


def store_error(error: BaseException, url: URL) -> StoreError:
    """A :class:`StoreError` a person can act on, for a driver or SQLAlchemy error."""
    where = _describe(url)
    text = str(getattr(error, "orig", None) or error)
    low = text.lower()
    path = sqlite_path(url)
    if "file is not a database" in low or "not a database" in low:
        return StoreError(
            f"{where} is not a recall database (it is not a SQLite database, or it is damaged). "
            "Nothing was changed. Point --db at your recall database, or move this file away "
            "and recall will create a new one."
        )
    if "malformed" in low or "corrupt" in low:
        return StoreError(
            f"{where} is damaged ({text}). Nothing was written to it. Restore a backup "
            "(recall keeps *.backup-* copies next to it before upgrades) or move it away."
        )
    if "readonly" in low or "read-only" in low or (path and _read_only(path)):
        return StoreError(
            f"{where} is read-only, and recall needs to write reviews to it. Check the file's "
            "and its folder's permissions, or point --db at a writable copy."
        )
    if "disk is full" in low or "database or disk is full" in low or "no space" in low:
        return StoreError(
            f"the disk holding {where} is full; the last change was not saved (the database "
            "is unharmed). Free some space and try again."
        )
    if "unable to open database file" in low:
        return StoreError(
            f"cannot open {where}: its folder does not exist or is not accessible. "
            "Check the path given with --db / RECALL_DB."
        )
    if "database is locked" in low:
        return StoreError(
            f"{where} stayed locked by another program for {BUSY_TIMEOUT_MS // 1000} s; "
            "close other recall windows and try again."
        )
    if isinstance(error, DBAPIError) and error.connection_invalidated or "connection" in low:
        return StoreError(f"cannot connect to {where}: {text.strip()}")
    return StoreError(f"database error on {where}: {text.strip()}")


def _describe(url: URL) -> str:
    path = sqlite_path(url)
    if path is not None:
        return str(path)
    return url.render_as_string(hide_password=True)


def _read_only(path: Path) -> bool:
    try:
        if path.exists():
            return not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK)
        return not os.access(path.parent, os.W_OK)
    except OSError:
        return False


#: Errors the store turns into :class:`StoreError` at its edge.
DATABASE_ERRORS: tuple[type[BaseException], ...] = (SQLAlchemyError, sqlite3.Error)
