"""The session clock on screen (issue 11, item 3), driven through the real app with Pilot.

Every test runs the real layers (engine, decks, store) on a fresh database under ``tmp_path``
with a fake clock, so "time" moves only when a test moves it: each figure below is what the
budget must say after exactly the seconds the test spent, and the store is read back after every
undo to see which review went.

The rules: help, the command palette and every dialog stop the clock while open (nested ones
too), and the countdown says "paused"; a budget spent mid-card says "time is up, finish this
card" and ends on the summary once that card is rated; Ctrl-L and Ctrl-C ask before ending a
session (Ctrl-C twice quits at once, Ctrl-C outside a session and Ctrl-Q never ask); Ctrl-Z over
a verdict takes back that answer, not the card before; undo keeps the hint penalty; undo and skip
give no time back.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.command import CommandPalette
from textual.pilot import Pilot

from recall.store import open_store
from recall.tui.app import RecallApp
from recall.tui.screens.dialogs import ConfirmDialog, PauseDialog
from recall.tui.screens.drill import DrillScreen, Phase
from recall.tui.screens.help import HelpScreen
from recall.tui.screens.home import HomeScreen
from recall.tui.screens.summary import SummaryScreen
from recall.tui.views import Rating, SessionPlan
from recall.tui.widgets.countdown import TIME_UP, Countdown
from recall.verdicts import Status
from tests.tui_fixtures import (
    EXPLAIN_DECK,
    FakeClock,
    isolate,
    real_services,
    screen_text,
    settle,
    type_text,
)

Flow = Callable[[Pilot[int]], Awaitable[None]]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def run(app: RecallApp, flow: Flow) -> None:
    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await flow(pilot)

    asyncio.run(main())


def drill(app: RecallApp) -> DrillScreen:
    screen = app.screen
    assert isinstance(screen, DrillScreen), type(screen).__name__
    assert screen.run is not None
    return screen


def left(screen: DrillScreen) -> float:
    assert screen.run is not None
    seconds = screen.run.seconds_left()
    assert seconds is not None
    return seconds


def countdown(screen: DrillScreen) -> str:
    return screen.query_one(Countdown).render_status().plain


async def answer(pilot: Pilot[int], text: str) -> None:
    """Clear the box, type ``text`` and press Enter; wait for the verdict."""
    await pilot.press("ctrl+u")
    await type_text(pilot, text)
    await settle(pilot.app, pilot)
    await pilot.press("enter")
    await settle(pilot.app, pilot)


async def press(pilot: Pilot[int], *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot.app, pilot)


def log_of(app: RecallApp, screen: DrillScreen) -> list[tuple[str, str, int, bool]]:
    """This session's reviews in the store: (card, verdict, rating, hint used)."""
    assert screen.run is not None
    store = app.services.workspace.store  # type: ignore[attr-defined]
    return [
        (e.card_key, e.verdict, e.rating, e.hint_used)
        for e in store.reviews(session_id=screen.run.info.id)
    ]


# ---------------------------------------------------------------------------- overlays pause


#: Each overlay a learner can open mid-card: the key that opens it, the screen it is.
OVERLAYS = {
    "help": ("f1", HelpScreen),
    "palette": ("ctrl+p", CommandPalette),
    "pause dialog": ("escape", PauseDialog),
    "end-session question": ("ctrl+l", ConfirmDialog),
    "quit question": ("ctrl+c", ConfirmDialog),
}


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_an_overlay_stops_the_clock_and_the_countdown_says_paused(
    tmp_path: Path, clock: FakeClock, overlay: str
) -> None:
    key, kind = OVERLAYS[overlay]
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        clock.advance(10)
        assert left(screen) == pytest.approx(590)
        assert "paused" not in countdown(screen)
        await press(pilot, key)
        assert isinstance(app.screen, kind)
        assert "paused" in countdown(screen)
        assert "paused" in screen_text(app)  # drawn in the header, above the overlay
        clock.advance(600)  # ten minutes with the overlay open cost nothing
        assert left(screen) == pytest.approx(590)
        await press(pilot, "escape")
        assert app.screen is screen and screen.phase is Phase.ASKING
        assert "paused" not in countdown(screen)
        clock.advance(5)  # and the clock runs again once it is closed
        assert left(screen) == pytest.approx(585)

    run(app, flow)


