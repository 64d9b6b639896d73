"""Custom decks belong to a learner, and each learner's settings live in the database.

A shared database holds the built-in decks once, for everyone, and each learner's own custom
decks beside them: ``decks.owner_learner_id`` is NULL for a shared (built-in) deck and the
learner's id for a custom one, so two learners' ``my-losses`` are two decks (unique
``(owner_learner_id, slug)``, and a shared slug is unique among the shared decks: a partial
unique index, as a NULL never collides in a plain unique key). The cards of a learner's deck
are that learner's alone (only that learner gets state rows for them). Every custom deck that
existed is learner 1's, the only learner a database had before.

``learner_settings`` holds what a learner set on a shared database: settings (as JSON values,
over the ones of ``config.toml``) and today's "learn N more" raise, keyed by
``(learner_id, key)``.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

LEARNER = 1
SHARED_SLUG = sa.text("owner_learner_id IS NULL")


def upgrade() -> None:
    with op.batch_alter_table("decks") as batch:
        batch.add_column(sa.Column("owner_learner_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_decks_owner_learner_id_learners", "learners", ["owner_learner_id"], ["id"]
        )
        batch.drop_constraint("uq_decks_slug", type_="unique")
        batch.create_unique_constraint(
            "uq_decks_owner_learner_id_slug", ["owner_learner_id", "slug"]
        )
    op.execute(
        sa.text("UPDATE decks SET owner_learner_id = :id WHERE NOT builtin").bindparams(id=LEARNER)
    )
    op.create_index(
        "uq_decks_shared_slug",
        "decks",
        ["slug"],
        unique=True,
        sqlite_where=SHARED_SLUG,
        postgresql_where=SHARED_SLUG,
    )
    op.create_table(
        "learner_settings",
        sa.Column("learner_id", sa.Integer(), server_default=sa.text(str(LEARNER)), nullable=False),
        sa.Column("key", sa.String(60), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["learner_id"], ["learners.id"], name="fk_learner_settings_learner_id_learners"
        ),
        sa.PrimaryKeyConstraint("learner_id", "key", name="pk_learner_settings"),
    )


def downgrade() -> None:
    """Back to one deck per slug: custom decks of learners other than 1 go, with their cards'
    rows (a database at 0008 could not tell them apart)."""
    op.drop_table("learner_settings")
    others = (
        "SELECT cards.id FROM cards JOIN decks ON decks.id = cards.deck_id "
        "WHERE decks.owner_learner_id <> :id"
    )
    for table in ("card_claims", "card_state", "review_log", "imported_reviews"):
        op.execute(
            sa.text(f"DELETE FROM {table} WHERE card_id IN ({others})").bindparams(id=LEARNER)
        )
    op.execute(
        sa.text(
            "DELETE FROM cards WHERE deck_id IN "
            "(SELECT id FROM decks WHERE owner_learner_id <> :id)"
        ).bindparams(id=LEARNER)
    )
    op.execute(sa.text("DELETE FROM decks WHERE owner_learner_id <> :id").bindparams(id=LEARNER))
    op.drop_index("uq_decks_shared_slug", table_name="decks")
    with op.batch_alter_table("decks") as batch:
        batch.drop_constraint("uq_decks_owner_learner_id_slug", type_="unique")
        batch.create_unique_constraint("uq_decks_slug", ["slug"])
        batch.drop_constraint("fk_decks_owner_learner_id_learners", type_="foreignkey")
        batch.drop_column("owner_learner_id")
