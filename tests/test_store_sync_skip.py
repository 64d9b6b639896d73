"""A deck synced already is not read again: the store remembers the digest of each deck it
brought in line (issue 18, item 7: a later start over 20,000 custom cards read every card row
and hashed every card)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from sqlalchemy import text

# ruff: noqa: F811  (pytest fixtures imported from store_fixtures shadow their parameters)
from store_fixtures import T0, db_url, make_card, make_deck, store  # noqa: F401

from recall.cards import loader
from recall.cards.loader import read_deck
from recall.cards.model import Deck
from recall.store import Store, open_store


def with_digest(deck: Deck, digest: str) -> Deck:
    return dataclasses.replace(deck, digest=digest)


def tamper(store: Store, sql: str) -> None:
    """Change rows behind the sync's back (what only another program would do)."""
    with store._write() as conn:
        conn.execute(text(sql))


def stored_hash(store: Store, key: str) -> str:
    with store._read() as conn:
        return str(
            conn.execute(text(f"SELECT content_hash FROM cards WHERE key = '{key}'")).scalar()
        )


def test_a_deck_synced_with_the_same_digest_is_not_read_again(store: Store) -> None:
    deck = with_digest(make_deck("losses", "mse", "ce"), "d1")
    assert set(store.sync_decks([deck], now=T0).added) == {"losses/mse", "losses/ce"}
    tamper(store, "UPDATE cards SET content_hash = 'tampered' WHERE key = 'mse'")
    report = store.sync_decks([deck], now=T0)
    assert report.unchanged == 2 and not report.changed and not report.added
    assert stored_hash(store, "mse") == "tampered"  # the rows were not read: skipped
    # Another digest (an edited file, or other code): synced in full, the row corrected.
    report = store.sync_decks([with_digest(deck, "d2")], now=T0)
    assert report.changed == ("losses/mse",)
    assert stored_hash(store, "mse") == deck.card("mse").content_hash()


def test_a_deck_without_a_digest_always_syncs_in_full(store: Store) -> None:
    deck = make_deck("losses", "mse")
    store.sync_decks([deck], now=T0)
    tamper(store, "UPDATE cards SET content_hash = 'tampered'")
    assert store.sync_decks([deck], now=T0).changed == ("losses/mse",)


def test_an_edit_under_the_same_id_is_synced(store: Store) -> None:
    deck = with_digest(make_deck("losses", "mse", "ce"), "d1")
    store.sync_decks([deck], now=T0)
    edited = dataclasses.replace(
        deck, cards=(make_card("losses", "mse", "Reworded?"),), digest="d2"
    )
    report = store.sync_decks([edited], now=T0)
    assert report.changed == ("losses/mse",) and report.retired == ("losses/ce",)
    assert store.sync_decks([deck], now=T0).restored == ("losses/ce",)  # d1 again: in full


def test_a_card_retired_behind_the_syncs_back_makes_its_deck_sync_in_full(store: Store) -> None:
    deck = with_digest(make_deck("losses", "mse", "ce"), "d1")
    store.sync_decks([deck], now=T0)
    tamper(store, "UPDATE cards SET retired_at = created_at WHERE key = 'ce'")
    assert store.sync_decks([deck], now=T0).restored == ("losses/ce",)


def test_a_deck_whose_file_came_back_is_restored(store: Store, tmp_path: Path) -> None:
    file = tmp_path / "losses.toml"
    file.write_text("# stands in for a deck file\n")
    deck = dataclasses.replace(make_deck("losses", "mse"), path=str(file), digest="d1")
    store.sync_decks([deck], now=T0)
    file.unlink()
    assert store.retire_vanished_decks([tmp_path], keep=set(), now=T0).retired == ("losses/mse",)
    file.write_text("# back\n")
    assert store.sync_decks([deck], now=T0).restored == ("losses/mse",)


def test_decks_skipped_and_synced_in_one_call(store: Store) -> None:
    a, b = with_digest(make_deck("a", "x"), "da"), with_digest(make_deck("b", "y"), "db")
    store.sync_decks([a, b], now=T0)
    grown = dataclasses.replace(b, cards=(*b.cards, make_card("b", "z")), digest="db2")
    report = store.sync_decks([a, grown], now=T0)
    assert report.added == ("b/z",) and report.unchanged == 2
    assert set(store.cards_by_key()) == {"a/x", "b/y", "b/z"}


DECK = """\
[deck]
id = "mini"
name = "Mini"

[[card]]
id = "one"
kind = "fact"
prompt = "How many?"
value = 1
"""


def test_the_loader_gives_each_deck_the_digest_of_its_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RECALL_HOME", str(tmp_path / "home"))
    file = tmp_path / "mini.toml"
    file.write_text(DECK, encoding="utf-8")
    first, _ = read_deck(file)
    loader._CACHE.clear()
    again, _ = read_deck(file)  # from the parse cache this time
    assert first is not None and again is not None
    assert first.digest and again.digest == first.digest
    file.write_text(DECK.replace("How many?", "How many now?"), encoding="utf-8")
    loader._CACHE.clear()
    edited, _ = read_deck(file)
    assert edited is not None and edited.digest not in ("", first.digest)
    monkeypatch.setenv("RECALL_NO_DECK_CACHE", "1")
    loader._CACHE.clear()
    uncached, _ = read_deck(file)
    assert uncached is not None and uncached.digest == ""


def test_a_learner_added_later_gets_a_full_sync_of_a_deck_skipped_for_another(
    db_url: str,
) -> None:
    """The record is the learner's own: a deck the first learner skips is synced in full for a
    learner added later (who gets a state row for every card), which leaves the first
    learner's record standing; a deck another learner's sync changed has a new digest, so the
    first learner's next start syncs it in full."""
    from test_store_learners import add_learner

    deck = dataclasses.replace(make_deck("losses", "mse", "ce"), builtin=True, digest="d1")
    a = open_store(db_url, learner=1)
    a.sync_decks([deck], now=T0)
    assert a.sync_decks([deck], now=T0).unchanged == 2
    add_learner(db_url, 2, "b")
    b = open_store(db_url, learner=2)
    try:
        b.sync_decks([deck], now=T0)
        assert sorted(b.cards_by_key()) == ["losses/ce", "losses/mse"]
        assert b.sync_decks([deck], now=T0).unchanged == 2
        assert a.sync_decks([deck], now=T0).unchanged == 2  # still A's record
        tamper(a, "UPDATE cards SET content_hash = 'tampered' WHERE key = 'mse'")
        assert a.sync_decks([deck], now=T0).unchanged == 2  # skipped: not read
        grown = dataclasses.replace(deck, cards=(*deck.cards, make_card("losses", "mae")))
        assert b.sync_decks([dataclasses.replace(grown, digest="d2")], now=T0).added == (
            "losses/mae",
        )
        tamper(a, "UPDATE cards SET content_hash = 'tampered' WHERE key = 'mse'")
        report = a.sync_decks([dataclasses.replace(grown, digest="d2")], now=T0)
        assert report.changed == ("losses/mse",)  # read in full: a new digest for A
    finally:
        a.close()
        b.close()
