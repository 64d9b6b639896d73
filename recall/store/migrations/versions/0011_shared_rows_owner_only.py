"""Shared decks and cards are written by the owner only: a learner's login writes its own.

Migration 0010 let a learner's login insert and update every deck and card row it could see,
the shared (built-in) ones included, because each learner's sync wrote the built-in decks. A
learner with ``psql`` could then change a shared card's content hash, position or sibling group,
or add cards to a shared deck, for every learner. This replaces the one policy on ``decks`` and
``cards`` with a read policy (what the learner sees, as before) and an insert and an update
policy that accept the learner's own custom decks and their cards only. The owner's policy is
unchanged: the owner syncs the built-in decks. See :func:`recall.store.rls.seal_shared_rows`.
SQLite: nothing (one learner per file).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

from alembic import op

from recall.store import rls

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    rls.seal_shared_rows(op.get_bind())


def downgrade() -> None:
    rls.unseal_shared_rows(op.get_bind())
