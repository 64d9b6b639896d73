# ruff: noqa: F811  (pytest fixtures imported from store_fixtures shadow their parameters)
"""Files that are not recall databases, damaged, read-only or full; bad URLs; never a traceback
from a driver, never a changed file."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import event
from store_fixtures import T0, make_deck

from recall.scheduling import Rating, Scheduler, SchedulerSettings
from recall.store import ReviewInput, Store, StoreError, open_store

SCHED = Scheduler(SchedulerSettings(enable_fuzzing=False))


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fresh_store(path: Path, cards: int = 3) -> None:
    store = open_store(f"sqlite:///{path}")
    store.sync_decks([make_deck("d", *[f"c{i}" for i in range(cards)])], now=T0)
    store.close()  # the last connection checkpoints the WAL into the file


def integrity(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


def test_a_text_file_is_not_a_recall_database_and_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("shopping list\n" * 400)
    before = digest(path)
    with pytest.raises(StoreError, match="is not a recall database.*Nothing was changed"):
        open_store(f"sqlite:///{path}")
    assert digest(path) == before
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0


def test_a_damaged_database_gives_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "recall.sqlite3"
    fresh_store(path, cards=400)
    size = path.stat().st_size
    with path.open("r+b") as handle:  # scribble over every other page after the schema
        for offset in range(3 * 4096, size, 2 * 4096):
            handle.seek(offset)
            handle.write(bytes(range(256)) * 16)
    with pytest.raises(StoreError, match="is damaged"):
        store = open_store(f"sqlite:///{path}")
        store.cards_by_key()


def test_a_damaged_header_is_reported_before_anything_is_written(tmp_path: Path) -> None:
    path = tmp_path / "recall.sqlite3"
    fresh_store(path)
    with path.open("r+b") as handle:
        handle.write(b"definitely not SQLite!")
    before = digest(path)
    with pytest.raises(StoreError, match="not a recall database"):
        open_store(f"sqlite:///{path}")
    assert digest(path) == before


def test_a_read_only_database_is_refused_at_open(tmp_path: Path) -> None:
    path = tmp_path / "recall.sqlite3"
    fresh_store(path)
    before = digest(path)
    # A read-only open (root ignores file permissions, so permissions alone cannot show it).
    with pytest.raises(StoreError, match="read-only"):
        open_store(f"sqlite:///file:{path}?mode=ro&uri=true")
    assert digest(path) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write a file whatever its permissions")
def test_a_file_without_write_permission_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "recall.sqlite3"
    fresh_store(path)
    path.chmod(0o444)
    try:
        with pytest.raises(StoreError, match="read-only"):
            open_store(f"sqlite:///{path}")
    finally:
        path.chmod(0o644)


def test_a_full_disk_loses_the_write_not_the_database(tmp_path: Path) -> None:
    path = tmp_path / "recall.sqlite3"
    fresh_store(path)
    store = open_store(f"sqlite:///{path}")
    card = store.cards_by_key()["d/c0"]
    pages = store._engine.connect().exec_driver_sql("PRAGMA page_count").scalar()  # noqa: SLF001
    store.close()

    @event.listens_for(store._engine, "connect")  # noqa: SLF001
    def _cap(dbapi_connection, _record):  # type: ignore[no-untyped-def]  # noqa: ANN001, ANN202
        dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")  # this connection's "disk"

    data = ReviewInput(rating=3, reviewed_at=T0, verdict="correct", seconds=2, answer="x" * 200_000)
    with pytest.raises(StoreError, match="full"):
        store.apply_review(card.db_id, data, lambda s: SCHED.review(card.db_id, s, Rating.Good, T0))
    assert store.review_count() == 0
    assert store.card(card.db_id).state == card.state
    store.close()
    assert integrity(path) == "ok"


def test_a_url_that_is_not_a_url(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="not a database URL"):
        open_store("recall.db at home")


def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="does not exist"):
        open_store(f"sqlite:///{tmp_path}/nowhere/recall.sqlite3")


def test_an_unknown_driver_is_named() -> None:
    with pytest.raises(StoreError, match="no database driver"):
        open_store("oracle+nosuchdriver://scott@localhost/orcl")


def test_an_unreachable_server_is_named() -> None:
    # Port 1 on loopback: nothing listens there, so the connection is refused at once.
    with pytest.raises(StoreError, match="cannot connect"):
        open_store("postgresql+psycopg://recall@127.0.0.1:1/recall?connect_timeout=2")


def test_default_location_is_created_under_recall_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home" / "recall"
    monkeypatch.setenv("RECALL_HOME", str(home))
    monkeypatch.delenv("RECALL_DB", raising=False)
    store = open_store()
    assert isinstance(store, Store)
    store.close()
    assert (home / "recall.sqlite3").is_file()
    assert integrity(home / "recall.sqlite3") == "ok"


def test_another_programs_sqlite_database_keeps_its_journal_mode(tmp_path: Path) -> None:
    """Refusing a database that is not ours must leave it byte for byte as it was; switching
    it to WAL (a setting stored in the file) would change another program's data."""
    path = tmp_path / "invoices.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.execute("INSERT INTO invoices VALUES (1, 9.5)")
    conn.commit()
    conn.close()
    before = digest(path)
    with pytest.raises(StoreError, match="not a recall database"):
        open_store(f"sqlite:///{path}")
    assert digest(path) == before
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()


def test_a_recall_database_is_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "recall.sqlite3"
    fresh_store(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_every_sqlite_connection_gets_recalls_setup(tmp_path: Path) -> None:
    """Foreign keys, busy timeout and full sync on each pooled connection (a second thread
    gets its own), and a write transaction holds the write lock from its BEGIN."""
    import threading

    from sqlalchemy.exc import IntegrityError

    path = tmp_path / "recall.sqlite3"
    fresh_store(path)
    store = open_store(f"sqlite:///{path}")
    engine = store._engine  # noqa: SLF001
    seen: list[tuple[object, ...]] = []

    def probe() -> None:
        with engine.connect() as conn:
            seen.append(
                tuple(
                    conn.exec_driver_sql(f"PRAGMA {name}").scalar()
                    for name in ("foreign_keys", "busy_timeout", "synchronous", "journal_mode")
                )
            )

    with engine.connect():  # hold one connection so the thread's probe opens another
        worker = threading.Thread(target=probe)
        worker.start()
        worker.join()
    probe()
    assert seen == [(1, 15000, 2, "wal")] * 2
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.exec_driver_sql(
            "INSERT INTO review_log (learner_id, card_id, reviewed_at, kind, rating, verdict, "
            "duration_ms, hint_used) VALUES (1, 999, 0, 0, 3, 'correct', 1, 0)"
        )
    with store._write() as conn:  # noqa: SLF001
        other = sqlite3.connect(path, timeout=0)
        try:
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
        finally:
            other.close()
        conn.exec_driver_sql("SELECT 1")
    store.close()


@pytest.mark.parametrize(
    "url", ["sqlite://", "sqlite:///:memory:", "sqlite:///file:mem?mode=memory&uri=true"]
)
def test_an_in_memory_database_is_refused(url: str) -> None:
    """It would forget every review at exit, and each thread would see its own empty one."""
    with pytest.raises(StoreError, match="in memory.*database file"):
        open_store(url)
