"""The memory model: every fit of the learner's FSRS parameters (the one in use marked), and
reviews imported from other FSRS tools for the fit.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "parameter_sets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("parameters", sa.Text(), nullable=False),
        sa.Column("status", sa.String(24), nullable=False),
        sa.Column("reviews", sa.Integer(), nullable=False),
        sa.Column("log_loss", sa.Float(), nullable=True),
        sa.Column("rmse_bins", sa.Float(), nullable=True),
        sa.Column("comparison", sa.Text(), nullable=True),
        sa.Column("in_use", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_parameter_sets"),
    )
    op.create_table(
        "imported_reviews",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("card_id", sa.Integer(), nullable=False),
        sa.Column("reviewed_at", sa.BigInteger(), nullable=False),
        sa.Column("rating", sa.SmallInteger(), nullable=False),
        sa.Column("state", sa.SmallInteger(), nullable=True),
        sa.Column("duration_ms", sa.Integer(), nullable=True),
        sa.Column("imported_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["card_id"], ["cards.id"], name="fk_imported_reviews_card_id_cards"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_imported_reviews"),
        sa.UniqueConstraint(
            "card_id", "reviewed_at", name="uq_imported_reviews_card_id_reviewed_at"
        ),
    )
    op.create_index("ix_imported_reviews_reviewed_at", "imported_reviews", ["reviewed_at"])


def downgrade() -> None:
    op.drop_index("ix_imported_reviews_reviewed_at", table_name="imported_reviews")
    op.drop_table("imported_reviews")
    op.drop_table("parameter_sets")
