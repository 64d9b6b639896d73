"""The exam dialog's "not feasible" advice is for where it is shown (issue 11, second pass,
item 4): the TUI has no ``--deck``, so the dialog plans for every deck or, with Ctrl-O, the
deck under the cursor, and says so."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from recall.tui.app import RecallApp
from recall.tui.screens.home import HomeScreen
from recall.tui.screens.today_dialogs import ExamPlanDialog
from recall.tui.services import Services
from tests.test_tui_home_offers import _home, _select
from tests.tui_fixtures import FakeClock, isolate, settle, static_text


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def test_not_feasible_says_the_dialogs_key_and_ctrl_o_plans_for_the_deck(tmp_path: Path) -> None:
    clock = FakeClock()
    folder = _home(tmp_path, "", {"alpha": 30, "beta": 4})
    app = RecallApp(Services(clock=clock, deck_dirs=[folder]), warm_engine=False)

    def shown() -> str:
        return static_text(app.screen.query_one("#exam-text"), width=200)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            _select(app, "beta")
            await pilot.press("x")
            await settle(app, pilot)
            dialog = app.screen
            assert isinstance(dialog, ExamPlanDialog)
            assert "every deck" in static_text(dialog.query_one("#exam-title"))
            await pilot.press("plus", "1", "enter")
            await settle(app, pilot)
            text = shown()
            assert "Not feasible" in text and "34 cards" in text
            assert "--deck" not in text and "--topic" not in text
            assert "Ctrl-O plans for deck Beta instead." in text
            await pilot.press("ctrl+o")  # the date is kept, the plan redone for Beta
            await settle(app, pilot)
            assert "deck Beta" in static_text(dialog.query_one("#exam-title"))
            text = shown()
            assert "4 cards" in text and "--deck" not in text
            if "Not feasible" in text:
                assert "Ctrl-O plans for every deck instead." in text
            await pilot.press("escape")
            await settle(app, pilot)
            assert isinstance(app.screen, HomeScreen)

    asyncio.run(flow())


def test_the_title_offers_to_stop_a_followed_plan_and_to_follow_one_that_is_not(
    tmp_path: Path,
) -> None:
    """Found by trying recall as a learner: the dialog opened on the followed plan still said
    "Ctrl-F: follow it" and never named Ctrl-B, the key that stops following."""
    from tests.tui_fixtures import real_services

    app = RecallApp(real_services(tmp_path, FakeClock()), warm_engine=False)

    def title() -> str:
        return static_text(app.screen.query_one("#exam-title"))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("x", *"+30", "enter")
            await settle(app, pilot)
            assert isinstance(app.screen, ExamPlanDialog)
            assert "follow it" in title() and "stop" not in title()
            await pilot.press("ctrl+f")
            await settle(app, pilot)
            assert "stop following" in title() and "follow it" not in title()
            await pilot.press("escape")
            await settle(app, pilot)
            await pilot.press("x")  # opens on the followed plan
            await settle(app, pilot)
            assert "the followed plan" in title() and "stop following" in title()
            await pilot.press("ctrl+b")
            await settle(app, pilot)
            assert "follow it" in title() and "stop" not in title()

    asyncio.run(flow())
