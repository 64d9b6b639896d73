"""Four defects of the deferred deck checks (``Workspace.open(defer_checks=True)``,
:meth:`Workspace.check_pending`), each tested as a class:

* a reload publishes a whole new view: a thread iterating the workspace's cards or decks while
  the checks reload never meets a map changing under it, nor half a reload;
* a reload of one deck (the card form saving a card) keeps the files still pending, and a
  reloaded file that was pending or failed leaves that list as any load would take it;
* a deck id claimed by a new file stays with the file that held it, deferred or not, and the
  newcomer is the failure, named with its file and its ``id`` line;
* a closed workspace never opens its store again (a check worker finishing after the app quit).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from recall.cards import loader
from recall.config import Settings
from recall.errors import StoreError
from recall.workspace import Workspace


def _deck(deck_id: str, cards: int = 1, *, answer: str = "x^2") -> str:
    body = "".join(
        f'\n[[card]]\nid = "c{i}"\nkind = "formula"\nprompt = "p{i}"\n'
        f'answer = "{answer}"\nsymbols = {{ x = "real" }}\n'
        for i in range(cards)
    )
    return f'[deck]\nid = "{deck_id}"\nname = "{deck_id.upper()}"\n{body}'


@pytest.fixture
def custom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("RECALL_HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    folder = tmp_path / "custom"
    folder.mkdir()
    loader._CACHE.clear()  # a new process: nothing read yet
    yield folder
    loader._CACHE.clear()


def _open(folder: Path) -> Workspace:
    return Workspace.open(Settings(), custom_decks=folder, defer_checks=True)


def _new_process() -> None:
    loader._CACHE.clear()


# ---------------------------------------------------------------- 1. whole views only


def test_readers_iterating_the_cards_during_check_pending_see_whole_views(
    custom: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(3):
        (custom / f"d{n}.toml").write_text(_deck(f"d{n}", 300), encoding="utf-8")
    workspace = _open(custom)
    assert len(workspace.pending) == 3
    before = frozenset(workspace.cards)
    before_decks = frozenset(deck.id for deck in workspace.decks)
    errors: list[str] = []
    views: set[int] = set()
    done = threading.Event()

    def reader() -> None:
        while not done.is_set():
            try:
                keys = frozenset(key for key, card in workspace.cards.items() if card.deck_id)
                values = [card.key for card in workspace.cards.values()]
                listed = [key for key in workspace.cards]
                decks = frozenset(deck.id for deck in workspace.decks)
                loaded = workspace.loaded  # one load's decks and pending files together
                custom_decks = [deck for deck in loaded.decks if not deck.builtin]
            except Exception as error:  # noqa: BLE001 - what the test looks for
                errors.append(repr(error))
                continue
            views.add(len(keys))
            if keys != before and not (keys > before and len(keys) == len(before) + 900):
                errors.append(f"a partial card map of {len(keys)} cards")
            if len(values) not in (len(before), len(before) + 900) or len(listed) not in (
                len(before),
                len(before) + 900,
            ):
                errors.append(f"partial values or keys: {len(values)}, {len(listed)}")
            if decks != before_decks and decks != before_decks | {"d0", "d1", "d2"}:
                errors.append(f"a partial deck list {sorted(decks - before_decks)}")
            if len(custom_decks) + len(loaded.pending) != 3:
                errors.append(f"{len(custom_decks)} decks and {len(loaded.pending)} pending")

    monkeypatch.setattr(sys, "getswitchinterval", sys.getswitchinterval)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    thread = threading.Thread(target=reader)
    try:
        thread.start()
        assert workspace.check_pending() == 3
        workspace.reload(defer=False)  # a reload that changes nothing is a whole view too
    finally:
        done.set()
        thread.join()
        sys.setswitchinterval(interval)
    assert errors == []
    assert len(workspace.cards) == len(before) + 900
    workspace.close()


def test_the_card_map_a_session_holds_follows_every_reload(custom: Path) -> None:
    (custom / "mine.toml").write_text(_deck("mine", 2), encoding="utf-8")
    workspace = Workspace.open(Settings(), custom_decks=custom)
    held = workspace.cards  # what Workspace.start_session hands a session
    (custom / "mine.toml").write_text(_deck("mine", 3, answer="x^3"), encoding="utf-8")
    workspace.reload()
    assert held["mine/c0"].answer == "x^3"
    assert "mine/c2" in held and len(held) == len(workspace.cards)
    (custom / "more.toml").write_text(_deck("more"), encoding="utf-8")
    workspace.reload_deck(custom / "more.toml")  # a deck file no load had seen
    assert "more/c0" in held and workspace.deck("more") is not None
    workspace.close()


# ---------------------------------------------------------------- 2. reload_deck and pending


def test_reloading_one_deck_keeps_the_files_still_pending(custom: Path) -> None:
    (custom / "a.toml").write_text(_deck("a"), encoding="utf-8")
    first = _open(custom)
    first.check_pending()
    first.close()
    _new_process()
    (custom / "b.toml").write_text(_deck("b"), encoding="utf-8")
    workspace = _open(custom)
    assert [Path(p).name for p in workspace.pending] == ["b.toml"]
    assert workspace.reload_deck(custom / "a.toml") is not None  # the card form saved a card
    assert [Path(p).name for p in workspace.pending] == ["b.toml"]
    assert workspace.check_pending() == 1
    assert workspace.pending == ()
    assert "b/c0" in workspace.cards
    assert workspace.deck("b") is not None
    workspace.close()


def test_reloading_a_pending_deck_checks_it_and_takes_it_out_of_pending(custom: Path) -> None:
    (custom / "a.toml").write_text(_deck("a"), encoding="utf-8")
    (custom / "b.toml").write_text(_deck("b", 2), encoding="utf-8")
    workspace = _open(custom)
    assert len(workspace.pending) == 2
    deck = workspace.reload_deck(custom / "b.toml")
    assert deck is not None and deck.id == "b"
    assert [Path(p).name for p in workspace.pending] == ["a.toml"]
    assert {"b/c0", "b/c1"} <= set(workspace.cards)
    assert "a/c0" not in workspace.cards  # still unchecked: still not offered
    assert workspace.store.cards_by_key(["b/c0"])  # synced
    workspace.close()


def test_reloading_a_pending_deck_that_fails_lists_it_as_a_failure(custom: Path) -> None:
    (custom / "bad.toml").write_text(_deck("bad", answer="x + zz"), encoding="utf-8")
    workspace = _open(custom)
    assert [Path(p).name for p in workspace.pending] == ["bad.toml"]
    assert workspace.reload_deck(custom / "bad.toml") is None
    assert workspace.pending == ()
    assert [Path(f.path).name for f in workspace.failures] == ["bad.toml"]
    assert not any(key.startswith("bad/") for key in workspace.cards)
    workspace.close()


def test_a_failed_deck_fixed_and_reloaded_joins_the_decks(custom: Path) -> None:
    (custom / "fix.toml").write_text(_deck("fix", answer="x + zz"), encoding="utf-8")
    workspace = Workspace.open(Settings(), custom_decks=custom)
    assert [Path(f.path).name for f in workspace.failures] == ["fix.toml"]
    (custom / "fix.toml").write_text(_deck("fix"), encoding="utf-8")
    assert workspace.reload_deck(custom / "fix.toml") is not None
    assert workspace.failures == ()
    assert workspace.deck("fix") is not None and "fix/c0" in workspace.cards
    workspace.close()


# ---------------------------------------------------------------- 3. who keeps a deck id


def _claimed(workspace: Workspace, deck_id: str) -> list[str]:
    return sorted(key for key in workspace.cards if key.startswith(f"{deck_id}/"))


def _newcomer_failed(workspace: Workspace, newcomer: str, holder: str) -> None:
    [failure] = [f for f in workspace.failures if Path(f.path).name == newcomer]
    [error] = failure.errors
    assert error.line == 2  # the deck's `id = ...` line
    assert Path(error.path or "").name == newcomer
    assert "already used by" in str(error) and holder in str(error)


def _hold_x_in_b(custom: Path, *, defer: bool) -> None:
    """An earlier start: b.toml holds deck id x (checked, cached, synced)."""
    (custom / "b.toml").write_text(_deck("x").replace('"c0"', '"from-b"'), encoding="utf-8")
    first = Workspace.open(Settings(), custom_decks=custom, defer_checks=defer)
    first.check_pending()
    assert _claimed(first, "x") == ["x/from-b"]
    first.close()
    _new_process()
    # a new file sorting first claims the same id
    (custom / "a.toml").write_text(_deck("x").replace('"c0"', '"from-a"'), encoding="utf-8")


@pytest.mark.parametrize("defer", [True, False])
def test_a_new_file_never_takes_a_held_deck_id(custom: Path, defer: bool) -> None:
    _hold_x_in_b(custom, defer=defer)
    workspace = Workspace.open(Settings(), custom_decks=custom, defer_checks=defer)
    workspace.check_pending()
    assert _claimed(workspace, "x") == ["x/from-b"]
    _newcomer_failed(workspace, "a.toml", "b.toml")
    stored = workspace.store.cards_by_key(["x/from-b", "x/from-a"])
    assert list(stored) == ["x/from-b"] and not stored["x/from-b"].retired
    workspace.reload()  # and it stays so at every reload
    assert _claimed(workspace, "x") == ["x/from-b"]
    _newcomer_failed(workspace, "a.toml", "b.toml")
    workspace.close()


def test_a_file_added_while_recall_runs_never_takes_a_held_deck_id(custom: Path) -> None:
    (custom / "b.toml").write_text(_deck("x").replace('"c0"', '"from-b"'), encoding="utf-8")
    for defer in (False, True):
        _new_process()
        (custom / "a.toml").unlink(missing_ok=True)
        workspace = Workspace.open(Settings(), custom_decks=custom, defer_checks=defer)
        workspace.check_pending()
        (custom / "a.toml").write_text(_deck("x").replace('"c0"', '"from-a"'), encoding="utf-8")
        workspace.reload()
        workspace.check_pending()
        assert _claimed(workspace, "x") == ["x/from-b"]
        _newcomer_failed(workspace, "a.toml", "b.toml")
        workspace.close()


@pytest.mark.parametrize("defer", [True, False])
def test_a_held_deck_id_stays_held_while_its_file_is_broken(custom: Path, defer: bool) -> None:
    _hold_x_in_b(custom, defer=defer)
    (custom / "a.toml").unlink()
    (custom / "b.toml").write_text(
        _deck("x", answer="x + zz").replace('"c0"', '"from-b"'), encoding="utf-8"
    )
    (custom / "a.toml").write_text(_deck("x").replace('"c0"', '"from-a"'), encoding="utf-8")
    for _start in range(2):  # this start, and the next (its last load is the holder)
        workspace = Workspace.open(Settings(), custom_decks=custom, defer_checks=defer)
        workspace.check_pending()
        assert _claimed(workspace, "x") == []
        assert {Path(f.path).name for f in workspace.failures} == {"a.toml", "b.toml"}
        [failure] = [f for f in workspace.failures if Path(f.path).name == "a.toml"]
        assert "b.toml, which does not load now" in str(failure)
        assert failure.errors[0].line == 2
        stored = workspace.store.cards_by_key(["x/from-b", "x/from-a"])
        assert list(stored) == ["x/from-b"] and not stored["x/from-b"].retired
        workspace.close()
        _new_process()
    (custom / "b.toml").write_text(_deck("x").replace('"c0"', '"from-b"'), encoding="utf-8")
    workspace = Workspace.open(Settings(), custom_decks=custom, defer_checks=defer)
    workspace.check_pending()
    assert _claimed(workspace, "x") == ["x/from-b"]  # fixed, it has its id back
    _newcomer_failed(workspace, "a.toml", "b.toml")
    workspace.close()


def test_two_new_files_claiming_one_id_leave_it_to_the_first_in_file_order(
    custom: Path,
) -> None:
    (custom / "b.toml").write_text(_deck("x").replace('"c0"', '"from-b"'), encoding="utf-8")
    (custom / "a.toml").write_text(_deck("x").replace('"c0"', '"from-a"'), encoding="utf-8")
    for defer in (True, False):
        _new_process()
        workspace = Workspace.open(Settings(), custom_decks=custom, defer_checks=defer)
        workspace.check_pending()
        assert _claimed(workspace, "x") == ["x/from-a"]
        _newcomer_failed(workspace, "b.toml", "a.toml")
        workspace.close()


def test_load_decks_asks_who_holds_an_id_only_when_two_files_claim_it(custom: Path) -> None:
    (custom / "a.toml").write_text(_deck("x"), encoding="utf-8")
    (custom / "b.toml").write_text(_deck("x"), encoding="utf-8")
    (custom / "c.toml").write_text(_deck("y"), encoding="utf-8")
    asked: list[str] = []

    def holder(deck_id: str) -> str | None:
        asked.append(deck_id)
        return str(custom / "b.toml")

    result = loader.load_decks([custom], holder=holder)
    assert asked == ["x"]
    assert [Path(d.path).name for d in result.decks] == ["b.toml", "c.toml"]
    assert [Path(f.path).name for f in result.failures] == ["a.toml"]
    unknown = loader.load_decks([custom], holder=lambda _id: str(custom / "gone.toml"))
    assert [Path(d.path).name for d in unknown.decks] == ["a.toml", "c.toml"]
    assert [Path(d.path).name for d in loader.load_decks([custom]).decks] == ["a.toml", "c.toml"]


# ---------------------------------------------------------------- 4. a closed workspace


def test_a_closed_workspace_never_opens_its_store_again(custom: Path) -> None:
    (custom / "a.toml").write_text(_deck("a"), encoding="utf-8")
    workspace = _open(custom)
    workspace.close()
    assert workspace.check_pending() == 1  # a check worker finishing after the app quit
    assert workspace._store is None
    with pytest.raises(StoreError):
        workspace.reload()
    assert workspace._store is None
    with pytest.raises(StoreError):
        workspace.reload_deck(custom / "a.toml")
    with pytest.raises(StoreError):
        workspace.today()
    assert workspace._store is None
    workspace.close()  # still safe twice


def test_closing_while_a_check_reloads_waits_for_it_and_stays_closed(custom: Path) -> None:
    (custom / "a.toml").write_text(_deck("a", 50), encoding="utf-8")
    workspace = _open(custom)
    started = threading.Event()
    real = workspace._load_decks

    def slow_load(*args: object, **kwargs: object) -> None:
        started.set()
        real(*args, **kwargs)  # type: ignore[arg-type]
        workspace_closer.join(timeout=0.2)  # close() is called while this reload holds on

    workspace._load_decks = slow_load  # type: ignore[method-assign]
    workspace_closer = threading.Thread(target=lambda: (started.wait(), workspace.close()))
    workspace_closer.start()
    workspace.check_pending()
    workspace_closer.join()
    assert workspace.closed and workspace._store is None
