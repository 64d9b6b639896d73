"""The decks screen's card form from the keyboard at 80x24 (issue 12, item 7): the first field
has focus, Tab walks the same fields for add and edit, focusing a field does not select its
text, a save error is shown under its field and scrolled into view, and saving comes back to
the card's deck with the card selected."""

from __future__ import annotations

import asyncio
import tomllib
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from recall.tui.app import RecallApp
from recall.tui.card_writer import error_field
from recall.tui.screens.decks import CardForm, DecksScreen
from tests.tui_fixtures import SMALL_DECK, FakeClock, isolate, real_services, settle, static_text

#: A deck listed before ``tiny`` in the browser, so "stays on the card's deck" can fail.
FIRST_DECK = """\
[deck]
id = "alpha"
name = "Alpha"
topic = "Testing"

[[card]]
id = "one"
kind = "fact"
prompt = "One?"
value = 1
"""

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def _app(tmp_path: Path) -> RecallApp:
    decks = {"alpha.toml": FIRST_DECK, "tiny.toml": SMALL_DECK}
    return RecallApp(real_services(tmp_path, FakeClock(), only=decks))


async def _open_tiny(app: RecallApp, pilot: object) -> DecksScreen:
    await pilot.press("b")  # type: ignore[attr-defined]
    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, DecksScreen)
    await pilot.press("down")  # type: ignore[attr-defined]  # from Alpha to Tiny
    await settle(app, pilot)
    assert screen.deck_id == "tiny"
    return screen


async def _tab_order(app: RecallApp, pilot: object) -> list[str]:
    order = []
    for _ in range(9):
        assert app.focused is not None
        order.append(app.focused.id or "")
        await pilot.press("tab")  # type: ignore[attr-defined]
    return order


def _in_view(form: CardForm, widget_id: str) -> bool:
    widget = form.query_one(widget_id)
    box = form.query_one("#form-box")
    return widget.display and box.region.contains_region(widget.region)


def test_add_starts_on_the_first_field_edit_on_the_prompt_both_tab_alike(tmp_path: Path) -> None:
    app = _app(tmp_path)

    async def flow() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            screen = await _open_tiny(app, pilot)
            await pilot.press("a")
            await settle(app, pilot)
            assert isinstance(app.screen, CardForm)
            add = await _tab_order(app, pilot)
            await pilot.press("escape")
            await settle(app, pilot)
            screen.query_one("#card-table").focus()
            await pilot.press("e")
            await settle(app, pilot)
            form = app.screen
            assert isinstance(form, CardForm) and form.draft is not None
            # Editing starts where typing goes (the deck and card ids are locked): the prompt.
            assert app.focused is form.query_one("#form-prompt")
            form.query_one("#form-deck").focus()
            await pilot.pause()
            edit = await _tab_order(app, pilot)
            assert add[0] == edit[0] == "form-deck"
            assert add == edit
            assert add[:8] == [
                "form-deck",
                "form-id",
                "form-kind",
                "form-prompt",
                "form-answer",
                "form-shown",
                "form-symbols",
                "form-hint",
            ]
            # Editing keeps the card's id: its field takes focus but no typing.
            form.query_one("#form-id").focus()
            await pilot.press("z")
            assert form.query_one("#form-id", Input).value == "square"

    asyncio.run(flow())


def test_focusing_a_field_does_not_select_its_text(tmp_path: Path) -> None:
    app = _app(tmp_path)

    async def flow() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await _open_tiny(app, pilot)
            await pilot.press("a")
            await settle(app, pilot)
            deck = app.screen.query_one("#form-deck", Input)
            assert app.focused is deck and deck.value == "tiny"
            assert deck.selection.is_empty
            await pilot.press("tab", "shift+tab", "2")
            assert deck.value == "tiny2"  # typed after the text, not over it

    asyncio.run(flow())


