"""The decks screen's card form, "drill the missed ones again", and ``recall drill`` arguments."""

from __future__ import annotations

import asyncio
import tomllib
from pathlib import Path

import pytest
from textual.widgets import Input, TextArea

from recall.cli import build_parser
from recall.commands.drill import plan_from_args
from recall.session import Mode
from recall.tui.app import RecallApp
from recall.tui.card_writer import CardDraft, with_card
from recall.tui.editor import editor_command
from recall.tui.screens.decks import CardForm, DecksScreen, parse_symbols
from recall.tui.screens.drill import DrillScreen
from recall.tui.screens.summary import SummaryScreen
from recall.tui.views import SessionPlan
from tests.tui_fixtures import FakeClock, isolate, real_services, settle, static_text, type_text


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def test_a_custom_card_is_validated_previewed_and_saved(tmp_path: Path) -> None:
    services = real_services(tmp_path, FakeClock())
    deck_file = tmp_path / "decks" / "tiny.toml"
    before = deck_file.read_text(encoding="utf-8")
    app = RecallApp(services)

    async def flow() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(app, pilot)
            await pilot.press("b")
            await settle(app, pilot)
            assert isinstance(app.screen, DecksScreen)
            await pilot.press("a")
            await settle(app, pilot)
            form = app.screen
            assert isinstance(form, CardForm)
            form.query_one("#form-id", Input).value = "cube"
            form.query_one("#form-prompt", TextArea).text = "The cube of x."
            form.query_one("#form-symbols", Input).value = "x: real"
            form.query_one("#form-answer", Input).focus()
            await type_text(pilot, "x^(3")
            await settle(app, pilot)
            assert "never closed" in static_text(form.query_one("#form-preview"))  # live
            await pilot.press("backspace", "backspace")
            await type_text(pilot, "3")
            await settle(app, pilot)
            assert "interpreted as" in static_text(form.query_one("#form-preview"))
            form.query_one("#form-id", Input).value = "Bad Id!"
            await pilot.press("ctrl+s")
            await settle(app, pilot)
            assert app.screen is form  # refused: the deck would not load
            assert "Not saved" in static_text(form.query_one("#form-errors"))
            assert deck_file.read_text(encoding="utf-8") == before  # and the file is restored
            form.query_one("#form-id", Input).value = "cube"
            await pilot.press("ctrl+s")
            await settle(app, pilot)
            assert isinstance(app.screen, DecksScreen)
            assert app.home_data is not None
            assert next(d for d in app.home_data.decks if d.id == "tiny").cards == 4

    asyncio.run(flow())
    data = tomllib.loads(deck_file.read_text(encoding="utf-8"))
    cube = next(card for card in data["card"] if card["id"] == "cube")
    assert cube == {
        "id": "cube",
        "kind": "formula",
        "prompt": "The cube of x.",
        "answer": "x^3",
        "symbols": {"x": "real"},
    }


def test_editing_a_card_replaces_only_its_block() -> None:
    text = (
        '[deck]\nid = "d"\nname = "D"\n\n'
        '[[card]]\nid = "a"\nkind = "fact"\nprompt = "A"\nvalue = 1\n\n'
        '[[card]]\nid = "b"\nkind = "fact"\nprompt = "B"\nvalue = 2\n'
    )
    draft = CardDraft(deck_id="d", id="a", kind="fact", prompt="A, reworded", answer="1.5")
    out = tomllib.loads(with_card(text, draft, line=5))
    assert [c["id"] for c in out["card"]] == ["a", "b"]
    assert out["card"][0]["prompt"] == "A, reworded" and out["card"][0]["value"] == 1.5
    assert out["card"][1] == {"id": "b", "kind": "fact", "prompt": "B", "value": 2}


def test_a_form_card_with_awkward_text_reads_back_exactly() -> None:
    """Backslashes (LaTeX), quotes, line breaks and odd symbol names survive the deck file."""
    from recall.tui.card_writer import card_block, empty_deck_text

    draft = CardDraft(
        deck_id="d",
        id="odd",
        kind="formula",
        prompt='Say "\\alpha" twice,\nthen stop.\tDone',
        answer="alpha^2",
        hint="it's \\frac{1}{2}",
        symbols={"alpha": "real", "odd key": "positive"},
    )
    out = tomllib.loads(empty_deck_text("d", 'D "quoted"') + "\n" + card_block(draft))
    assert out["deck"] == {"id": "d", "name": 'D "quoted"'}
    card = out["card"][0]
    assert card["prompt"] == draft.prompt and card["hint"] == draft.hint
    assert card["symbols"] == draft.symbols


