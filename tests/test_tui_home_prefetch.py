"""The home screen with counts from the prefetching child (:mod:`recall.tui.home_prefetch`),
through the real screen: the counts are shown before the app's own load is in, and nothing acts
on them. Keys pressed meanwhile (a session, Enter on a deck, a reload) wait for that load and
then run; Esc forgets them and the counts come back; a resize keeps them; quitting ends the
child; and when the child delivers nothing the screen is the one the app's own load shows.

The child itself is stood in for here (an object with its two methods): the real fork, its
pipe and its lifetime are tested in ``tests/test_home_prefetch_process.py``.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from recall.config import Settings
from recall.tui.app import RecallApp
from recall.tui.screens.drill import DrillScreen
from recall.tui.screens.home import HomeScreen
from recall.tui.services import Services
from recall.tui.views import HomeData
from tests.tui_fixtures import (
    SMALL_DECK,
    FakeClock,
    isolate,
    screen_text,
    settle,
    static_text,
    write_deck,
)

SIZES = [(80, 24), (100, 30)]


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


class _StandIn:
    """The app's side of a child that has sent ``data`` (``None``: it delivered nothing)."""

    def __init__(self, data: HomeData | None) -> None:
        self.data = data
        self.received = 0
        self.abandoned = False
        self.closed = False

    def receive(self, timeout: float = 5.0) -> HomeData | None:
        self.received += 1
        return self.data if self.received == 1 else None

    def abandon(self) -> None:
        """Killed (the app's own load is in): not waited for."""
        self.abandoned = True

    def close(self) -> None:
        """Killed and reaped (the app closes)."""
        self.abandoned = self.closed = True


class _HeldServices(Services):
    """Real services whose loads wait for :attr:`release` (the app's own load, still at work
    while the child's counts are on screen)."""

    def __init__(self, decks: Path, clock: FakeClock) -> None:
        super().__init__(Settings(), clock=clock, deck_dirs=[decks])
        self.release = threading.Event()
        self.loads = 0

    def load(self) -> HomeData:
        self.loads += 1
        self.release.wait(30)
        return super().load()


def _decks(tmp_path: Path) -> Path:
    folder = tmp_path / "decks"
    write_deck(folder, "tiny.toml", SMALL_DECK)
    return folder


def _childs_counts(decks: Path, clock: FakeClock) -> HomeData:
    """What the child would send: the same load, by services of its own."""
    services = Services(Settings(), clock=clock, deck_dirs=[decks])
    try:
        return services.load()
    finally:
        services.close()


async def _wait(condition: object, seconds: float = 20) -> None:
    assert callable(condition)
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("never happened")


