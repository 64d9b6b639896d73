"""Custom decks never checked before are checked after the first screen, and none of their cards
is offered until then (``Workspace.open(defer_checks=True)``, :meth:`Workspace.check_pending`).

A first start over many custom cards spent seconds in the formula engine's checks before the
home screen had counts. The TUI now opens with the decks the caches already know (built-in
decks, custom decks checked at an earlier start) and checks the rest in a worker. The bar: a
card whose deck was not checked is never loaded, synced, counted, planned or drilled; a deck
that fails its check is listed with file, line and card and never stops the others; what was
checked is kept, and an edit is checked afresh.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from recall.cards import loader
from recall.config import Settings
from recall.session import Budget
from recall.workspace import Workspace

GOOD = """\
[deck]
id = "mine"
name = "Mine"

[[card]]
id = "one"
kind = "formula"
prompt = "x squared"
answer = "x^2"
symbols = { x = "real" }

[[card]]
id = "two"
kind = "formula"
prompt = "twice x"
answer = "2*x"
symbols = { x = "real" }
"""

#: Structurally sound: only the formula engine's check finds the undeclared name (line 16).
BAD = """\
[deck]
id = "broken"
name = "Broken"

[[card]]
id = "fine"
kind = "formula"
prompt = "x cubed"
answer = "x^3"
symbols = { x = "real" }

[[card]]
id = "bad"
kind = "formula"
prompt = "x plus what"
answer = "x + zz"
symbols = { x = "real" }
"""


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RECALL_HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    custom = tmp_path / "custom"
    custom.mkdir()
    (custom / "mine.toml").write_text(GOOD, encoding="utf-8")
    (custom / "broken.toml").write_text(BAD, encoding="utf-8")
    loader._CACHE.clear()  # a new process: nothing read yet
    yield custom
    loader._CACHE.clear()


def _open(folder: Path) -> Workspace:
    return Workspace.open(Settings(), custom_decks=folder, defer_checks=True)


def _offered(workspace: Workspace) -> set[str]:
    """Every card key a path that offers cards could offer: the card cache, today's plan over
    every deck and over each custom deck id, the decks the home screen lists (``deck/``), a
    cram session over the custom decks. (The store may still hold an older version's cards of an
    edited deck, as it holds a deck's that stopped loading: they are offered by none of these.)
    """
    keys = set(workspace.cards)
    for scope in (None, ["mine"], ["broken"]):
        keys |= {f"{c.deck}/{c.card}" for c in workspace.plan_today(decks=scope).queue}
    keys |= {f"{deck.id}/" for deck in workspace.decks}
    session = workspace.start_session(
        budget=Budget.until_done(), mode="cram", decks=["mine", "broken"]
    )
    while (card := session.next_card()) is not None:
        keys.add(card.key)
        session.set_aside(requeue=False)
    session.release()
    return {key for key in keys if key.startswith(("mine/", "broken/"))}


def test_an_unchecked_deck_offers_nothing_until_checked(folder: Path) -> None:
    workspace = _open(folder)
    try:
        assert sorted(Path(p).name for p in workspace.pending) == ["broken.toml", "mine.toml"]
        assert {deck.id for deck in workspace.decks} >= {"losses"}  # built-in: never deferred
        assert not {"mine", "broken"} & {deck.id for deck in workspace.decks}
        assert workspace.failures == ()
        assert _offered(workspace) == set()
        assert not [k for k in workspace.store.cards_by_key() if k.startswith(("mine", "broken"))]

        assert workspace.check_pending() == 2
        assert workspace.pending == ()
        assert "mine" in {deck.id for deck in workspace.decks}
        assert _offered(workspace) == {"mine/", "mine/one", "mine/two"}
    finally:
        workspace.close()


def test_a_deck_failing_its_deferred_check_names_file_line_and_card(folder: Path) -> None:
    workspace = _open(folder)
    try:
        assert workspace.failures == ()
        workspace.check_pending()
        [failure] = workspace.failures
        assert Path(failure.path).name == "broken.toml"
        [error] = failure.errors
        assert error.card_id == "bad" and error.line == 16 and "zz" in error.message
        assert "broken" not in {deck.id for deck in workspace.decks}
        assert "mine" in {deck.id for deck in workspace.decks}  # the other deck loads
        assert not any(key.startswith("broken/") for key in _offered(workspace))
    finally:
        workspace.close()


def test_what_was_checked_is_kept_and_an_edit_is_checked_afresh(folder: Path) -> None:
    workspace = _open(folder)
    workspace.check_pending()
    workspace.close()  # writes the parsed-deck and failure caches

    loader._CACHE.clear()  # the next start
    again = _open(folder)
    try:
        assert again.pending == ()  # both known: the good deck parsed, the bad one's errors
        assert "mine" in {deck.id for deck in again.decks}
        assert [Path(f.path).name for f in again.failures] == ["broken.toml"]
    finally:
        again.close()

    # The broken deck is mended and the good one edited: neither is taken from the caches.
    (folder / "broken.toml").write_text(BAD.replace("x + zz", "x + 1"), encoding="utf-8")
    edited = GOOD.replace('answer = "2*x"', 'answer = "2*y"')  # now undeclared: y
    (folder / "mine.toml").write_text(edited, encoding="utf-8")
    loader._CACHE.clear()
    third = _open(folder)
    try:
        assert sorted(Path(p).name for p in third.pending) == ["broken.toml", "mine.toml"]
        assert _offered(third) == set()  # the old, checked "mine" is not offered meanwhile
        third.check_pending()
        assert "broken" in {deck.id for deck in third.decks}
        assert [Path(f.path).name for f in third.failures] == ["mine.toml"]
        assert [e.card_id for e in third.failures[0].errors] == ["two"]
        assert _offered(third) == {"broken/", "broken/fine", "broken/bad"}
    finally:
        third.close()


def test_without_defer_every_custom_deck_is_checked_before_open_returns(folder: Path) -> None:
    workspace = Workspace.open(Settings(), custom_decks=folder)
    try:
        assert workspace.pending == ()
        assert "mine" in {deck.id for deck in workspace.decks}
        assert [Path(f.path).name for f in workspace.failures] == ["broken.toml"]
        assert workspace.check_pending() == 0
    finally:
        workspace.close()


def test_a_reload_defers_a_deck_edited_meanwhile_as_the_first_load_did(folder: Path) -> None:
    workspace = _open(folder)
    try:
        workspace.check_pending()
        assert workspace.pending == () and "mine" in {deck.id for deck in workspace.decks}
        edited = GOOD.replace('prompt = "x squared"', 'prompt = "x times x"')
        (folder / "mine.toml").write_text(edited, encoding="utf-8")
        workspace.reload()  # as the home screen's reload or its recount after a session
        assert [Path(p).name for p in workspace.pending] == ["mine.toml"]
        assert _offered(workspace) == set()  # neither the old cards nor the new ones
        assert workspace.check_pending() == 1
        assert workspace.card("mine/one").prompt == "x times x"
        assert workspace.pending == ()
    finally:
        workspace.close()
