"""Keys typed right after the key that opens a field land in that field, in order: ``x`` then
an exam date, ``l`` then a session length, ``n`` then a count, ``/`` then a search, all sent at
once as a fast typist's terminal hands them over (Pilot at 80x24 and 100x30).

Before, the opening key ran only once it had bubbled up to the screen, and the keys after it had
already been handed to the widget focused *then* (the home table, the deck list): they were lost,
or ran as that screen's bindings ('/softmax' opened the card form at its 'a', and an 'x' opened the
deck file in $EDITOR).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual import events
from textual.widgets import Input

from recall.tui.app import RecallApp
from recall.tui.screens.decks import CardForm, DecksScreen
from recall.tui.screens.dialogs import SessionDialog
from recall.tui.screens.today_dialogs import ExamPlanDialog, LearnMoreDialog
from tests.tui_fixtures import (
    SMALL_DECK,
    FakeClock,
    isolate,
    real_services,
    settle,
    static_text,
)

SIZES = [(80, 24), (100, 30)]

#: More new cards than a day's limit, so "learn more today" (n) has some to offer.
MANY_CARDS = SMALL_DECK + "".join(
    f'\n[[card]]\nid = "fact{n}"\nkind = "fact"\nprompt = "Fact {n}?"\nvalue = {n}\n'
    "tolerance = { exact = true }\n"
    for n in range(40)
)


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


#: The characters of the named keys these tests type.
CHARACTERS = {"plus": "+", "slash": "/"}


def _send_at_once(app: RecallApp, keys: list[str]) -> None:
    """Keys as a fast typist's terminal hands them over: all queued before any is handled."""
    driver = app._driver
    assert driver is not None
    for key in keys:
        event = events.Key(key, CHARACTERS.get(key, key if len(key) == 1 else None))
        event.set_sender(app)
        driver.send_message(event)


def _burst(
    tmp_path: Path, size: tuple[int, int], before: list[str], keys: list[str], selector: str
) -> tuple[type, str]:
    """Press ``before`` one by one, then send ``keys`` at once; the screen on top and the text
    of its field ``selector``."""
    app = RecallApp(real_services(tmp_path, FakeClock(), only={"tiny.toml": MANY_CARDS}))
    seen: list[tuple[type, str]] = []

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            for key in before:
                await pilot.press(key)
                await settle(app, pilot)
            _send_at_once(app, keys)
            for _ in range(5):
                await settle(app, pilot)
                await pilot.pause(0.05)
            field = app.screen.query(selector)
            text = field.first(Input).value if field else "(no such field)"
            seen.append((type(app.screen), text))

    asyncio.run(flow())
    return seen[0]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("before", "keys", "screen", "selector", "typed"),
    [
        pytest.param([], ["x", "plus", "7"], ExamPlanDialog, "#exam-date", "+7", id="exam"),
        pytest.param(
            [],
            ["x", "2", "w", "backspace", "1", "4"],
            ExamPlanDialog,
            "#exam-date",
            "214",
            id="exam-editing",
        ),
        pytest.param([], ["l", "5"], SessionDialog, "#minutes", "5", id="session"),
        pytest.param([], ["n", "7"], LearnMoreDialog, "#more-count", "7", id="more"),
        pytest.param(
            ["b"], ["slash", *"softmax"], DecksScreen, "#card-search", "softmax", id="search"
        ),
    ],
)
def test_keys_typed_right_after_the_opening_key_land_in_its_field(
    tmp_path: Path,
    size: tuple[int, int],
    before: list[str],
    keys: list[str],
    screen: type,
    selector: str,
    typed: str,
) -> None:
    assert _burst(tmp_path, size, before, keys, selector) == (screen, typed)


@pytest.mark.parametrize("size", SIZES)
def test_a_slash_typed_in_the_search_field_is_text(tmp_path: Path, size: tuple[int, int]) -> None:
    """The search key moves the focus only from outside the field: inside it, '/' is typed."""
    assert _burst(tmp_path, size, ["b", "slash"], ["1", "slash", "2"], "#card-search") == (
        DecksScreen,
        "1/2",
    )


@pytest.mark.parametrize("size", SIZES)
def test_enter_right_after_the_date_submits_that_date(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """'x', '+7', Enter at once shows the plan for the date typed, not "'' is not a date"."""
    app = RecallApp(real_services(tmp_path, FakeClock(), only={"tiny.toml": MANY_CARDS}))
    shown: list[str] = []

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            _send_at_once(app, ["x", "plus", "7", "enter"])
            for _ in range(5):
                await settle(app, pilot)
                await pilot.pause(0.05)
            assert isinstance(app.screen, ExamPlanDialog)
            shown.append(static_text(app.screen.query_one("#exam-text")))

    asyncio.run(flow())
    assert "Exam on" in shown[0], shown[0]
    assert "not a date" not in shown[0]


@pytest.mark.parametrize("size", SIZES)
def test_keys_typed_right_after_a_open_the_card_form_with_them(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """'a' in the deck browser, then typing: the keys go to the form's first field (the deck id,
    typed after what it holds), in order; before, they were lost on the deck list."""
    app = RecallApp(real_services(tmp_path, FakeClock(), only={"tiny.toml": MANY_CARDS}))
    seen: list[tuple[type, str, str]] = []

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await pilot.press("b")
            await settle(app, pilot)
            _send_at_once(app, ["a", *"-x", "backspace", "y"])
            for _ in range(5):
                await settle(app, pilot)
                await pilot.pause(0.05)
            form = app.screen
            assert isinstance(form, CardForm)
            seen.append((type(form), form.deck_id, form.query_one("#form-deck", Input).value))

    asyncio.run(flow())
    ((_screen, prefilled, typed),) = seen
    assert typed == prefilled + "-y"


@pytest.mark.parametrize("size", SIZES)
def test_letters_typed_in_the_search_field_stay_text(tmp_path: Path, size: tuple[int, int]) -> None:
    """'a' and 'e' open the card form only from outside a field: in the search they are typed."""
    assert _burst(tmp_path, size, ["b", "slash"], [*"ae"], "#card-search") == (
        DecksScreen,
        "ae",
    )
