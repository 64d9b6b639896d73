"""The home screen's header keeps every fact at 80 columns (issue 11, second pass, item 3):
its lines are said in the longest words that fit, so none wraps and pushes "due tomorrow"
off the three lines it has."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from recall.extra_new import add_extra_new
from recall.scheduling.day import study_date
from recall.tui.app import RecallApp
from recall.tui.screens.home import HEADER_WIDTH, today_figures
from recall.tui.services import Services
from recall.tui.views import HomeData, TodayView
from recall.workspace import Workspace
from tests.test_tui_home_offers import _drill, _home
from tests.tui_fixtures import FakeClock, isolate, screen_text, settle


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def _lines(today: TodayView, answers: int = 1234, streak: int = 365) -> list[str]:
    data = HomeData(decks=(), today=today, reviewed_today=answers, streak_days=streak)
    return today_figures(data).plain.splitlines()


@pytest.mark.parametrize(
    "today",
    [
        # nothing left today, the allowance spent (and raised): what next, and tomorrow
        TodayView(new_limit=520, new_spent=520, new_extra=500, new_waiting=900, due_tomorrow=999),
        # the allowance spent, reviews left
        TodayView(
            learning=150,
            review=1200,
            minutes=125.5,
            new_limit=20,
            new_spent=20,
            new_waiting=900,
            due_tomorrow=999,
        ),
        # a day still open, no limit
        TodayView(new=500, learning=150, review=1200, minutes=300, due_tomorrow=9999),
    ],
)
def test_every_line_fits_and_keeps_its_figures(today: TodayView) -> None:
    lines = _lines(today)
    assert len(lines) == 3
    assert all(len(line) <= HEADER_WIDTH for line in lines), lines
    plan, day, after = lines
    for figure in (today.new, today.learning, today.review):
        assert f" {figure} " in f" {plan} "
    assert f"~{today.minutes:g}" in plan
    assert "1234 answers" in day and "streak 365d" in day
    if today.new_limit is None:
        assert f"{today.new_spent} new" in day and "(no limit)" in day
    else:
        assert f"New {today.new_spent}/{today.new_limit}" in day
    if today.new_extra:
        assert f"(+{today.new_extra}" in day
    assert f"{today.due_tomorrow} due tomorrow" in after or after.startswith(
        f"{today.due_tomorrow} tomorrow"
    )
    if today.new_allowance_spent and not today.total:
        assert "n more · w review ahead · c cram" in after
    elif today.new_allowance_spent:
        assert f"{today.new_waiting} new wait" in after


def test_the_long_words_stay_when_they_fit() -> None:
    lines = _lines(TodayView(new=5, review=12, minutes=9, new_limit=20, due_tomorrow=7), 4, 2)
    assert lines == [
        "Today: 5 new · 0 learning · 12 due · ~9 min",
        "New 0/20 done · 4 answers today · streak 2d",
        "7 due tomorrow · x plans an exam",
    ]


def test_at_80_by_24_the_raise_and_due_tomorrow_are_both_on_screen(tmp_path: Path) -> None:
    """A day whose new cards are done after today's raise, reviews answered: the long line
    two would wrap at 80 columns and push line three (due tomorrow) off the header."""
    clock = FakeClock()
    folder = _home(tmp_path, "new_per_day = 2\n", {"alpha": 20})
    add_extra_new(study_date(clock(), 4), 5)
    workspace = Workspace.open(deck_dirs=[folder], clock=clock)
    try:
        _drill(workspace, 7)
        clock.advance(11 * 60)
        _drill(workspace, 7)
    finally:
        workspace.close()
    app = RecallApp(Services(clock=clock, deck_dirs=[folder]), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            data = app.home_data
            assert data is not None and data.today is not None
            today = data.today
            assert today.new_extra == 5 and today.new_allowance_spent
            text = screen_text(app)
            lines = today_figures(data).plain.splitlines()
            assert len(lines) == 3 and all(line in text for line in lines), lines
            assert "New 7/7 done (+5" in lines[1] and f"{data.reviewed_today} answers" in lines[1]
            assert f"{today.due_tomorrow} tomorrow · n more · w review ahead · c cram" in text

    asyncio.run(flow())


def test_at_80_by_24_a_full_line_keeps_a_space_before_the_forecast(tmp_path: Path) -> None:
    """Found by trying recall as a learner: a followed exam's line of exactly the header's width
    ("exam in 19 days: behind by 8 cards, ~3 min today") ran into the forecast's bars."""
    from dataclasses import replace

    from recall.tui.screens.home import HomeScreen
    from tests.tui_fixtures import real_services

    app = RecallApp(real_services(tmp_path, FakeClock()), warm_engine=False)
    exam = (
        "exam in 19 days: behind by 8 cards (spread over the days left), ~3 min today",
        "exam in 19 days: behind by 8 cards, ~3 min today",
        "exam 19d: behind 8, ~3 min",
    )

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, HomeScreen) and app.home_data is not None
            today = replace(app.home_data.today or TodayView(), exam=exam)
            screen.show_data(replace(app.home_data, today=today, forecast=(9,) * 30))
            await pilot.pause()
            forecast = screen.query_one("#forecast")
            figures = screen.query_one("#today-figures")
            assert figures.region.right < forecast.region.x  # a blank column between them
            header = screen_text(app).splitlines()[1:4]
            assert any("exam 19d" in line or "exam in 19 days" in line for line in header)

    asyncio.run(flow())