@pytest.mark.parametrize(
    ("card_id", "answer", "field"),
    [("Bad Id!", "x^3", "id"), ("cube", "x^(3", "answer"), ("cube", "y^3", "symbols")],
)
def test_a_save_error_shows_under_its_field_in_view(
    card_id: str, answer: str, field: str, tmp_path: Path
) -> None:
    app = _app(tmp_path)

    async def flow() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            await _open_tiny(app, pilot)
            await pilot.press("a")
            await settle(app, pilot)
            form = app.screen
            assert isinstance(form, CardForm)
            form.query_one("#form-id", Input).value = card_id
            form.query_one("#form-prompt").text = "The cube of x."  # type: ignore[attr-defined]
            form.query_one("#form-answer", Input).value = answer
            form.query_one("#form-symbols", Input).value = "x: real"
            form.query_one("#form-deck").focus()
            await pilot.press("ctrl+s")
            await settle(app, pilot)
            assert app.screen is form
            error = form.query_one(f"#form-{field}-error", Static)
            assert error.display and static_text(error).strip().startswith("✗")
            others = [w for w in form.query(".form-error") if w is not error and w.display]
            assert others == []
            assert app.focused is form.query_one(f"#form-{field}")
            assert _in_view(form, f"#form-{field}-error")
            # The error sits right after its field.
            children = list(form.query_one("#form-box").children)
            assert children.index(error) == children.index(form.query_one(f"#form-{field}")) + 1

    asyncio.run(flow())


def test_saving_stays_on_the_cards_deck_with_the_card_selected(tmp_path: Path) -> None:
    app = _app(tmp_path)

    async def flow() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            screen = await _open_tiny(app, pilot)
            await pilot.press("a")
            await settle(app, pilot)
            form = app.screen
            assert isinstance(form, CardForm)
            form.query_one("#form-id", Input).value = "cube"
            form.query_one("#form-prompt").text = "The cube of x."  # type: ignore[attr-defined]
            form.query_one("#form-answer", Input).value = "x^3"
            form.query_one("#form-symbols", Input).value = "x: real"
            await pilot.press("ctrl+s")
            await settle(app, pilot)
            assert app.screen is screen
            assert screen.deck_id == "tiny"
            card = screen.current_card()
            assert card is not None and card.key == "tiny/cube"

    asyncio.run(flow())


def test_errors_are_matched_to_the_fields_they_name() -> None:
    assert error_field("card id: required") == "id"
    assert error_field("deck id: required") == "deck"
    assert error_field("line 6: card 'Bad Id!': card id 'Bad Id!' is not valid") == "id"
    assert error_field("line 9: card 'c': answer 'x^(3' does not parse: ...") == "answer"
    assert error_field("line 9: card 'c': symbol 'y' is used in answer but not declared") == (
        "symbols"
    )
    assert error_field("line 9: not valid TOML: Invalid value") == "answer"
    assert error_field("prompt: required") == "prompt"


def test_editing_keeps_what_the_form_does_not_show_and_takes_typing_at_once(
    tmp_path: Path,
) -> None:
    """Found by trying recall as a learner: on `e` the focus sat on the locked deck id, so the
    first words typed vanished; and saving rewrote the card's block from the form's fields
    alone, dropping every symbol's meaning and any key the form does not show."""
    deck_file = tmp_path / "decks" / "tiny.toml"
    app = _app(tmp_path)

    async def flow() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            screen = await _open_tiny(app, pilot)
            deck_file.write_text(
                deck_file.read_text(encoding="utf-8").replace(
                    'hint = "Multiply x by itself."',
                    'hint = "Multiply x by itself."\nsource = "my notes"\n'
                    'tags = ["week-1"]  # kept',
                ),
                encoding="utf-8",
            )
            screen.query_one("#card-table").focus()
            await pilot.press("e")
            await settle(app, pilot)
            form = app.screen
            assert isinstance(form, CardForm) and form.draft is not None
            assert app.focused is form.query_one("#form-prompt")
            await pilot.press("end", *" (x real)")
            await pilot.press("ctrl+s")
            await settle(app, pilot)
            assert app.screen is screen

    asyncio.run(flow())
    text = deck_file.read_text(encoding="utf-8")
    square = next(c for c in tomllib.loads(text)["card"] if c["id"] == "square")
    assert square["prompt"] == "The square of x. (x real)"
    assert square["symbols"] == {"x": {"domain": "real", "meaning": "any number"}}
    assert square["source"] == "my notes" and square["tags"] == ["week-1"]
    assert 'tags = ["week-1"]  # kept' in text
