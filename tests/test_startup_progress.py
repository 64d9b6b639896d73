"""The home screen's loading line follows the load worker five times a second, not once per
step: a start reads 17 deck files and each step repainted the line (about twenty repaints, 0.03 s
of the event loop's CPU taken from the load). A load that stalls still shows where it is."""

from __future__ import annotations

import asyncio
import threading
import time

from recall.config import Settings
from recall.tui.app import RecallApp
from recall.tui.screens.home import PROGRESS_EVERY, HomeScreen
from recall.tui.services import Services

#: Steps told at once at the start of the load.
BURST = 40


class _StallingServices(Services):
    """Real services whose load tells every step, then waits at the third deck file."""

    def __init__(self) -> None:
        super().__init__(Settings())
        self.steps: list[str] = []
        self.stalled = threading.Event()
        self.release = threading.Event()
        self.began = self.ended = 0.0

    def load(self):  # type: ignore[no-untyped-def]
        shown = self.progress

        def tell(text: str) -> None:
            if not self.steps:
                self.began = time.monotonic()
                for burst in range(BURST):  # steps far quicker than the eye
                    self.steps.append(f"Step {burst}…")
                    if shown is not None:
                        shown(f"Step {burst}…")
            self.steps.append(text)
            if shown is not None:
                shown(text)
            if text.startswith("Loading decks 3/") and not self.release.is_set():
                self.stalled.set()
                self.release.wait(20)

        self.progress = tell
        try:
            return super().load()
        finally:
            self.progress = shown
            self.ended = time.monotonic()


def test_a_load_repaints_its_line_a_few_times_and_shows_a_stall(monkeypatch) -> None:
    shown: list[str] = []
    original = HomeScreen._show_loading

    def counting(self: HomeScreen) -> None:
        shown.append(self._progress)
        original(self)

    monkeypatch.setattr(HomeScreen, "_show_loading", counting)
    services = _StallingServices()
    app = RecallApp(services, Settings(), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            home = app.screen
            assert isinstance(home, HomeScreen)
            for _ in range(400):
                if services.stalled.is_set():
                    break
                await asyncio.sleep(0.025)
            assert services.stalled.is_set()
            await asyncio.sleep(PROGRESS_EVERY * 3)
            assert shown and shown[-1].startswith("Loading decks 3/")
            services.release.set()
            for _ in range(400):
                if app.home_data is not None:
                    break
                await asyncio.sleep(0.025)
            await pilot.pause()
            assert app.home_data is not None and len(app.home_data.decks) >= 17
            # Every step was told, but the line was repainted at most once a tick (what the
            # stall took excepted), never once per step.
            assert len(services.steps) >= BURST + 17
            ticks = (services.ended - services.began - PROGRESS_EVERY * 3) / PROGRESS_EVERY
            assert len(shown) <= ticks + 3, (len(shown), ticks)
            assert len(shown) < BURST
            # Once the counts are in, the line stops following (its timer paused).
            before = list(shown)
            home._post_progress("Loading decks 9/9…")
            await asyncio.sleep(PROGRESS_EVERY * 2)
            assert shown == before

    asyncio.run(flow())
