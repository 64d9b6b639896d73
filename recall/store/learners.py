"""The learners of a shared PostgreSQL database: adding one (a login role and a row), listing,
removing one with all their data, and finding the learner a store is opened for.

Run by the owner (the role that ran the migrations, with ``CREATEROLE``): see
``docs/learners.md``. Every name is untrusted text: it is refused with a control, bidi or
zero-width character (:mod:`recall.inert`), bounded to PostgreSQL's 63-byte identifiers, and
reaches SQL only as a bound parameter; a role name is quoted by the server (``format('%I')``),
never pasted into a statement here. The password is generated here and sent only as a
SCRAM-SHA-256 verifier, so the server (and its statement log) never sees it in clear.

A SQLite database has one learner (learner 1, ``you``): adding one is refused with a sentence
saying so, since a file any learner can open cannot keep learners apart.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, delete, insert, select, text
from sqlalchemy.engine import URL

from recall.errors import StoreError
from recall.inert import describe_char, first_invisible, quote
from recall.store.engine import DATABASE_ERRORS
from recall.store.models import (
    DEFAULT_LEARNER,
    PER_LEARNER_TABLES,
    QUEUE_NEW,
    QUEUE_RETIRED,
    CardRow,
    CardStateRow,
    DeckRow,
    LearnerRow,
)
from recall.store.rls import CURRENT_LEARNER, GRANT_LEARNER

#: PostgreSQL's identifier limit, in bytes (a longer role name would be cut, silently).
NAME_BYTES = 63
#: The environment variable naming the learner a command runs for (``--learner`` wins).
LEARNER_ENV = "RECALL_LEARNER"
#: Rows are deleted children first (review_log and card_claims point at sessions).
DELETE_ORDER = (
    "card_claims",
    "review_log",
    "imported_reviews",
    "parameter_sets",
    "card_state",
    "sessions",
)

#: A learner's role is dropped after its privileges here are revoked (the owner may not
#: ``DROP OWNED BY`` a role it is not a member of). ``%1$I`` the schema, ``%2$I`` the role,
#: ``%3$I`` the database.
REMOVE_ROLE = (
    "REVOKE ALL ON ALL TABLES IN SCHEMA %1$I FROM %2$I",
    "REVOKE ALL ON ALL SEQUENCES IN SCHEMA %1$I FROM %2$I",
    "REVOKE ALL ON DATABASE %3$I FROM %2$I",
    "DROP ROLE %2$I",
)


@dataclass(frozen=True)
class LearnerInfo:
    """One learner: the id their rows carry, their name, their login role (``None``: none)."""

    id: int
    name: str
    role_name: str | None
    created_at: datetime


@dataclass(frozen=True)
class AddedLearner:
    learner: LearnerInfo
    password: str


def checked_name(name: str, what: str = "a learner's name") -> str:
    """``name`` if it can be a learner's name and login role, else a :class:`StoreError`."""
    if not name or not name.strip():
        raise StoreError(f"{what} may not be empty")
    bad = first_invisible(name)
    if bad is not None:
        raise StoreError(
            f"{what} may not hold {describe_char(name[bad])} (character {bad + 1}): "
            f"'{quote(name, 40)}'"
        )
    if len(name.encode("utf-8")) > NAME_BYTES:
        raise StoreError(
            f"{what} '{quote(name, 40)}' is longer than PostgreSQL's {NAME_BYTES} bytes"
        )
    if name.lower().startswith("pg_"):
        raise StoreError(f"{what} may not start with 'pg_' (PostgreSQL keeps those for itself)")
    return name


def scram_verifier(password: str, *, iterations: int = 4096) -> str:
    """The SCRAM-SHA-256 verifier PostgreSQL stores for ``password`` (RFC 5802/7677; what
    ``psql``'s ``\\password`` sends), so ``CREATE ROLE`` never carries the password itself."""
    salt = os.urandom(16)
    salted = hashlib.pbkdf2_hmac("sha256", password.encode("utf-8"), salt, iterations)
    client_key = hmac.new(salted, b"Client Key", hashlib.sha256).digest()
    stored_key = hashlib.sha256(client_key).digest()
    server_key = hmac.new(salted, b"Server Key", hashlib.sha256).digest()

    def b64(raw: bytes) -> str:
        return base64.b64encode(raw).decode("ascii")

    return f"SCRAM-SHA-256${iterations}:{b64(salt)}${b64(stored_key)}:{b64(server_key)}"


def _require_postgresql(conn: Connection, doing: str) -> None:
    if conn.dialect.name != "postgresql":
        raise StoreError(
            f"cannot {doing}: a SQLite database has one learner (you). Several learners share "
            "a PostgreSQL database, each with their own login: see `recall help learners`"
        )


def _info(row: Any) -> LearnerInfo:
    return LearnerInfo(
        id=int(row.id), name=str(row.name), role_name=row.role_name, created_at=row.created_at
    )


