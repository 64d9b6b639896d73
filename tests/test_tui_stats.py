"""The stats screen's memory-model panels, on the real layers (Pilot).

A simulated forgetful learner's reviews (seeded, known true parameters; the same helper the
fitting tests use) are imported for the cards of a 60-card deck before the app starts, so the
health verdict, the calibration chart, true retention, the workload curve and a fit all have a
history to work on. A fresh database gives the "too little history" side.
"""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from recall.config import load_settings
from recall.interop.review_csv import RevlogRow, write_revlog
from recall.tui import memory_views
from recall.tui.app import RecallApp
from recall.tui.commands import RecallCommands
from recall.tui.screens.stats import COMPUTING_MODEL, COMPUTING_WORKLOAD, StatsScreen
from tests.simulated_learners import DEFAULTS, FORGETFUL, simulate_history
from tests.tui_fixtures import EPOCH, FakeClock, isolate, settle, static_text, write_deck

CARDS = 60


def _deck_text() -> str:
    lines = ['[deck]\nid = "mem"\nname = "Memory"\ntopic = "Recall"\n']
    for card in range(CARDS):
        lines.append(
            f'[[card]]\nid = "c{card}"\nkind = "fact"\nprompt = "Card {card}?"\n'
            f"value = {card}\ntolerance = {{ exact = true }}\n"
        )
    return "\n".join(lines)


def _services(tmp_path: Path, *, history: bool, truth: tuple[float, ...] = FORGETFUL) -> object:
    """The real facade over the 60-card deck; with ``history``, 200 days of a forgetful
    learner's reviews imported first (they end a few days before the fake clock's now)."""
    from recall.memory import model as memory_model
    from recall.tui.services import Services
    from recall.workspace import Workspace

    decks = tmp_path / "decks"
    write_deck(decks, "mem.toml", _deck_text())
    if history:
        events = simulate_history(
            truth,
            cards=CARDS,
            days=200,
            new_per_day=3,
            seed=7,
            decks=("mem",),
            start=EPOCH - timedelta(days=205),
        )
        out = io.StringIO()
        write_revlog(
            [RevlogRow(0, e.card, e.reviewed_at, e.rating, None, 9000) for e in events], out
        )
        workspace = Workspace.open(load_settings(), [decks])
        try:
            report = memory_model.import_reviews(workspace.store, out.getvalue().splitlines())
            assert report.added == len(events) and not report.problems
        finally:
            workspace.close()
    return Services(clock=FakeClock(), deck_dirs=[decks])


def _text(app: RecallApp, selector: str) -> str:
    return static_text(app.screen.query_one(selector, Static), width=300)


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> object:
    isolate(monkeypatch, tmp_path)
    return _services(tmp_path, history=True)


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> object:
    isolate(monkeypatch, tmp_path)
    return _services(tmp_path, history=False)


def test_the_screen_has_a_title_and_every_memory_panel_with_a_history(seeded: object) -> None:
    app = RecallApp(seeded)

    async def flow() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            await pilot.press("t")
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, StatsScreen)
            assert screen.sub_title == "Statistics"
            verdict = _text(app, "#memory-verdict")
            assert COMPUTING_MODEL not in verdict
            assert "Parameters: FSRS defaults · desired retention 90%" in verdict
            # The forgetful learner recalls far less than the defaults expect.
            assert "overestimates" in verdict and "fit again" in verdict
            chart = _text(app, "#calibration")
            assert "predicted" in chart and "│" in chart and "%" in chart
            retention = _text(app, "#true-retention")
            assert "You asked for 90%" in retention
            assert "deck" in retention and "mem" in retention
            assert "topic" in retention and "Recall" in retention
            workload = _text(app, "#workload")
            assert COMPUTING_WORKLOAD not in workload
            for label in ("70%", "79%", "90%", "91%", "97%"):
                assert label in workload
            assert "◀ your setting" in workload and "min a day" in workload

    asyncio.run(flow())


