"""Alembic environment: always run on a connection recall hands over (never from a URL in an
ini file), in the caller's transaction, in batch mode so SQLite can alter tables."""

from alembic import context

from recall.store.models import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
