# ruff: noqa: F811  (pytest fixtures imported from store_fixtures shadow their parameters)
"""Schema versions: created at head, migrations equal the models, old upgraded, newer refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import IntegrityError
from store_fixtures import T0, db_url, make_deck  # noqa: F401

from recall.store import HEAD, StoreError, open_store
from recall.store.engine import WRITE, make_engine, parse_url
from recall.store.models import PER_LEARNER_TABLES, metadata
from recall.store.schema import REVISIONS


def alembic_upgrade(url: str, target: str) -> None:
    """Migrate to ``target`` as recall does: on SQLite with foreign keys off (a table rebuilt
    by ``batch_alter_table`` while other rows point at it, such as ``decks`` in 0009)."""
    from recall.store.migrate import upgrade

    engine = make_engine(parse_url(url))
    with engine.connect().execution_options(**WRITE) as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            conn.connection.driver_connection.execute("PRAGMA foreign_keys = OFF")  # type: ignore[union-attr]
        with conn.begin():
            upgrade(conn, target)
        if sqlite:
            conn.connection.driver_connection.execute("PRAGMA foreign_keys = ON")  # type: ignore[union-attr]
    engine.dispose()


def test_known_revisions_match_the_migration_scripts() -> None:
    from recall.store.migrate import script_revisions

    assert list(REVISIONS) == script_revisions()
    assert HEAD == REVISIONS[-1]


def test_migrations_build_exactly_the_models_schema(db_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    alembic_upgrade(db_url, "head")
    engine = create_engine(db_url)
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []
    engine.dispose()


def test_a_new_database_is_stamped_at_head(db_url: str) -> None:
    open_store(db_url).close()
    engine = create_engine(db_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == HEAD
        assert (
            conn.execute(text("SELECT value FROM recall_meta WHERE key = 'app'")).scalar()
            == "recall"
        )
    engine.dispose()


def make_old_database(url: str) -> None:
    """A database as recall at schema 0001 left it, with a deck, a card and a review."""
    alembic_upgrade(url, "0001")
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO recall_meta (key, value) VALUES ('app', 'recall')"))
        conn.execute(
            text(
                "INSERT INTO decks (id, slug, name, topic, path, builtin, synced_at) "
                "VALUES (1, 'losses', 'Losses', 'Losses', '', false, 0)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO cards (id, deck_id, key, kind, content_hash, position, created_at) "
                "VALUES (1, 1, 'mse', 'formula', 'abc', 0, 0)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO card_state (card_id, deck_id, queue, phase, stability, difficulty, "
                "due, last_review, reps, lapses, suspended) "
                "VALUES (1, 1, 2, 2, 3.5, 5.0, 1746435600000, 1746100000000, 3, 0, false)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO review_log (id, card_id, reviewed_at, kind, rating, verdict, "
                "duration_ms, hint_used) VALUES (1, 1, 1746100000000, 2, 3, 'correct', 4000, false)"
            )
        )
    engine.dispose()


@pytest.mark.learner_sql_unchecked  # rows written as a pre-0008 recall wrote them
def test_an_old_database_is_upgraded_keeping_its_data(db_url: str, tmp_path: Path) -> None:
    make_old_database(db_url)
    store = open_store(db_url)
    assert store.cards_by_key()["losses/mse"].state.stability == 3.5
    assert [e.verdict for e in store.reviews()] == ["correct"]
    info = store.start_session(T0, budget_kind="minutes", budget_value=10, mode="normal")
    assert store.session(info.id).mode == "normal"  # the table 0002 added works
    store.close()
    if db_url.startswith("sqlite"):
        backups = list(tmp_path.glob("recall.sqlite3.backup-0001-*"))
        assert len(backups) == 1
        engine = create_engine(f"sqlite:///{backups[0]}")
        with engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0001"
        engine.dispose()


@pytest.mark.learner_sql_unchecked  # rows written as a pre-0008 recall wrote them
def test_sessions_left_open_before_owners_were_recorded_stay_resumable(db_url: str) -> None:
    alembic_upgrade(db_url, "0003")
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO recall_meta (key, value) VALUES ('app', 'recall')"))
        conn.execute(
            text(
                "INSERT INTO sessions (id, started_at, last_active_at, budget_kind, "
                "budget_value, mode) VALUES (1, 1746435600000, 1746435660000, 'minutes', 10, "
                "'normal')"
            )
        )
    engine.dispose()
    store = open_store(db_url)
    info = store.unfinished_session()
    assert info is not None and info.id == 1 and info.budget_value == 10
    assert (info.owner_host, info.owner_pid) == (None, None)  # no owner: nobody is running it
    store.close()


@pytest.mark.learner_sql_unchecked  # rows written as a pre-0008 recall wrote them
def test_upgrading_imports_alembic_but_only_then(db_url: str) -> None:
    make_old_database(db_url)
    code = (
        "import sys; from recall.store import open_store; "
        f"open_store({db_url!r}).close(); print('alembic' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "True"


def test_a_newer_database_is_refused_untouched(db_url: str) -> None:
    open_store(db_url).close()
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    engine.dispose()
    with pytest.raises(StoreError, match=r"newer recall \(schema 9999.*Upgrade recall"):
        open_store(db_url)
    engine = create_engine(db_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "9999"
    engine.dispose()


def test_another_applications_database_is_refused(db_url: str) -> None:
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)"))
    engine.dispose()
    with pytest.raises(StoreError, match="not a recall database.*invoices"):
        open_store(db_url)


def test_a_sqlite_store_opens_without_postgresqls_dialect(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    code = (
        "import sys; from recall.store import open_store; "
        f"open_store({url!r}).close(); open_store({url!r}).close(); "
        "print('sqlalchemy.dialects.postgresql' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False"


def test_an_engine_for_postgresql_gives_the_partial_indexes_their_where() -> None:
    from sqlalchemy.dialects import postgresql
    from sqlalchemy.schema import CreateIndex

    pytest.importorskip("psycopg")  # the driver the engine is made for (recall[postgres])
    make_engine(parse_url("postgresql+psycopg://nobody@127.0.0.1:1/none")).dispose()  # no connect
    partial = [
        ix
        for t in metadata.tables.values()
        for ix in t.indexes
        if ix.name and ix.dialect_options["sqlite"]["where"] is not None
    ]
    # four card_state queues, one parameter set in use per learner, a shared deck's slug
    assert len(partial) == 6
    for index in partial:
        ddl = str(CreateIndex(index).compile(dialect=postgresql.dialect()))
        assert f"WHERE {index.dialect_options['sqlite']['where']}" in ddl


PER_LEARNER_ROWS = {  # the rows each revision can hold, inserted before upgrading to 0008
    "review_log": (
        "0001",
        "INSERT INTO review_log (id, card_id, reviewed_at, kind, rating, verdict, duration_ms, "
        "hint_used) VALUES (2, 1, 1746200000000, 2, 1, 'incorrect', 5000, false)",
    ),
    "sessions": (
        "0002",
        "INSERT INTO sessions (id, started_at, last_active_at, budget_kind, budget_value, mode) "
        "VALUES (1, 1746435600000, 1746435660000, 'minutes', 10, 'normal')",
    ),
    "card_claims": (
        "0005",
        "INSERT INTO card_claims (card_id, session_id, owner_host, owner_pid, claimed_at) "
        "VALUES (1, 1, 'h', 1, 1746435600000)",
    ),
    "parameter_sets": (
        "0006",
        "INSERT INTO parameter_sets (id, created_at, parameters, status, reviews, in_use) "
        "VALUES (1, 1746435600000, '[]', 'kept', 10, true)",
    ),
    "imported_reviews": (
        "0006",
        "INSERT INTO imported_reviews (id, card_id, reviewed_at, rating, imported_at) "
        "VALUES (1, 1, 1746000000000, 3, 1746435600000)",
    ),
}


@pytest.mark.learner_sql_unchecked  # rows written as a pre-0008 recall wrote them
@pytest.mark.parametrize("start", REVISIONS[:-1])
def test_every_earlier_schema_upgrades_to_one_learner_owning_every_row(
    db_url: str, start: str
) -> None:
    make_old_database(db_url)  # schema 0001 with a deck, a card, its state and a review
    alembic_upgrade(db_url, start)
    engine = create_engine(db_url)
    with engine.begin() as conn:
        for since, insert in PER_LEARNER_ROWS.values():
            if int(since) <= int(start):
                conn.execute(text(insert))
    engine.dispose()
    open_store(db_url).close()  # the upgrade as recall runs it
    engine = make_engine(parse_url(db_url))  # recall's engine: foreign keys on for SQLite too
    with engine.connect() as conn:
        learners = conn.execute(text("SELECT id, name, role_name FROM learners")).all()
        assert [tuple(r) for r in learners] == [(1, "you", None)]
        for table, (since, _insert) in {"card_state": ("0001", ""), **PER_LEARNER_ROWS}.items():
            owners = conn.execute(text(f"SELECT learner_id FROM {table}")).scalars().all()
            expected = 1 + (table == "review_log") if int(since) <= int(start) else 0
            assert owners == [1] * expected, table
        # the new keys: learner 2 may hold its own state and claim of card 1, not a second one
        conn.execute(text("INSERT INTO learners (id, name, created_at) VALUES (2, 'b', 0)"))
        conn.execute(
            text(
                "INSERT INTO card_state (learner_id, card_id, deck_id, queue, phase, reps, "
                "lapses, suspended) VALUES (2, 1, 1, 0, 0, 0, 0, false)"
            )
        )
        with pytest.raises(IntegrityError):
            with conn.begin_nested():
                conn.execute(
                    text(
                        "INSERT INTO card_state (learner_id, card_id, deck_id, queue, phase, "
                        "reps, lapses, suspended) VALUES (2, 1, 1, 0, 0, 0, 0, false)"
                    )
                )
        with pytest.raises(IntegrityError):  # no learner 3
            with conn.begin_nested():
                conn.execute(
                    text(
                        "INSERT INTO card_state (learner_id, card_id, deck_id, queue, phase, "
                        "reps, lapses, suspended) VALUES (3, 1, 1, 0, 0, 0, 0, false)"
                    )
                )
        conn.rollback()
    engine.dispose()
    store = open_store(db_url)  # and recall reads it
    assert store.cards_by_key()["losses/mse"].state.stability == 3.5
    assert len(store.reviews()) == 2
    store.close()


def test_the_learner_indexes_lead_with_learner_id(db_url: str) -> None:
    from sqlalchemy import inspect

    alembic_upgrade(db_url, "head")
    engine = create_engine(db_url)
    with engine.connect() as conn:
        inspector = inspect(conn)
        for table in PER_LEARNER_TABLES:
            indexes = inspector.get_indexes(table)
            assert indexes or table in ("parameter_sets", "learner_settings")
            for index in indexes:
                assert index["column_names"][0] == "learner_id", (table, index["name"])
            assert inspector.get_pk_constraint(table)["constrained_columns"][0] in (
                "learner_id",
                "id",
            )
        assert inspector.get_pk_constraint("card_state")["constrained_columns"] == [
            "learner_id",
            "card_id",
        ]
        assert inspector.get_pk_constraint("card_claims")["constrained_columns"] == [
            "learner_id",
            "card_id",
        ]
        assert inspector.get_pk_constraint("learner_settings")["constrained_columns"] == [
            "learner_id",
            "key",
        ]
    engine.dispose()


@pytest.mark.learner_sql_unchecked  # rows written as a pre-0009 recall wrote them
@pytest.mark.parametrize("start", REVISIONS[:-1])
def test_every_earlier_schema_upgrades_to_custom_decks_owned_by_learner_1(
    db_url: str, start: str
) -> None:
    """Migration 0009 from every earlier revision: the custom deck becomes learner 1's, a
    built-in one stays shared; afterwards two learners' custom decks may share a slug, two
    shared decks may not, and each learner keeps their own settings."""
    make_old_database(db_url)  # a custom deck 'losses' with a card and its review
    engine = create_engine(db_url)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO decks (id, slug, name, topic, path, builtin, synced_at) "
                "VALUES (2, 'optim', 'Optim', 'Optim', '', true, 0)"
            )
        )
    engine.dispose()
    alembic_upgrade(db_url, start)
    open_store(db_url).close()  # the upgrade as recall runs it
    engine = make_engine(parse_url(db_url))
    with engine.connect() as conn:
        owners = conn.execute(text("SELECT slug, owner_learner_id FROM decks ORDER BY id")).all()
        assert [tuple(r) for r in owners] == [("losses", 1), ("optim", None)]
        conn.execute(text("INSERT INTO learners (id, name, created_at) VALUES (2, 'b', 0)"))
        insert_deck = (
            "INSERT INTO decks (id, slug, name, topic, path, builtin, synced_at, "
            "owner_learner_id) VALUES (:id, :slug, 'x', 'x', '', :builtin, 0, :owner)"
        )
        conn.execute(text(insert_deck), {"id": 3, "slug": "losses", "builtin": False, "owner": 2})
        for slug, owner in (("losses", 1), ("optim", None), ("losses", 3)):
            with pytest.raises(IntegrityError), conn.begin_nested():
                conn.execute(
                    text(insert_deck),
                    {"id": 4, "slug": slug, "builtin": owner is None, "owner": owner},
                )
        setting = "INSERT INTO learner_settings (learner_id, key, value) VALUES (:l, 'k', '1')"
        conn.execute(text(setting), {"l": 1})
        conn.execute(text(setting), {"l": 2})
        with pytest.raises(IntegrityError), conn.begin_nested():
            conn.execute(text(setting), {"l": 2})
        conn.rollback()
    engine.dispose()
    store = open_store(db_url)  # and recall reads it: learner 1's custom deck is still theirs
    assert store.cards_by_key()["losses/mse"].state.stability == 3.5
    store.close()


@pytest.mark.learner_sql_unchecked  # raw rows and a migration's own statements
def test_0009_downgrades_to_one_deck_per_slug_keeping_learner_1s(db_url: str) -> None:
    """Back to 0008: the custom deck of another learner goes with its cards and their rows (a
    database at 0008 could not tell the two ``mine`` decks apart); learner 1's stays."""
    from alembic import command

    from recall.store.migrate import alembic_config

    alembic_upgrade(db_url, "0009")
    engine = make_engine(parse_url(db_url))
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO recall_meta (key, value) VALUES ('app', 'recall')"))
        conn.execute(text("INSERT INTO learners (id, name, created_at) VALUES (2, 'b', 0)"))
        for deck, owner in ((1, None), (2, 1), (3, 2)):
            slug = "shared" if owner is None else "mine"
            conn.execute(
                text(
                    "INSERT INTO decks (id, slug, name, topic, path, builtin, synced_at, "
                    "owner_learner_id) VALUES (:id, :slug, 'x', 'x', '', :builtin, 0, :owner)"
                ),
                {"id": deck, "slug": slug, "builtin": owner is None, "owner": owner},
            )
            conn.execute(
                text(
                    "INSERT INTO cards (id, deck_id, key, kind, content_hash, position, "
                    "created_at) VALUES (:id, :id, 'c', 'formula', 'h', 0, 0)"
                ),
                {"id": deck},
            )
            conn.execute(
                text(
                    "INSERT INTO card_state (learner_id, card_id, deck_id, queue, phase, reps, "
                    "lapses, suspended) VALUES (:learner, :id, :id, 0, 0, 0, 0, false)"
                ),
                {"learner": owner or 1, "id": deck},
            )
        conn.execute(
            text("INSERT INTO learner_settings (learner_id, key, value) VALUES (2, 'k', 'v')")
        )
    with engine.connect().execution_options(**WRITE) as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:
            conn.connection.driver_connection.execute("PRAGMA foreign_keys = OFF")  # type: ignore[union-attr]
        with conn.begin():
            command.downgrade(alembic_config(conn), "0008")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0008"
        decks = conn.execute(text("SELECT id, slug FROM decks ORDER BY id")).all()
        assert [tuple(r) for r in decks] == [(1, "shared"), (2, "mine")]
        assert conn.execute(text("SELECT id FROM cards ORDER BY id")).scalars().all() == [1, 2]
        states = conn.execute(text("SELECT card_id FROM card_state ORDER BY card_id"))
        assert states.scalars().all() == [1, 2]
        assert "learner_settings" not in inspect(conn).get_table_names()
        with pytest.raises(IntegrityError), conn.begin_nested():  # one deck per slug again
            conn.execute(
                text(
                    "INSERT INTO decks (id, slug, name, topic, path, builtin, synced_at) "
                    "VALUES (4, 'mine', 'x', 'x', '', false, 0)"
                )
            )
    engine.dispose()
