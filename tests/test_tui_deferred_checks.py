"""The home screen counts first and checks new custom decks after (a worker): their cards join
the table when checked, and a deck failing the check is listed with the other failures."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from recall.cards import loader
from recall.grading import check_deck
from recall.tui import startup_gc
from recall.tui.app import RecallApp
from recall.tui.launch import build_app
from recall.tui.services import Services
from recall.tui.views import SessionPlan
from recall.workspace import Workspace
from tests.test_workspace_deferred_checks import BAD, GOOD
from tests.tui_fixtures import FakeClock, isolate, settle, static_text


@pytest.fixture
def custom(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    from recall.cards import loader

    isolate(monkeypatch, tmp_path)
    folder = tmp_path / "custom"
    folder.mkdir()
    (folder / "mine.toml").write_text(GOOD, encoding="utf-8")
    (folder / "broken.toml").write_text(BAD, encoding="utf-8")
    loader._CACHE.clear()
    yield folder
    loader._CACHE.clear()


def test_the_home_screen_counts_first_and_adds_the_custom_decks_once_checked(
    custom: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked = Workspace.check_pending
    release = threading.Event()

    def held_check(self: Workspace, progress: object = None) -> int:
        assert release.wait(60)  # the test looks at the screen before the check runs
        return checked(self, progress)  # type: ignore[arg-type]

    monkeypatch.setattr(Workspace, "check_pending", held_check)
    services = Services(clock=FakeClock(), custom_decks=custom, defer_checks=True)
    app = RecallApp(services, warm_engine=False)
    startup_gc.relax()  # as recall.tui.launch does: the start ends after the checks too

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(600):
                if app.home_data is not None:
                    break
                await pilot.pause(0.05)
            await pilot.pause()
            table = app.screen.query_one("#decks", DataTable)
            rows = {key.value for key in table.rows}
            assert "losses" in rows and not {"mine", "broken"} & rows
            problems = static_text(app.screen.query_one("#home-problems", Static))
            assert "Checking 2 custom deck files" in problems
            assert "did not load" not in problems
            assert startup_gc.relaxed()  # the counts are in, the checks are not: still starting

            release.set()
            await settle(app, pilot)
            rows = {key.value for key in table.rows}
            assert "mine" in rows and "broken" not in rows
            problems = static_text(app.screen.query_one("#home-problems", Static))
            assert "Checking" not in problems
            assert "1 deck file did not load (1 problem)" in problems
            [failure] = app.home_data.failures
            assert Path(failure.path).name == "broken.toml" and failure.card_id == "bad"
            assert failure.line == 16
            assert not startup_gc.relaxed()
            # What the checks parsed is kept for the next start (written after the counts).
            loader._CACHE.clear()
            known = loader.read_known_deck(custom / "mine.toml", check=check_deck)
            assert not isinstance(known, type(loader.UNCHECKED)) and known[0] is not None

    try:
        asyncio.run(flow())
    finally:
        startup_gc.restore()


def test_only_the_home_screen_defers_a_session_on_the_command_line_waits() -> None:
    assert build_app().services.defer_checks is True
    assert build_app(SessionPlan(minutes=10)).services.defer_checks is False


def test_a_check_after_another_reload_checked_the_decks_still_recounts(custom: Path) -> None:
    """A reload that checked the decks first (the learner pressed r while the worker ran) must
    not leave the screen with a "checking" line: the worker's recount says nothing is left."""
    services = Services(clock=FakeClock(), custom_decks=custom, defer_checks=True)
    try:
        assert services.load().checking == 2
        services.workspace.check_pending()  # done elsewhere meanwhile
        data = services.check_pending()
        assert data.checking == 0
        assert "mine" in {row.id for row in data.decks}
        assert [Path(f.path).name for f in data.failures] == ["broken.toml"]
    finally:
        services.close()


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
def test_a_session_asked_for_while_checking_waits_for_the_custom_cards(
    custom: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, size: tuple[int, int]
) -> None:
    """Every built-in deck at a new-card limit of 0: the only new cards are the custom deck's,
    still being checked when s is pressed. The screen must not say "nothing left today" (seen
    in a browser: the dialog stayed up over the counts that then showed the card); the session
    starts once the checked cards are in."""
    import tomllib

    from recall.paths import builtin_decks_dir
    from recall.tui.screens.drill import DrillScreen
    from recall.tui.screens.today_dialogs import EmptyOfferDialog

    home = tmp_path / "home"
    home.mkdir(parents=True, exist_ok=True)
    ids = sorted(
        tomllib.loads(path.read_text(encoding="utf-8"))["deck"]["id"]
        for path in builtin_decks_dir().glob("*.toml")
    )
    limits = "".join(f'"{deck}" = 0\n' for deck in ids)
    (home / "config.toml").write_text(f"[deck_new_limits]\n{limits}", encoding="utf-8")
    (custom / "broken.toml").unlink()
    checked = Workspace.check_pending
    release = threading.Event()

    def held_check(self: Workspace, progress: object = None) -> int:
        assert release.wait(60)
        return checked(self, progress)  # type: ignore[arg-type]

    monkeypatch.setattr(Workspace, "check_pending", held_check)
    services = Services(clock=FakeClock(), custom_decks=custom, defer_checks=True)
    app = RecallApp(services, warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            for _ in range(600):
                if app.home_data is not None:
                    break
                await pilot.pause(0.05)
            await pilot.pause()
            await pilot.press("s")
            await pilot.pause()
            assert not isinstance(app.screen, EmptyOfferDialog)
            problems = static_text(app.screen.query_one("#home-problems", Static))
            assert "Checking 1 custom deck file" in problems
            assert "then the session starts" in problems
            release.set()
            await settle(app, pilot)
            assert isinstance(app.screen, DrillScreen)

    try:
        asyncio.run(flow())
    finally:
        release.set()
