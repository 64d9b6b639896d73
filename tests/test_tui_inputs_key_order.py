"""Every text field of the app takes a burst of keys in the order pressed, driven with Pilot at
80x24 and 100x30: the exam date, the learn-more count, the session dialog's two fields, the deck
search, and every field of the card form (one-line fields and the prompt box).

Textual inserts a printable key in the field's own turn but runs a bound editing key
(Backspace, Delete, Home, the arrows, Ctrl-U) only once the key has bubbled up to the app, and
moves the focus for Tab only then too: in a burst, a character typed after such a key was
inserted first, and a character typed after Tab landed in the field being left (Textual issue
6605). The drill's answer box had its own fix (tests/test_tui_answer_key_order.py); every field
now shares it (:mod:`recall.tui.widgets.text_input`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual import events
from textual.widget import Widget
from textual.widgets import Input, TextArea

from recall.tui.app import RecallApp
from recall.tui.screens.decks import CardForm, DecksScreen
from recall.tui.screens.dialogs import SessionDialog
from recall.tui.screens.today_dialogs import ExamPlanDialog, LearnMoreDialog
from recall.tui.widgets.text_input import KeysInOrder
from tests.tui_fixtures import SMALL_DECK, FakeClock, isolate, real_services, settle

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


def _send_at_once(app: RecallApp, keys: list[str]) -> None:
    """Keys as a fast typist's terminal hands them over: all queued before any is handled."""
    driver = app._driver
    assert driver is not None
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        driver.send_message(event)


Opener = Callable[[RecallApp, object], Awaitable[None]]


def _keys_then(*keys: str, screen: type) -> Opener:
    async def open_it(app: RecallApp, pilot: object) -> None:
        for key in keys:
            await pilot.press(key)  # type: ignore[attr-defined]
            await settle(app, pilot)
        assert isinstance(app.screen, screen), app.screen

    return open_it


OPEN_EXAM = _keys_then("x", screen=ExamPlanDialog)
OPEN_MORE = _keys_then("n", screen=LearnMoreDialog)
OPEN_SESSION = _keys_then("l", screen=SessionDialog)
OPEN_SEARCH = _keys_then("b", "slash", screen=DecksScreen)
OPEN_FORM = _keys_then("b", "a", screen=CardForm)

#: (how to reach it, the field, whether it takes digits only)
FIELDS = [
    pytest.param(OPEN_EXAM, "#exam-date", False, id="exam-date"),
    pytest.param(OPEN_MORE, "#more-count", True, id="more-count"),
    pytest.param(OPEN_SESSION, "#minutes", True, id="session-minutes"),
    pytest.param(OPEN_SESSION, "#cards", True, id="session-cards"),
    pytest.param(OPEN_SEARCH, "#card-search", False, id="deck-search"),
    pytest.param(OPEN_FORM, "#form-deck", False, id="form-deck"),
    pytest.param(OPEN_FORM, "#form-id", False, id="form-id"),
    pytest.param(OPEN_FORM, "#form-prompt", False, id="form-prompt"),
    pytest.param(OPEN_FORM, "#form-answer", False, id="form-answer"),
    pytest.param(OPEN_FORM, "#form-shown", False, id="form-shown"),
    pytest.param(OPEN_FORM, "#form-symbols", False, id="form-symbols"),
    pytest.param(OPEN_FORM, "#form-hint", False, id="form-hint"),
]


def _text_of(field: Widget) -> str:
    if isinstance(field, TextArea):
        return field.text
    assert isinstance(field, Input)
    return field.value


def _clear(field: Widget) -> None:
    if isinstance(field, TextArea):
        field.text = ""
    else:
        assert isinstance(field, Input)
        field.value = ""


def _bursts(
    tmp_path: Path,
    size: tuple[int, int],
    open_it: Opener,
    selector: str,
    bursts: list[tuple[str, list[str]]],
) -> list[str]:
    """For each (typed, keys): clear the field, type ``typed`` key by key, send ``keys`` at
    once; the field's text after each burst."""
    app = RecallApp(real_services(tmp_path, FakeClock(), only={"tiny.toml": MANY_CARDS}))
    seen: list[str] = []

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await open_it(app, pilot)
            field = app.screen.query_one(selector)
            for typed, keys in bursts:
                field.focus()
                await settle(app, pilot)
                _clear(field)
                await settle(app, pilot)
                for key in typed:
                    await pilot.press(key)
                await settle(app, pilot)
                assert _text_of(field) == typed
                _send_at_once(app, keys)
                await settle(app, pilot)
                await pilot.pause(0.05)
                seen.append(_text_of(field))

    asyncio.run(flow())
    return seen


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("open_it", "selector", "digits"), FIELDS)
def test_every_field_takes_a_burst_of_editing_keys_in_order(
    tmp_path: Path, size: tuple[int, int], open_it: Opener, selector: str, digits: bool
) -> None:
    if digits:
        cases = [
            ("123", ["backspace", "4"], "124"),
            ("12", ["home", "9"], "912"),
            ("123", ["left", "left", "delete", "5"], "153"),
            ("56", ["backspace", "backspace", "7"], "7"),
        ]
    else:
        cases = [
            ("abc", ["backspace", "x"], "abx"),
            ("bc", ["home", "a"], "abc"),
            ("y+1", ["left", "left", "delete", "-"], "y-1"),
            ("abc", ["backspace", "backspace", "backspace", "q", "r"], "qr"),
        ]
    seen = _bursts(tmp_path, size, open_it, selector, [(t, k) for t, k, _ in cases])
    assert seen == [expected for _t, _k, expected in cases]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("first", "second", "backwards"),
    [("#minutes", "#cards", False), ("#cards", "#minutes", True)],
)
def test_keys_typed_right_after_tab_land_in_the_next_field(
    tmp_path: Path, size: tuple[int, int], first: str, second: str, backwards: bool
) -> None:
    """The session dialog's two fields: Tab (or Shift-Tab) then digits, sent at once."""
    app = RecallApp(real_services(tmp_path, FakeClock(), only={"tiny.toml": SMALL_DECK}))
    values: dict[str, str] = {}

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await OPEN_SESSION(app, pilot)
            screen = app.screen
            screen.query_one(first, Input).focus()
            await settle(app, pilot)
            before = screen.query_one(first, Input).value
            _send_at_once(app, ["shift+tab" if backwards else "tab", "3", "0"])
            await settle(app, pilot)
            await pilot.pause(0.05)
            values["first"] = screen.query_one(first, Input).value
            values["first before"] = before
            values["second"] = screen.query_one(second, Input).value

    asyncio.run(flow())
    assert values["first"] == values["first before"]
    assert values["second"] == "30"  # the field's text is selected on focus: typing replaces it


@pytest.mark.parametrize(
    "open_it",
    [OPEN_EXAM, OPEN_MORE, OPEN_SESSION, OPEN_SEARCH, OPEN_FORM],
    ids=["exam", "more", "session", "search", "form"],
)
def test_every_text_field_on_a_screen_keeps_keys_in_order(tmp_path: Path, open_it: Opener) -> None:
    """A field added later is covered too: each screen with fields holds no plain Input or
    TextArea."""
    app = RecallApp(real_services(tmp_path, FakeClock(), only={"tiny.toml": MANY_CARDS}))
    plain: list[str] = []

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await open_it(app, pilot)
            fields = [*app.screen.query(Input), *app.screen.query(TextArea)]
            assert fields
            plain.extend(repr(f) for f in fields if not isinstance(f, KeysInOrder))

    asyncio.run(flow())
    assert plain == []
