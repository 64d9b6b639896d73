"""Which process owns a session, so a second window does not offer to resume a running one.

``owner_host`` and ``owner_pid`` name the process drilling the session (NULL once it let go, and
for sessions from before this revision); ``last_active_at``, updated with each review, is its
heartbeat.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("owner_host", sa.String(255), nullable=True))
        batch.add_column(sa.Column("owner_pid", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("owner_pid")
        batch.drop_column("owner_host")
