"""The schema, as SQLAlchemy Core tables. Only :mod:`recall.store` sees these rows.

Core ``Table`` objects, not ORM classes: the store runs every statement on a connection and
never used a session or a mapped object, and SQLAlchemy's ORM costs about 0.1 s of CPU to import
and map at every start, before the home screen can show its counts. Each table is reached as
``CardRow`` (a :class:`TableColumns`), so ``CardRow.key`` is the column, ``select(CardRow)``
selects its columns and ``CardRow.__table__`` is the table.

Tables: ``decks`` and ``cards`` (content identity synced from deck files), ``card_state`` (FSRS
memory and queue flags, one row per card), ``review_log`` (every review, with the state before
and after so it can be undone), ``sessions``, ``card_claims`` (the cards on screen now),
``recall_meta`` (marks a recall database), and the memory model's ``parameter_sets`` and
``imported_reviews``.

``card_state.queue`` is the column every hot query filters on, derived from phase and flags by
:func:`queue_for`: new 0, learning and relearning 1, review 2, suspended -1, retired -2,
buried -3. One small integer lets "what is due" and "how many per deck" run as range scans over
partial indexes, and ``deck_id`` is repeated in ``card_state`` so they never join ``cards``.

Changing anything here needs a migration in ``migrations/versions`` (a test compares the two).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)

from recall.store.timeutil import UTCMillis

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

QUEUE_NEW = 0
QUEUE_LEARNING = 1
QUEUE_REVIEW = 2
QUEUE_SUSPENDED = -1
QUEUE_RETIRED = -2
QUEUE_BURIED = -3

# review_log.kind: what the review was, from the card's phase before it (CRAM: off-schedule).
KIND_NEW = 0
KIND_LEARNING = 1
KIND_REVIEW = 2
KIND_RELEARNING = 3
KIND_CRAM = 4


def queue_for(phase: int, *, suspended: bool = False, retired: bool = False) -> int:
    """The queue a card with this phase and these flags belongs in (not buried)."""
    if retired:
        return QUEUE_RETIRED
    if suspended:
        return QUEUE_SUSPENDED
    if phase == 0:
        return QUEUE_NEW
    if phase == 2:
        return QUEUE_REVIEW
    return QUEUE_LEARNING


#: Every table of the schema (what migrations are compared against).
metadata = MetaData(naming_convention=NAMING)


class TableColumns:
    """A table reached like the ORM class it replaced: ``CardRow.key`` is the ``key`` column,
    ``CardRow.__table__`` the table, and the object itself goes wherever SQLAlchemy takes a
    table (``select(CardRow)``, ``insert(CardRow)``, ``update(CardRow)``)."""

    def __init__(self, table: Table) -> None:
        self.__table__ = table

    def __getattr__(self, name: str) -> Column[Any]:
        try:
            return self.__table__.c[name]  # type: ignore[no-any-return]
        except KeyError:
            raise AttributeError(f"table {self.__table__.name} has no column {name!r}") from None

    def __clause_element__(self) -> Any:  # Any: SQLAlchemy's stubs want a role, not a Table
        return self.__table__

    def __repr__(self) -> str:
        return f"TableColumns({self.__table__.name})"


def _moment(name: str, *, nullable: bool = False) -> Column[Any]:
    """A point in time, stored as UTC milliseconds (:class:`UTCMillis`)."""
    return Column(name, UTCMillis(), nullable=nullable)


def _required(name: str, kind: Any, *args: Any, **options: Any) -> Column[Any]:
    return Column(name, kind, *args, nullable=False, **options)


def _optional(name: str, kind: Any, *args: Any, **options: Any) -> Column[Any]:
    return Column(name, kind, *args, nullable=True, **options)


#: Key/value facts about the database itself (``app = recall`` marks it as ours).
MetaRow = TableColumns(
    Table(
        "recall_meta",
        metadata,
        Column("key", String(40), primary_key=True),
        _required("value", String(200)),
    )
)

#: A deck: shared when ``owner_learner_id`` is NULL (the built-in decks), else one learner's own
#: custom deck, whose cards only that learner has (migration 0009). Two learners' decks may share
#: a slug; the shared decks' slugs are unique among themselves (a partial index: NULLs never
#: collide in the plain unique key).
DeckRow = TableColumns(
    Table(
        "decks",
        metadata,
        Column("id", Integer, primary_key=True),
        _required("slug", String(100)),
        _required("name", String(200)),
        _required("topic", String(200), default=""),
        _required("path", Text, default=""),
        _required("builtin", Boolean, default=False),
        _moment("synced_at"),
        Column("owner_learner_id", Integer, ForeignKey("learners.id"), nullable=True),
        UniqueConstraint("owner_learner_id", "slug"),
    )
)


def decks_visible_to(learner: Any) -> Any:
    """SQL: the decks ``learner`` (an id, or a bound parameter) sees: the shared ones and
    their own (never another learner's custom deck, which may share a slug with theirs)."""
    return DeckRow.owner_learner_id.is_(None) | (DeckRow.owner_learner_id == learner)


CardRow = TableColumns(
    Table(
        "cards",
        metadata,
        Column("id", Integer, primary_key=True),
        _required("deck_id", Integer, ForeignKey("decks.id")),
        _required("key", String(100)),  # the card id written in the deck file
        _required("kind", String(16)),
        _optional("topic", String(200)),  # NULL: the deck's topic
        _optional("sibling_group", String(100)),
        _required("content_hash", String(16)),
        _required("position", Integer),  # order in the deck file
        _moment("created_at"),
        _moment("retired_at", nullable=True),
        UniqueConstraint("deck_id", "key"),
    )
)


def partial_index(
    name: str, *columns: str | Column[Any], where: str, unique: bool = False
) -> Index:
    """An index over the rows ``where`` selects (SQL over the table's columns).

    Declared for SQLite only; :func:`use_on_postgresql` gives PostgreSQL the same clause when an
    engine for it is made. Naming ``postgresql_where`` here would make SQLAlchemy import its
    PostgreSQL dialect and drivers (0.04 s) at every start of the SQLite default, before the
    home screen's counts."""
    return Index(name, *columns, unique=unique, sqlite_where=text(where))


#: A shared deck's slug is unique among the shared decks (declared here, after the helper).
partial_index(
    "uq_decks_shared_slug",
    DeckRow.__table__.c.slug,
    where="owner_learner_id IS NULL",
    unique=True,
)


def use_on_postgresql() -> None:
    """Give every partial index its ``postgresql_where`` (the clause it has for SQLite), before
    PostgreSQL's DDL is emitted or compared; idempotent (:func:`recall.store.engine.make_engine`
    runs it for a PostgreSQL URL)."""
    for table in metadata.tables.values():
        for index in table.indexes:
            where = index.dialect_options["sqlite"]["where"]
            if where is not None:
                index.dialect_options["postgresql"]["where"] = where


#: Who the per-learner rows belong to. A SQLite database has one learner, id 1 (migration 0008
#: made it and gave it every row that existed before); a shared PostgreSQL database has one row
#: per learner, ``role_name`` the PostgreSQL login role that learner connects as (NULL: none).
LearnerRow = TableColumns(
    Table(
        "learners",
        metadata,
        Column("id", Integer, primary_key=True),
        _required("name", String(100), unique=True),
        _optional("role_name", String(63)),  # PostgreSQL identifiers are at most 63 bytes
        _moment("created_at"),
    )
)

#: The learner every database has, and the one a store is opened for unless told otherwise.
DEFAULT_LEARNER = 1

#: The tables holding one learner's rows: every statement over them names ``learner_id``.
PER_LEARNER_TABLES = (
    "card_state",
    "review_log",
    "sessions",
    "card_claims",
    "parameter_sets",
    "imported_reviews",
    "learner_settings",
)


def _learner(*, primary_key: bool = False) -> Column[Any]:
    """The owner of a per-learner row (learner 1 unless told: a single-learner database)."""
    return Column(
        "learner_id",
        Integer,
        ForeignKey("learners.id"),
        nullable=False,
        primary_key=primary_key,
        server_default=text(str(DEFAULT_LEARNER)),
    )


CardStateRow = TableColumns(
    Table(
        "card_state",
        metadata,
        _learner(primary_key=True),
        Column("card_id", Integer, ForeignKey("cards.id"), primary_key=True),
        _required("deck_id", Integer, ForeignKey("decks.id")),
        _required("queue", SmallInteger),
        _required("phase", SmallInteger),
        _optional("step", SmallInteger),
        _optional("stability", Float),
        _optional("difficulty", Float),
        _moment("due", nullable=True),
        _moment("last_review", nullable=True),
        _required("reps", Integer, default=0),
        _required("lapses", Integer, default=0),
        _required("suspended", Boolean, default=False),
        _moment("buried_until", nullable=True),
        partial_index(
            "ix_card_state_due", "learner_id", "due", "deck_id", "queue", where="queue > 0"
        ),
        partial_index(
            "ix_card_state_deck_queue_due",
            "learner_id",
            "deck_id",
            "queue",
            "due",
            where="queue > 0",
        ),
        partial_index("ix_card_state_new", "learner_id", "deck_id", "card_id", where="queue = 0"),
        partial_index("ix_card_state_buried", "learner_id", "buried_until", where="queue = -3"),
    )
)

#: A drill session. ``owner_host``/``owner_pid`` name the process drilling it (NULL once it let
#: go); ``last_active_at`` is its heartbeat, moved by each review.
SessionRow = TableColumns(
    Table(
        "sessions",
        metadata,
        Column("id", Integer, primary_key=True),
        _learner(),
        _moment("started_at"),
        _moment("last_active_at"),
        _moment("ended_at", nullable=True),
        _required("budget_kind", String(12)),
        _optional("budget_value", Float),
        _required("mode", String(12)),
        _optional("mode_count", Integer),
        _optional("filter", Text),  # JSON: {"decks": [...], "topic": ...}
        _optional("owner_host", String(255)),
        _optional("owner_pid", Integer),
        # Seconds spent on cards that left the screen without a review (skipped, buried,
        # undone): budget spent for good, counted again when the session is resumed.
        _required("set_aside_seconds", Float, server_default=text("0")),
        Index("ix_sessions_learner_id_ended_at", "learner_id", "ended_at"),
    )
)

#: A card on screen in some session, so another window skips it: the session, its owner process
#: and when it claimed the card (a claim expires, so a crash never locks a card).
CardClaimRow = TableColumns(
    Table(
        "card_claims",
        metadata,
        _learner(primary_key=True),
        Column("card_id", Integer, ForeignKey("cards.id"), primary_key=True),
        _required("session_id", Integer, ForeignKey("sessions.id")),
        _required("owner_host", String(255)),
        _required("owner_pid", Integer),
        _moment("claimed_at"),
        Index("ix_card_claims_learner_id_session_id", "learner_id", "session_id"),
    )
)

#: One review. ``before_*``/``after_*`` are the scheduler state around it (NULL for an
#: off-schedule cram review, which changes no state); undo restores ``before_*``.
ReviewRow = TableColumns(
    Table(
        "review_log",
        metadata,
        Column("id", Integer, primary_key=True),
        _learner(),
        _required("card_id", Integer, ForeignKey("cards.id")),
        _optional("session_id", Integer, ForeignKey("sessions.id")),
        _moment("reviewed_at"),
        _required("kind", SmallInteger),
        _required("rating", SmallInteger),
        _optional("suggested", SmallInteger),
        _required("verdict", String(10)),
        _optional("diagnosis", String(60)),
        _optional("answer", Text),
        _required("duration_ms", Integer),  # the whole time on screen
        # The time to give the recorded answer (shown or asked again, to Enter or Space); NULL
        # before schema 0007.
        _optional("answer_ms", Integer),
        _required("hint_used", Boolean, default=False),
        _optional("seed", BigInteger),
        _optional("params", Text),  # JSON object of parameter values
        _optional("before_phase", SmallInteger),
        _optional("before_step", SmallInteger),
        _optional("before_stability", Float),
        _optional("before_difficulty", Float),
        _moment("before_due", nullable=True),
        _moment("before_last_review", nullable=True),
        _optional("before_lapses", Integer),
        _optional("after_phase", SmallInteger),
        _optional("after_step", SmallInteger),
        _optional("after_stability", Float),
        _optional("after_difficulty", Float),
        _moment("after_due", nullable=True),
        Index(
            "ix_review_log_learner_id_card_id_reviewed_at", "learner_id", "card_id", "reviewed_at"
        ),
        Index("ix_review_log_learner_id_reviewed_at", "learner_id", "reviewed_at"),
        Index("ix_review_log_learner_id_session_id", "learner_id", "session_id"),
    )
)

# The memory model (recall optimize, recall reviews import): every fit of the learner's FSRS
# parameters, at most one marked in use (none: the defaults), and reviews imported from other
# FSRS tools, kept apart from review_log so stats, streaks and limits count what was drilled here.

ParameterSetRow = TableColumns(
    Table(
        "parameter_sets",
        metadata,
        Column("id", Integer, primary_key=True),
        _learner(),
        _moment("created_at"),
        _required("parameters", Text),  # JSON list of 21 floats
        _required("status", String(24)),  # kept | rejected
        _required("reviews", Integer),  # countable reviews the fit saw
        _optional("log_loss", Float),  # held out, these parameters
        _optional("rmse_bins", Float),
        _optional("comparison", Text),  # JSON of the held-out comparison
        _required("in_use", Boolean, default=False),
        # At most one fit in use per learner (none: the defaults).
        partial_index(
            "uq_parameter_sets_learner_in_use", "learner_id", where="in_use", unique=True
        ),
    )
)

ImportedReviewRow = TableColumns(
    Table(
        "imported_reviews",
        metadata,
        Column("id", Integer, primary_key=True),
        _learner(),
        _required("card_id", Integer, ForeignKey("cards.id")),
        _moment("reviewed_at"),
        _required("rating", SmallInteger),
        _optional("state", SmallInteger),
        _optional("duration_ms", Integer),
        _moment("imported_at"),
        UniqueConstraint("learner_id", "card_id", "reviewed_at"),
        Index("ix_imported_reviews_learner_id_reviewed_at", "learner_id", "reviewed_at"),
    )
)

#: What a learner set on a shared database (migration 0009): a setting's value as JSON (over
#: ``config.toml``'s), and today's "learn N more" raise (:data:`EXTRA_NEW_KEY`).
LearnerSettingRow = TableColumns(
    Table(
        "learner_settings",
        metadata,
        _learner(primary_key=True),
        Column("key", String(60), primary_key=True),
        _required("value", Text),
    )
)

#: Keys of ``learner_settings`` the store keeps for itself (a deck's last sync for the learner,
#: :mod:`recall.store.sync`): never a setting, never listed among the learner's values.
STORE_RECORD_PREFIX = "store."

#: The key of today's raise of the new-card limit in ``learner_settings``: ``{"day": ISO date,
#: "extra_new": n}``, read as zero on any other day.
EXTRA_NEW_KEY = "today.extra_new"