def list_learners(conn: Connection) -> list[LearnerInfo]:
    """Every learner this login may see (the owner: all; a learner: themself), by id."""
    rows = conn.execute(
        select(
            LearnerRow.id, LearnerRow.name, LearnerRow.role_name, LearnerRow.created_at
        ).order_by(LearnerRow.id)
    ).all()
    return [_info(row) for row in rows]


def find_learner(conn: Connection, name: str) -> LearnerInfo:
    """The learner called ``name``, or a :class:`StoreError` naming the ones there are."""
    row = conn.execute(
        select(LearnerRow.id, LearnerRow.name, LearnerRow.role_name, LearnerRow.created_at).where(
            LearnerRow.name == bindparam("name", name)
        )
    ).first()
    if row is None:
        known = [learner.name for learner in list_learners(conn)]
        listed = ", ".join(f"'{quote(n, 40)}'" for n in known[:10]) or "none you may see"
        raise StoreError(f"no learner '{quote(name, 40)}' in this database (learners: {listed})")
    return _info(row)


def login_learner(conn: Connection) -> int | None:
    """On PostgreSQL, the learner whose role logged in (``current_learner()``); else ``None``."""
    if conn.dialect.name != "postgresql":
        return None
    value = conn.execute(text(f"SELECT {CURRENT_LEARNER}()")).scalar()
    return None if value is None else int(value)


def resolve_learner(conn: Connection, learner: int | str | None) -> int:
    """The id a store is opened for: an id as given; a name looked up (unknown: an error);
    ``None``: ``RECALL_LEARNER`` if set, else the learner who logged in (PostgreSQL), else
    learner 1."""
    if isinstance(learner, int):
        return learner
    if learner is None:
        learner = os.environ.get(LEARNER_ENV) or None
    if learner is not None:
        return find_learner(conn, learner).id
    by_login = login_learner(conn)
    return DEFAULT_LEARNER if by_login is None else by_login


def add_learner(engine: Engine, name: str, role: str | None = None) -> AddedLearner:
    """Create learner ``name``: a login role (``role``, default the name) with a generated
    password, their row, their privileges, and a new state row for every card. One
    transaction: a failure leaves no role and no row."""
    checked_name(name)
    role = checked_name(role or name, "a role name")
    password = secrets.token_urlsafe(24)
    with engine.connect() as conn, conn.begin():
        _require_postgresql(conn, "add a learner")
        conn.execute(text("LOCK TABLE learners IN SHARE ROW EXCLUSIVE MODE"))
        taken = conn.execute(
            select(LearnerRow.name).where(
                (LearnerRow.name == bindparam("name", name))
                | (LearnerRow.role_name == bindparam("role", role))
            )
        ).first()
        if taken is not None:
            raise StoreError(f"there is already a learner '{quote(name, 40)}' or role in use")
        if conn.execute(text("SELECT :role = current_user"), {"role": role}).scalar():
            raise StoreError(
                f"'{quote(role, 40)}' is the role running this (the owner): a learner needs a "
                "login of their own, so the owner is never a learner"
            )
        create_login_role(conn, role, password)
        learner_id = int(
            conn.execute(text("SELECT coalesce(max(id), 0) + 1 FROM learners")).scalar_one()
        )
        now = datetime.now(UTC)
        conn.execute(
            insert(LearnerRow).values(id=learner_id, name=name, role_name=role, created_at=now)
        )
        conn.execute(text(f"SELECT {GRANT_LEARNER}(:role)"), {"role": role})
        _new_states(conn, learner_id)
    return AddedLearner(LearnerInfo(learner_id, name, role, now), password)


def create_login_role(conn: Connection, role: str, password: str) -> None:
    """``CREATE ROLE role LOGIN`` with ``password`` (as its SCRAM verifier) and no other
    attribute, in the caller's transaction; a role of that name already on the server is
    refused (roles are shared by every database of a server). The name is quoted by the server
    (``format('%I')``), never pasted here."""
    exists = conn.execute(
        text("SELECT 1 FROM pg_roles WHERE rolname = :role"), {"role": role}
    ).first()
    if exists is not None:
        raise StoreError(
            f"a database role '{quote(role, 40)}' already exists on this server (roles are "
            "shared by every database of it): choose another with --role"
        )
    statement = conn.execute(
        text(
            "SELECT format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE "
            "NOREPLICATION PASSWORD %L', CAST(:role AS text), CAST(:verifier AS text))"
        ),
        {"role": role, "verifier": scram_verifier(password)},
    ).scalar_one()
    conn.execute(text(statement.replace(":", "\\:")))  # a colon is not a bound parameter