def test_computing_lines_show_until_the_worker_answers(
    seeded: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    real = memory_views.model_view

    def slow(workspace: object) -> memory_views.ModelView:
        release.wait(30)
        return real(workspace)  # type: ignore[arg-type]

    monkeypatch.setattr(memory_views, "model_view", slow)
    app = RecallApp(seeded)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("t")
            # The review figures come from their own worker: they arrive while the model's
            # worker is still held.
            for _ in range(200):
                if "Counting" not in _text(app, "#heatmap"):
                    break
                await pilot.pause(0.05)
            assert "reviews in this period" in _text(app, "#heatmap")
            assert _text(app, "#memory-verdict").strip() == COMPUTING_MODEL
            assert _text(app, "#calibration").strip() == COMPUTING_MODEL
            assert _text(app, "#workload").strip() == COMPUTING_WORKLOAD
            release.set()
            await settle(app, pilot)
            assert COMPUTING_MODEL not in _text(app, "#memory-verdict")
            assert COMPUTING_WORKLOAD not in _text(app, "#workload")

    asyncio.run(flow())


def test_the_fit_key_keeps_a_better_fit_and_shows_the_comparison(seeded: object) -> None:
    app = RecallApp(seeded)

    async def flow() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            await pilot.press("t")
            await settle(app, pilot)
            await pilot.press("o")
            await settle(app, pilot)
            result = _text(app, "#optimize-result")
            assert "Fit kept" in result
            assert "log loss" in result and "RMSE (bins)" in result
            assert "in use" in result and "new fit" in result
            # The kept fit is now the one the health report is about.
            assert "fitted to your reviews on 2025-03-04" in _text(app, "#memory-verdict")

    asyncio.run(flow())


def test_too_little_history_is_said_and_nothing_is_fitted(fresh: object) -> None:
    app = RecallApp(fresh)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("t")
            await settle(app, pilot)
            assert "Too little history to judge yet: 100 more" in _text(app, "#memory-verdict")
            assert "Nothing to chart yet" in _text(app, "#calibration")
            await pilot.press("o")
            await settle(app, pilot)
            result = _text(app, "#optimize-result")
            assert "Too little history to fit: 400 more reviews needed" in result
            assert "FSRS defaults" in _text(app, "#memory-verdict")

    asyncio.run(flow())


def test_choosing_a_point_of_the_workload_curve_applies_its_retention(fresh: object) -> None:
    app = RecallApp(fresh)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("t")
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, StatsScreen) and screen.workload is not None
            points = screen.workload.plan.points
            names = {name for name, _help, _run in RecallCommands(screen)._commands()}
            assert {"Fit model", "Lower retention", "Higher retention"} <= names
            assert "Apply retention" not in names  # the current setting is chosen
            await pilot.press("minus", "minus")
            await pilot.pause()
            names = {name for name, _help, _run in RecallCommands(screen)._commands()}
            assert "Apply retention" in names
            assert screen.chosen is not None
            chosen = points[screen.chosen]
            assert chosen.desired_retention < 0.9
            assert "Enter applies" in _text(app, "#workload")
            await pilot.press("enter")
            await settle(app, pilot)
            assert load_settings().desired_retention == pytest.approx(chosen.desired_retention)
            assert app.services.workspace.settings.desired_retention == pytest.approx(
                chosen.desired_retention
            )
            workload = _text(app, "#workload")
            assert f"{chosen.desired_retention:.0%}" in workload
            marked = [line for line in workload.splitlines() if "◀ your setting" in line]
            assert len(marked) == 1 and f"{chosen.desired_retention:.0%}" in marked[0]

    asyncio.run(flow())


def test_the_memory_panels_look_right_at_80x24(
    seeded: object, snap_compare: Callable[..., bool]
) -> None:
    """Scrolled to the calibration chart and the retention table (pytest-textual-snapshot)."""

    async def scrolled(pilot: Pilot) -> None:
        await settle(pilot.app, pilot)
        await pilot.press("t")
        await settle(pilot.app, pilot)
        await pilot.press("pagedown")
        await settle(pilot.app, pilot)

    assert snap_compare(RecallApp(seeded), terminal_size=(80, 24), run_before=scrolled)


def test_a_fit_that_is_not_better_is_not_kept_and_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A learner whose memory is the defaults: the fit cannot clearly beat them."""
    isolate(monkeypatch, tmp_path)
    app = RecallApp(_services(tmp_path, history=True, truth=DEFAULTS))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("t")
            await settle(app, pilot)
            await pilot.press("o")
            await settle(app, pilot)
            result = _text(app, "#optimize-result")
            assert "Fit not kept" in result and "parameters in use stay" in result
            assert "log loss" in result and "new fit" in result
            assert "FSRS defaults" in _text(app, "#memory-verdict")

    asyncio.run(flow())
