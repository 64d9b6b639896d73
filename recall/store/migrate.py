"""Alembic, driven from code (no alembic.ini): upgrade, stamp, and the script directory.

Imported only when a migration must run, or by tests and maintainers; see :mod:`.schema`.
To write a new migration: ``python -m recall.store.migrate revision "message"`` (autogenerates
against the models), then add the new id to :data:`recall.store.schema.REVISIONS`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic config pointing at the shipped scripts, bound to ``connection`` if given."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def upgrade(connection: Connection, target: str = "head") -> None:
    """Upgrade the database on ``connection`` to ``target`` (inside the caller's transaction)."""
    command.upgrade(alembic_config(connection), target)


def script_revisions() -> list[str]:
    """Every revision in the scripts, oldest first."""
    scripts = ScriptDirectory.from_config(alembic_config())
    return [s.revision for s in reversed(list(scripts.walk_revisions()))]


def _main(argv: list[str]) -> int:  # pragma: no cover - a maintainer's tool
    if len(argv) < 2 or argv[0] != "revision":
        print('usage: python -m recall.store.migrate revision "message" [DB_URL]')
        return 2
    from sqlalchemy import create_engine

    url = argv[2] if len(argv) > 2 else "sqlite:///migrate-scratch.sqlite3"
    with create_engine(url).begin() as conn:
        command.revision(alembic_config(conn), message=argv[1], autogenerate=True)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(_main(sys.argv[1:]))
