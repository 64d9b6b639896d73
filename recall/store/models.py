"""The schema, as SQLAlchemy 2 typed declarative models. Only :mod:`recall.store` sees these rows.

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

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

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


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map = {datetime: UTCMillis}


class MetaRow(Base):
    """Key/value facts about the database itself (``app = recall`` marks it as ours)."""

    __tablename__ = "recall_meta"
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class DeckRow(Base):
    __tablename__ = "decks"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    slug: Mapped[str] = mapped_column(String(100), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    topic: Mapped[str] = mapped_column(String(200), default="")
    path: Mapped[str] = mapped_column(Text, default="")
    builtin: Mapped[bool] = mapped_column(default=False)
    synced_at: Mapped[datetime]


class CardRow(Base):
    __tablename__ = "cards"
    __table_args__ = (UniqueConstraint("deck_id", "key"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    deck_id: Mapped[int] = mapped_column(ForeignKey("decks.id"))
    key: Mapped[str] = mapped_column(String(100))  # the card id written in the deck file
    kind: Mapped[str] = mapped_column(String(16))
    topic: Mapped[str | None] = mapped_column(String(200))  # NULL: the deck's topic
    sibling_group: Mapped[str | None] = mapped_column(String(100))
    content_hash: Mapped[str] = mapped_column(String(16))
    position: Mapped[int] = mapped_column(Integer)  # order in the deck file
    created_at: Mapped[datetime]
    retired_at: Mapped[datetime | None]


def partial_index(name: str, *columns: str, where: str) -> Index:
    """An index over the rows ``where`` selects (SQL over the table's columns).

    Declared for SQLite only; :func:`use_on_postgresql` gives PostgreSQL the same clause when an
    engine for it is made. Naming ``postgresql_where`` here would make SQLAlchemy import its
    PostgreSQL dialect and drivers (0.04 s) at every start of the SQLite default, before the
    home screen's counts."""
    return Index(name, *columns, sqlite_where=text(where))


def use_on_postgresql() -> None:
    """Give every partial index its ``postgresql_where`` (the clause it has for SQLite), before
    PostgreSQL's DDL is emitted or compared; idempotent (:func:`recall.store.engine.make_engine`
    runs it for a PostgreSQL URL)."""
    for table in Base.metadata.tables.values():
        for index in table.indexes:
            where = index.dialect_options["sqlite"]["where"]
            if where is not None:
                index.dialect_options["postgresql"]["where"] = where


class CardStateRow(Base):
    __tablename__ = "card_state"
    __table_args__ = (
        partial_index("ix_card_state_due", "due", "deck_id", "queue", where="queue > 0"),
        partial_index("ix_card_state_deck_queue_due", "deck_id", "queue", "due", where="queue > 0"),
        partial_index("ix_card_state_new", "deck_id", "card_id", where="queue = 0"),
        partial_index("ix_card_state_buried", "buried_until", where="queue = -3"),
    )
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"), primary_key=True)
    deck_id: Mapped[int] = mapped_column(ForeignKey("decks.id"))
    queue: Mapped[int] = mapped_column(SmallInteger)
    phase: Mapped[int] = mapped_column(SmallInteger)
    step: Mapped[int | None] = mapped_column(SmallInteger)
    stability: Mapped[float | None] = mapped_column(Float)
    difficulty: Mapped[float | None] = mapped_column(Float)
    due: Mapped[datetime | None]
    last_review: Mapped[datetime | None]
    reps: Mapped[int] = mapped_column(Integer, default=0)
    lapses: Mapped[int] = mapped_column(Integer, default=0)
    suspended: Mapped[bool] = mapped_column(default=False)
    buried_until: Mapped[datetime | None]


class SessionRow(Base):
    """A drill session. ``owner_host``/``owner_pid`` name the process drilling it (NULL once it
    let go); ``last_active_at`` is its heartbeat, moved by each review."""

    __tablename__ = "sessions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    started_at: Mapped[datetime]
    last_active_at: Mapped[datetime]
    ended_at: Mapped[datetime | None]
    budget_kind: Mapped[str] = mapped_column(String(12))
    budget_value: Mapped[float | None] = mapped_column(Float)
    mode: Mapped[str] = mapped_column(String(12))
    mode_count: Mapped[int | None] = mapped_column(Integer)
    filter: Mapped[str | None] = mapped_column(Text)  # JSON: {"decks": [...], "topic": ...}
    owner_host: Mapped[str | None] = mapped_column(String(255))
    owner_pid: Mapped[int | None] = mapped_column(Integer)
    # Seconds spent on cards that left the screen without a review (skipped, buried, undone):
    # budget spent for good, counted again when the session is resumed.
    set_aside_seconds: Mapped[float] = mapped_column(Float, server_default=text("0"))


class CardClaimRow(Base):
    """A card on screen in some session, so another window skips it: the session, its owner
    process and when it claimed the card (a claim expires, so a crash never locks a card)."""

    __tablename__ = "card_claims"
    __table_args__ = (Index("ix_card_claims_session_id", "session_id"),)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"), primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("sessions.id"))
    owner_host: Mapped[str] = mapped_column(String(255))
    owner_pid: Mapped[int] = mapped_column(Integer)
    claimed_at: Mapped[datetime]


class ReviewRow(Base):
    """One review. ``before_*``/``after_*`` are the scheduler state around it (NULL for an
    off-schedule cram review, which changes no state); undo restores ``before_*``."""

    __tablename__ = "review_log"
    __table_args__ = (
        Index("ix_review_log_card_id_reviewed_at", "card_id", "reviewed_at"),
        Index("ix_review_log_reviewed_at", "reviewed_at"),
        Index("ix_review_log_session_id", "session_id"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"))
    session_id: Mapped[int | None] = mapped_column(ForeignKey("sessions.id"))
    reviewed_at: Mapped[datetime]
    kind: Mapped[int] = mapped_column(SmallInteger)
    rating: Mapped[int] = mapped_column(SmallInteger)
    suggested: Mapped[int | None] = mapped_column(SmallInteger)
    verdict: Mapped[str] = mapped_column(String(10))
    diagnosis: Mapped[str | None] = mapped_column(String(60))
    answer: Mapped[str | None] = mapped_column(Text)
    duration_ms: Mapped[int] = mapped_column(Integer)  # the whole time on screen
    # The time to give the recorded answer (shown or asked again, to Enter or Space); NULL
    # before schema 0007.
    answer_ms: Mapped[int | None] = mapped_column(Integer)
    hint_used: Mapped[bool] = mapped_column(default=False)
    seed: Mapped[int | None] = mapped_column(BigInteger)
    params: Mapped[str | None] = mapped_column(Text)  # JSON object of parameter values
    before_phase: Mapped[int | None] = mapped_column(SmallInteger)
    before_step: Mapped[int | None] = mapped_column(SmallInteger)
    before_stability: Mapped[float | None] = mapped_column(Float)
    before_difficulty: Mapped[float | None] = mapped_column(Float)
    before_due: Mapped[datetime | None]
    before_last_review: Mapped[datetime | None]
    before_lapses: Mapped[int | None] = mapped_column(Integer)
    after_phase: Mapped[int | None] = mapped_column(SmallInteger)
    after_step: Mapped[int | None] = mapped_column(SmallInteger)
    after_stability: Mapped[float | None] = mapped_column(Float)
    after_difficulty: Mapped[float | None] = mapped_column(Float)
    after_due: Mapped[datetime | None]


# The memory model (recall optimize, recall reviews import): every fit of the learner's FSRS
# parameters, at most one marked in use (none: the defaults), and reviews imported from other
# FSRS tools, kept apart from review_log so stats, streaks and limits count what was drilled here.


class ParameterSetRow(Base):
    __tablename__ = "parameter_sets"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime]
    parameters: Mapped[str] = mapped_column(Text)  # JSON list of 21 floats
    status: Mapped[str] = mapped_column(String(24))  # kept | rejected
    reviews: Mapped[int] = mapped_column(Integer)  # countable reviews the fit saw
    log_loss: Mapped[float | None] = mapped_column(Float)  # held out, these parameters
    rmse_bins: Mapped[float | None] = mapped_column(Float)
    comparison: Mapped[str | None] = mapped_column(Text)  # JSON of the held-out comparison
    in_use: Mapped[bool] = mapped_column(Boolean, default=False)


class ImportedReviewRow(Base):
    __tablename__ = "imported_reviews"
    __table_args__ = (
        UniqueConstraint("card_id", "reviewed_at"),
        Index("ix_imported_reviews_reviewed_at", "reviewed_at"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("cards.id"))
    reviewed_at: Mapped[datetime]
    rating: Mapped[int] = mapped_column(SmallInteger)
    state: Mapped[int | None] = mapped_column(SmallInteger)
    duration_ms: Mapped[int | None] = mapped_column(Integer)
    imported_at: Mapped[datetime]
