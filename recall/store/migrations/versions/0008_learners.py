"""Learners: every per-learner row names its learner, and every index of those tables leads with it.

``learners`` holds one row per learner (``role_name``: the PostgreSQL login role a learner of a
shared server connects as; NULL for none). This migration creates learner 1 and gives it every
existing row: ``learner_id`` is ``NOT NULL DEFAULT 1`` on ``card_state``, ``review_log``,
``sessions``, ``card_claims``, ``parameter_sets`` and ``imported_reviews``. The keys follow:
``card_state`` and ``card_claims`` are keyed by (learner, card), so two learners each have their
own state of a shared card and may drill it at once; an imported review is unique per (learner,
card, time); at most one parameter set is in use per learner; and every index starts with
``learner_id`` so one learner's queries stay short range scans however many learners share the
database. SQLite rebuilds the tables whose keys change (``batch_alter_table``).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

LEARNER = 1

#: (table, index name, columns, partial WHERE or None) before and after this revision.
OLD_INDEXES = [
    ("card_state", "ix_card_state_due", ["due", "deck_id", "queue"], "queue > 0"),
    ("card_state", "ix_card_state_deck_queue_due", ["deck_id", "queue", "due"], "queue > 0"),
    ("card_state", "ix_card_state_new", ["deck_id", "card_id"], "queue = 0"),
    ("card_state", "ix_card_state_buried", ["buried_until"], "queue = -3"),
    ("card_claims", "ix_card_claims_session_id", ["session_id"], None),
    ("review_log", "ix_review_log_card_id_reviewed_at", ["card_id", "reviewed_at"], None),
    ("review_log", "ix_review_log_reviewed_at", ["reviewed_at"], None),
    ("review_log", "ix_review_log_session_id", ["session_id"], None),
    ("imported_reviews", "ix_imported_reviews_reviewed_at", ["reviewed_at"], None),
]
NEW_INDEXES = [
    ("card_state", "ix_card_state_due", ["learner_id", "due", "deck_id", "queue"], "queue > 0"),
    (
        "card_state",
        "ix_card_state_deck_queue_due",
        ["learner_id", "deck_id", "queue", "due"],
        "queue > 0",
    ),
    ("card_state", "ix_card_state_new", ["learner_id", "deck_id", "card_id"], "queue = 0"),
    ("card_state", "ix_card_state_buried", ["learner_id", "buried_until"], "queue = -3"),
    ("card_claims", "ix_card_claims_learner_id_session_id", ["learner_id", "session_id"], None),
    (
        "review_log",
        "ix_review_log_learner_id_card_id_reviewed_at",
        ["learner_id", "card_id", "reviewed_at"],
        None,
    ),
    ("review_log", "ix_review_log_learner_id_reviewed_at", ["learner_id", "reviewed_at"], None),
    ("review_log", "ix_review_log_learner_id_session_id", ["learner_id", "session_id"], None),
    ("sessions", "ix_sessions_learner_id_ended_at", ["learner_id", "ended_at"], None),
    (
        "imported_reviews",
        "ix_imported_reviews_learner_id_reviewed_at",
        ["learner_id", "reviewed_at"],
        None,
    ),
]
PER_LEARNER = [
    "card_state",
    "review_log",
    "sessions",
    "card_claims",
    "parameter_sets",
    "imported_reviews",
]
#: Tables keyed by card alone until now, by (learner, card) from now on.
REKEYED = {"card_state": "pk_card_state", "card_claims": "pk_card_claims"}


def _create_indexes(indexes: list[tuple[str, str, list[str], str | None]]) -> None:
    for table, name, columns, where in indexes:
        if where is None:
            op.create_index(name, table, columns)
        else:
            clause = sa.text(where)
            op.create_index(name, table, columns, sqlite_where=clause, postgresql_where=clause)


def _drop_indexes(indexes: list[tuple[str, str, list[str], str | None]]) -> None:
    for table, name, _columns, _where in indexes:
        op.drop_index(name, table_name=table)


def upgrade() -> None:
    op.create_table(
        "learners",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("role_name", sa.String(63), nullable=True),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_learners"),
        sa.UniqueConstraint("name", name="uq_learners_name"),
    )
    now = int(datetime.now(UTC).timestamp() * 1000)
    op.execute(
        sa.text(
            "INSERT INTO learners (id, name, role_name, created_at) VALUES (:id, 'you', NULL, :now)"
        ).bindparams(id=LEARNER, now=now)
    )
    _drop_indexes(OLD_INDEXES)
    for table in PER_LEARNER:
        with op.batch_alter_table(table) as batch:
            batch.add_column(
                sa.Column(
                    "learner_id",
                    sa.Integer(),
                    nullable=False,
                    server_default=sa.text(str(LEARNER)),
                )
            )
            batch.create_foreign_key(
                f"fk_{table}_learner_id_learners", "learners", ["learner_id"], ["id"]
            )
            if table in REKEYED:
                batch.drop_constraint(REKEYED[table], type_="primary")
                batch.create_primary_key(REKEYED[table], ["learner_id", "card_id"])
            if table == "imported_reviews":
                batch.drop_constraint("uq_imported_reviews_card_id_reviewed_at", type_="unique")
                batch.create_unique_constraint(
                    "uq_imported_reviews_learner_id_card_id_reviewed_at",
                    ["learner_id", "card_id", "reviewed_at"],
                )
    _create_indexes(NEW_INDEXES)
    op.create_index(
        "uq_parameter_sets_learner_in_use",
        "parameter_sets",
        ["learner_id"],
        unique=True,
        sqlite_where=sa.text("in_use"),
        postgresql_where=sa.text("in_use"),
    )


def downgrade() -> None:
    op.drop_index("uq_parameter_sets_learner_in_use", table_name="parameter_sets")
    _drop_indexes(NEW_INDEXES)
    for table in PER_LEARNER:
        op.execute(sa.text(f"DELETE FROM {table} WHERE learner_id <> :id").bindparams(id=LEARNER))
        with op.batch_alter_table(table) as batch:
            if table in REKEYED:
                batch.drop_constraint(REKEYED[table], type_="primary")
                batch.create_primary_key(REKEYED[table], ["card_id"])
            if table == "imported_reviews":
                batch.drop_constraint(
                    "uq_imported_reviews_learner_id_card_id_reviewed_at", type_="unique"
                )
                batch.create_unique_constraint(
                    "uq_imported_reviews_card_id_reviewed_at", ["card_id", "reviewed_at"]
                )
            batch.drop_constraint(f"fk_{table}_learner_id_learners", type_="foreignkey")
            batch.drop_column("learner_id")
    _create_indexes(OLD_INDEXES)
    op.drop_table("learners")
