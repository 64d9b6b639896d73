"""Each review's answer time, apart from its time on screen.

``review_log.duration_ms`` is the review's whole time on screen (what the budget and the pace
count: reading the verdict included). ``answer_ms`` is the time the learner took to give the
answer that was recorded: from the card shown, or asked again after its verdict was taken back,
to Enter on a typed answer or Space on a self-rated card. NULL for reviews logged before it.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("review_log") as batch:
        batch.add_column(sa.Column("answer_ms", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("review_log") as batch:
        batch.drop_column("answer_ms")
