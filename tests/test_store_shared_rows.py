# ruff: noqa: F811  (pytest fixtures imported from other modules shadow their parameters)
"""Shared decks are the owner's to write (migration 0011): logged in as learner B, no SQL of
B's own inserts, updates or deletes a shared (built-in) deck or card row, whichever column it
names, while B's own custom decks stay B's to write; A reads exactly what A read before B's
attempts. A learner's recall on an up-to-date database starts without writing a shared row;
when its built-in decks differ from the database's (another recall version), it uses the
database's, says which decks differ, and the owner's sync brings them in line for everyone.

Set up as docs/learners.md says, as ``tests/test_store_row_security.py`` does: a database owned
by an owner role that is not a superuser, learners added by recall as that owner.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from pg_roles import SharedServer, shared_server  # noqa: F401
from sqlalchemy import Boolean, Connection, Integer, text
from sqlalchemy.exc import DBAPIError
from store_fixtures import T0, make_card, make_deck
from test_store_learners import DECKS, reads
from test_store_row_security import as_login, two_learners  # noqa: F401

from recall.store import open_store
from recall.store.models import CardRow, DeckRow

pytestmark = pytest.mark.postgres

#: The first shared deck, and (for cards) the rows of it.
SHARED_DECK = "(SELECT min(id) FROM decks WHERE owner_learner_id IS NULL)"
WHERE_SHARED = {"decks": f"id = {SHARED_DECK}", "cards": f"deck_id = {SHARED_DECK}"}
#: B's own custom deck (made by B's sync in :func:`ben_with_a_custom_deck`).
OWN_DECK = "(SELECT min(id) FROM decks WHERE owner_learner_id = current_learner())"
WHERE_OWN = {"decks": f"id = {OWN_DECK}", "cards": f"deck_id = {OWN_DECK}"}
#: The columns a learner's login may never change, even on their own rows (the trigger).
IDENTITY = {"decks": {"id", "slug", "owner_learner_id"}, "cards": {"id", "deck_id", "key"}}
TABLES = {"decks": DeckRow.__table__, "cards": CardRow.__table__}


def every_column() -> list[tuple[str, str]]:
    """(table, column) for every column of decks and cards, from the models: a column added
    later is covered without editing this file."""
    return [(name, column.name) for name, table in TABLES.items() for column in table.columns]


def changed(table: str, column: str) -> str:
    """An SQL expression giving ``column`` another value than it has."""
    kind = TABLES[table].c[column].type
    kind = getattr(kind, "impl", kind)  # a type decorator (a time in milliseconds) by its column
    if isinstance(kind, Boolean):
        return f"NOT {column}"
    if isinstance(kind, Integer):
        return f"coalesce({column}, 0) + 1"
    return f"CASE WHEN {column} = 'tampered' THEN 'tampere2' ELSE 'tampered' END"


def snapshot(url: str) -> dict[str, list[Any]]:
    """Every deck and card row, as the owner reads them."""
    with as_login(url) as owner:
        return {
            table: [tuple(row) for row in owner.execute(text(f"SELECT * FROM {table} ORDER BY id"))]
            for table in TABLES
        }


def refused(conn: Connection, statement: str, match: str) -> None:
    conn.rollback()  # whatever the connection began before: the statement alone
    with pytest.raises(DBAPIError, match=match):
        with conn.begin():
            conn.execute(text(statement))


#: Each way a learner's login could add a shared row: a fake built-in deck everyone would see,
#: a card in a shared deck (new, or a copy of one), an upsert over a shared card.
INSERTS = {
    "a fake built-in deck": "INSERT INTO decks (slug, name, topic, path, builtin, synced_at, "
    "owner_learner_id) VALUES ('fake', 'Fake', '', '', true, 0, NULL)",
    "a fake shared custom deck": "INSERT INTO decks (slug, name, topic, path, builtin, "
    "synced_at, owner_learner_id) VALUES ('fake', 'Fake', '', '', false, 0, NULL)",
    "a card in a shared deck": "INSERT INTO cards (deck_id, key, kind, content_hash, position, "
    f"created_at) VALUES ({SHARED_DECK}, 'extra', 'formula', 'x', 99, 0)",
    "a copy of a shared card": "INSERT INTO cards (deck_id, key, kind, topic, sibling_group, "
    "content_hash, position, created_at) SELECT deck_id, key || '-2', kind, topic, "
    f"sibling_group, content_hash, position, created_at FROM cards WHERE deck_id = {SHARED_DECK}",
    "an upsert over a shared card": "INSERT INTO cards (deck_id, key, kind, content_hash, "
    f"position, created_at) SELECT deck_id, key, kind, 'x', 0, 0 FROM cards "
    f"WHERE deck_id = {SHARED_DECK} ON CONFLICT (deck_id, key) DO UPDATE SET content_hash = 'x'",
}
DELETES = {
    "delete a shared deck's cards": f"DELETE FROM cards WHERE deck_id = {SHARED_DECK}",
    "delete a shared deck": f"DELETE FROM decks WHERE id = {SHARED_DECK}",
    "truncate the cards": "TRUNCATE cards CASCADE",
}


@pytest.mark.parametrize(("table", "column"), every_column())
def test_b_cannot_change_any_column_of_a_shared_row(
    two_learners: dict[str, str], table: str, column: str
) -> None:
    before = snapshot(two_learners["owner"])
    with as_login(two_learners["ben"]) as ben:
        # B sees the rows (the refusal is not "no row matched")
        seen = ben.execute(text(f"SELECT count(*) FROM {table} WHERE {WHERE_SHARED[table]}"))
        assert seen.scalar() > 0
        refused(
            ben,
            f"UPDATE {table} SET {column} = {changed(table, column)} WHERE {WHERE_SHARED[table]}",
            "row-level security|may not change which deck or owner",
        )
    assert snapshot(two_learners["owner"]) == before


@pytest.mark.parametrize("statement", list(INSERTS.values()), ids=list(INSERTS))
def test_b_cannot_add_a_shared_row(two_learners: dict[str, str], statement: str) -> None:
    before = snapshot(two_learners["owner"])
    with as_login(two_learners["ben"]) as ben:
        refused(ben, statement, "row-level security")
    assert snapshot(two_learners["owner"]) == before


@pytest.mark.parametrize("statement", list(DELETES.values()), ids=list(DELETES))
def test_b_cannot_delete_a_shared_row(two_learners: dict[str, str], statement: str) -> None:
    before = snapshot(two_learners["owner"])
    with as_login(two_learners["ben"]) as ben:
        refused(ben, statement, "permission denied")
    assert snapshot(two_learners["owner"]) == before


@pytest.fixture
def ben_with_a_custom_deck(two_learners: dict[str, str]) -> dict[str, str]:
    custom = dataclasses.replace(make_deck("ben-own", "p", "q"), builtin=False)
    ben = open_store(two_learners["ben"])
    try:
        report = ben.sync_decks([*DECKS, custom], now=T0)
    finally:
        ben.close()
    assert report.added == ("ben-own/p", "ben-own/q") and report.behind == ()
    return two_learners


@pytest.mark.parametrize(
    ("table", "column"),
    [(table, column) for table, column in every_column() if column not in IDENTITY[table]],
)
def test_b_writes_every_column_of_b_own_custom_deck(
    ben_with_a_custom_deck: dict[str, str], table: str, column: str
) -> None:
    with as_login(ben_with_a_custom_deck["ben"]) as ben:
        with ben.begin():
            done = ben.execute(
                text(
                    f"UPDATE {table} SET {column} = {changed(table, column)} "
                    f"WHERE {WHERE_OWN[table]}"
                )
            )
            assert done.rowcount >= 1


def test_b_adds_a_custom_deck_and_cards_by_hand(ben_with_a_custom_deck: dict[str, str]) -> None:
    with as_login(ben_with_a_custom_deck["ben"]) as ben:
        with ben.begin():
            ben.execute(
                text(
                    "INSERT INTO decks (slug, name, topic, path, builtin, synced_at, "
                    "owner_learner_id) VALUES ('by-hand', 'By hand', '', '', false, 0, "
                    "current_learner())"
                )
            )
            ben.execute(
                text(
                    "INSERT INTO cards (deck_id, key, kind, content_hash, position, created_at) "
                    f"VALUES ({OWN_DECK}, 'r', 'formula', 'x', 2, 0)"
                )
            )
    with as_login(ben_with_a_custom_deck["owner"]) as owner:
        mine = owner.execute(
            text("SELECT count(*) FROM decks WHERE owner_learner_id = :b"),
            {"b": int(ben_with_a_custom_deck["b"])},
        ).scalar()
    assert mine == 2


def test_a_reads_the_same_after_b_tries_every_write(two_learners: dict[str, str]) -> None:
    """Every refused statement above, one after another as B's login: A's every product read
    (the differential test's), and A's next sync, are as they were."""
    for _ in range(2):  # the second: after the first open's own upkeep (an expired bury)
        a = open_store(two_learners["ana"])
        try:
            before = reads(a)
        finally:
            a.close()
    statements = [
        f"UPDATE {table} SET {column} = {changed(table, column)} WHERE {WHERE_SHARED[table]}"
        for table, column in every_column()
    ]
    with as_login(two_learners["ben"]) as ben:
        for statement in [*statements, *INSERTS.values(), *DELETES.values()]:
            refused(ben, statement, "row-level security|may not change|permission denied")
    a = open_store(two_learners["ana"])
    try:
        assert reads(a) == before
        report = a.sync_decks(DECKS, now=T0)
        assert not report.touched and report.behind == ()
        assert reads(a) == before
    finally:
        a.close()


def test_a_learners_start_on_an_up_to_date_database_writes_no_shared_row(
    two_learners: dict[str, str],
) -> None:
    """B's first start: B's state of every shared card (given when B was added), nothing
    behind, no shared row written; the second start is skipped (B's own record)."""
    digested = [dataclasses.replace(deck, digest=f"d-{deck.id}") for deck in DECKS]
    before = snapshot(two_learners["owner"])
    ben = open_store(two_learners["ben"])
    try:
        first = ben.sync_decks(digested, now=T0)
        assert (first.added, first.changed, first.retired, first.behind) == ((), (), (), ())
        assert set(ben.cards_by_key()) == {card.key for deck in DECKS for card in deck.cards}
        again = ben.sync_decks(digested, now=T0)
        assert again.unchanged == sum(len(deck.cards) for deck in DECKS)
    finally:
        ben.close()
    assert snapshot(two_learners["owner"]) == before


def newer_decks() -> list[Any]:
    """What a newer recall's built-in decks could be beside :data:`DECKS`: in ``losses`` a
    reworded card, a new one and one dropped; a new deck ``norms``; ``optim`` unchanged."""
    losses, optim = DECKS
    reworded = make_card("losses", "mse", "What is the mean squared error?")
    cards = (reworded, *losses.cards[1:3], make_card("losses", "huber"))  # hinge dropped
    norms = dataclasses.replace(make_deck("norms", "l1", "l2"), builtin=True)
    return [dataclasses.replace(losses, cards=cards), optim, norms]


def test_newer_built_in_decks_are_used_once_the_owner_syncs_them(
    two_learners: dict[str, str],
) -> None:
    """B's recall is newer than what the owner synced: B's sync writes no shared row, names the
    decks that differ, keeps B's cards as the database has them, and records nothing (the
    next start looks again). The owner's sync of the newer decks then reaches A and B."""
    newer = newer_decks()
    before = snapshot(two_learners["owner"])
    ben = open_store(two_learners["ben"])
    try:
        report = ben.sync_decks(newer, now=T0)
        assert report.behind == ("losses", "norms")
        assert (report.added, report.changed, report.retired, report.restored) == ((), (), (), ())
        assert set(ben.cards_by_key()) == {card.key for deck in DECKS for card in deck.cards}
        assert ben.sync_decks(newer, now=T0).behind == ("losses", "norms")  # not recorded
    finally:
        ben.close()
    assert snapshot(two_learners["owner"]) == before

    owner = open_store(two_learners["owner"])  # what `recall decks sync` does as the owner
    try:
        done = owner.sync_decks(newer, now=T0)
    finally:
        owner.close()
    assert done.added == ("losses/huber", "norms/l1", "norms/l2")
    assert done.changed == ("losses/mse",) and done.retired == ("losses/hinge",)

    for login in ("ben", "ana"):
        store = open_store(two_learners[login])
        try:
            report = store.sync_decks(newer, now=T0)
            assert report.behind == () and not report.touched
            cards = store.cards_by_key()
            assert {"losses/huber", "norms/l1", "norms/l2"} <= set(cards)
            assert cards["losses/hinge"].retired
        finally:
            store.close()


def test_a_learner_in_step_is_told_when_the_owner_rewords_a_card(
    two_learners: dict[str, str],
) -> None:
    """B's record of a shared deck holds only while its card rows are as B's sync saw them: the
    owner's sync of a reworded card (same ids, same count: a newer recall's) makes B's next
    start compare again and name the deck, and once the owner's decks match B's again, B's
    start is skipped again."""
    digested = [dataclasses.replace(deck, digest=f"d-{deck.id}") for deck in DECKS]
    total = sum(len(deck.cards) for deck in DECKS)
    losses, optim = digested
    reworded = dataclasses.replace(
        losses,
        cards=(make_card("losses", "mse", "What is the mean squared error?"), *losses.cards[1:]),
        digest="d-newer",
    )

    def ben_syncs() -> Any:
        ben = open_store(two_learners["ben"])
        try:
            return ben.sync_decks(digested, now=T0)
        finally:
            ben.close()

    def owner_syncs(decks: list[Any]) -> Any:
        owner = open_store(two_learners["owner"])
        try:
            return owner.sync_decks(decks, now=T0)
        finally:
            owner.close()

    assert ben_syncs().behind == ()
    assert ben_syncs().unchanged == total  # skipped: B's records hold
    assert owner_syncs([reworded, optim]).changed == ("losses/mse",)
    report = ben_syncs()
    assert report.behind == ("losses",) and not report.touched
    assert owner_syncs(digested).changed == ("losses/mse",)  # the owner's recall goes back
    assert ben_syncs().behind == ()
    assert ben_syncs().unchanged == total


def test_an_older_recall_leaves_the_owners_decks_alone(two_learners: dict[str, str]) -> None:
    """The owner synced newer decks; A's recall still has the old ones (the dropped card among
    them): A's sync neither restores the card the owner retired nor retires the new ones, and
    A's state of the retired card is retired too."""
    owner = open_store(two_learners["owner"])
    try:
        owner.sync_decks(newer_decks(), now=T0)
    finally:
        owner.close()
    before = snapshot(two_learners["owner"])
    a = open_store(two_learners["ana"])
    try:
        report = a.sync_decks(DECKS, now=T0)
        assert report.behind == ("losses",) and not report.touched
        cards = a.cards_by_key()
        assert cards["losses/hinge"].retired and not cards["losses/huber"].retired
    finally:
        a.close()
    assert snapshot(two_learners["owner"]) == before


def test_a_learner_retires_only_their_own_vanished_decks(
    ben_with_a_custom_deck: dict[str, str], tmp_path: Any
) -> None:
    """B's recall scanning a folder where a shared deck's recorded file is gone (the owner's
    path, on B's machine) leaves the shared deck alone; B's own deck whose file is gone is
    retired (B's cards)."""
    urls = ben_with_a_custom_deck
    with as_login(urls["owner"]) as owner, owner.begin():
        owner.execute(text("UPDATE decks SET path = :p"), {"p": str(tmp_path / "gone.toml")})
    before = snapshot(urls["owner"])
    ben = open_store(urls["ben"])
    try:
        report = ben.retire_vanished_decks([tmp_path], keep=set(), now=T0)
    finally:
        ben.close()
    assert set(report.retired) == {"ben-own/p", "ben-own/q"}
    after = snapshot(urls["owner"])
    assert after["decks"] == before["decks"]
    changed_cards = [row for row in after["cards"] if row not in before["cards"]]
    assert len(changed_cards) == 2  # B's two cards, retired; no shared card


def test_the_policies_on_decks_and_cards(two_learners: dict[str, str]) -> None:
    """Reading what one sees, writing one's own: the three learner policies and the owner's."""
    with as_login(two_learners["owner"]) as owner:
        rows = owner.execute(
            text(
                "SELECT tablename, policyname, cmd FROM pg_policies "
                "WHERE tablename IN ('decks', 'cards') ORDER BY 1, 2"
            )
        ).all()
    expected = [
        ("recall_learner", "SELECT"),
        ("recall_learner_add", "INSERT"),
        ("recall_learner_edit", "UPDATE"),
        ("recall_owner", "ALL"),
    ]
    assert rows == [(table, *policy) for table in ("cards", "decks") for policy in expected]


def test_migration_0011_downgrades_to_0010s_policy_and_back(
    shared_server: SharedServer,
) -> None:
    from alembic import command

    from recall.store.engine import WRITE, make_engine, parse_url
    from recall.store.migrate import alembic_config

    query = text(
        "SELECT tablename, policyname, cmd, qual, with_check FROM pg_policies "
        "WHERE tablename IN ('decks', 'cards') ORDER BY 1, 2"
    )
    readiness = text(
        "SELECT pg_get_functiondef(oid), proconfig, proacl FROM pg_proc "
        "WHERE proname = 'group_readiness'"
    )
    open_store(shared_server.owner_url).close()
    engine = make_engine(parse_url(shared_server.owner_url))
    try:
        with engine.connect() as conn:
            created = conn.execute(query).all()
            made = conn.execute(readiness).one()
        with engine.connect().execution_options(**WRITE) as conn, conn.begin():
            command.downgrade(alembic_config(conn), "0010")
        with engine.connect() as conn:
            old = conn.execute(query).all()
            before = conn.execute(readiness).one()
        # the group's readiness: over the learners with a login from 0011 on, its search path
        # pinned and its privileges kept either way
        assert "role_name IS NOT NULL" in made[0] and "role_name" not in before[0]
        assert made[1] == before[1] and made[1] and made[1][0].startswith("search_path=")
        assert made[2] == before[2]
        # 0010: one learner policy for every command, reading and writing what one sees
        assert [(row.policyname, row.cmd) for row in old] == [
            ("recall_learner", "ALL"),
            ("recall_owner", "ALL"),
        ] * 2
        assert all(row.qual == row.with_check for row in old if row.policyname == "recall_learner")
        open_store(shared_server.owner_url).close()  # upgraded to head as recall does it
        with engine.connect() as conn:
            assert conn.execute(query).all() == created
            assert conn.execute(readiness).one() == made
    finally:
        engine.dispose()
