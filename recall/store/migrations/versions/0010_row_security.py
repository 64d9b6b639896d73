"""Row-level security on PostgreSQL: each learner's login reads and writes their own rows only.

Enables and forces row-level security on the per-learner tables (as they are at this revision),
keyed on the login through ``current_learner()``, with a policy for the owner running this; adds
the functions granting a learner's or a group reader's privileges and the group's aggregate
views. See :mod:`recall.store.rls`. SQLite: nothing (one learner per file).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

from alembic import op

from recall.store import rls

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

#: The per-learner tables at this revision (a later one protects its own new tables).
PER_LEARNER = (
    "card_state",
    "review_log",
    "sessions",
    "card_claims",
    "parameter_sets",
    "imported_reviews",
    "learner_settings",
)


def upgrade() -> None:
    conn = op.get_bind()
    rls.install(conn, PER_LEARNER)
    rls.regrant_learners(conn)


def downgrade() -> None:
    rls.uninstall(op.get_bind(), PER_LEARNER)
