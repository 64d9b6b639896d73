"""Bring a database to the schema this recall knows: create, check, upgrade, or refuse.

What Optuna and MLflow do: a new database gets every table from the models and is stamped at
the head revision; an older one is upgraded by the Alembic migrations shipped in
``recall/store/migrations`` (after a backup copy, for SQLite); one from a newer recall is
refused. Checking the revision is one plain query, so Alembic (hundreds of milliseconds to
import) is loaded only when a migration really runs.

The check runs in a write transaction: two processes opening a brand-new database at once
cannot both create it, and a read-only or damaged file is found here, before any work is done.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Connection, Engine, inspect, text
from sqlalchemy.engine import URL
from sqlalchemy.exc import ProgrammingError

from recall import __version__
from recall.errors import StoreError
from recall.paths import create_private_file
from recall.store import rls
from recall.store.engine import WRITE, redacted, sqlite_path, use_wal
from recall.store.models import DEFAULT_LEARNER, PER_LEARNER_TABLES, metadata

#: Every schema revision this recall can read, oldest first; the last is the head.
#: A test checks this against the migration scripts.
REVISIONS: tuple[str, ...] = (
    "0001",
    "0002",
    "0003",
    "0004",
    "0005",
    "0006",
    "0007",
    "0008",
    "0009",
    "0010",
    "0011",
)
HEAD = REVISIONS[-1]
APP_MARK = "recall"

#: Whether :func:`prepare` may create or upgrade a database in this process (see
#: :func:`only_ready_databases`).
_may_change = True


def only_ready_databases() -> None:
    """From now on, in this process, :func:`prepare` refuses (:class:`StoreError`) a database
    it would have to create or upgrade, before changing anything in it. For a process that
    only reads ahead for another, which does the creating or upgrading itself and reports what
    goes wrong (the TUI's prefetching child, :mod:`recall.tui.home_prefetch`): a migration run
    twice, or cut short by a kill, would leave a second backup behind."""
    global _may_change
    _may_change = False


def _refuse_change(url: URL, change: str) -> None:
    if not _may_change:
        where = str(sqlite_path(url) or redacted(url))
        raise StoreError(f"{where} must be {change} first; not in this process")


def prepare(engine: Engine, url: URL) -> str:
    """Make the database at ``engine`` ready for this recall; returns what was done
    (``"created"``, ``"current"`` or ``"upgraded from <rev>"``)."""
    done = _create_or_check(engine, url)
    use_wal(engine)  # only now: the file is known to be a recall database
    return done


def _create_or_check(engine: Engine, url: URL) -> str:
    with engine.connect().execution_options(**WRITE) as conn:
        with conn.begin():
            _lock_for_setup(conn)
            inspector = inspect(conn)
            tables = set(inspector.get_table_names())
            views = set(inspector.get_view_names())
            if not tables and not views:  # a view alone still makes the database someone's
                _refuse_change(url, "created")
                _create(conn)
                return "created"
            revision = _identify(conn, tables | views, url)
            if revision == HEAD:
                _touch(conn)
                return "current"
    _refuse_change(url, f"upgraded from schema {revision}")
    _upgrade(engine, url, revision)
    return f"upgraded from {revision}"


def _lock_for_setup(conn: Connection) -> None:
    """On PostgreSQL, serialise concurrent first opens (SQLite's BEGIN IMMEDIATE already does)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(727274)"))


def _create(conn: Connection) -> None:
    metadata.create_all(conn)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    conn.execute(
        text(
            "INSERT INTO recall_meta (key, value) VALUES ('app', :app), ('created_at', :now), "
            "('created_by', :version), ('last_opened_at', :now)"
        ),
        {"app": APP_MARK, "now": now, "version": __version__},
    )
    conn.execute(  # the one learner of a new database (what migration 0008 makes of an old one)
        text(
            "INSERT INTO learners (id, name, role_name, created_at) VALUES (:id, 'you', NULL, :at)"
        ),
        {"id": DEFAULT_LEARNER, "at": int(datetime.now(UTC).timestamp() * 1000)},
    )
    conn.execute(
        text(
            "CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL, "
            "CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num))"
        )
    )
    conn.execute(text("INSERT INTO alembic_version (version_num) VALUES (:rev)"), {"rev": HEAD})
    # PostgreSQL: what migrations 0010 and 0011 make of an old one
    rls.install(conn, PER_LEARNER_TABLES)
    rls.seal_shared_rows(conn)


def _identify(conn: Connection, tables: set[str], url: URL) -> str:
    """The schema revision of an existing database, or a :class:`StoreError` if it is not ours
    or is newer than this recall."""
    where = str(sqlite_path(url) or redacted(url))
    if "recall_meta" not in tables or "alembic_version" not in tables:
        raise StoreError(
            f"{where} is a database, but not a recall database (it has tables "
            f"{', '.join(sorted(tables)[:5])}). Nothing was changed. Point --db at your recall "
            "database, or at a new file."
        )
    app = conn.execute(text("SELECT value FROM recall_meta WHERE key = 'app'")).scalar()
    revisions = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    if app != APP_MARK or not revisions:
        raise StoreError(
            f"{where} is not a recall database (no recall marker). Nothing was changed."
        )
    if len(revisions) != 1:
        raise StoreError(
            f"{where} has {len(revisions)} schema versions ({', '.join(map(str, revisions))}); "
            "a recall database has exactly one, so it was damaged by hand or another tool. "
            "Nothing was changed. Restore a backup, or delete the extra row from alembic_version."
        )
    revision = revisions[0]
    if revision not in REVISIONS:
        raise StoreError(
            f"{where} was written by a newer recall (schema {revision}; this recall {__version__} "
            f"knows up to {HEAD}). Nothing was changed. Upgrade recall to use it."
        )
    return str(revision)


def _touch(conn: Connection) -> None:
    """Record the open. It is also the write probe: a read-only file fails here, at startup."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    conn.execute(
        text("UPDATE recall_meta SET value = :now WHERE key = 'last_opened_at'"), {"now": now}
    )


def backup_sqlite(path: Path, revision: str) -> Path:
    """Copy a SQLite database (consistently, with the online backup API) before a migration."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    target = path.with_name(f"{path.name}.backup-{revision}-{stamp}")
    create_private_file(target)  # a copy of the learner's reviews is as private as they are
    source = sqlite3.connect(str(path))
    try:
        dest = sqlite3.connect(str(target))
        try:
            source.backup(dest)
        finally:
            dest.close()
    finally:
        source.close()
    return target


def _upgrade(engine: Engine, url: URL, revision: str) -> None:
    """Run the migrations from ``revision`` to head in one transaction (after a backup)."""
    path = sqlite_path(url)
    if path is not None:
        backup_sqlite(path, revision)
    from recall.store.migrate import upgrade  # imports Alembic: only now

    with engine.connect().execution_options(**WRITE) as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:  # see _check_foreign_keys
            conn.connection.driver_connection.execute("PRAGMA foreign_keys = OFF")  # type: ignore[union-attr]
        try:
            with conn.begin():
                _lock_for_setup(conn)
                upgrade(conn, "head")
                if sqlite:
                    _check_foreign_keys(conn)
                _touch(conn)
        except ProgrammingError as error:
            if sqlite or not _not_permitted(error):
                raise
            raise StoreError(  # a learner's login on a shared server (docs/learners.md)
                f"{redacted(url)} needs an upgrade from schema {revision} to {HEAD}, and this "
                "login may not change the tables: only the database's owner can. Ask whoever "
                "runs the server to open it once as the owner with this recall. Nothing was "
                "changed."
            ) from error
        finally:
            if sqlite:
                conn.connection.driver_connection.execute("PRAGMA foreign_keys = ON")  # type: ignore[union-attr]


def _not_permitted(error: ProgrammingError) -> bool:
    """PostgreSQL refused a statement for the login's want of privilege."""
    text_ = str(error.orig).lower()
    return "permission denied" in text_ or "must be owner" in text_


def _check_foreign_keys(conn: Connection) -> None:
    """SQLite alters a table by building a copy and dropping the original, and with foreign keys
    on, dropping a table other rows point at fails (``sessions``, under ``review_log``). So a
    SQLite upgrade runs with them off (a pragma that only takes effect outside a transaction,
    SQLite's own recipe) and checks every reference here, before its transaction commits."""
    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").first()
    if broken is not None:
        raise StoreError(
            f"the upgrade would leave a {broken[0]} row pointing at a missing {broken[2]} row; "
            "nothing was changed"
        )
