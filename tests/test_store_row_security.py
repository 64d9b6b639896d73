# ruff: noqa: F811  (pytest fixtures imported from other modules shadow their parameters)
"""Row-level security on PostgreSQL really holds (issue 22): logged in as learner B, no SQL of
B's own reads or writes learner A's rows, whatever B sets in the session; the tables report
forced row security; the owner is not a learner; and the whole store works as B's login.

Set up as docs/learners.md says: an owner role (not a superuser) owns the database and runs
the migrations; ``recall learners add`` (:func:`recall.store.learners.add_learner`) makes each
learner's login role. The test cluster trusts loopback logins, so the passwords are not what
is tested here: the roles are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from pg_roles import SharedServer, shared_server  # noqa: F401
from sqlalchemy import Connection, create_engine, text
from sqlalchemy.exc import DBAPIError, ProgrammingError
from store_fixtures import T0, make_deck
from test_store_learners import DECKS, SCRIPT, drill, reads

from recall.errors import StoreError
from recall.store import open_store
from recall.store.engine import make_engine, parse_url
from recall.store.learners import add_learner, list_learners, remove_learner
from recall.store.models import PER_LEARNER_TABLES

pytestmark = pytest.mark.postgres


@pytest.fixture
def two_learners(shared_server: SharedServer) -> Iterator[dict[str, str]]:
    """Learners A and B on the shared server, A having drilled the script (as A's login):
    the URL of each login and of the owner, and each learner's id. The owner created the
    database and synced the shared decks (a learner's login writes no shared row)."""
    store = open_store(shared_server.owner_url)  # created by the owner
    store.sync_decks(DECKS, now=T0)
    store.close()
    owner = make_engine(parse_url(shared_server.owner_url))
    added = {name: add_learner(owner, name, shared_server.role(name)) for name in ("ana", "ben")}
    owner.dispose()
    urls = {
        name: shared_server.url(done.learner.role_name, done.password)
        for name, done in added.items()
    }
    a = open_store(urls["ana"])
    a.sync_decks(DECKS, now=T0)
    drill(a, flip=False)
    a.close()
    yield {
        **urls,
        "owner": shared_server.owner_url,
        "a": str(added["ana"].learner.id),
        "b": str(added["ben"].learner.id),
    }


@contextmanager
def as_login(url: str) -> Iterator[Connection]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            yield conn
    finally:
        engine.dispose()


@pytest.mark.learner_sql_unchecked  # B's own unfiltered SELECTs, on purpose
def test_b_reads_none_of_a_rows(two_learners: dict[str, str]) -> None:
    a = int(two_learners["a"])
    with as_login(two_learners["owner"]) as owner:  # A's rows are there
        assert (
            owner.execute(
                text("SELECT count(*) FROM review_log WHERE learner_id = :a"), {"a": a}
            ).scalar()
            == len(SCRIPT) - 1
        )
    with as_login(two_learners["ben"]) as ben:
        for table in PER_LEARNER_TABLES:
            assert (
                ben.execute(
                    text(f"SELECT count(*) FROM {table} WHERE learner_id = :a"), {"a": a}
                ).scalar()
                == 0
            ), table
            mine = ben.execute(text(f"SELECT DISTINCT learner_id FROM {table}")).scalars().all()
            assert set(mine) <= {int(two_learners["b"])}, table
        # learners: B's own row only
        assert ben.execute(text("SELECT name FROM learners")).scalars().all() == ["ben"]


def test_b_sees_none_of_a_custom_decks(two_learners: dict[str, str]) -> None:
    """A custom deck is its learner's alone: B sees neither it nor its cards, and cannot make
    one in A's name."""
    a = int(two_learners["a"])
    custom = dataclasses.replace(make_deck("mine", "x1", "x2"), builtin=False)
    store = open_store(two_learners["ana"])
    store.sync_decks([*DECKS, custom], now=T0)
    store.close()
    count_decks = text("SELECT count(*) FROM decks WHERE owner_learner_id = :a")
    count_cards = text(
        "SELECT count(*) FROM cards JOIN decks ON decks.id = cards.deck_id "
        "WHERE decks.owner_learner_id = :a"
    )
    with as_login(two_learners["owner"]) as owner:
        assert owner.execute(count_decks, {"a": a}).scalar() == 1
        assert owner.execute(count_cards, {"a": a}).scalar() == 2
    with as_login(two_learners["ben"]) as ben:
        assert ben.execute(count_decks, {"a": a}).scalar() == 0
        assert ben.execute(count_cards, {"a": a}).scalar() == 0
        assert ben.execute(text("SELECT count(*) FROM decks")).scalar() == len(DECKS)
        with pytest.raises(DBAPIError, match="row-level security"):
            ben.execute(
                text(
                    "INSERT INTO decks (slug, name, topic, path, builtin, synced_at, "
                    "owner_learner_id) VALUES ('x', 'x', '', '', false, 0, :a)"
                ),
                {"a": a},
            )


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO review_log (learner_id, card_id, reviewed_at, kind, rating, verdict, "
        "duration_ms, hint_used) SELECT :a, card_id, 0, 0, 3, 'correct', 1, false "
        "FROM card_state WHERE learner_id = :b LIMIT 1",
        "INSERT INTO card_claims (learner_id, card_id, session_id, owner_host, owner_pid, "
        "claimed_at) SELECT :a, card_id, 1, 'h', 1, 0 FROM card_state WHERE learner_id = :b "
        "LIMIT 1",
        "INSERT INTO parameter_sets (learner_id, created_at, parameters, status, reviews, "
        "in_use) VALUES (:a, 0, '[]', 'kept', 0, false)",
        "UPDATE card_state SET learner_id = :a WHERE learner_id = :b",
        "UPDATE sessions SET learner_id = :a WHERE learner_id = :b",
    ],
    ids=["insert review", "insert claim", "insert fit", "move state", "move session"],
)
def test_b_cannot_write_a_row_as_a(two_learners: dict[str, str], statement: str) -> None:
    ids = {"a": int(two_learners["a"]), "b": int(two_learners["b"])}
    ben = make_engine(parse_url(two_learners["ben"]))
    store = open_store(two_learners["ben"])
    store.sync_decks(DECKS, now=T0)
    store.start_session(T0, budget_kind="minutes", budget_value=5, mode="normal")
    store.close()
    with ben.connect() as conn:
        with pytest.raises(DBAPIError, match="row-level security"):
            conn.execute(text(statement), ids)
    ben.dispose()


def test_b_updating_or_deleting_a_rows_touches_nothing(two_learners: dict[str, str]) -> None:
    a = int(two_learners["a"])
    with as_login(two_learners["ben"]) as ben:
        for sql in (
            "UPDATE card_state SET lapses = 99 WHERE learner_id = :a",
            "DELETE FROM review_log WHERE learner_id = :a",
            "DELETE FROM card_state WHERE learner_id = :a",
        ):
            assert ben.execute(text(sql), {"a": a}).rowcount == 0
        ben.commit()
    with as_login(two_learners["owner"]) as owner:
        assert (
            owner.execute(
                text("SELECT count(*) FROM review_log WHERE learner_id = :a"), {"a": a}
            ).scalar()
            == len(SCRIPT) - 1
        )
        assert (
            owner.execute(
                text("SELECT max(lapses) FROM card_state WHERE learner_id = :a"), {"a": a}
            ).scalar()
            != 99
        )


@pytest.mark.parametrize(
    "setting",
    [
        "SET recall.learner_id = '{a}'",
        "SET SESSION recall.learner_id = '{a}'",
        "SET app.current_learner = '{a}'",
        "SELECT set_config('recall.learner_id', '{a}', false)",
        "SET search_path = pg_temp, public",  # with a temporary "learners" naming B as A
    ],
)
def test_no_session_setting_lets_b_read_a(
    two_learners: dict[str, str], shared_server: SharedServer, setting: str
) -> None:
    a = int(two_learners["a"])
    with shared_server.superuser().connect() as su:  # even a learner allowed temporary tables
        su.execute(
            text(
                f'GRANT TEMPORARY ON DATABASE "{shared_server.database}" '
                f'TO "ben_{shared_server.tag}"'
            )
        )
    with as_login(two_learners["ben"]) as ben:
        ben.execute(text("CREATE TEMPORARY TABLE learners (id integer, name text, role_name text)"))
        ben.execute(text("INSERT INTO pg_temp.learners VALUES (:a, 'x', session_user)"), {"a": a})
        ben.execute(text(setting.format(a=a)))
        assert ben.execute(text("SELECT current_learner()")).scalar() == int(two_learners["b"])
        assert (
            ben.execute(
                text("SELECT count(*) FROM public.review_log WHERE learner_id = :a"), {"a": a}
            ).scalar()
            == 0
        )
        assert (
            ben.execute(
                text("SELECT count(*) FROM public.card_state WHERE learner_id = :a"), {"a": a}
            ).scalar()
            == 0
        )


def test_b_cannot_become_a_or_the_owner(
    two_learners: dict[str, str], shared_server: SharedServer
) -> None:
    with as_login(two_learners["ben"]) as ben:
        for role in (f"ana_{shared_server.tag}", shared_server.owner):
            with pytest.raises(ProgrammingError, match="permission denied"):
                with ben.begin():
                    ben.execute(text(f'SET ROLE "{role}"'))


def test_the_tables_report_forced_row_security(two_learners: dict[str, str]) -> None:
    with as_login(two_learners["owner"]) as owner:
        rows = owner.execute(
            text(
                "SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class "
                "WHERE relname = ANY(:names) AND relkind = 'r' "
                "AND relnamespace = current_schema()::regnamespace"
            ),
            {"names": [*PER_LEARNER_TABLES, "learners", "decks", "cards"]},
        ).all()
    expected = (*PER_LEARNER_TABLES, "learners", "decks", "cards")
    assert sorted(rows) == sorted((t, True, True) for t in expected)


def test_the_owner_is_not_a_learner(
    two_learners: dict[str, str], shared_server: SharedServer
) -> None:
    with as_login(two_learners["owner"]) as owner:
        roles = owner.execute(text("SELECT role_name FROM learners")).scalars().all()
        assert shared_server.owner not in roles
        assert owner.execute(text("SELECT current_learner()")).scalar() is None
        owner_is_super = owner.execute(
            text("SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user")
        ).scalar()
        assert owner_is_super is False  # held to the policies: its own policy lets it in
        for role in (r for r in roles if r):  # no learner is the owner, or a member of it
            assert not owner.execute(
                text("SELECT pg_has_role(:role, current_user, 'MEMBER')"), {"role": role}
            ).scalar()
    engine = make_engine(parse_url(two_learners["owner"]))
    with pytest.raises(StoreError, match="owner"):
        add_learner(engine, "boss", shared_server.owner)
    engine.dispose()


def test_the_store_works_logged_in_as_a_learner(
    two_learners: dict[str, str], shared_server: SharedServer
) -> None:
    """B drills the whole script through the store as B's login, with A's history beside it:
    every read gives what a database of B's alone gives (the differential test's reads)."""
    ben = open_store(two_learners["ben"])
    assert ben.learner_id == int(two_learners["b"])  # found from the login
    ben.sync_decks(DECKS, now=T0)
    drill(ben, flip=True)
    shared = reads(ben)
    ben.close()

    alone_server = shared_server.url()  # a second database of the owner's, B's script alone
    engine = create_engine(shared_server.superuser().url, isolation_level="AUTOCOMMIT")
    alone_db = f"{shared_server.database}_alone"
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{alone_db}" OWNER "{shared_server.owner}"'))
    try:
        alone = open_store(alone_server.replace(shared_server.database, alone_db))
        alone.sync_decks(DECKS, now=T0)
        drill(alone, flip=True)
        assert shared == reads(alone)
        alone.close()
    finally:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{alone_db}" WITH (FORCE)'))
        engine.dispose()
    assert shared["review count"] == len(SCRIPT) - 1


def test_a_learner_named_for_another_is_refused(two_learners: dict[str, str]) -> None:
    with pytest.raises(StoreError, match="no learner 'ana'"):
        open_store(two_learners["ben"], learner="ana")
    assert open_store(two_learners["ben"], learner="ben").learner_id == int(two_learners["b"])


def test_removing_a_learner_deletes_their_rows_and_role(
    two_learners: dict[str, str], shared_server: SharedServer
) -> None:
    engine = make_engine(parse_url(two_learners["owner"]))
    removed, rows = remove_learner(engine, "ana")
    assert rows > len(SCRIPT)  # reviews, states, a session, a fit, an import
    with engine.connect() as conn:
        assert [learner.name for learner in list_learners(conn)] == ["you", "ben"]
        for table in PER_LEARNER_TABLES:
            assert (
                conn.execute(
                    text(f"SELECT count(*) FROM {table} WHERE learner_id = :a"),
                    {"a": removed.id},
                ).scalar()
                == 0
            )
        assert (
            conn.execute(
                text("SELECT count(*) FROM pg_roles WHERE rolname = :r"), {"r": removed.role_name}
            ).scalar()
            == 0
        )
    engine.dispose()


@pytest.mark.parametrize("name", ["a\x1bb", "a\u202eb", "", "x" * 64, "pg_monitor", "é" * 32])
def test_a_name_that_cannot_be_a_login_is_refused(two_learners: dict[str, str], name: str) -> None:
    engine = make_engine(parse_url(two_learners["owner"]))
    with pytest.raises(StoreError):
        add_learner(engine, name)
    engine.dispose()


def test_a_hostile_name_is_a_quoted_role_not_sql(
    two_learners: dict[str, str], shared_server: SharedServer
) -> None:
    name = shared_server.role("o'b\"r:%s; DROP TABLE review_log; --")
    engine = make_engine(parse_url(two_learners["owner"]))
    added = add_learner(engine, name)
    assert added.learner.role_name == name
    with engine.connect() as conn:
        assert (
            conn.execute(
                text("SELECT count(*) FROM pg_roles WHERE rolname = :r"), {"r": name}
            ).scalar()
            == 1
        )
        assert (
            conn.execute(
                text("SELECT count(*) FROM review_log WHERE learner_id = :a"),
                {"a": int(two_learners["a"])},
            ).scalar()
            == len(SCRIPT) - 1
        )
    remove_learner(engine, name)
    engine.dispose()


def test_migration_0010_gives_an_old_database_the_same_security(
    shared_server: SharedServer,
) -> None:
    """Created at head (from the models), taken down to 0008 and up again by the migration:
    the same policies, and none in between."""
    from alembic import command

    from recall.store.engine import WRITE
    from recall.store.migrate import alembic_config

    query = text(
        "SELECT tablename, policyname, cmd, qual, with_check FROM pg_policies ORDER BY 1, 2"
    )
    open_store(shared_server.owner_url).close()
    engine = make_engine(parse_url(shared_server.owner_url))
    with engine.connect() as conn:
        created = conn.execute(query).all()
    with engine.connect().execution_options(**WRITE) as conn, conn.begin():
        command.downgrade(alembic_config(conn), "0009")
    with engine.connect() as conn:
        assert conn.execute(query).all() == []
        assert not conn.execute(
            text(
                "SELECT bool_or(relforcerowsecurity) FROM pg_class "
                "WHERE relnamespace = current_schema()::regnamespace"
            )
        ).scalar()
    open_store(shared_server.owner_url).close()  # upgraded to head as recall does it
    with engine.connect() as conn:
        migrated = conn.execute(query).all()
    engine.dispose()
    assert migrated == created
    # a learner's and the owner's policy on each per-learner table, decks, cards and
    # learners, a learner's insert and update policies on decks and cards (0011), and the
    # owner's, a read and a touch policy on recall_meta
    assert len(created) == 2 * (len(PER_LEARNER_TABLES) + 3) + 2 * 2 + 3


def test_a_learner_cannot_upgrade_and_is_told_who_can(
    two_learners: dict[str, str], shared_server: SharedServer
) -> None:
    from alembic import command

    from recall.store.engine import WRITE
    from recall.store.migrate import alembic_config

    engine = make_engine(parse_url(two_learners["owner"]))
    with engine.connect().execution_options(**WRITE) as conn, conn.begin():
        command.downgrade(alembic_config(conn), "0009")
    with pytest.raises(StoreError, match="only the database's owner can"):
        open_store(two_learners["ben"])
    with engine.connect() as conn:  # nothing changed
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0009"
    engine.dispose()
    open_store(two_learners["owner"]).close()  # the owner upgrades; then ben opens again
    assert open_store(two_learners["ben"]).learner_id == int(two_learners["b"])


def test_a_learners_login_records_its_own_deck_syncs_and_skips_them_next_time(
    two_learners: dict[str, str],
) -> None:
    """The store records each deck's last full sync per learner (issue 18: a later start
    skips unchanged decks) in that learner's own ``learner_settings`` rows, which row security
    lets a learner's login write: the second sync of the same decks changes nothing, and the
    records are ben's alone (none in ``recall_meta``, none for the other learner)."""
    digested = [dataclasses.replace(deck, digest=f"d-{deck.id}") for deck in DECKS]
    custom = dataclasses.replace(make_deck("ben-own", "p", "q"), digest="d-ben")
    ben = open_store(two_learners["ben"])
    try:
        report = ben.sync_decks([*digested, custom], now=T0)
        assert report.added == ("ben-own/p", "ben-own/q")
        again = ben.sync_decks([*digested, custom], now=T0)
        assert again.unchanged == sum(len(deck.cards) for deck in [*digested, custom])
        assert set(ben.cards_by_key()) >= {"ben-own/p", "ben-own/q"}
    finally:
        ben.close()
    with as_login(two_learners["owner"]) as owner:
        in_meta = owner.execute(
            text("SELECT count(*) FROM recall_meta WHERE key LIKE '%synced:%'")
        ).scalar()
        by_learner = {
            learner: owner.execute(
                text(
                    "SELECT count(*) FROM learner_settings "
                    "WHERE learner_id = :learner AND key LIKE 'store.synced:%'"
                ),
                {"learner": learner},
            ).scalar()
            for learner in (int(two_learners["a"]), int(two_learners["b"]))
        }
    assert in_meta == 0
    assert by_learner == {int(two_learners["a"]): 0, int(two_learners["b"]): len(digested) + 1}


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE decks SET owner_learner_id = current_learner() WHERE owner_learner_id IS NULL",
        "UPDATE decks SET slug = slug || '-mine' WHERE owner_learner_id IS NULL",
        "UPDATE decks SET builtin = NOT builtin WHERE owner_learner_id IS NULL",
        "UPDATE cards SET deck_id = (SELECT max(id) FROM decks) "
        "WHERE deck_id = (SELECT min(id) FROM decks)",
        "UPDATE cards SET key = key || '-moved'",
    ],
    ids=["take a shared deck", "rename its slug", "flip builtin", "move cards", "rekey cards"],
)
def test_b_cannot_take_or_move_what_every_learner_shares(
    two_learners: dict[str, str], statement: str
) -> None:
    """A shared deck's owner, slug and flag, and a card's deck and key, are out of a learner's
    reach: taking a shared deck would hide it and its cards from A, whose next sync would add
    the built-in cards again under new ids, away from A's history."""
    with as_login(two_learners["ben"]) as ben:
        with pytest.raises(DBAPIError, match="may not change which deck or owner"):
            ben.execute(text(statement))
    a = open_store(two_learners["ana"])
    try:
        keys = set(a.cards_by_key())
        assert a.sync_decks(DECKS, now=T0).added == ()  # nothing taken away and added back
        assert keys == set(a.cards_by_key()) and keys
    finally:
        a.close()


