"""No key and no ``recall drill`` starts a session with zero cards (issue 11 item 1, second
pass): ``recall drill`` on a home whose day is spent says so and offers learn more / review
ahead / cram, as ``s`` does; ``m`` with nothing missed says why; the session dialog's cram on
a scope with nothing to cram says why."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from recall.cli import build_parser
from recall.commands.drill import plan_from_args
from recall.scheduling import Rating
from recall.session import Budget, Mode
from recall.tui.app import RecallApp
from recall.tui.screens.drill import DrillScreen
from recall.tui.screens.home import HomeScreen
from recall.tui.screens.today_dialogs import EmptyOfferDialog
from recall.tui.services import Services
from recall.tui.views import SessionPlan
from recall.workspace import Workspace
from tests.test_tui_home_offers import _home, _spend_the_allowance
from tests.tui_fixtures import FakeClock, isolate, settle, static_text


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def _drill_args(*argv: str) -> SessionPlan:
    return plan_from_args(build_parser().parse_args(["drill", *argv]))


def _suspend(services: Services, keys: list[str]) -> None:
    store = services.workspace.store
    for stored in store.cards_by_key(keys).values():
        store.set_suspended(stored.db_id, True)


def _notes(app: RecallApp) -> list[str]:
    return [n.message for n in app._notifications]


def test_recall_drill_on_a_spent_day_offers_the_rest_instead_of_an_empty_session(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    folder = _home(tmp_path, "new_per_day = 2\n", {"alpha": 5})
    _spend_the_allowance(folder, clock, 2)
    app = RecallApp(
        Services(clock=clock, deck_dirs=[folder]),
        plan=_drill_args("--minutes", "10"),
        warm_engine=False,
    )

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            dialog = app.screen
            assert isinstance(dialog, EmptyOfferDialog), type(dialog).__name__
            assert dialog.offer.asked.minutes == 10
            assert dialog.offer.held_back == 3 and dialog.offer.reviewed == 2
            keys = static_text(dialog.query_one("#offer-keys"))
            assert "learn that many more" in keys and "review ahead" in keys and "cram" in keys
            await pilot.press("ctrl+u", "2", "enter")  # learn two more, then the session
            await settle(app, pilot)
            drill = app.screen
            assert isinstance(drill, DrillScreen), type(drill).__name__
            assert drill.card is not None
            assert drill.run is not None and drill.run.plan.minutes == 10

    asyncio.run(flow())


def test_recall_drill_with_cards_starts_from_the_counts_without_a_second_plan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check is the counts the load made: a session they show cards for is not planned
    again before its first prompt (``empty_offer`` is never asked)."""
    clock = FakeClock()
    folder = _home(tmp_path, "new_per_day = 2\n", {"alpha": 3, "beta": 3})
    services = Services(clock=clock, deck_dirs=[folder])

    def no_second_plan(plan: SessionPlan) -> None:
        raise AssertionError("empty_offer asked although the counts show cards")

    monkeypatch.setattr(services, "empty_offer", no_second_plan)
    for argv in (("--minutes", "10"), ("--deck", "beta", "--cards", "2")):
        app = RecallApp(services, plan=_drill_args(*argv), warm_engine=False)

        async def flow(app: RecallApp = app, argv: tuple[str, ...] = argv) -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(app, pilot)
                drill = app.screen
                assert isinstance(drill, DrillScreen), (argv, type(drill).__name__)
                assert drill.card is not None
                await pilot.press("ctrl+q")

        asyncio.run(flow())
        services._workspace = None  # the next app opens the store again


def test_recall_drill_on_a_deck_with_nothing_left_is_asked_in_full(tmp_path: Path) -> None:
    """A deck whose share of today's plan is empty is checked with the deck's own plan."""
    clock = FakeClock()
    folder = _home(tmp_path, "new_per_day = 3\n", {"alpha": 3, "beta": 2})
    workspace = Workspace.open(deck_dirs=[folder], clock=clock)
    try:
        session = workspace.start_session(budget=Budget.cards(2), mode="normal", decks=["beta"])
        while session.next_card() is not None:
            session.record(verdict="correct", rating=Rating.Easy, seconds=10.0)
        session.end()
    finally:
        workspace.close()
    app = RecallApp(
        Services(clock=clock, deck_dirs=[folder]),
        plan=_drill_args("--deck", "beta"),
        warm_engine=False,
    )

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            dialog = app.screen
            assert isinstance(dialog, EmptyOfferDialog), type(dialog).__name__
            assert dialog.offer.scope == "deck Beta" and dialog.offer.cards == 2
            await pilot.press("escape")
            await settle(app, pilot)
            assert isinstance(app.screen, HomeScreen)

    asyncio.run(flow())


