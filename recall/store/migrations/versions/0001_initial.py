"""Decks, cards, card state and the review log.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "recall_meta",
        sa.Column("key", sa.String(40), nullable=False),
        sa.Column("value", sa.String(200), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_recall_meta"),
    )
    op.create_table(
        "decks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(100), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("topic", sa.String(200), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("builtin", sa.Boolean(), nullable=False),
        sa.Column("synced_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_decks"),
        sa.UniqueConstraint("slug", name="uq_decks_slug"),
    )
    op.create_table(
        "cards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("deck_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(100), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("topic", sa.String(200), nullable=True),
        sa.Column("sibling_group", sa.String(100), nullable=True),
        sa.Column("content_hash", sa.String(16), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("retired_at", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["deck_id"], ["decks.id"], name="fk_cards_deck_id_decks"),
        sa.PrimaryKeyConstraint("id", name="pk_cards"),
        sa.UniqueConstraint("deck_id", "key", name="uq_cards_deck_id_key"),
    )
    op.create_table(
        "card_state",
        sa.Column("card_id", sa.Integer(), nullable=False),
        sa.Column("deck_id", sa.Integer(), nullable=False),
        sa.Column("queue", sa.SmallInteger(), nullable=False),
        sa.Column("phase", sa.SmallInteger(), nullable=False),
        sa.Column("step", sa.SmallInteger(), nullable=True),
        sa.Column("stability", sa.Float(), nullable=True),
        sa.Column("difficulty", sa.Float(), nullable=True),
        sa.Column("due", sa.BigInteger(), nullable=True),
        sa.Column("last_review", sa.BigInteger(), nullable=True),
        sa.Column("reps", sa.Integer(), nullable=False),
        sa.Column("lapses", sa.Integer(), nullable=False),
        sa.Column("suspended", sa.Boolean(), nullable=False),
        sa.Column("buried_until", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["card_id"], ["cards.id"], name="fk_card_state_card_id_cards"),
        sa.ForeignKeyConstraint(["deck_id"], ["decks.id"], name="fk_card_state_deck_id_decks"),
        sa.PrimaryKeyConstraint("card_id", name="pk_card_state"),
    )
    op.create_index(
        "ix_card_state_due",
        "card_state",
        ["due", "deck_id", "queue"],
        sqlite_where=sa.text("queue > 0"),
        postgresql_where=sa.text("queue > 0"),
    )
    op.create_index(
        "ix_card_state_new",
        "card_state",
        ["deck_id", "card_id"],
        sqlite_where=sa.text("queue = 0"),
        postgresql_where=sa.text("queue = 0"),
    )
    op.create_index(
        "ix_card_state_buried",
        "card_state",
        ["buried_until"],
        sqlite_where=sa.text("queue = -3"),
        postgresql_where=sa.text("queue = -3"),
    )
    op.create_table(
        "review_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("card_id", sa.Integer(), nullable=False),
        sa.Column("reviewed_at", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.SmallInteger(), nullable=False),
        sa.Column("rating", sa.SmallInteger(), nullable=False),
        sa.Column("suggested", sa.SmallInteger(), nullable=True),
        sa.Column("verdict", sa.String(10), nullable=False),
        sa.Column("diagnosis", sa.String(60), nullable=True),
        sa.Column("answer", sa.Text(), nullable=True),
        sa.Column("duration_ms", sa.Integer(), nullable=False),
        sa.Column("hint_used", sa.Boolean(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("params", sa.Text(), nullable=True),
        sa.Column("before_phase", sa.SmallInteger(), nullable=True),
        sa.Column("before_step", sa.SmallInteger(), nullable=True),
        sa.Column("before_stability", sa.Float(), nullable=True),
        sa.Column("before_difficulty", sa.Float(), nullable=True),
        sa.Column("before_due", sa.BigInteger(), nullable=True),
        sa.Column("before_last_review", sa.BigInteger(), nullable=True),
        sa.Column("before_lapses", sa.Integer(), nullable=True),
        sa.Column("after_phase", sa.SmallInteger(), nullable=True),
        sa.Column("after_step", sa.SmallInteger(), nullable=True),
        sa.Column("after_stability", sa.Float(), nullable=True),
        sa.Column("after_difficulty", sa.Float(), nullable=True),
        sa.Column("after_due", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["card_id"], ["cards.id"], name="fk_review_log_card_id_cards"),
        sa.PrimaryKeyConstraint("id", name="pk_review_log"),
    )
    op.create_index("ix_review_log_card_id_reviewed_at", "review_log", ["card_id", "reviewed_at"])
    op.create_index("ix_review_log_reviewed_at", "review_log", ["reviewed_at"])


def downgrade() -> None:
    op.drop_table("review_log")
    op.drop_table("card_state")
    op.drop_table("cards")
    op.drop_table("decks")
    op.drop_table("recall_meta")
