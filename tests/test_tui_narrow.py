"""The home, drill and summary screens at 50 columns (a phone in landscape, a split window, a
browser tab through ``recall serve``): nothing essential cut off, the rating row on screen.

Pilot tests check what a learner needs is inside the screen (the deck table's counts, the answer
box and the rating row, the summary's figures); snapshots keep the pictures for a person to look
at (``pytest tests/test_tui_narrow.py --snapshot-update`` after a deliberate change).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import DataTable

from recall.tui.app import RecallApp
from recall.tui.screens.base import NARROW_COLUMNS
from recall.tui.screens.drill import DrillScreen
from recall.tui.screens.home import HomeScreen
from recall.tui.screens.summary import SummaryScreen
from recall.tui.views import SessionPlan
from tests.test_tui_snapshots import steps
from tests.tui_fixtures import FakeClock, isolate, real_services, screen_text, settle, type_text

NARROW = (50, 30)


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def _inside(app: RecallApp, widget: object) -> bool:
    region = widget.region  # type: ignore[attr-defined]
    width, height = app.size
    return region.width > 0 and region.x >= 0 and region.right <= width and region.bottom <= height


def _table_fits(table: DataTable[object]) -> bool:
    return table.virtual_size.width <= table.scrollable_content_region.width


def test_home_at_50_columns_keeps_every_count_and_comes_back_wide(tmp_path: Path) -> None:
    app = RecallApp(real_services(tmp_path, FakeClock()))

    async def flow() -> None:
        async with app.run_test(size=NARROW) as pilot:
            await settle(app, pilot)
            assert isinstance(app.screen, HomeScreen)
            table = app.screen.query_one("#decks", DataTable)
            keys = [column.key.value for column in table.columns.values()]
            assert keys == ["deck", "new", "learn", "due", "today"]
            assert _table_fits(table)
            text = screen_text(app)
            assert "Today" in text and "Tiny (mine)" in text
            assert "due tomorrow" in text  # the header's last line
            assert not app.screen.query_one("#forecast").display

            await pilot.resize_terminal(80, 24)
            await settle(app, pilot)
            keys = [column.key.value for column in table.columns.values()]
            assert keys[:2] == ["topic", "deck"] and table.row_count == 1
            assert app.screen.query_one("#forecast").display

            await pilot.resize_terminal(NARROW_COLUMNS - 1, 30)
            await settle(app, pilot)
            assert "topic" not in [column.key.value for column in table.columns.values()]
            assert _table_fits(table) and table.row_count == 1

            await pilot.press("s")  # the keys still work on the rebuilt table
            await settle(app, pilot)
            assert isinstance(app.screen, DrillScreen)

    asyncio.run(flow())


def test_drill_at_50_columns_shows_the_box_the_verdict_and_the_rating_row(tmp_path: Path) -> None:
    app = RecallApp(real_services(tmp_path, FakeClock()), plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=NARROW) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            assert _inside(app, screen.query_one("#answer"))
            assert _inside(app, screen.query_one("#countdown"))
            await type_text(pilot, "x^2/2")
            await pilot.press("enter")
            await settle(app, pilot)
            rating = screen.query_one("#rating-row")
            assert rating.display and _inside(app, rating)
            text = screen_text(app)
            assert text.count("Again") == 1 and "Easy" in text  # below the body, not twice
            assert "accepts" in text  # the whole line, wrapped rather than cut

    asyncio.run(flow())


def test_summary_at_50_columns_keeps_its_figures(tmp_path: Path) -> None:
    app = RecallApp(real_services(tmp_path, FakeClock()), plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=NARROW) as pilot:
            await settle(app, pilot)
            await type_text(pilot, "x^2")
            await pilot.press("enter")
            await settle(app, pilot)
            await pilot.press("enter")
            await settle(app, pilot)
            await pilot.press("ctrl+l", "y")
            await settle(app, pilot)
            assert isinstance(app.screen, SummaryScreen)
            text = screen_text(app)
            for words in ("Session done", "review", "due tomorrow", "streak"):
                assert words in text
            assert "1  review" in text

    asyncio.run(flow())


NARROW_SCREENS = {
    "home": (None, steps()),
    "drill": (SessionPlan(minutes=10), steps("TYPE", "enter", text="x^2/2")),
    "summary": (
        SessionPlan(minutes=10),
        steps("TYPE", "enter", "enter", "ctrl+l", "y", text="x^2"),
    ),
}


@pytest.mark.parametrize("screen", NARROW_SCREENS)
def test_narrow_screen_looks_right(
    screen: str,
    snap_compare: Callable[..., bool],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    isolate(monkeypatch, tmp_path)
    plan, run_before = NARROW_SCREENS[screen]
    app = RecallApp(real_services(tmp_path, FakeClock()), plan=plan)
    assert snap_compare(app, terminal_size=NARROW, run_before=run_before)
