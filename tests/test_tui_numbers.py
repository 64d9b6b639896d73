"""Numbers that agree (issue 19, items 2, 4 and 6), through the real screens at 80x24 and 100x30.

Every test runs the real layers (engine, decks, store) on a fresh database under ``tmp_path`` with
a fake clock, and reads what the terminal shows.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

import pytest
from textual.pilot import Pilot

from recall.cli import main
from recall.tui.app import RecallApp
from recall.tui.screens.drill import DrillScreen
from recall.tui.screens.summary import SummaryScreen
from recall.tui.views import SessionPlan
from tests.tui_fixtures import (
    SMALL_DECK,
    FakeClock,
    isolate,
    real_services,
    screen_text,
    settle,
    static_text,
    type_text,
)

Flow = Callable[[Pilot[int]], Awaitable[None]]

SIZES = [(80, 24), (100, 30)]

#: The right answer to each card of the small test deck.
RIGHT = {"tiny/square": "x^2", "tiny/double": "2*y", "tiny/answer": "42"}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def run(app: RecallApp, flow: Flow, size: tuple[int, int]) -> None:
    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await flow(pilot)

    asyncio.run(main())


async def press(pilot: Pilot[int], *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot.app, pilot)


async def answer(pilot: Pilot[int], text: str) -> None:
    """Clear the box, type ``text`` and press Enter; wait for the verdict."""
    await pilot.press("ctrl+u")
    await type_text(pilot, text)
    await settle(pilot.app, pilot)
    await press(pilot, "enter")


def drill(app: RecallApp) -> DrillScreen:
    screen = app.screen
    assert isinstance(screen, DrillScreen), type(screen).__name__
    return screen


async def finish(app: RecallApp, pilot: Pilot[int]) -> None:
    """End the session (a card in its learning steps may come back: it is not asked here)."""
    if not isinstance(app.screen, SummaryScreen):
        await press(pilot, "ctrl+l")
        await press(pilot, "y")
    assert isinstance(app.screen, SummaryScreen)


def figure_row(text: str, words: str) -> str:
    """The summary's row that ends with ``words``, as shown."""
    rows = [line.strip() for line in text.splitlines() if words in line]
    assert rows, f"no row with {words!r} in:\n{text}"
    return rows[0]


# ---------------------------------------------------------------------------- item 2


@pytest.mark.parametrize("size", SIZES)
def test_a_wrong_answer_taken_back_is_not_right_first_time(
    tmp_path: Path, clock: FakeClock, size: tuple[int, int]
) -> None:
    """Three cards: the first answered wrong, taken back with Ctrl-Z and answered right; the
    other two right. Two of three were right first time (67%), not three (100%)."""
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(cards=3))
    seen: dict[str, str] = {}

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        assert screen.card is not None
        first = screen.card.key
        await answer(pilot, "1234567")  # wrong whatever the card
        await press(pilot, "ctrl+z")  # taken back: the card is asked again
        assert screen.card is not None and screen.card.key == first
        await answer(pilot, RIGHT[first])
        await press(pilot, "enter")
        for _ in range(2):
            assert screen.card is not None
            await answer(pilot, RIGHT[screen.card.key])
            await press(pilot, "enter")
        await finish(app, pilot)
        seen["summary"] = screen_text(app)

    run(app, flow, size)
    assert figure_row(seen["summary"], "right first time").startswith("67%")


# ---------------------------------------------------------------------------- item 4


@pytest.mark.parametrize("size", SIZES)
def test_the_summary_calls_cards_in_their_first_steps_learning(
    tmp_path: Path, clock: FakeClock, size: tuple[int, int]
) -> None:
    """Three new cards missed in a first session are in their learning steps; a second session
    the same day drills them again: its summary says "learning", as home and `recall today`."""
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(cards=3))
    seen: list[str] = []

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        for _ in range(3):
            assert screen.card is not None
            await answer(pilot, "1234567")
            await press(pilot, "1")
        await finish(app, pilot)
        seen.append(screen_text(app))
        await press(pilot, "escape")  # home
        clock.advance(15 * 60)  # past the first learning step
        home = screen_text(app)
        assert "3 learning" in home
        await press(pilot, "s")
        screen = drill(app)
        for _ in range(3):
            assert screen.card is not None
            await answer(pilot, RIGHT[screen.card.key])
            await press(pilot, "enter")
        await finish(app, pilot)
        seen.append(screen_text(app))

    run(app, flow, size)
    first, second = seen
    assert figure_row(first, "new / learning / review / relearn").startswith("3 / 0 / 0 / 0")
    assert figure_row(second, "new / learning / review / relearn").startswith("0 / 3 / 0 / 0")


