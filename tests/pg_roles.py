"""A shared PostgreSQL server as docs/learners.md sets one up, for the row-security tests:
an owner role (``CREATEROLE``, not a superuser) owning a new database, learners added by
recall as that owner, and URLs to log in as each. Roles are cluster-wide, so every name carries
a random tag and everything is dropped afterwards (the database, then every role made)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

PG_URL = os.environ.get("RECALL_TEST_PG_URL", "")

needs_postgresql = pytest.mark.skipif(
    not PG_URL, reason='RECALL_TEST_PG_URL is not set: run eval "$(.ci/postgres.sh)"'
)


@dataclass
class SharedServer:
    """One database with its owner; ``url(role, password)`` logs in as another role."""

    tag: str
    owner: str
    database: str
    roles: list[str] = field(default_factory=list)

    def url(self, role: str | None = None, password: str | None = None) -> str:
        base = make_url(PG_URL).set(database=self.database, username=role or self.owner)
        return base.set(password=password).render_as_string(hide_password=False)

    @property
    def owner_url(self) -> str:
        return self.url()

    def role(self, name: str) -> str:
        """A role name unique to this run (remembered, to be dropped)."""
        role = f"{name}_{self.tag}"
        self.roles.append(role)
        return role

    def superuser(self) -> Engine:
        return create_engine(make_url(PG_URL), isolation_level="AUTOCOMMIT")


@pytest.fixture
def shared_server() -> Iterator[SharedServer]:
    if not PG_URL:
        pytest.skip("no PostgreSQL")
    tag = uuid.uuid4().hex[:10]
    server = SharedServer(tag=tag, owner=f"recall_owner_{tag}", database=f"recall_shared_{tag}")
    admin = server.superuser()
    with admin.connect() as conn:
        conn.execute(text(f'CREATE ROLE "{server.owner}" LOGIN CREATEROLE'))
        conn.execute(text(f'CREATE DATABASE "{server.database}" OWNER "{server.owner}"'))
        # as docs/learners.md says: only the roles recall grants it may connect
        conn.execute(text(f'REVOKE ALL ON DATABASE "{server.database}" FROM PUBLIC'))
    try:
        yield server
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{server.database}" WITH (FORCE)'))
            found = conn.execute(
                text("SELECT rolname FROM pg_roles WHERE rolname LIKE :pattern"),
                {"pattern": f"%{tag}%"},
            ).scalars()
            for role in list(found):  # quoted by the server: a test's role name may be hostile
                drop = conn.execute(
                    text("SELECT format('DROP ROLE %I', CAST(:role AS text))"), {"role": role}
                ).scalar_one()
                conn.execute(text(drop.replace(":", "\\:")))
        admin.dispose()