def test_nested_overlays_keep_the_clock_stopped_until_the_last_one_closes(
    tmp_path: Path, clock: FakeClock
) -> None:
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        clock.advance(20)
        await press(pilot, "escape")  # a break ...
        await press(pilot, "f1")  # ... the keys over it ...
        await press(pilot, "ctrl+c")  # ... and the quit question over those
        assert isinstance(app.screen, ConfirmDialog)
        clock.advance(100)
        await press(pilot, "n")
        assert isinstance(app.screen, HelpScreen)
        clock.advance(100)
        await press(pilot, "escape")
        assert isinstance(app.screen, PauseDialog)
        clock.advance(100)
        assert left(screen) == pytest.approx(580)
        assert "paused" in countdown(screen)
        await press(pilot, "escape")
        assert app.screen is screen and not screen.run.paused()  # type: ignore[union-attr]
        clock.advance(30)
        assert left(screen) == pytest.approx(550)

    run(app, flow)


# ---------------------------------------------------------------------------- time is up


def test_time_up_mid_card_says_finish_this_card_and_ends_after_it(
    tmp_path: Path, clock: FakeClock
) -> None:
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=1))

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        clock.advance(40)
        await answer(pilot, "x^2")
        await press(pilot, "enter")
        assert screen.card is not None and screen.card.key == "tiny/double"
        clock.advance(19)  # one second left: not yet
        await pilot.pause(0.6)  # the countdown redraws on its own
        assert TIME_UP not in screen_text(app)
        clock.advance(2)  # the budget runs out under this card
        await pilot.pause(0.6)
        assert TIME_UP in screen_text(app)
        assert screen.phase is Phase.ASKING  # the card is still there to finish
        await answer(pilot, "2y")
        assert screen.phase is Phase.FEEDBACK and TIME_UP in countdown(screen)
        await press(pilot, "enter")
        assert isinstance(app.screen, SummaryScreen)  # no third card
        assert app.screen.summary.reviews == 2
        assert [key for key, *_ in log_of(app, screen)] == ["tiny/square", "tiny/double"]

    run(app, flow)


def test_skipping_the_card_once_time_is_up_ends_the_session(
    tmp_path: Path, clock: FakeClock
) -> None:
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=1))

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        clock.advance(61)
        await pilot.pause(0.6)
        assert TIME_UP in screen_text(app)
        await press(pilot, "ctrl+s")  # no other card follows a spent budget
        assert isinstance(app.screen, SummaryScreen)
        assert app.screen.summary.reviews == 0 and log_of(app, screen) == []
        assert app.screen.summary.elapsed_seconds == pytest.approx(61)

    run(app, flow)


def test_a_card_budget_never_says_time_is_up(tmp_path: Path, clock: FakeClock) -> None:
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=None, cards=2))

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        clock.advance(3600)  # an hour on one card of a card budget: no time is up
        await pilot.pause(0.6)
        assert TIME_UP not in screen_text(app)
        assert "2 cards left" in countdown(screen)

    run(app, flow)


# ---------------------------------------------------------------------------- asking to end


def test_ctrl_l_asks_before_ending_and_the_reviews_stay(tmp_path: Path, clock: FakeClock) -> None:
    services = real_services(tmp_path, clock)
    app = RecallApp(services, plan=SessionPlan(minutes=10))

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        await answer(pilot, "x^2")
        await press(pilot, "enter")
        await press(pilot, "ctrl+l")
        assert isinstance(app.screen, ConfirmDialog) and app.screen.purpose == "end"
        assert "End this session?" in screen_text(app)
        assert "The review so far stays saved" in screen_text(app)
        await press(pilot, "enter")  # Enter is "no": a stray key does not end the session
        assert app.screen is screen and screen.in_progress
        assert screen.card is not None and screen.card.key == "tiny/double"
        assert services.workspace.store.session(screen.run.info.id).ended_at is None  # type: ignore[union-attr]
        await answer(pilot, "3y")  # graded, not yet rated: ending records it as suggested
        await press(pilot, "ctrl+l")
        await press(pilot, "y")
        assert isinstance(app.screen, SummaryScreen)
        assert app.screen.summary.reviews == 2
        assert log_of(app, screen) == [
            ("tiny/square", "correct", 3, False),
            ("tiny/double", "incorrect", 1, False),
        ]
        assert services.workspace.store.session(screen.run.info.id).ended_at is not None  # type: ignore[union-attr]

    run(app, flow)


def test_ctrl_c_mid_session_asks_and_going_back_keeps_drilling(
    tmp_path: Path, clock: FakeClock
) -> None:
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        await press(pilot, "ctrl+c")
        assert isinstance(app.screen, ConfirmDialog) and app.screen.purpose == "quit"
        assert "Quit recall?" in screen_text(app)
        assert "Nothing is reviewed yet" in screen_text(app)
        await press(pilot, "n")
        assert app.screen is screen and app.return_value is None
        await answer(pilot, "x^2")  # still drilling
        assert screen.phase is Phase.FEEDBACK

    run(app, flow)
    assert app.return_value is None  # never asked to quit: the test harness closed it


