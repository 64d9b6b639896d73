"""The card form at 80x24 (issue 19, item 9): the focused field is always in view, keys typed
right after Tab land in the next field, and a save error names the field and what to type, not
the deck file's line or TOML table. Through the real screens at 80x24 and 100x30."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual import events
from textual.widgets import Input

from recall.tui.app import RecallApp
from recall.tui.screens.decks import CardForm, DecksScreen
from tests.tui_fixtures import SMALL_DECK, FakeClock, isolate, real_services, settle

SIZES = [(80, 24), (100, 30)]


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


async def _open_form(app: RecallApp, pilot: object) -> CardForm:
    await pilot.press("b")  # type: ignore[attr-defined]
    await settle(app, pilot)
    assert isinstance(app.screen, DecksScreen)
    await pilot.press("a")  # type: ignore[attr-defined]
    await settle(app, pilot)
    form = app.screen
    assert isinstance(form, CardForm)
    return form


def _send_at_once(app: RecallApp, *keys: tuple[str, str | None]) -> None:
    """Keys as a fast typist's terminal hands them over: no pause between them."""
    driver = app._driver
    assert driver is not None
    for key, character in keys:
        event = events.Key(key, character)
        event.set_sender(app)
        driver.send_message(event)


@pytest.mark.parametrize("size", SIZES)
def test_the_focused_field_is_always_in_view(tmp_path: Path, size: tuple[int, int]) -> None:
    app = RecallApp(real_services(tmp_path, FakeClock(), only={"tiny.toml": SMALL_DECK}))
    hidden: list[str] = []

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            form = await _open_form(app, pilot)
            box = form.query_one("#form-box")
            for _ in range(10):
                await pilot.press("tab")
                await settle(app, pilot)
                focused = app.focused
                assert focused is not None
                if not box.region.contains_region(focused.region):
                    hidden.append(focused.id or "")
            for _ in range(10):
                await pilot.press("shift+tab")
                await settle(app, pilot)
                focused = app.focused
                assert focused is not None
                if not box.region.contains_region(focused.region):
                    hidden.append(focused.id or "")

    asyncio.run(flow())
    assert hidden == []


@pytest.mark.parametrize("size", SIZES)
def test_keys_typed_right_after_tab_land_in_the_next_field(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    app = RecallApp(real_services(tmp_path, FakeClock(), only={"tiny.toml": SMALL_DECK}))
    values: dict[str, str] = {}

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            form = await _open_form(app, pilot)
            assert app.focused is form.query_one("#form-deck")
            before = form.query_one("#form-deck", Input).value
            _send_at_once(app, ("tab", None), ("c", "c"), ("u", "u"), ("b", "b"), ("e", "e"))
            await settle(app, pilot)
            await pilot.pause(0.1)
            values["deck"] = form.query_one("#form-deck", Input).value
            values["before"] = before
            values["id"] = form.query_one("#form-id", Input).value

    asyncio.run(flow())
    assert values["deck"] == values["before"]
    assert values["id"] == "cube"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("field", "symbols", "answer", "said"),
    [
        ("symbols", "x: blah", "x^3", "unknown domain 'blah'"),
        ("answer", "x: real", "x^^3", "does not parse"),
        ("symbols", "1x: real", "x^3", "not a valid symbol name"),
    ],
)
def test_a_save_error_names_its_field_and_what_to_type(
    tmp_path: Path, size: tuple[int, int], field: str, symbols: str, answer: str, said: str
) -> None:
    from tests.tui_fixtures import static_text

    app = RecallApp(real_services(tmp_path, FakeClock(), only={"tiny.toml": SMALL_DECK}))
    shown: list[str] = []

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            form = await _open_form(app, pilot)
            form.query_one("#form-id", Input).value = "cube"
            form.query_one("#form-prompt").text = "The cube of x."  # type: ignore[attr-defined]
            form.query_one("#form-answer", Input).value = answer
            form.query_one("#form-symbols", Input).value = symbols
            await pilot.press("ctrl+s")
            await settle(app, pilot)
            assert app.screen is form
            shown.append(static_text(form.query_one(f"#form-{field}-error"), width=200))

    asyncio.run(flow())
    text = " ".join(shown[0].split())
    label = {"symbols": "Symbols", "answer": "Answer"}[field]
    assert text.startswith(f"✗ {label}: ") and said in text and " — type " in text, text
    assert "line " not in text and "[card." not in text and "card 'cube'" not in text, text
