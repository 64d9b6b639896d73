"""The summary's time per card, driven through the real app with Pilot and a fake clock.

"median time to answer a card" is each recorded answer's own time: from the card shown (or asked
again after Ctrl-Z over its verdict) to Enter. Reading the verdict, the answer taken back and a
skip are not in it; "time spent in all" still counts every second the budget used. The figures
are read back from the log, as the summary is.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot

from recall.tui.app import RecallApp
from recall.tui.screens.drill import DrillScreen, Phase
from recall.tui.screens.summary import SummaryScreen
from recall.tui.views import SessionPlan
from tests.tui_fixtures import FakeClock, isolate, real_services, screen_text, settle, type_text

RIGHT = {"tiny/square": "x^2", "tiny/double": "2*y", "tiny/answer": "42"}
WRONG = {"tiny/square": "x^3", "tiny/double": "3*y", "tiny/answer": "41"}


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


async def press(pilot: Pilot[int], *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot.app, pilot)


async def answer(pilot: Pilot[int], text: str) -> None:
    await pilot.press("ctrl+u")
    await type_text(pilot, text)
    await settle(pilot.app, pilot)
    await press(pilot, "enter")


def test_the_summary_times_answers_and_counts_everything_in_its_time_spent(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))

    async def flow(pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, DrillScreen) and screen.run is not None
        session_id = screen.run.info.id

        def key() -> str:
            assert screen.card is not None and screen.phase is Phase.ASKING
            return screen.card.key

        clock.advance(20)
        await press(pilot, "ctrl+s")  # 20 s, then skipped
        clock.advance(30)
        await answer(pilot, RIGHT[key()])
        clock.advance(50)  # reading the verdict
        await press(pilot, "enter")
        first_asked = key()
        clock.advance(10)
        await answer(pilot, WRONG[first_asked])
        clock.advance(5)
        await press(pilot, "ctrl+z")  # that answer taken back: asked again
        assert key() == first_asked
        clock.advance(6)
        await answer(pilot, RIGHT[first_asked])
        clock.advance(20)
        await press(pilot, "enter")
        store = app.services.workspace.store  # type: ignore[attr-defined]
        logged = [(e.seconds, e.answer_seconds) for e in store.reviews(session_id=session_id)]
        assert logged == [(80.0, 30.0), (41.0, 6.0)]
        await press(pilot, "ctrl+l", "y")
        assert isinstance(app.screen, SummaryScreen)
        assert app.screen.summary.median_answer_seconds == pytest.approx(18)
        assert app.screen.summary.elapsed_seconds == pytest.approx(141)
        text = screen_text(app)
        assert "18.0 s" in text and "median time to answer a card" in text
        assert "2:21" in text and "time spent in all" in text

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await flow(pilot)

    asyncio.run(main())
