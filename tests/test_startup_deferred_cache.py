"""Decks parsed afresh reach the parsed-deck cache after the first screen has its counts.

On a first start the TUI holds the cache writes back (``Workspace(defer_cache_writes=True)``):
the decks read are the same, only the writing waits for :meth:`Workspace.write_parse_cache`
(the engine warm-up) or :meth:`Workspace.close`. Nothing is lost either way: what is written is
exactly what :func:`recall.cards.parse_cache.store` writes at once.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from recall.cards import loader, parse_cache
from recall.config import Settings
from recall.tui.services import Services
from recall.workspace import Workspace


@pytest.fixture(autouse=True)
def _fresh_process_cache():
    loader._CACHE.clear()
    yield
    loader._CACHE.clear()


def _entries() -> list[str]:
    folder = parse_cache.cache_dir()
    return sorted(p.name for p in folder.glob("*.json")) if folder.is_dir() else []


def _refuse_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(_text: str) -> None:
        raise AssertionError("a deck file was parsed again")

    monkeypatch.setattr(loader.toml_parser, "loads", refuse)


def test_a_deferred_open_writes_nothing_until_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    workspace = Workspace.open(Settings(), defer_cache_writes=True)
    try:
        assert len(workspace.decks) >= 17
        assert _entries() == []  # parsed, not yet cached
        written = workspace.write_parse_cache()
        assert written == len(workspace.decks)
        assert len(_entries()) == written
        assert workspace.write_parse_cache() == 0  # each entry once
        decks = workspace.decks
    finally:
        workspace.close()
    # The entries are the ones an immediate write makes: a next start reads every deck from
    # them, equal to what was parsed.
    loader._CACHE.clear()
    _refuse_parsing(monkeypatch)
    again = Workspace.open(Settings(), sync=False)
    assert again.decks == decks


def test_closing_writes_what_is_still_held_back() -> None:
    workspace = Workspace.open(Settings(), defer_cache_writes=True)
    count = len(workspace.decks)
    assert _entries() == []
    workspace.close()
    assert len(_entries()) == count


def test_the_same_entries_as_writing_at_once(tmp_path: Path, monkeypatch) -> None:
    eager = Workspace.open(Settings(), sync=False)
    at_once = _entries()
    assert len(at_once) == len(eager.decks)
    monkeypatch.setenv("RECALL_HOME", str(tmp_path / "other-home"))
    loader._CACHE.clear()
    deferred = Workspace.open(Settings(), sync=False, defer_cache_writes=True)
    deferred.write_parse_cache()
    assert _entries() == at_once  # same keys: same bytes, code and flags


def test_only_the_loading_thread_defers() -> None:
    """The deferral is scoped to the block and its thread: another thread loading meanwhile
    (a command in the same process, a test) writes at once."""
    pending = parse_cache.PendingWrites()
    inside = threading.Event()
    leave = threading.Event()

    def hold() -> None:
        with parse_cache.writes_deferred(pending):
            inside.set()
            leave.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert inside.wait(10)
        result = loader.load_decks([Workspace(Settings())._builtin_folder()])
        assert len(_entries()) == len(result.decks)
        assert len(pending) == 0
    finally:
        leave.set()
        holder.join(10)
    assert getattr(parse_cache._deferring, "into", None) is None


def test_the_tui_writes_the_cache_once_its_counts_are_shown() -> None:
    """A first start: the home screen's counts come first, the cache writes after (the engine
    warm-up), so the next start reads every deck from the cache."""
    asyncio.run(_first_start())


async def _first_start() -> None:
    from recall.tui.app import RecallApp

    services = Services(Settings())
    seen_at_load: list[list[str]] = []
    app = RecallApp(
        services,
        Settings(),
        after_load=lambda _app: seen_at_load.append(_entries()),
    )
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(400):
            await pilot.pause(0.05)
            if app.engine_warm_seconds is not None:
                break
        assert app.engine_warm_seconds is not None, "the engine warm-up never finished"
        assert seen_at_load and seen_at_load[0] == []  # counts shown before any write
        assert len(_entries()) == len(services.workspace.decks)
