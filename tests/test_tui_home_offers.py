"""When today's new cards are done the home screen says so and offers the rest (issue 11 item 1):
learn N more today (today's limit only), review ahead, or cram; a session that would have
nothing to drill is never started. Keys pressed while the decks load are queued (item 5), and
the exam plan is one key away (item 6)."""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from textual.widgets import Input

from recall.extra_new import add_extra_new, extra_new
from recall.scheduling import Rating
from recall.scheduling.day import study_date
from recall.session import Budget, Mode
from recall.tui.app import RecallApp
from recall.tui.screens.drill import DrillScreen
from recall.tui.screens.home import HomeScreen
from recall.tui.screens.today_dialogs import EmptyOfferDialog, ExamPlanDialog, LearnMoreDialog
from recall.tui.services import Services
from recall.workspace import Workspace
from tests.tui_fixtures import FakeClock, isolate, screen_text, settle, static_text, write_deck


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def _deck_text(deck_id: str, count: int) -> str:
    cards = "".join(
        f'\n[[card]]\nid = "c{i}"\nkind = "fact"\nprompt = "{deck_id} {i}?"\nvalue = {i}\n'
        f"tolerance = {{ exact = true }}\n"
        for i in range(count)
    )
    return f'[deck]\nid = "{deck_id}"\nname = "{deck_id.title()}"\ntopic = "T{deck_id}"\n{cards}'


def _home(tmp_path: Path, config: str, decks: dict[str, int]) -> Path:
    home = tmp_path / "home"
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(config, encoding="utf-8")
    folder = tmp_path / "decks"
    for deck_id, count in decks.items():
        write_deck(folder, f"{deck_id}.toml", _deck_text(deck_id, count))
    return folder


def _drill(workspace: Workspace, cards: int) -> list[str]:
    session = workspace.start_session(budget=Budget.cards(cards), mode="normal")
    done = []
    while (card := session.next_card()) is not None:
        session.record(verdict="correct", rating=Rating.Good, seconds=20.0)
        done.append(card.key)
    session.end()
    return done


def _spend_the_allowance(folder: Path, clock: FakeClock, cards: int) -> list[str]:
    """Introduce today's new cards and finish their learning steps: nothing is left today."""
    workspace = Workspace.open(deck_dirs=[folder], clock=clock)
    try:
        done = _drill(workspace, cards)
        clock.advance(11 * 60)
        _drill(workspace, cards)
        assert not workspace.plan_today().queue
        return done
    finally:
        workspace.close()


def _select(app: RecallApp, deck_id: str) -> None:
    from textual.widgets import DataTable

    table = app.screen.query_one("#decks", DataTable)
    table.move_cursor(row=table.get_row_index(deck_id))