def test_m_with_nothing_missed_says_why_and_with_a_miss_drills_it(tmp_path: Path) -> None:
    clock = FakeClock()
    folder = _home(tmp_path, "new_per_day = 3\n", {"alpha": 3})
    services = Services(clock=clock, deck_dirs=[folder])
    app = RecallApp(services, warm_engine=False)

    def finish_a_session(ratings: list[Rating]) -> None:
        session = services.workspace.start_session(budget=Budget.cards(len(ratings)), mode="normal")
        for rating in ratings:
            assert session.next_card() is not None
            session.record(verdict="correct", rating=rating, seconds=10.0)
        session.end()

    async def press_m(pilot: object) -> None:
        await pilot.press("m")  # type: ignore[attr-defined]
        await settle(app, pilot)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await press_m(pilot)
            assert isinstance(app.screen, HomeScreen)
            assert "No session has finished yet: nothing was missed." in _notes(app)
            finish_a_session([Rating.Good, Rating.Good])
            await press_m(pilot)
            assert isinstance(app.screen, HomeScreen)
            assert any(n.startswith("Nothing was missed last time") for n in _notes(app))
            finish_a_session([Rating.Again])
            missed = services.missed_last_time()
            assert missed == (1, 1)
            await press_m(pilot)
            drill = app.screen
            assert isinstance(drill, DrillScreen), type(drill).__name__
            assert drill.run is not None and drill.run.session.mode is Mode.MISSED
            assert drill.card is not None

    asyncio.run(flow())


def test_a_missed_card_since_suspended_is_said_not_drilled(tmp_path: Path) -> None:
    clock = FakeClock()
    folder = _home(tmp_path, "", {"alpha": 2})
    services = Services(clock=clock, deck_dirs=[folder])
    app = RecallApp(services, warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            session = services.workspace.start_session(budget=Budget.cards(1), mode="normal")
            card = session.next_card()
            assert card is not None
            session.record(verdict="incorrect", rating=Rating.Again, seconds=10.0)
            session.end()
            _suspend(services, [card.key])
            await pilot.press("m")
            await settle(app, pilot)
            assert isinstance(app.screen, HomeScreen)
            assert any("suspended or retired" in n for n in _notes(app))

    asyncio.run(flow())


def test_cram_chosen_in_the_session_dialog_on_nothing_to_cram_says_why(tmp_path: Path) -> None:
    clock = FakeClock()
    folder = _home(tmp_path, "", {"alpha": 2})
    services = Services(clock=clock, deck_dirs=[folder])
    app = RecallApp(services, warm_engine=False)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            _suspend(services, list(services.workspace.cards))
            home = app.screen
            assert isinstance(home, HomeScreen)
            home._start_if_chosen(SessionPlan(minutes=5, deck_ids=("alpha",), mode=Mode.CRAM))
            await settle(app, pilot)
            assert isinstance(app.screen, HomeScreen)
            assert any("nothing to cram" in n for n in _notes(app))

    asyncio.run(flow())


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("--deck", "tinny"), "There is no deck 'tinny' (did you mean 'tiny'?)"),
        (("--topic", "Testting"), "There is no topic 'Testting' (did you mean 'Testing'?)"),
    ],
)
def test_recall_drill_on_a_deck_or_topic_that_does_not_exist_says_so(
    tmp_path: Path, argv: tuple[str, ...], said: str
) -> None:
    """Found by trying recall as a learner: `recall drill --deck activaton` said "Nothing left
    today in deck activaton: it has no cards to drill (every card is suspended or retired)"."""
    from tests.tui_fixtures import real_services

    app = RecallApp(real_services(tmp_path, FakeClock()), plan=_drill_args(*argv))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            dialog = app.screen
            assert isinstance(dialog, EmptyOfferDialog), type(dialog).__name__
            reason = " ".join(static_text(dialog.query_one("#offer-reason"), width=200).split())
            assert reason.startswith(said), reason
            assert "suspended" not in reason

    asyncio.run(flow())
