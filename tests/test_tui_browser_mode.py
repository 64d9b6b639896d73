"""The TUI as ``recall serve`` shows it in a browser (``RECALL_SERVED=1``): the editor is not
run (it would open on the server), the keys a browser keeps for itself have Alt alternatives that
work and are said on screen, and the drill header has no glyph a browser font lacks. Outside a
browser nothing of this changes.
"""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from recall.paths import SERVED_ENV
from recall.tui.app import RecallApp
from recall.tui.browser import NOTICE
from recall.tui.keys import keys_table
from recall.tui.screens.drill import DrillScreen
from recall.tui.views import SessionPlan
from recall.tui.widgets.answer_input import AnswerInput
from tests.tui_fixtures import FakeClock, isolate, real_services, screen_text, settle, type_text


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def _notes(app: RecallApp) -> list[str]:
    return [note.message for note in app._notifications]


def _table_text(app: RecallApp) -> str:
    from rich.console import Console

    console = Console(width=120, record=True)
    console.print(keys_table(app.keys_in_force, type(app), browser=app.served))
    return console.export_text()


def test_in_a_browser_the_editor_is_refused_and_the_alt_keys_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SERVED_ENV, "1")
    ran: list[object] = []
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: ran.append(a))
    app = RecallApp(real_services(tmp_path, FakeClock()), plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert app.served and NOTICE in _notes(app)
            screen = app.screen
            assert isinstance(screen, DrillScreen) and screen.card is not None
            assert "⏱" not in screen_text(app) and "10:00" in screen_text(app)

            await pilot.press("ctrl+e")
            await settle(app, pilot)
            assert ran == []  # no editor started on the server
            assert any("not in this browser" in note for note in _notes(app))

            first = screen.card.key
            await pilot.press("alt+n")  # Ctrl-N opens a browser window: Alt-N suspends
            await settle(app, pilot)
            assert "Suspended the card." in _notes(app)
            assert screen.card is not None and screen.card.key != first

            await type_text(pilot, "a bc")
            await pilot.press("alt+w")  # Ctrl-W closes the tab: Alt-W deletes a word
            await settle(app, pilot)
            assert app.screen.query_one(AnswerInput).value == "a "

            theme = app.theme
            await pilot.press("alt+t")
            await settle(app, pilot)
            assert app.theme != theme

            table = _table_text(app)
            assert "Ctrl-N / Alt-N" in table and "Ctrl-T / Alt-T" in table
            assert "Ctrl-U / Alt-W" in table

    asyncio.run(flow())


def test_outside_a_browser_nothing_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SERVED_ENV, raising=False)
    app = RecallApp(real_services(tmp_path, FakeClock()), plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert not app.served and NOTICE not in _notes(app)
            assert "⏱ 10:00" in screen_text(app)
            theme = app.theme
            await pilot.press("alt+t")
            await settle(app, pilot)
            assert app.theme == theme
            assert "Alt-" not in _table_text(app)

    asyncio.run(flow())