def _figures(app: RecallApp) -> str:
    return static_text(app.screen.query_one("#today-figures", Static))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_childs_counts_show_and_keys_wait_for_the_apps_own_load(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    clock = FakeClock()
    decks = _decks(tmp_path)
    early = _childs_counts(decks, clock)
    assert early.decks and early.today is not None and early.today.new == 3
    services = _HeldServices(decks, clock)
    child = _StandIn(early)
    services.prefetch = child  # type: ignore[assignment]
    app = RecallApp(services, Settings(), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            home = app.screen
            assert isinstance(home, HomeScreen)
            table = home.query_one("#decks", DataTable)
            await _wait(lambda: table.row_count > 0)
            await pilot.pause()
            # The child's counts are on screen; the app's own load is still at work.
            assert services.loads == 1 and app.home_data is None
            assert table.row_count == len(early.decks)
            assert "Today: 3 new" in _figures(app), _figures(app)
            assert "Tiny" in screen_text(app)
            # A key that needs the workspace waits for the app's own load, and says so.
            await pilot.press("s")
            await pilot.pause()
            assert app.screen is home
            assert "then a session starts" in _figures(app), _figures(app)
            services.release.set()
            await settle(app, pilot)
            assert isinstance(app.screen, DrillScreen), type(app.screen).__name__
            # The app's own counts agree with the child's (nothing changed in between).
            assert app.home_data == early
            assert child.received == 1

    asyncio.run(flow())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_enter_on_a_deck_moved_to_under_the_childs_counts_drills_that_deck(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    clock = FakeClock()
    decks = _decks(tmp_path)
    write_deck(decks, "other.toml", SMALL_DECK.replace('id = "tiny"', 'id = "other"', 1))
    early = _childs_counts(decks, clock)
    services = _HeldServices(decks, clock)
    services.prefetch = _StandIn(early)  # type: ignore[assignment]
    app = RecallApp(services, Settings(), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            home = app.screen
            table = home.query_one("#decks", DataTable)
            await _wait(lambda: table.row_count == 2)
            await pilot.press("down")  # the cursor moves on the child's rows
            chosen = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is home and app.home_data is None
            assert "then this deck's session starts" in _figures(app), _figures(app)
            services.release.set()
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen), type(screen).__name__
            assert screen.plan.deck_ids == (chosen,)

    asyncio.run(flow())


def test_esc_forgets_the_waiting_keys_and_the_counts_come_back_a_resize_keeps_them(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    decks = _decks(tmp_path)
    early = _childs_counts(decks, clock)
    services = _HeldServices(decks, clock)
    services.prefetch = _StandIn(early)  # type: ignore[assignment]
    app = RecallApp(services, Settings(), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            home = app.screen
            table = home.query_one("#decks", DataTable)
            await _wait(lambda: table.row_count > 0)
            shown = _figures(app)
            await pilot.press("t", "r")
            await pilot.pause()
            assert "then stats open, then the decks reload" in _figures(app), _figures(app)
            await pilot.press("escape")
            await pilot.pause()
            assert _figures(app) == shown
            await pilot.resize_terminal(60, 24)  # narrow: the table is rebuilt
            await pilot.pause()
            assert table.row_count == len(early.decks)
            await pilot.resize_terminal(100, 30)
            await pilot.pause()
            assert table.row_count == len(early.decks)
            services.release.set()
            await settle(app, pilot)
            assert app.screen is home and app.home_data is not None
            assert services.loads == 1  # the forgotten reload did not run

    asyncio.run(flow())


def test_a_reload_asked_for_under_the_childs_counts_runs_after_the_apps_own_load(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    decks = _decks(tmp_path)
    services = _HeldServices(decks, clock)
    services.prefetch = _StandIn(_childs_counts(decks, clock))  # type: ignore[assignment]
    app = RecallApp(services, Settings(), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            table = app.screen.query_one("#decks", DataTable)
            await _wait(lambda: table.row_count > 0)
            await pilot.press("r")
            await pilot.pause()
            assert services.loads == 1  # not a second load beside the first
            services.release.set()
            # (Not ``settle``: the reload's worker replaces the first one, which Textual then
            # counts as cancelled although its work was done.)
            home = app.screen
            assert isinstance(home, HomeScreen)
            await _wait(lambda: services.loads == 2 and not home._loading)
            assert app.home_data is not None

    asyncio.run(flow())


def test_quitting_under_the_childs_counts_ends_the_child(tmp_path: Path) -> None:
    clock = FakeClock()
    decks = _decks(tmp_path)
    services = _HeldServices(decks, clock)
    child = _StandIn(_childs_counts(decks, clock))
    services.prefetch = child  # type: ignore[assignment]
    app = RecallApp(services, Settings(), warm_engine=False)

    async def flow() -> None:
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                table = app.screen.query_one("#decks", DataTable)
                await _wait(lambda: table.row_count > 0)
                await pilot.press("ctrl+q")
                await pilot.pause()
        finally:
            services.release.set()

    asyncio.run(flow())
    assert child.closed


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_child_that_delivers_nothing_leaves_the_screen_the_apps_own_load_shows(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    clock = FakeClock()
    decks = _decks(tmp_path)
    _childs_counts(decks, clock)  # the first start: the database exists
    screens: list[str] = []
    for child in (None, _StandIn(None)):
        services = Services(Settings(), clock=clock, deck_dirs=[decks])
        services.prefetch = child  # type: ignore[assignment]
        app = RecallApp(services, Settings(), warm_engine=False)

        async def flow(app: RecallApp = app) -> None:
            async with app.run_test(size=size) as pilot:
                await settle(app, pilot)
                assert app.home_data is not None
                screens.append(screen_text(app))

        asyncio.run(flow())
        assert child is None or child.received == 1
    assert screens[0] == screens[1]
    assert "Today: 3 new" in screens[1]


class _FailingServices(_HeldServices):
    """Held services whose first load dies of an error recall did not foresee (not a
    ``RecallError``, which would end the app), after the workspace is open; later loads work."""

    def __init__(self, decks: Path, clock: FakeClock) -> None:
        super().__init__(decks, clock)
        self.failures = 1

    def home(self) -> HomeData:
        if self.failures:
            self.failures -= 1
            raise RuntimeError("an injected failure")
        return super().home()


class _LateStandIn(_StandIn):
    """A child whose counts arrive when :attr:`deliver` is set."""

    def __init__(self, data: HomeData | None) -> None:
        super().__init__(data)
        self.deliver = threading.Event()

    def receive(self, timeout: float = 5.0) -> HomeData | None:
        self.deliver.wait(30)
        return super().receive(timeout)


def test_a_failed_load_takes_back_the_childs_counts_and_drops_the_waiting_keys(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    decks = _decks(tmp_path)
    early = _childs_counts(decks, clock)
    services = _FailingServices(decks, clock)
    child = _StandIn(early)
    services.prefetch = child  # type: ignore[assignment]
    app = RecallApp(services, Settings(), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            home = app.screen
            assert isinstance(home, HomeScreen)
            table = home.query_one("#decks", DataTable)
            await _wait(lambda: table.row_count > 0)
            await pilot.press("s")
            await pilot.pause()
            assert "then a session starts" in _figures(app), _figures(app)
            services.release.set()
            await _wait(lambda: "Loading failed" in _figures(app))
            await pilot.pause()
            # The failure is said where the counts were; the child's counts are gone.
            figures = _figures(app)
            assert "RuntimeError: an injected failure" in figures, figures
            assert "r loads again" in figures, figures
            assert table.row_count == 0
            text = screen_text(app)
            assert "Tiny" not in text and "Today:" not in text, text
            # The key that waited is dropped, and a new one is answered, not queued.
            assert home._queued == []
            await pilot.press("s", "t")
            await pilot.pause()
            assert app.screen is home and home._queued == []
            assert "then" not in _figures(app) and "Loading failed" in _figures(app)
            assert app.home_data is None and child.abandoned
            # r loads again (it works this time): the counts, and keys act.
            await pilot.press("r")
            await _wait(lambda: app.home_data is not None and not home._loading)
            await pilot.pause()
            assert "Today: 3 new" in _figures(app), _figures(app)
            await pilot.press("s")
            await settle(app, pilot)
            assert isinstance(app.screen, DrillScreen), type(app.screen).__name__

    asyncio.run(flow())


def test_the_childs_counts_coming_after_a_failed_load_are_not_shown(tmp_path: Path) -> None:
    clock = FakeClock()
    decks = _decks(tmp_path)
    services = _FailingServices(decks, clock)
    child = _LateStandIn(_childs_counts(decks, clock))
    services.prefetch = child  # type: ignore[assignment]
    services.release.set()
    app = RecallApp(services, Settings(), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            home = app.screen
            assert isinstance(home, HomeScreen)
            await _wait(lambda: "Loading failed" in _figures(app))
            child.deliver.set()
            await _wait(lambda: child.received == 1)
            for _ in range(5):
                await pilot.pause()
            assert home.query_one("#decks", DataTable).row_count == 0
            assert "RuntimeError: an injected failure" in _figures(app), _figures(app)
            assert "Today:" not in screen_text(app)

    asyncio.run(flow())
