"""Index card_state by (deck, queue, due) for per-deck counts.

The home screen's counts used one GROUP BY over every card due today, which sorts them all;
with this index each deck's count is a short range scan that stops at the day's limit.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_card_state_deck_queue_due",
        "card_state",
        ["deck_id", "queue", "due"],
        sqlite_where=sa.text("queue > 0"),
        postgresql_where=sa.text("queue > 0"),
    )


def downgrade() -> None:
    op.drop_index("ix_card_state_deck_queue_due", table_name="card_state")