@pytest.mark.parametrize("size", SIZES)
def test_a_session_left_open_is_not_called_resumed_before_it_is(
    tmp_path: Path, clock: FakeClock, size: tuple[int, int]
) -> None:
    first = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))

    async def leave_midway(pilot: Pilot[int]) -> None:
        screen = drill(first)
        assert screen.card is not None
        await answer(pilot, RIGHT[screen.card.key])
        await press(pilot, "enter")
        await pilot.press("ctrl+q")
        await pilot.pause()

    run(first, leave_midway, size)
    second = RecallApp(real_services(tmp_path, clock))
    seen: list[str] = []

    async def come_back(pilot: Pilot[int]) -> None:
        seen.append(screen_text(second))
        await press(pilot, "u")
        seen.append(screen_text(second))

    run(second, come_back, size)
    home, drilling = seen
    offer = figure_row(home, "An unfinished session")
    assert "10 min, 1 done" in offer and "resumed" not in offer
    assert "resumed · 10 min" in drilling  # once it is resumed, it says so


# ---------------------------------------------------------------------------- item 6


@pytest.mark.parametrize("size", SIZES)
def test_an_empty_session_has_no_median_time(
    tmp_path: Path, clock: FakeClock, size: tuple[int, int]
) -> None:
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))
    seen: list[str] = []

    async def flow(pilot: Pilot[int]) -> None:
        await press(pilot, "escape")
        await press(pilot, "e")  # ended from the pause dialog before any answer
        assert isinstance(app.screen, SummaryScreen)
        seen.append(screen_text(app))

    run(app, flow, size)
    row = figure_row(seen[0], "median time to answer")
    assert row.startswith("—") and "0.0 s" not in seen[0]


def test_an_exam_in_the_past_or_today_is_refused_in_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from recall.clock import utc_now
    from recall.config import Settings
    from recall.scheduling.day import study_date

    today = study_date(utc_now(), Settings().day_rollover_hour)
    for days_ago in (1, 30, 2526):
        past = (today - timedelta(days=days_ago)).isoformat()
        assert main(["exam", past]) == 2
        err = capsys.readouterr().err
        assert f" {days_ago} day" in err and "ago" in err and f" -{days_ago}" not in err
        assert ("1 day ago" in err) == (days_ago == 1)
    assert main(["exam", "+0"]) == 2
    assert "is today" in capsys.readouterr().err


# ---------------------------------------------------------------------------- item 7

#: A numeric card whose verdict is taller than the drill body at both sizes: a prompt with
#: forty values, a diagnosis, the reference and a worked answer over all of them.
NAMES = [f"v{i}" for i in range(1, 41)]
TALL_DECK = (
    '[deck]\nid = "tall"\nname = "Tall"\ntopic = "Testing"\n\n[[card]]\nid = "sum"\n'
    'kind = "numeric"\n'
    f'prompt = "Add {", ".join("{" + n + "}" for n in NAMES)}: what is the sum?"\n'
    f'answer = "{" + ".join(NAMES)}"\n'
    "tolerance = { relative = 0.01 }\n[card.params]\n"
    + "".join(f'{n} = {{ low = 1, high = 9, step = 1, meaning = "value {n}" }}\n' for n in NAMES)
)


@pytest.mark.parametrize("size", SIZES)
def test_the_suggested_rating_is_in_view_whatever_the_verdict_and_its_timing(
    tmp_path: Path, clock: FakeClock, size: tuple[int, int]
) -> None:
    app = RecallApp(
        real_services(tmp_path, clock, only={"tall.toml": TALL_DECK}), plan=SessionPlan(cards=1)
    )
    seen: list[str] = []

    async def flow(pilot: Pilot[int]) -> None:
        await pilot.press("ctrl+u")
        await type_text(pilot, "1000000")
        await settle(app, pilot)
        await pilot.press("enter")
        await asyncio.wait_for(app.workers.wait_for_complete(), timeout=60)
        screen = drill(app)
        # The first frame after the verdict, before any scroll has caught up...
        await pilot.pause()
        seen.append(screen_text(app))
        # ... and once everything has settled.
        await settle(app, pilot)
        assert screen.feedback is not None and screen.phase.value == "feedback"
        seen.append(screen_text(app))

    run(app, flow, size)
    for text in seen:
        (line,) = [line for line in text.splitlines() if "Enter accepts" in line]
        assert "[1 Again]" in line, text


# ---------------------------------------------------------------------------- item 8


async def send_at_once(app: RecallApp, *keys: tuple[str, str | None]) -> None:
    """Hand ``keys`` to the app the way a fast typist's terminal does: one after the other,
    with no pause for the app to catch up between them (Pilot's ``press`` waits after each)."""
    from textual import events

    driver = app._driver
    assert driver is not None
    for key, character in keys:
        event = events.Key(key, character)
        event.set_sender(app)
        driver.send_message(event)