def test_d_on_a_deck_held_back_by_the_shared_limit_offers_its_cards(tmp_path: Path) -> None:
    clock = FakeClock()
    folder = _home(tmp_path, 'new_per_day = 2\nnew_card_order = "deck"\n', {"alpha": 3, "beta": 4})
    done = _spend_the_allowance(folder, clock, 2)
    assert all(key.startswith("alpha/") for key in done)
    app = RecallApp(Services(clock=clock, deck_dirs=[folder]), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            text = screen_text(app)
            assert "New 2/2 done" in text  # the header fits 80 columns with due tomorrow
            assert "0 tomorrow · n more · w review ahead · c cram" in text
            _select(app, "beta")
            await pilot.press("d")
            await settle(app, pilot)
            dialog = app.screen
            assert isinstance(dialog, EmptyOfferDialog), type(dialog).__name__
            assert dialog.offer.held_back == 4
            reason = static_text(dialog.query_one("#offer-reason"))
            assert "2 of 2" in reason and "4 new cards" in reason
            assert dialog.query_one("#more-count", Input).value == "4"
            await pilot.press("ctrl+u", "3", "enter")
            await settle(app, pilot)
            drill = app.screen
            assert isinstance(drill, DrillScreen), type(drill).__name__
            assert drill.card is not None and drill.card.deck_id == "beta"
            assert extra_new(study_date(clock(), 4)) == 3

    asyncio.run(flow())


def test_s_with_nothing_left_offers_review_ahead_and_cram_never_an_empty_session(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    folder = _home(tmp_path, "new_per_day = 3\n", {"alpha": 3})
    _spend_the_allowance(folder, clock, 3)  # every card is introduced: none waits
    app = RecallApp(Services(clock=clock, deck_dirs=[folder]), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            for key in ("s", "d", "o"):
                await pilot.press(key)
                await settle(app, pilot)
                dialog = app.screen
                assert isinstance(dialog, EmptyOfferDialog), (key, type(dialog).__name__)
                assert dialog.offer.held_back == 0 and dialog.offer.reviewed == 3
                assert not dialog.query("#more-count")  # nothing to learn more of
                keys = static_text(dialog.query_one("#offer-keys"))
                assert "review ahead" in keys and "cram" in keys
                await pilot.press("escape")
                await settle(app, pilot)
                assert isinstance(app.screen, HomeScreen)
            await pilot.press("s")
            await settle(app, pilot)
            await pilot.press("w")
            await settle(app, pilot)
            drill = app.screen
            assert isinstance(drill, DrillScreen), type(drill).__name__
            assert drill.run is not None and drill.run.session.mode is Mode.WEAKEST
            assert drill.card is not None  # a card to drill, not "Session done, 0 reviews"
            await pilot.press("ctrl+q")

    asyncio.run(flow())


def test_cram_from_the_offer_drills_the_deck_off_schedule(tmp_path: Path) -> None:
    clock = FakeClock()
    folder = _home(tmp_path, "new_per_day = 3\n", {"alpha": 3})
    _spend_the_allowance(folder, clock, 3)
    app = RecallApp(Services(clock=clock, deck_dirs=[folder]), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("d")
            await settle(app, pilot)
            await pilot.press("c")
            await settle(app, pilot)
            drill = app.screen
            assert isinstance(drill, DrillScreen), type(drill).__name__
            assert drill.run is not None and drill.run.session.mode is Mode.CRAM
            assert drill.card is not None and drill.card.deck_id == "alpha"

    asyncio.run(flow())


def test_learn_more_today_raises_todays_limit_only(tmp_path: Path) -> None:
    clock = FakeClock()
    folder = _home(tmp_path, "new_per_day = 2\n", {"alpha": 5, "beta": 5})
    _spend_the_allowance(folder, clock, 2)
    app = RecallApp(Services(clock=clock, deck_dirs=[folder]), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("n")
            await settle(app, pilot)
            assert isinstance(app.screen, LearnMoreDialog)
            await pilot.press("ctrl+u", "0", "enter")  # refused: 1 to 500
            await settle(app, pilot)
            assert isinstance(app.screen, LearnMoreDialog)
            await pilot.press("ctrl+u", "5", "enter")
            await settle(app, pilot)
            assert isinstance(app.screen, HomeScreen)
            data = app.home_data
            assert data is not None and data.today is not None
            assert data.today.new == 5 and data.today.new_limit == 7
            assert "New 2/7 done (+5 today)" in screen_text(app)

    asyncio.run(flow())
    workspace = Workspace.open(deck_dirs=[folder], clock=clock)
    try:
        assert len(set(_drill(workspace, 20))) == 5  # the session honours the raise
        clock.advance(86_400)
        assert workspace.extra_new_today() == 0  # gone the next study day
        assert workspace.plan_today().new_limit.limit == 2
    finally:
        workspace.close()


def test_the_raise_is_kept_per_day_and_a_spoilt_file_reads_as_none(tmp_path: Path) -> None:
    path = tmp_path / "today.json"
    day = study_date(FakeClock()(), 4)
    assert extra_new(day, path) == 0
    assert add_extra_new(day, 3, path) == 3
    assert add_extra_new(day, 4, path) == 7
    assert extra_new(day, path) == 7
    assert extra_new(day + timedelta(days=1), path) == 0
    assert add_extra_new(day + timedelta(days=1), 2, path) == 2  # a fresh day starts again
    for bad in ("[1, 2]", '{"day": "x", "extra_new": 5}', "not json", "\xff" * 10, "{" * 9000):
        path.write_text(bad, encoding="utf-8", errors="ignore")
        assert extra_new(day, path) == 0
    path.write_text(f'{{"day": "{day.isoformat()}", "extra_new": true}}', encoding="utf-8")
    assert extra_new(day, path) == 0
    for count in (0, -1, 10_001, True):
        with pytest.raises(ValueError):
            add_extra_new(day, count, path)  # type: ignore[arg-type]


class _SlowServices(Services):
    """Real services whose load stops at the second deck file until released."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.reached = threading.Event()
        self.release = threading.Event()

    def load(self):  # type: ignore[no-untyped-def]
        shown = self.progress

        def gate(text: str) -> None:
            if shown is not None:
                shown(text)
            if text.startswith("Loading decks 2/") and not self.release.is_set():
                self.reached.set()
                self.release.wait(20)

        self.progress = gate
        try:
            return super().load()
        finally:
            self.progress = shown


def test_s_pressed_while_loading_starts_the_session_once_loaded(tmp_path: Path) -> None:
    clock = FakeClock()
    folder = _home(tmp_path, "", {"alpha": 2, "beta": 2, "gamma": 2})
    services = _SlowServices(clock=clock, deck_dirs=[folder])
    app = RecallApp(services, warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                if services.reached.is_set():
                    break
                await asyncio.sleep(0.05)
            assert services.reached.is_set()
            # The loading line catches up with the load's steps five times a second.
            for _ in range(40):
                await asyncio.sleep(0.05)
                if "Loading decks 2/3…" in screen_text(app):
                    break
            await pilot.press("s")
            await pilot.pause()
            text = screen_text(app)
            assert "Loading decks 2/3…" in text
            assert "then a session starts" in text
            assert "Still loading" not in text
            assert isinstance(app.screen, HomeScreen)
            services.release.set()
            await settle(app, pilot)
            drill = app.screen
            assert isinstance(drill, DrillScreen), type(drill).__name__
            assert drill.card is not None

    asyncio.run(flow())


def test_x_shows_the_exam_plan_recall_exam_makes(tmp_path: Path) -> None:
    clock = FakeClock()
    folder = _home(tmp_path, "", {"alpha": 4, "beta": 4})
    app = RecallApp(Services(clock=clock, deck_dirs=[folder]), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("x")
            await settle(app, pilot)
            assert isinstance(app.screen, ExamPlanDialog)
            await pilot.press("t", "o", "m", "o", "r", "r", "o", "w", "enter")
            await settle(app, pilot)
            shown = static_text(app.screen.query_one("#exam-text"), width=200)
            assert "is not a date" in shown
            await pilot.press("ctrl+u", "plus", "1", "4", "enter")
            await settle(app, pilot)
            shown = static_text(app.screen.query_one("#exam-text"), width=200)
            assert "Exam on" in shown and "8 cards" in shown
            assert "Feasible" in shown
            await pilot.press("escape")
            await settle(app, pilot)
            assert isinstance(app.screen, HomeScreen)

    asyncio.run(flow())


def test_learning_steps_later_today_are_said_not_started_as_an_empty_session(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    folder = _home(tmp_path, "new_per_day = 2\nlearning_steps = [90.0, 180.0]\n", {"alpha": 2})
    workspace = Workspace.open(deck_dirs=[folder], clock=clock)
    try:
        assert len(set(_drill(workspace, 2))) == 2  # both wait hours for their next step
        plan = workspace.plan_today()
        assert [card.state for card in plan.queue] == ["learning", "learning"]
    finally:
        workspace.close()
    app = RecallApp(Services(clock=clock, deck_dirs=[folder]), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("s")
            await settle(app, pilot)
            dialog = app.screen
            assert isinstance(dialog, EmptyOfferDialog), type(dialog).__name__
            assert dialog.offer.learning_later == 2
            assert "come back later today" in static_text(dialog.query_one("#offer-reason"))
            await pilot.press("escape")
            await settle(app, pilot)
            clock.advance(170 * 60)  # within 20 minutes of the step: the session shows them
            await pilot.press("s")
            await settle(app, pilot)
            drill = app.screen
            assert isinstance(drill, DrillScreen), type(drill).__name__
            assert drill.card is not None

    asyncio.run(flow())


def test_weakest_on_a_fresh_home_says_why_instead_of_an_empty_session(tmp_path: Path) -> None:
    clock = FakeClock()
    folder = _home(tmp_path, "", {"alpha": 3})
    app = RecallApp(Services(clock=clock, deck_dirs=[folder]), warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("w")
            await settle(app, pilot)
            assert isinstance(app.screen, HomeScreen)
            assert any("No card has been reviewed yet" in n.message for n in app._notifications)
            await pilot.press("s")  # the new cards are there: a session starts
            await settle(app, pilot)
            assert isinstance(app.screen, DrillScreen)

    asyncio.run(flow())