@pytest.mark.parametrize("keys", [("ctrl+c", "ctrl+c"), ("ctrl+c", "y"), ("ctrl+q",)])
def test_quitting_mid_session_keeps_the_reviews_and_the_session_resumable(
    tmp_path: Path, clock: FakeClock, keys: tuple[str, ...]
) -> None:
    """Ctrl-C twice and Ctrl-C then yes both quit; Ctrl-Q quits without asking."""
    services = real_services(tmp_path, clock)
    app = RecallApp(services, plan=SessionPlan(minutes=10))
    asked: list[bool] = []

    async def flow(pilot: Pilot[int]) -> None:
        await answer(pilot, "x^2")
        await press(pilot, "enter")
        await pilot.press(keys[0])
        await pilot.pause()
        asked.append(isinstance(app.screen, ConfirmDialog))
        if len(keys) > 1:
            await pilot.press(keys[1])
            await pilot.pause()

    run(app, flow)
    assert asked == [keys[0] == "ctrl+c"]
    assert app.return_value == 0 and services.closed
    store = open_store()
    try:
        (entry,) = store.reviews()
        assert (entry.card_key, entry.rating) == ("tiny/square", 3)
        assert entry.session_id is not None
        session = store.session(entry.session_id)
        assert session.ended_at is None  # let go, not ended: the next start offers it
        assert session.owner_pid is None
    finally:
        store.close()


def test_ctrl_c_over_the_end_question_asks_to_quit_and_twice_quits(
    tmp_path: Path, clock: FakeClock
) -> None:
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))

    async def flow(pilot: Pilot[int]) -> None:
        await press(pilot, "ctrl+l")
        await press(pilot, "ctrl+c")
        assert isinstance(app.screen, ConfirmDialog) and app.screen.purpose == "quit"
        await pilot.press("ctrl+c")
        await pilot.pause()

    run(app, flow)
    assert app.return_value == 0


def test_ctrl_q_quits_at_once_even_over_a_question(tmp_path: Path, clock: FakeClock) -> None:
    """The app is always quittable: Ctrl-Q never asks, whatever is open."""
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))

    async def flow(pilot: Pilot[int]) -> None:
        await press(pilot, "ctrl+l")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("ctrl+q")
        await pilot.pause()

    run(app, flow)
    assert app.return_value == 0


@pytest.mark.parametrize("where", ["home", "summary"])
def test_ctrl_c_outside_a_session_quits_at_once(
    tmp_path: Path, clock: FakeClock, where: str
) -> None:
    plan = SessionPlan(minutes=10) if where == "summary" else None
    app = RecallApp(real_services(tmp_path, clock), plan=plan)
    seen: list[type] = []

    async def flow(pilot: Pilot[int]) -> None:
        if where == "summary":
            await press(pilot, "escape")
            await press(pilot, "e")  # ended from the pause dialog
        seen.append(type(app.screen))
        await pilot.press("ctrl+c")
        await pilot.pause()

    run(app, flow)
    assert seen == [SummaryScreen if where == "summary" else HomeScreen]
    assert app.return_value == 0


# ---------------------------------------------------------------------------- undo


def test_ctrl_z_over_a_verdict_takes_back_that_answer_not_the_card_before(
    tmp_path: Path, clock: FakeClock
) -> None:
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        store = app.services.workspace.store  # type: ignore[attr-defined]
        await answer(pilot, "x^2")
        await press(pilot, "enter")
        square_after = store.cards_by_key(["tiny/square"])["tiny/square"].state
        await answer(pilot, "3y")
        assert screen.phase is Phase.FEEDBACK and screen.card is not None
        assert screen.card.key == "tiny/double"
        await press(pilot, "ctrl+z")
        # That answer is gone: the same card is asked again, the box empty ...
        assert screen.card.key == "tiny/double" and screen.phase is Phase.ASKING
        assert screen.query_one("#answer").value == ""  # type: ignore[attr-defined]
        # ... and the card before keeps its review and its new state.
        assert log_of(app, screen) == [("tiny/square", "correct", 3, False)]
        assert store.cards_by_key(["tiny/square"])["tiny/square"].state == square_after
        # The wrong verdict showed the reference: the retake is helped, as after a hint, but
        # this card has no hint, so no hint line appears for it.
        assert screen.hinted and "No hint on this card" not in screen_text(app)
        await answer(pilot, "2y")
        assert screen.feedback is not None and screen.feedback.suggested is Rating.Hard
        await press(pilot, "enter")
        assert log_of(app, screen) == [
            ("tiny/square", "correct", 3, False),
            ("tiny/double", "correct", 2, True),
        ]
        assert screen.card is not None and screen.card.key == "tiny/answer"

    run(app, flow)


