"""A learner's first ten-minute session, on the built-in decks, from a fresh data directory.

Issue 11 asks that the first new cards span the sheet (at least eight decks) and that a timed
session drills them in the order ``recall today`` announces. This test computes today's plan
with the planner, then drives the real app through a ten-minute session with a fake clock,
answering every card and rating it Good (a wrong answer overridden, as a learner may when
the grader missed a right one: it keeps the script independent of each card's answer), and checks
the cards it introduced, their order, and the summary against the review log.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from recall.planning import todays_plan
from recall.scheduling import ReviewKind
from recall.tui.app import RecallApp
from recall.tui.screens.drill import DrillScreen, Phase
from recall.tui.screens.summary import SummaryScreen
from recall.tui.services import Services
from recall.tui.views import SessionPlan
from recall.workspace import Workspace
from tests.tui_fixtures import FakeClock, isolate, settle, type_text

#: Seconds the fake learner spends on each card: twenty cards fit in ten minutes.
SECONDS_PER_CARD = 20


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def _planned_new_cards(clock: FakeClock) -> list[str]:
    workspace = Workspace.open(clock=clock)
    try:
        plan = todays_plan(workspace.store, workspace.cards, workspace.settings, clock())
    finally:
        workspace.close()
    return [f"{item.deck}/{item.card}" for item in plan.queue if item.state == "new"]


async def _answer_and_rate_good(app: RecallApp, pilot: object, screen: DrillScreen) -> None:
    """Give the card on screen an answer and a rating, whatever kind of card it is."""
    if screen.phase is Phase.REVEAL:  # a self-rated card: reveal, then rate it
        await pilot.press("space")  # type: ignore[attr-defined]
        await settle(app, pilot)
        await pilot.press("3")  # type: ignore[attr-defined]
        return
    assert screen.card is not None
    symbols = [name for name, _meaning in screen.card.symbols]
    # The first of these the card accepts as an answer (a card may require exp, or a name).
    for attempt in ("0", "exp(0)", "sqrt(2)", "no idea", *symbols):
        await pilot.press("ctrl+u")  # type: ignore[attr-defined]
        await type_text(pilot, attempt)
        await pilot.press("enter")  # type: ignore[attr-defined]
        await settle(app, pilot)
        if screen.phase is Phase.FEEDBACK:
            break
    assert screen.phase is Phase.FEEDBACK, f"no attempt was a valid answer on {screen.card}"
    await pilot.press("3")  # type: ignore[attr-defined]


def test_the_first_ten_minutes_drill_the_planned_cards_from_many_decks(tmp_path: Path) -> None:
    clock = FakeClock()
    planned = _planned_new_cards(clock)
    assert len(planned) == 20
    assert len({key.split("/")[0] for key in planned}) >= 8

    services = Services(clock=clock)
    app = RecallApp(services, plan=SessionPlan(minutes=10))
    introduced: list[str] = []

    async def flow() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            for _ in range(200):  # a bound, never reached: the clock ends the session
                if isinstance(app.screen, SummaryScreen):
                    break
                assert screen.card is not None
                if screen.card.key not in introduced:
                    introduced.append(screen.card.key)
                clock.advance(SECONDS_PER_CARD)
                await _answer_and_rate_good(app, pilot, screen)
                await settle(app, pilot)
            assert isinstance(app.screen, SummaryScreen)

            run = screen.run
            assert run is not None
            log = services.workspace.store.reviews(session_id=run.info.id)
            summary = app.screen.summary
            assert summary.reviews == len(log)
            assert summary.new == sum(entry.kind is ReviewKind.NEW for entry in log)
            assert summary.new == 20
            assert summary.review == sum(entry.kind is ReviewKind.REVIEW for entry in log)
            assert summary.relearn == sum(entry.kind is ReviewKind.RELEARNING for entry in log)
            assert summary.cards == len({entry.card_key for entry in log}) == 20

    asyncio.run(flow())
    assert introduced[:20] == planned
