"""The store speaks SQLAlchemy Core only: opening it, syncing decks, counting and recording a
review never import the ORM (about 0.1 s of CPU at every start, before the home screen's
counts). Run in a fresh interpreter: this test process may have imported it long ago."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

SCRIPT = r"""
import json, sys
from datetime import datetime, timezone
from recall.cards.loader import load_decks
from recall.paths import builtin_decks_dir
from recall.store import open_store

store = open_store("sqlite:///" + sys.argv[1])
decks = load_decks([builtin_decks_dir()]).decks
now = datetime(2026, 12, 1, 9, tzinfo=timezone.utc)
report = store.sync_decks(decks, now)
counts = store.deck_counts(now, now.replace(hour=23))
store.close()
print(json.dumps({
    "added": len(report.added),
    "orm": sorted(m for m in sys.modules if m.startswith("sqlalchemy.orm")),
    "sqlalchemy": "sqlalchemy" in sys.modules,
}))
"""


def test_opening_and_syncing_the_store_never_imports_the_orm(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "recall.sqlite3")],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["sqlalchemy"] and report["added"] > 500  # the store really ran
    assert report["orm"] == []


def test_a_second_sync_of_unchanged_decks_reads_them_in_two_statements(tmp_path: Path) -> None:
    """A second start syncs every deck again: unchanged decks cost two queries in all (decks,
    then their cards), not three per deck, and a renamed deck is still written."""
    from sqlalchemy import event, text
    from store_fixtures import T0, make_deck

    from recall.store import open_store

    store = open_store(f"sqlite:///{tmp_path / 'recall.sqlite3'}")
    decks = [make_deck(f"deck{n}", "a", "b", "c") for n in range(12)]
    store.sync_decks(decks, now=T0)
    statements: list[str] = []
    engine = store._engine  # noqa: SLF001 - counting what the sync sends
    listener = lambda *args: statements.append(args[2])  # noqa: E731
    event.listen(engine, "before_cursor_execute", listener)
    report = store.sync_decks(decks, now=T0)
    assert report.unchanged == 36 and not report.added
    reads = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    writes = [s for s in statements if s.lstrip().upper().startswith(("UPDATE", "INSERT"))]
    assert len(reads) == 2 and writes == []
    statements.clear()
    renamed = [make_deck("deck0", "a", "b", "c", name="Deck zero"), *decks[1:]]
    store.sync_decks(renamed, now=T0)
    assert [s for s in statements if "UPDATE decks" in s]
    event.remove(engine, "before_cursor_execute", listener)
    with engine.connect() as conn:
        name = conn.execute(text("SELECT name FROM decks WHERE slug = 'deck0'")).scalar()
    assert name == "Deck zero"
    # Decks with a digest (read through the parse cache): recorded once, then skipped with
    # four reads (decks, their records, their live cards, whether the learner's states are in
    # step with them) and nothing written.
    digested = [dataclasses.replace(deck, digest=f"d{n}") for n, deck in enumerate(renamed)]
    store.sync_decks(digested, now=T0)
    statements.clear()
    event.listen(engine, "before_cursor_execute", listener)
    report = store.sync_decks(digested, now=T0)
    event.remove(engine, "before_cursor_execute", listener)
    assert report.unchanged == 36
    sent = [s for s in statements if s != "BEGIN IMMEDIATE"]
    assert len(sent) == 4 and all(s.lstrip().upper().startswith("SELECT") for s in sent)
    assert "cards.key" not in " ".join(sent)  # no card row read
    store.close()


def test_a_first_sync_inserts_each_decks_cards_in_one_statement(tmp_path: Path) -> None:
    """A fresh home inserts every card: one batched INSERT per deck (and one query for the new
    ids), not one INSERT … RETURNING per card (671 statements for the built-in decks), and
    each card's state row belongs to that very card."""
    from sqlalchemy import event, text
    from store_fixtures import T0, make_deck

    from recall.store import open_store

    store = open_store(f"sqlite:///{tmp_path / 'recall.sqlite3'}")
    decks = [make_deck(f"deck{n}", *(f"c{i}" for i in range(40 + n))) for n in range(5)]
    statements: list[str] = []
    engine = store._engine  # noqa: SLF001 - counting what the sync sends
    listener = lambda *args: statements.append(args[2])  # noqa: E731
    event.listen(engine, "before_cursor_execute", listener)
    report = store.sync_decks(decks, now=T0)
    event.remove(engine, "before_cursor_execute", listener)
    assert len(report.added) == sum(len(deck.cards) for deck in decks) == 210
    card_inserts = [s for s in statements if s.lstrip().upper().startswith("INSERT INTO CARDS")]
    assert len(card_inserts) == len(decks)
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT decks.slug, cards.key, card_state.deck_id = cards.deck_id "
                "FROM card_state JOIN cards ON cards.id = card_state.card_id "
                "JOIN decks ON decks.id = cards.deck_id WHERE card_state.learner_id = :learner"
            ),
            {"learner": store.learner_id},
        ).all()
    assert sorted(f"{slug}/{key}" for slug, key, _same in rows) == sorted(report.added)
    assert all(same for _slug, _key, same in rows)
    store.close()