def test_ctrl_z_while_asking_removes_the_last_review_from_the_store(
    tmp_path: Path, clock: FakeClock
) -> None:
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        await answer(pilot, "x^2")
        await press(pilot, "enter")
        await answer(pilot, "2y")
        await press(pilot, "enter")
        assert screen.card is not None and screen.card.key == "tiny/answer"
        await press(pilot, "ctrl+z")  # no verdict on screen: the last review goes
        assert screen.card.key == "tiny/double" and screen.phase is Phase.ASKING
        assert log_of(app, screen) == [("tiny/square", "correct", 3, False)]

    run(app, flow)


def test_ctrl_z_over_a_revealed_model_answer_asks_that_card_again(
    tmp_path: Path, clock: FakeClock
) -> None:
    services = real_services(tmp_path, clock, only={"talk.toml": EXPLAIN_DECK})
    app = RecallApp(services, plan=SessionPlan(minutes=10))

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        await press(pilot, "space")
        assert screen.phase is Phase.REVEALED and "negative log-likelihood" in screen_text(app)
        await press(pilot, "ctrl+z")
        assert screen.phase is Phase.REVEAL and "negative log-likelihood" not in screen_text(app)
        assert screen.card is not None and screen.card.key == "talk/why-ce"
        await press(pilot, "space", "4")
        assert log_of(app, screen) == [("talk/why-ce", "self", 4, False)]

    run(app, flow)


@pytest.mark.parametrize("when", ["over the verdict", "after rating"])
def test_undo_keeps_the_hint_penalty(tmp_path: Path, clock: FakeClock, when: str) -> None:
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        assert screen.card is not None and screen.card.key == "tiny/square"
        await press(pilot, "ctrl+g")
        await answer(pilot, "x^2")
        assert screen.feedback is not None and screen.feedback.suggested is Rating.Hard
        if when == "after rating":
            await press(pilot, "enter")
            assert log_of(app, screen) == [("tiny/square", "correct", 2, True)]
        await press(pilot, "ctrl+z")
        assert screen.card.key == "tiny/square" and screen.phase is Phase.ASKING
        assert log_of(app, screen) == []
        assert screen.hinted and "Multiply x by itself" in screen_text(app)
        await answer(pilot, "x^2")  # no hint asked this time: still hinted
        assert screen.feedback is not None and screen.feedback.outcome is Status.CORRECT
        assert screen.feedback.suggested is Rating.Hard
        await press(pilot, "3")  # even a Good override is logged as hinted
        assert log_of(app, screen) == [("tiny/square", "correct", 3, True)]

    run(app, flow)


def test_a_card_without_the_hint_is_not_marked_after_an_undo(
    tmp_path: Path, clock: FakeClock
) -> None:
    """The other side of the rule: an undo alone adds no penalty."""
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        await answer(pilot, "x^2")
        await press(pilot, "ctrl+z")
        assert not screen.hinted and "Multiply x by itself" not in screen_text(app)
        await answer(pilot, "x^2")
        assert screen.feedback is not None and screen.feedback.suggested is Rating.Good

    run(app, flow)


# ---------------------------------------------------------------------------- no time back


def test_undo_and_skip_give_no_time_back(tmp_path: Path, clock: FakeClock) -> None:
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        clock.advance(30)
        await answer(pilot, "x^2")
        await press(pilot, "enter")
        assert left(screen) == pytest.approx(570)
        clock.advance(20)
        await press(pilot, "ctrl+z")  # the 30 s answer and the 20 s on the next card stay spent
        assert screen.card is not None and screen.card.key == "tiny/square"
        assert left(screen) == pytest.approx(550)
        clock.advance(10)
        await answer(pilot, "x^2")
        clock.advance(5)
        await press(pilot, "ctrl+z")  # taking back the verdict on screen: no time back either
        assert left(screen) == pytest.approx(535)
        clock.advance(5)
        await press(pilot, "ctrl+s")  # skipped: its time stays spent
        assert screen.card is not None and screen.card.key != "tiny/square"
        assert left(screen) == pytest.approx(530)
        clock.advance(10)
        assert left(screen) == pytest.approx(520)
        await press(pilot, "ctrl+l", "y")
        assert isinstance(app.screen, SummaryScreen)  # its time spent is what the budget used
        assert app.screen.summary.elapsed_seconds == pytest.approx(80)
        assert "1:20" in screen_text(app)

    run(app, flow)
