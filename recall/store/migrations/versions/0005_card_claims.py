"""Cards on screen are claimed, so two windows never answer the same card at once; and the time
a session spent on cards that left the screen without a review (skipped, buried, undone) is kept.

``card_claims`` holds one row per card some session shows right now: the session, its owner
process (host and pid, the same liveness rules as a session's owner) and when it was claimed (a
claim expires, so a crash never locks a card). ``sessions.set_aside_seconds`` is the budget that
skips and undos spent: it never comes back, and a resumed session still counts it.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "card_claims",
        sa.Column("card_id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("owner_host", sa.String(255), nullable=False),
        sa.Column("owner_pid", sa.Integer(), nullable=False),
        sa.Column("claimed_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["card_id"], ["cards.id"], name="fk_card_claims_card_id_cards"),
        sa.ForeignKeyConstraint(
            ["session_id"], ["sessions.id"], name="fk_card_claims_session_id_sessions"
        ),
        sa.PrimaryKeyConstraint("card_id", name="pk_card_claims"),
    )
    op.create_index("ix_card_claims_session_id", "card_claims", ["session_id"])
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(
            sa.Column("set_aside_seconds", sa.Float(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("set_aside_seconds")
    op.drop_index("ix_card_claims_session_id", table_name="card_claims")
    op.drop_table("card_claims")
