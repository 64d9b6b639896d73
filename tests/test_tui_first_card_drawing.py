"""The drill screen never holds a card back for SymPy: a ``shown`` formula that no start has
drawn before (a first start, or the first after an upgrade) is shown as the deck file types it
and drawn in a worker, which replaces it once drawn, if its card is still the one asked.

The drawing is held back here by a renderer that waits for the test, so what the learner sees
meanwhile is checked, whatever the machine's speed (at 80x24 and 100x30).
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

import recall.tui.presenting as presenting
from recall.tui.app import RecallApp
from recall.tui.screens.drill import DrillScreen, Phase
from recall.tui.views import SessionPlan
from tests.tui_fixtures import FakeClock, isolate, real_services, screen_text, settle

#: Two cards that show a formula (typed syntax, drawn 2-D by the engine) with their prompt.
DECK = """\
[deck]
id = "drawn"
name = "Drawn"
topic = "Testing"

[[card]]
id = "logistic"
kind = "reverse"
prompt = "Name this function."
shown = "1/(1 + exp(-z))"
symbols = { z = { domain = "real" } }
accept = ["logistic function", "sigmoid"]

[[card]]
id = "square"
kind = "reverse"
prompt = "Name this power."
shown = "x^2 + y^3"
symbols = { x = { domain = "real" }, y = { domain = "real" } }
accept = ["square plus cube"]
"""

TYPED = {"drawn/logistic": "1/(1 + exp(-z))", "drawn/square": "x^2 + y^3"}


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


class HeldRenderer:
    """``render_quietly`` that waits until :meth:`release` (a SymPy import that takes its
    time), and records the threads it was called from."""

    def __init__(self) -> None:
        self.released = threading.Event()
        self.threads: list[threading.Thread] = []
        self._render = presenting.render_quietly

    def __call__(self, text: str, card: object = None, width: int = 76) -> str:
        self.threads.append(threading.current_thread())
        assert self.released.wait(30), "the test never released the drawing"
        return self._render(text, card, width=width)  # type: ignore[arg-type]

    def release(self) -> None:
        self.released.set()


async def _until(app: RecallApp, pilot: object, ready: object) -> None:
    """Let the app run until ``ready()`` (a worker may be held: no waiting for workers)."""
    for _ in range(500):
        if ready():  # type: ignore[operator]
            return
        await pilot.pause(0.01)  # type: ignore[attr-defined]
    raise AssertionError(screen_text(app))


def _asking(app: RecallApp) -> bool:
    return isinstance(app.screen, DrillScreen) and app.screen.card is not None


def _shown(screen: DrillScreen) -> str:
    return str(screen.query_one("#shown").render())


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
def test_the_first_card_is_asked_before_its_formula_is_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    held = HeldRenderer()
    monkeypatch.setattr(presenting, "render_quietly", held)
    services = real_services(tmp_path, FakeClock(), only={"drawn.toml": DECK})
    app = RecallApp(services, plan=SessionPlan(cards=2), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await _until(app, pilot, lambda: _asking(app))
            screen = app.screen
            assert isinstance(screen, DrillScreen) and screen.card is not None
            # Asked at once: the prompt and the formula as typed, the answer box open.
            await _until(app, pilot, lambda: "Name this" in screen_text(app))
            assert screen.phase is Phase.ASKING
            assert screen.card.shown_pending
            assert _shown(screen) == TYPED[screen.card.key]
            assert TYPED[screen.card.key] in screen_text(app)
            # The drawing is a worker's, off the event loop.
            await _until(app, pilot, lambda: held.threads)
            assert threading.main_thread() not in held.threads
            held.release()
            await settle(app, pilot)
            drawn = presenting.shown_formula(services.workspace.card(screen.card.key))
            assert drawn != TYPED[screen.card.key]  # drawn 2-D: not the typed line
            assert not screen.card.shown_pending and screen.card.shown == drawn
            assert _shown(screen) == drawn

    asyncio.run(flow())


def test_a_late_drawing_does_not_replace_the_next_cards_formula(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = HeldRenderer()
    monkeypatch.setattr(presenting, "render_quietly", held)
    services = real_services(tmp_path, FakeClock(), only={"drawn.toml": DECK})
    app = RecallApp(services, plan=SessionPlan(cards=2), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(app, pilot, lambda: _asking(app))
            screen = app.screen
            assert isinstance(screen, DrillScreen) and screen.card is not None
            first = screen.card.key
            await _until(app, pilot, lambda: held.threads)
            await pilot.press("ctrl+s")  # skipped while its formula is still being drawn
            await _until(app, pilot, lambda: screen.card is not None and screen.card.key != first)
            second = screen.card.key
            assert _shown(screen) == TYPED[second]
            held.release()
            await settle(app, pilot)
            assert screen.card.key == second
            assert _shown(screen) == presenting.shown_formula(services.workspace.card(second))

    asyncio.run(flow())
