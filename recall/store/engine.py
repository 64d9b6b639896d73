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

import logging
import math
import os
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, SQLAlchemyError

from recall.errors import StoreError
from recall.inert import quote
from recall.paths import redact_url

BUSY_TIMEOUT_MS = 15_000
WRITE = {"recall_write": True}
#: Seconds to wait for a PostgreSQL server to answer a new connection (a host that accepts the
#: TCP connection and then stays silent would otherwise hold recall for minutes); the URL's own
#: ``?connect_timeout=N`` wins.
CONNECT_TIMEOUT_S = 10
#: Longest file or folder name most file systems allow, in bytes.
NAME_MAX = 255


def parse_url(url: str) -> URL:
    """A SQLAlchemy URL that can be connected to, or a :class:`StoreError` saying why not.

    Checked here, before any driver sees it: a SQLite path must be a path (no NUL byte, no name
    over :data:`NAME_MAX` bytes; a leading ``~`` is the home folder), and the numeric options
    (SQLite's ``timeout``, PostgreSQL's ``connect_timeout``) must be numbers."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        raise StoreError(
            f"{quote(repr(redact_url(url)))} is not a database URL. Use e.g. "
            "sqlite:////path/to/recall.sqlite3 or postgresql+psycopg://user@host/dbname"
        ) from None
    if parsed.get_backend_name() != "sqlite" and url.count("@") > 1:
        # SQLAlchemy ends the password at the first "@" and takes the rest for the host (or,
        # past a "/" or "?", for the database or the query): the driver would then name that
        # "host", a piece of the password, in its error, and the URL's rendering would
        # percent-encode the rest. An "@" anywhere else in such a URL is written %40 as well.
        raise StoreError(
            "the database URL has more than one '@': a password holding one must write it as "
            "%40 (the URL is not shown: part of the password would be)"
        )
    if parsed.host:
        try:
            parsed.host.encode("idna")
        except UnicodeError:
            # A label over 63 characters (or empty): the driver's getaddrinfo would raise
            # UnicodeError, a traceback instead of a message.
            raise StoreError(
                f"the host '{quote(parsed.host)}' is not a host name (each dot-separated part "
                "is 1 to 63 characters)"
            ) from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        parsed = _checked_sqlite(parsed)
        _number_option(parsed, "timeout")
    elif backend == "postgresql":
        _number_option(parsed, "connect_timeout")
    return parsed


def _checked_sqlite(url: URL) -> URL:
    database = url.database or ""
    if "\x00" in database or "%00" in database:  # (older SQLAlchemy leaves %00 undecoded)
        raise StoreError(f"the database path in {redacted(url)} contains a NUL byte (%00)")
    if database.startswith("~"):
        database = str(Path(database).expanduser())
        url = url.set(database=database)
    for part in Path(database.removeprefix("file:")).parts:
        size = len(os.fsencode(part))
        if size > NAME_MAX:
            raise StoreError(
                f"the database path has a name of {size} bytes ({part[:24]}…); file systems "
                f"allow at most {NAME_MAX}"
            )
    return url


def _number_option(url: URL, name: str) -> None:
    value = url.query.get(name)
    if value is None:
        return
    text = value if isinstance(value, str) else value[-1]
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not (math.isfinite(number) and number >= 0):
        raise StoreError(
            f"?{name}={text} in {redacted(url)} is not a number of seconds (e.g. ?{name}=10)"
        )


def redacted(url: URL) -> str:
    """``url`` for a message: its password, and any password in its query, as ``***``."""
    return redact_url(url.render_as_string(hide_password=True))


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


class _UnlessInterrupted(logging.Handler):
    """What SQLAlchemy's pool logs, printed as Python's last-resort handler prints it (warnings
    and errors to the current standard error), except a record about a Ctrl-C. A Ctrl-C that
    lands while the pool closes a connection is logged with its traceback ("Exception closing
    connection ... KeyboardInterrupt") before the interrupt goes on to end recall quietly with
    status 130; that traceback is noise. (A filter on the "sqlalchemy.pool" logger would not
    see it: the pool logs on loggers below it, and a logger's filters do not apply to records
    propagated from below; a handler's do.)"""

    def emit(self, record: logging.LogRecord) -> None:
        kind = record.exc_info[0] if record.exc_info else None
        if kind is not None and issubclass(kind, (KeyboardInterrupt, SystemExit)):
            return
        if logging.lastResort is not None and not logging.getLogger().handlers:
            logging.lastResort.handle(record)  # as when no handler is set up (else root has it)


logging.getLogger("sqlalchemy.pool").addHandler(_UnlessInterrupted())


def make_engine(url: URL) -> Engine:
    """An engine for ``url``, with the SQLite setup described above when it is SQLite."""
    if url.get_backend_name() == "postgresql":
        from recall.store.models import use_on_postgresql

        use_on_postgresql()  # the partial indexes' WHERE, declared for SQLite only (see there)
    try:
        if url.get_backend_name() == "sqlite":
            engine = create_engine(
                url,
                connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
            )
            _setup_sqlite(engine)
        elif url.get_backend_name() == "postgresql" and "connect_timeout" not in url.query:
            engine = create_engine(
                url, pool_pre_ping=True, connect_args={"connect_timeout": CONNECT_TIMEOUT_S}
            )
        else:
            engine = create_engine(url, pool_pre_ping=True)
    except (NoSuchModuleError, ImportError) as error:
        raise StoreError(
            f"no database driver for {redacted(url)}: {error}. "
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
    # One line, and never a secret the driver may have echoed.
    text = driver_sentences(redact_url(str(getattr(error, "orig", None) or error)))
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
    if path is not None and _unreadable(path):
        return StoreError(
            f"cannot read {where}: permission denied (mode {_mode(path)}). Check the file's "
            "permissions (chmod u+rw), or point --db at another file."
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
    if "timeout expired" in low or "timed out" in low:
        waited = url.query.get("connect_timeout", CONNECT_TIMEOUT_S)
        return StoreError(
            f"{where} did not answer within {waited} s: check the host and port (a database "
            "server that is up answers at once), or wait longer with ?connect_timeout=N"
        )
    if isinstance(error, DBAPIError) and error.connection_invalidated or "connection" in low:
        return StoreError(f"cannot connect to {where}: {text.strip()}")
    return StoreError(f"database error on {where}: {text.strip()}")


def driver_sentences(text: str) -> str:
    """A driver's message on one line, its lines kept apart as sentences.

    Drivers write one thought a line without end punctuation (psycopg: "...failed: Connection
    refused" then "Is the server running..."); joined with only a space they ran together into
    one unreadable sentence. Each line that does not end in punctuation gets a full stop.
    """
    lines = [" ".join(line.split()) for line in text.splitlines()]
    lines = [line for line in lines if line]
    return " ".join(
        line if index == len(lines) - 1 or line[-1] in _SENTENCE_ENDS else f"{line}."
        for index, line in enumerate(lines)
    )


_SENTENCE_ENDS = frozenset(".!?:;,")


def _describe(url: URL) -> str:
    path = sqlite_path(url)
    if path is not None:
        return str(path)
    return redacted(url)


def _unreadable(path: Path) -> bool:
    """A file that exists but cannot be read (mode 000, another user's): not "read-only"."""
    try:
        return path.exists() and not os.access(path, os.R_OK)
    except OSError:
        return False


def _mode(path: Path) -> str:
    try:
        return oct(path.stat().st_mode & 0o777)[2:].zfill(3)
    except OSError:
        return "unknown"


def _read_only(path: Path) -> bool:
    try:
        if path.exists():
            return not os.access(path, os.W_OK) or not os.access(path.parent, os.W_OK)
        return not os.access(path.parent, os.W_OK)
    except OSError:
        return False


#: Errors the store turns into :class:`StoreError` at its edge.
DATABASE_ERRORS: tuple[type[BaseException], ...] = (SQLAlchemyError, sqlite3.Error)
