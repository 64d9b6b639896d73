"""Shared fixtures for the store, session and stats tests (imported, not a conftest).

``db_url`` runs each test twice: on a SQLite file under ``tmp_path`` and on PostgreSQL when
``RECALL_TEST_PG_URL`` is set (``eval "$(.ci/postgres.sh)"``). Each xdist worker gets its own
PostgreSQL database, emptied before every test, so parallel runs never share rows.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from recall.cards.model import Card, CardKind, Deck
from recall.store import Store, open_store

PG_URL = os.environ.get("RECALL_TEST_PG_URL", "")
PG_SKIP_REASON = (
    'RECALL_TEST_PG_URL is not set: run `eval "$(.ci/postgres.sh)"` to also test on PostgreSQL'
)

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param(
        "postgresql",
        id="postgresql",
        marks=[pytest.mark.postgres, pytest.mark.skipif(not PG_URL, reason=PG_SKIP_REASON)],
    ),
]

T0 = datetime(2025, 5, 5, 9, 0, tzinfo=UTC)


def pg_worker_url(worker: str) -> str:
    """A PostgreSQL URL for this xdist worker's own database, emptied (created if needed)."""
    import psycopg
    from sqlalchemy.engine import make_url

    base = make_url(PG_URL)
    name = f"{base.database}_{worker}".replace("-", "_")
    admin = base.set(drivername="postgresql", database="postgres").render_as_string(
        hide_password=False
    )
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    url = base.set(database=name)
    plain = url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(plain, autocommit=True) as conn:
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")
    return url.render_as_string(hide_password=False)


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A URL to a fresh, empty database on each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'recall.sqlite3'}"
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return pg_worker_url(worker)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """An open store on a fresh database."""
    opened = open_store(db_url)
    try:
        yield opened
    finally:
        opened.close()


def make_card(
    deck: str, card_id: str, prompt: str = "", *, topic: str = "", answer: str = "x"
) -> Card:
    """A formula card with just enough content to sync."""
    return Card(
        deck_id=deck,
        id=card_id,
        kind=CardKind.FORMULA,
        prompt=prompt or f"What is {card_id}?",
        answer=answer,
        topic=topic,
    )


def make_deck(deck: str, *card_ids: str, topic: str = "", name: str = "") -> Deck:
    """A deck of formula cards with the given ids."""
    return Deck(
        id=deck,
        name=name or deck.title(),
        topic=topic,
        cards=tuple(make_card(deck, cid) for cid in card_ids),
    )


class FakeClock:
    """An injectable clock: starts at ``start`` and moves only when told."""

    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float = 0, **kwargs: float) -> datetime:
        self.now += timedelta(seconds=seconds, **kwargs)
        return self.now
