"""Sessions, and the session each review belongs to (for summaries and crash resume).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.BigInteger(), nullable=False),
        sa.Column("last_active_at", sa.BigInteger(), nullable=False),
        sa.Column("ended_at", sa.BigInteger(), nullable=True),
        sa.Column("budget_kind", sa.String(12), nullable=False),
        sa.Column("budget_value", sa.Float(), nullable=True),
        sa.Column("mode", sa.String(12), nullable=False),
        sa.Column("mode_count", sa.Integer(), nullable=True),
        sa.Column("filter", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_sessions"),
    )
    with op.batch_alter_table("review_log") as batch:
        batch.add_column(sa.Column("session_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_review_log_session_id_sessions", "sessions", ["session_id"], ["id"]
        )
        batch.create_index("ix_review_log_session_id", ["session_id"])


def downgrade() -> None:
    with op.batch_alter_table("review_log") as batch:
        batch.drop_index("ix_review_log_session_id")
        batch.drop_constraint("fk_review_log_session_id_sessions", type_="foreignkey")
        batch.drop_column("session_id")
    op.drop_table("sessions")