#: A key that opens a question over the session: the key, and the question's words.
QUESTIONS = {
    "quit": ("ctrl+c", "Quit recall?"),
    "pause": ("escape", "Paused"),
    "end": ("ctrl+l", "End this session?"),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("question", QUESTIONS)
def test_a_key_right_after_enter_opens_its_question_and_the_answer_is_graded(
    tmp_path: Path, clock: FakeClock, size: tuple[int, int], question: str
) -> None:
    """Enter then Ctrl-C (or Esc, Ctrl-L) before the app has read the Enter: the question
    opens and stays open (the Enter is not taken as its "go back"), and the answer is graded
    under it, its verdict there when the learner goes back."""
    key, words = QUESTIONS[question]
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))
    seen: list[str] = []

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        assert screen.card is not None
        await type_text(pilot, RIGHT[screen.card.key])
        await settle(app, pilot)
        await send_at_once(app, ("enter", "\r"), (key, None))
        await settle(app, pilot)
        await pilot.pause(0.2)
        await settle(app, pilot)
        seen.append(screen_text(app))
        assert app.screen is not screen, "the question was dropped"
        await press(pilot, "escape")  # back to the card
        assert app.screen is screen
        assert screen.feedback is not None and screen.phase.value == "feedback"

    run(app, flow, size)
    assert words in seen[0]


# ---------------------------------------------------------------------------- item 11


#: Every overlay that stops the session clock: the key that opens it.
OVERLAYS = {
    "pause": "escape",
    "quit question": "ctrl+c",
    "end question": "ctrl+l",
    "palette": "ctrl+p",
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_question_is_hidden_while_the_clock_stands(
    tmp_path: Path, clock: FakeClock, size: tuple[int, int], overlay: str
) -> None:
    """Pausing (or any overlay that stops the clock) hides the card: thinking time off the
    clock is not given away. Back on the card, it is there again."""
    app = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))
    seen: list[str] = []

    async def flow(pilot: Pilot[int]) -> None:
        screen = drill(app)
        assert screen.card is not None
        prompt = screen.card.prompt
        assert prompt in screen_text(app)
        await press(pilot, OVERLAYS[overlay])
        assert app.screen is not screen
        seen.append(screen_text(app))
        await press(pilot, "escape")
        assert app.screen is screen
        assert prompt in screen_text(app)
        seen.append(prompt)

    run(app, flow, size)
    covered, prompt = seen
    assert prompt not in covered
    assert "paused" in covered  # the header still says why the clock stands


# ---------------------------------------------------------------------------- item 10

#: A deck with four problems, one of them long, and a second deck with one.
FOUR_PROBLEMS = """\
[deck]
id = "mine"
name = "Mine"

[[card]]
id = "one"
kind = "formula"
prompt = "A card whose prompt goes on and on so that its problem line is long enough to wrap."

[[card]]
id = "two"
kind = "numeric"
prompt = "Something {N}"
answer = "2*N"
[card.symbols]
N = 3
"""

ONE_PROBLEM = """\
[deck]
id = "other"
name = "Other"

[[card]]
id = "a"
kind = "fact"
prompt = "x"
"""


@pytest.mark.parametrize("size", SIZES)
def test_every_deck_problem_is_listed_in_full_in_one_place(
    tmp_path: Path, clock: FakeClock, size: tuple[int, int]
) -> None:
    from recall.tui.screens.decks import DecksScreen

    decks = {"tiny.toml": SMALL_DECK, "mine.toml": FOUR_PROBLEMS, "other.toml": ONE_PROBLEM}
    services = real_services(tmp_path, clock, only=decks)
    app = RecallApp(services)
    seen: dict[str, str] = {}

    async def flow(pilot: Pilot[int]) -> None:
        seen["home"] = screen_text(app)
        problems = [
            line
            for failure in app.home_data.failures  # type: ignore[union-attr]
            for line in failure.message.splitlines()
        ]
        seen["problems"] = "\n".join(problems)
        await press(pilot, "b")
        assert isinstance(app.screen, DecksScreen)
        preview = app.screen.query_one("#card-preview")
        seen["listed"] = " ".join(static_text(preview, width=size[0] - 34).split())
        box = app.screen.query_one("#card-preview-box")
        for _ in range(4):  # Tab reaches the list of problems
            if not box.has_focus:
                await press(pilot, "tab")
        assert box.has_focus, app.focused
        for _ in range(8):
            await press(pilot, "pagedown")
        seen["end"] = screen_text(app)

    run(app, flow, size)
    (line,) = [line for line in seen["home"].splitlines() if "did not load" in line]
    assert "2 deck files did not load (5 problems): b lists them all" in line
    assert line.rstrip().endswith("all")  # nothing cut off at the edge
    problems = seen["problems"].splitlines()
    assert len(problems) == 5
    for problem in problems:  # every problem of both files, whole
        assert " ".join(problem.split()) in seen["listed"], problem
    assert "Fix the file" in seen["end"]  # scrolled to the end: the last one is reachable