def test_symbols_field_keeps_intervals_whole() -> None:
    assert parse_symbols("sigma: positive, p: (0, 1), n") == {
        "sigma": "positive",
        "p": "(0, 1)",
        "n": "real",
    }


def test_the_missed_cards_can_be_drilled_again(tmp_path: Path) -> None:
    services = real_services(tmp_path, FakeClock())
    app = RecallApp(services, plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await type_text(pilot, "x^3")  # wrong
            await pilot.press("enter")
            await settle(app, pilot)
            await pilot.press("1", "ctrl+l", "y")  # Ctrl-L asks; y ends the session
            await settle(app, pilot)
            assert isinstance(app.screen, SummaryScreen)
            assert [m.key for m in app.screen.summary.missed] == ["tiny/square"]
            await pilot.press("r")
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            assert screen.plan.mode is Mode.MISSED
            assert screen.card is not None and screen.card.key == "tiny/square"
            before = services.workspace.store.cards_by_key(["tiny/square"])["tiny/square"].state
            await type_text(pilot, "x^2")
            await pilot.press("enter")
            await settle(app, pilot)
            await pilot.press("enter")
            await settle(app, pilot)
            assert isinstance(app.screen, SummaryScreen)  # only the missed card was asked
            assert app.screen.summary.reviews == 1 and not app.screen.summary.missed
            after = services.workspace.store.cards_by_key(["tiny/square"])["tiny/square"].state
            assert after == before  # drilling the missed ones again is off-schedule

    asyncio.run(flow())


def test_recall_drill_arguments_become_a_plan() -> None:
    parser = build_parser()
    args = parser.parse_args(["drill", "--cards", "15", "--deck", "losses", "--deck", "metrics"])
    plan = plan_from_args(args)
    assert plan == SessionPlan(minutes=None, cards=15, deck_ids=("losses", "metrics"))
    args = parser.parse_args(["drill", "--topic", "Losses", "--cram"])
    assert plan_from_args(args, default_minutes=25) == SessionPlan(
        minutes=25, topic="Losses", mode=Mode.CRAM
    )
    with pytest.raises(SystemExit):
        parser.parse_args(["drill", "--minutes", "5", "--cards", "3"])
    with pytest.raises(SystemExit):
        parser.parse_args(["drill", "--minutes", "-1"])


def test_the_editor_opens_at_the_cards_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EDITOR", "nano -w")
    monkeypatch.delenv("VISUAL", raising=False)
    assert editor_command("/decks/x.toml", 42) == ["nano", "-w", "+42", "--", "/decks/x.toml"]


_SYMBOL_LAYOUTS = {
    "dotted": 'symbols.x = "real"\ntags = ["act"]\n',
    "dotted tables": 'symbols.x.domain = "real"\nsymbols.x.meaning = "the input"\ntags = ["act"]\n',
    "inline": 'symbols = { x = "real" }\ntags = ["act"]\n',
    "sub-table": 'tags = ["act"]\n\n[card.symbols]\nx = "real"  # the input\n',
}


@pytest.mark.parametrize("layout", sorted(_SYMBOL_LAYOUTS))
def test_a_symbol_added_in_the_form_is_valid_toml_in_every_layout(layout: str) -> None:
    """The reviewer found ``symbols.y = "real"tags = [...]`` written for dotted keys: an edit
    the deck then refused. Every way a deck may declare symbols takes a new one, keeps the
    others (and their meaning), and leaves the next card alone."""
    text = (
        '[deck]\nid = "mine"\nname = "Mine"\n\n[[card]]\nid = "a"\nprompt = "Sigmoid of x?"\n'
        'answer = "1/(1+exp(-x))"\n' + _SYMBOL_LAYOUTS[layout] + "\n"
        '[[card]]\nid = "b"\nprompt = "Two?"\nanswer = "2"\n'
    )
    draft = CardDraft(
        deck_id="mine",
        id="a",
        kind="formula",
        prompt="Sigmoid of x?",
        answer="1/(1+exp(-x))",
        symbols={"x": "positive", "y": "real"},
    )
    written = with_card(text, draft, line=5)
    first, second = tomllib.loads(written)["card"]
    x = first["symbols"]["x"]
    assert (x["domain"] if isinstance(x, dict) else x) == "positive"
    if layout == "dotted tables":
        assert x["meaning"] == "the input"
    assert first["symbols"]["y"] == "real"
    assert first["tags"] == ["act"]
    assert second == {"id": "b", "prompt": "Two?", "answer": "2"}
    assert '\n\n[[card]]\nid = "b"' in written, "the blank line before the next card is kept"
