"""The home screen's numbers add up (issue 11, item 4) and show today's plan (item 2).

Rows are each deck's own counts (:func:`recall.analytics.today_counts`) and its share of today's
plan; the header is the plan ``recall today`` prints; "due tomorrow" is the forecast's.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from recall.analytics import due_forecast, today_counts
from recall.cli import main
from recall.scheduling import Rating
from recall.session import Budget
from recall.tui.app import RecallApp
from recall.tui.services import Services
from recall.workspace import Workspace
from tests.tui_fixtures import FakeClock, isolate, real_services, screen_text, settle


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def _drill(workspace: Workspace, cards: int, rating: Rating = Rating.Good) -> list[str]:
    """Answer ``cards`` cards of a normal session, each rated ``rating``."""
    session = workspace.start_session(budget=Budget.cards(cards), mode="normal")
    done = []
    while (card := session.next_card()) is not None:
        session.record(verdict="correct", rating=rating, seconds=25.0)
        done.append(card.key)
    session.end()
    return done


def test_the_home_screen_and_recall_today_show_the_same_plan(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Built-in decks, the real clock (as ``recall today`` has), five cards introduced."""
    workspace = Workspace.open()
    try:
        _drill(workspace, 5)
    finally:
        workspace.close()
    assert main(["today", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    app = RecallApp(Services(), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            data = app.home_data
            assert data is not None and data.today is not None
            total = plan["counts"]["total"]
            today = data.today
            assert (today.new, today.learning, today.review) == (
                total["new"],
                total["learning"],
                total["review"],
            )
            assert today.minutes == plan["minutes"]
            assert today.new_spent == plan["limits"]["new"]["spent"] == 5
            assert today.new_limit == plan["limits"]["new"]["limit"]
            per_deck = plan["counts"]["decks"]
            for row in data.decks:
                counts = per_deck.get(row.id, {"new": 0, "learning": 0, "review": 0})
                assert row.today == sum(counts.values()), row.id
                assert row.new_today == counts["new"], row.id
            assert sum(row.today for row in data.decks) == len(plan["queue"])
            text = screen_text(app)
            assert (
                f"Today: {total['new']} new · {total['learning']} learning · "
                f"{total['review']} due · ~{plan['minutes']:g} min"
            ) in text
            assert f"New 5/{plan['limits']['new']['limit']} done" in text

    asyncio.run(flow())


def test_rows_are_each_decks_own_counts_and_due_tomorrow_is_the_forecasts(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    decks = {f"{name}.toml": _deck_text(name, 6) for name in ("alpha", "beta", "gamma")}
    (tmp_path / "home").mkdir(parents=True, exist_ok=True)
    (tmp_path / "home" / "config.toml").write_text("new_per_day = 4\n", encoding="utf-8")
    services = real_services(tmp_path, clock, only=decks)
    # A day of learning: four cards through both steps (graduated: due in a day or more).
    workspace = Workspace.open(deck_dirs=[tmp_path / "decks"], clock=clock)
    try:
        _drill(workspace, 4)
        clock.advance(11 * 60)
        _drill(workspace, 4)
        clock.advance(86_400)  # the next day: the graduated cards fall due tomorrow
        settings = workspace.settings
        own = today_counts(workspace.store, clock(), settings)
        forecast = due_forecast(workspace.store, clock(), settings.day_rollover_hour, days=14)
    finally:
        workspace.close()
    assert forecast[1][1] > 0
    app = RecallApp(services, warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            data = app.home_data
            assert data is not None and data.today is not None
            for row in data.decks:
                counts = own.decks[row.id]
                assert (row.new, row.learning, row.due) == (
                    counts.new,
                    counts.learning,
                    counts.due,
                ), row.id
            # Each row holds its own new cards; the header says what today introduces.
            assert sum(row.new for row in data.decks) == 18 - 4
            assert data.today.new == 4
            assert data.today.due_tomorrow == forecast[1][1]
            assert data.forecast == tuple(n for _day, n in forecast)
            assert f"{forecast[1][1]} due tomorrow" in screen_text(app)

    asyncio.run(flow())


def _deck_text(deck_id: str, count: int) -> str:
    cards = "".join(
        f'\n[[card]]\nid = "c{i}"\nkind = "fact"\nprompt = "{deck_id} {i}?"\nvalue = {i}\n'
        f"tolerance = {{ exact = true }}\n"
        for i in range(count)
    )
    return f'[deck]\nid = "{deck_id}"\nname = "{deck_id.title()}"\ntopic = "Testing"\n{cards}'