def test_a_learner_whose_states_are_out_of_step_syncs_in_full(
    two_learners: dict[str, str],
) -> None:
    """A's record of a shared deck still matches it after A's state of one of its cards is
    gone (deleted by hand as the owner: a partial restore, say): A's next sync is not skipped,
    and gives A that card's state back (new)."""
    full = [dataclasses.replace(deck, builtin=True, digest=f"d-{deck.id}") for deck in DECKS]
    a = open_store(two_learners["ana"])
    try:
        a.sync_decks(full, now=T0)
        assert a.sync_decks(full, now=T0).unchanged == sum(len(d.cards) for d in full)
    finally:
        a.close()
    lost = "hinge"  # A never drilled it
    with as_login(two_learners["owner"]) as owner, owner.begin():
        gone = owner.execute(
            text(
                "DELETE FROM card_state WHERE learner_id = :a "
                "AND card_id = (SELECT id FROM cards WHERE key = :key)"
            ),
            {"a": int(two_learners["a"]), "key": lost},
        )
        assert gone.rowcount == 1
    a = open_store(two_learners["ana"])
    try:
        assert f"losses/{lost}" not in a.cards_by_key()
        report = a.sync_decks(full, now=T0)
        assert report.unchanged == sum(len(d.cards) for d in full) and report.behind == ()
        card = a.cards_by_key()[f"losses/{lost}"]
        assert not card.retired and card.state.phase == 0
    finally:
        a.close()
