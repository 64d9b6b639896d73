"""The drill screen never holds a card back for SymPy: a ``shown`` formula that no start has
drawn before (a first start, or the first after an upgrade) is shown meanwhile as recall's own
plain Unicode reads it (``presenting.shown_placeholder``: never TeX, never SymPy) and drawn in a
worker, which replaces it once drawn, if its card is still the one asked.

The drawing is held back here by a renderer that waits for the test, so what the learner sees
meanwhile is checked, whatever the machine's speed (at 80x24 and 100x30).
"""

from __future__ import annotations

import asyncio
import re
import threading
from functools import lru_cache
from pathlib import Path

import pytest

import recall.tui.presenting as presenting
from recall.cards.loader import load_decks
from recall.cards.model import Card, CardKind
from recall.paths import builtin_decks_dir
from recall.tui.app import RecallApp
from recall.tui.screens.drill import DrillScreen, Phase
from recall.tui.views import SessionPlan
from tests.tui_fixtures import FakeClock, isolate, real_services, screen_text, settle

#: Two cards that show a formula (LaTeX, as most built-in cards type it, and typed syntax; both
#: drawn 2-D by the engine) with their prompt.
DECK = """\
[deck]
id = "drawn"
name = "Drawn"
topic = "Testing"

[[card]]
id = "logistic"
kind = "reverse"
prompt = "Name this function."
shown = '\\frac{1}{1 + e^{-z}}'
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

#: What the learner reads until the drawing arrives: one notation, the rendered one.
PLACEHOLDER = {"drawn/logistic": "1/(1 + e^(-z))", "drawn/square": "x² + y³"}


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
            # Asked at once: the prompt and the formula's placeholder, the answer box open.
            await _until(app, pilot, lambda: "Name this" in screen_text(app))
            assert screen.phase is Phase.ASKING
            assert screen.card.shown_pending
            assert _shown(screen) == PLACEHOLDER[screen.card.key]
            assert PLACEHOLDER[screen.card.key] in screen_text(app)
            assert "\\" not in screen_text(app) and "{" not in screen_text(app)
            # The drawing is a worker's, off the event loop.
            await _until(app, pilot, lambda: held.threads)
            assert threading.main_thread() not in held.threads
            held.release()
            await settle(app, pilot)
            drawn = presenting.shown_formula(services.workspace.card(screen.card.key))
            assert drawn != PLACEHOLDER[screen.card.key]  # drawn 2-D: not the placeholder
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
            assert _shown(screen) == PLACEHOLDER[second]
            held.release()
            await settle(app, pilot)
            assert screen.card.key == second
            assert _shown(screen) == presenting.shown_formula(services.workspace.card(second))

    asyncio.run(flow())


#: The tryout's first card on a fresh home, as the built-in deck types it (TeX with a box).
TEX_DECK = """\
[deck]
id = "tex"
name = "TeX"
topic = "Testing"

[[card]]
id = "logit"
kind = "reverse"
prompt = "Name the entry this formula gives."
shown = '\\text{logit}_{ij} = \\frac{s}{\\sqrt{d_k}} + \\square'
symbols = { s = { domain = "real" }, d_k = { domain = "positive" } }
accept = ["attention logit"]
"""

#: A LaTeX control word (``\\text``, ``\\square``) or a TeX group brace.
TEX_LEFTOVER = re.compile(r"\\[A-Za-z]+|[{}]")


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
def test_the_first_cards_tex_formula_is_never_on_screen_as_tex(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    held = HeldRenderer()
    monkeypatch.setattr(presenting, "render_quietly", held)
    services = real_services(tmp_path, FakeClock(), only={"tex.toml": TEX_DECK})
    app = RecallApp(services, plan=SessionPlan(cards=1), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await _until(app, pilot, lambda: _asking(app))
            screen = app.screen
            assert isinstance(screen, DrillScreen) and screen.card is not None
            await _until(app, pilot, lambda: "Name the entry" in screen_text(app))
            await _until(app, pilot, lambda: held.threads)  # the drawing is under way, held
            assert screen.card.shown_pending
            assert _shown(screen) == "logit_ij = s/√d_k + ▢"
            text = screen_text(app)
            assert "logit_ij = s/√d_k + ▢" in text
            assert TEX_LEFTOVER.search(text) is None, text
            held.release()
            await settle(app, pilot)
            assert not screen.card.shown_pending
            assert TEX_LEFTOVER.search(screen_text(app)) is None

    asyncio.run(flow())


@lru_cache(maxsize=1)
def _builtin_shown() -> list[Card]:
    result = load_decks([builtin_decks_dir()])
    assert result.ok, result.errors
    return [card for card in result.cards if card.shown]


def test_every_built_in_cards_placeholder_is_free_of_tex() -> None:
    """Over every built-in card with a ``shown`` formula (not samples): the placeholder the drill
    screen shows before the drawing arrives has no control word and no brace, and says
    something (a formula is never replaced by an empty line)."""
    cards = _builtin_shown()
    assert len(cards) > 100
    assert sum("\\" in card.shown for card in cards) > 100  # most are typed in TeX
    leftovers = {}
    for card in cards:
        placeholder = presenting.shown_placeholder(card)
        if TEX_LEFTOVER.search(placeholder) or not placeholder.strip():
            leftovers[card.key] = placeholder
    assert leftovers == {}


def test_the_placeholder_reads_tex_as_the_rendered_notation() -> None:
    """A few shapes, each read the way the drawing writes it (a box for the answer's place)."""
    cases = {
        "\\text{logit}_{ij}=\\square": "logit_ij=▢",
        "\\mathcal{L}_{\\mathrm{aux}} = \\sum_{i=1}^{E}\\square": "𝓛_aux = Σ_(i=1)^E▢",
        "\\frac{\\partial p_i}{\\partial z_j} = \\square": "∂p_i/∂z_j = ▢",
        "x^2 + y^3": "x² + y³",
        "1/(1 + exp(-z))": "1/(1 + exp(-z))",
    }
    for shown, placeholder in cases.items():
        card = Card(deck_id="d", id="c", kind=CardKind.REVERSE, prompt="p", shown=shown)
        assert presenting.shown_placeholder(card) == placeholder