def _new_states(conn: Connection, learner_id: int) -> None:
    """A new learner's state of every card of the shared decks: new (retired for a retired
    card)."""
    cards = conn.execute(
        select(CardRow.id, CardRow.deck_id, CardRow.retired_at)
        .join(DeckRow, DeckRow.id == CardRow.deck_id)
        .where(DeckRow.owner_learner_id.is_(None))  # shared decks: a custom one is its learner's
    ).all()
    if cards:
        conn.execute(
            insert(CardStateRow),
            [
                {
                    "learner_id": learner_id,
                    "card_id": card.id,
                    "deck_id": card.deck_id,
                    "queue": QUEUE_NEW if card.retired_at is None else QUEUE_RETIRED,
                    "phase": 0,
                    "reps": 0,
                    "lapses": 0,
                    "suspended": False,
                }
                for card in cards
            ],
        )


def remove_learner(engine: Engine, name: str) -> tuple[LearnerInfo, int]:
    """Delete learner ``name``'s rows from every per-learner table, their custom decks and
    those decks' cards, their row, and their login role (its privileges in this database
    first); the learner and how many rows went."""
    from recall.store.models import metadata

    with engine.connect() as conn, conn.begin():
        _require_postgresql(conn, "remove a learner")
        learner = find_learner(conn, name)
        if learner.id == DEFAULT_LEARNER:
            raise StoreError(
                "learner 1 is the database's own learner (the one a store opens for unless "
                "told otherwise); it cannot be removed"
            )
        tables = [*DELETE_ORDER, *(t for t in PER_LEARNER_TABLES if t not in DELETE_ORDER)]
        deleted = 0
        for table in tables:
            rows = metadata.tables[table]
            deleted += conn.execute(
                delete(rows).where(rows.c.learner_id == bindparam("learner", learner.id))
            ).rowcount
        own_decks = select(DeckRow.id).where(
            DeckRow.owner_learner_id == bindparam("owner", learner.id)
        )
        deleted += conn.execute(
            delete(CardRow).where(CardRow.deck_id.in_(own_decks.scalar_subquery()))
        ).rowcount
        deleted += conn.execute(
            delete(DeckRow).where(DeckRow.owner_learner_id == bindparam("owner", learner.id))
        ).rowcount
        conn.execute(delete(LearnerRow).where(LearnerRow.id == bindparam("id", learner.id)))
        if learner.role_name is not None:
            exists = conn.execute(
                text("SELECT 1 FROM pg_roles WHERE rolname = :role"), {"role": learner.role_name}
            ).first()
            if exists is not None:
                for template in REMOVE_ROLE:
                    statement = conn.execute(
                        text(
                            "SELECT format(CAST(:template AS text), current_schema(), "
                            "CAST(:role AS text), current_database())"
                        ),
                        {"template": template, "role": learner.role_name},
                    ).scalar_one()
                    conn.execute(text(statement.replace(":", "\\:")))
    return learner, deleted


class Learners:
    """The learners of one database, for ``recall learners`` (open with
    :func:`recall.store.open_learners`); database errors come out as :class:`StoreError`."""

    def __init__(self, engine: Engine, url: URL) -> None:
        self.engine = engine
        self.url = url

    def _translated(self, error: BaseException) -> StoreError:
        from recall.store.engine import store_error

        return store_error(error, self.url)

    def add(self, name: str, role: str | None = None) -> AddedLearner:
        try:
            return add_learner(self.engine, name, role)
        except DATABASE_ERRORS as error:
            raise self._translated(error) from error

    def list(self) -> list[LearnerInfo]:
        try:
            with self.engine.connect() as conn:
                return list_learners(conn)
        except DATABASE_ERRORS as error:
            raise self._translated(error) from error

    def find(self, name: str) -> LearnerInfo:
        try:
            with self.engine.connect() as conn:
                return find_learner(conn, name)
        except DATABASE_ERRORS as error:
            raise self._translated(error) from error

    def remove(self, name: str) -> tuple[LearnerInfo, int]:
        try:
            return remove_learner(self.engine, name)
        except DATABASE_ERRORS as error:
            raise self._translated(error) from error

    def close(self) -> None:
        self.engine.dispose()


def learner_of_login(url: str) -> str | None:
    """The name of the learner whose login ``url`` is (``current_learner()``), or ``None``
    when it logs in as no learner (the owner, a group reader, another role). Checked by
    ``recall serve --learner-logins`` before it serves anyone: each learner's app must run as
    that learner's own login."""
    from recall.store.engine import make_engine, parse_url, store_error

    parsed = parse_url(url)
    if parsed.get_backend_name() != "postgresql":
        return None
    engine = make_engine(parsed)
    try:
        with engine.connect() as conn:
            name = conn.execute(
                text(f"SELECT name FROM learners WHERE id = {CURRENT_LEARNER}()")
            ).scalar()
    except DATABASE_ERRORS as error:
        raise store_error(error, parsed) from error
    finally:
        engine.dispose()
    return None if name is None else str(name)
