"""Bidi controls and invisible characters in deck text: one rule at every entrance and exit.

The bidi embeddings, overrides and isolates (U+202A to U+202E, U+2066 to U+2069) reorder what is
drawn after them, so a prompt could read differently on screen from what the file says ("Trojan
Source"): they are refused like control characters wherever text enters (a deck file names the
file, the line and the card, and the other decks still load; an import, an Anki package, a typed
answer). The hidden characters (zero-width space, word joiner, byte order mark, line separator)
are allowed in text and shown by code point on a terminal, the TUI included; the joiners and
direction marks that Persian, Arabic, Hebrew, Indic scripts and emoji need (ZWNJ, ZWJ, LRM, RLM,
ALM) are kept as they are. Seen in the tryout: U+202E in a prompt reached the TUI raw.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from recall.cli import main
from recall.inert import first_control, first_invisible, inert, quote
from recall.tui.app import RecallApp
from recall.tui.screens.decks import DecksScreen
from tests.anki_packages import BASIC, build_collection, package
from tests.tui_fixtures import FakeClock, isolate, real_services, screen_text, settle

BIDI_CONTROLS = [chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]]
HIDDEN = ["\u200b", "\u2060", "\u2062", "\ufeff", "\u2028", "\u2029"]
MARKS = ["\u200c", "\u200d", "\u200e", "\u200f", "\u061c"]

FINE_DECK = (
    '[deck]\nid = "fine"\nname = "Fine deck"\n[[card]]\nid = "f1"\nkind = "fact"\n'
    'prompt = "2+2?"\nvalue = 4\n'
)


def _toml_escape(char: str) -> str:
    return f"\\u{ord(char):04X}"


def _hostile_deck(char: str) -> str:
    return (
        '[deck]\nid = "trojan"\nname = "Trojan"\n[[card]]\nid = "t1"\nkind = "fact"\n'
        f'prompt = "Is the access level user{_toml_escape(char)} admin?"\nvalue = 1\n'
    )


@pytest.mark.parametrize("char", BIDI_CONTROLS, ids=lambda c: f"U+{ord(c):04X}")
def test_a_bidi_control_in_deck_text_is_refused_naming_file_line_and_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], char: str
) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    hostile = folder / "trojan.toml"
    hostile.write_text(_hostile_deck(char), encoding="utf-8")
    (folder / "fine.toml").write_text(FINE_DECK, encoding="utf-8")

    assert main(["decks", "validate", str(hostile)]) != 0
    output = "".join(capsys.readouterr())
    assert f"{hostile}:7:" in output, output
    assert "card 't1'" in output and "'prompt'" in output, output
    assert f"U+{ord(char):04X}" in output and char not in output, output
    assert "reorders" in output, output

    assert main(["--decks", str(folder), "decks", "list"]) == 0
    listed = "".join(capsys.readouterr())
    rows = [line.split() for line in listed.splitlines()]
    assert ["fine", "Fine", "deck", "1"] in [row[:4] for row in rows], listed  # still loads
    assert not any(row[:1] == ["trojan"] for row in rows), listed  # not listed as a deck
    assert f"{hostile}:7: card 't1'" in listed, listed  # listed as a problem


@pytest.mark.parametrize("char", [*HIDDEN, *MARKS], ids=lambda c: f"U+{ord(c):04X}")
def test_hidden_characters_and_marks_in_deck_text_still_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], char: str
) -> None:
    path = tmp_path / "decks" / "ok.toml"
    path.parent.mkdir()
    path.write_text(_hostile_deck(char), encoding="utf-8")
    assert main(["decks", "validate", str(path)]) == 0, "".join(capsys.readouterr())


@pytest.mark.parametrize("char", [*BIDI_CONTROLS, *HIDDEN, *MARKS], ids=lambda c: f"U+{ord(c):04X}")
def test_an_id_holds_none_of_them(char: str) -> None:
    assert first_invisible(f"card{char}1") == 4
    assert char not in quote(f"card{char}1")


def test_the_three_classes_on_the_way_out() -> None:
    text = "a\u202eb\u200bc\u200dd\u200fe\u2066f"
    assert inert(text) == "a<U+202E>b<U+200B>c\u200dd\u200fe<U+2066>f"
    assert inert(text, invisible=False) == "a<U+202E>b\u200bc\u200dd\u200fe<U+2066>f"
    assert first_control(text) == 1
    assert first_control("b\u200bc\u200dd\u200fe") is None


SIZES = [(80, 24), (100, 30)]


@pytest.mark.parametrize("size", SIZES)
def test_the_tui_shows_hidden_characters_keeps_marks_and_lists_a_refused_deck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    isolate(monkeypatch, tmp_path)
    shown_deck = (
        '[deck]\nid = "shown"\nname = "Shown"\n[[card]]\nid = "s1"\nkind = "fact"\n'
        'prompt = "zw\\u200Bsp bom\\uFEFF nj\\u200Cj ltr\\u200Emark"\nvalue = 1\n'
    )
    services = real_services(
        tmp_path,
        FakeClock(),
        only={"shown.toml": shown_deck, "trojan.toml": _hostile_deck("\u202e")},
    )
    app = RecallApp(services)
    seen: list[str] = []

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await pilot.press("b")
            await settle(app, pilot)
            assert isinstance(app.screen, DecksScreen)
            options = app.screen.query_one("#deck-list")
            ids = [options.get_option_at_index(i).id for i in range(options.option_count)]  # type: ignore[attr-defined]
            seen.append(" ".join(str(i) for i in ids))
            options.highlighted = ids.index("deck:shown")  # type: ignore[attr-defined]
            await settle(app, pilot)
            seen.append(screen_text(app))
            options.highlighted = ids.index("fail:0")  # type: ignore[attr-defined]
            await settle(app, pilot)
            seen.append(screen_text(app))

    asyncio.run(flow())
    ids, deck, failure = seen
    assert "fail:0" in ids and "deck:shown" in ids
    assert "<U+200B>" in deck and "<U+FEFF>" in deck, deck
    assert "\u200b" not in deck and "\ufeff" not in deck
    flat = re.sub(r"\s+", " ", failure)
    assert "trojan.toml" in flat and "U+202E" in flat and "\u202e" not in failure, failure


def test_the_tui_view_keeps_joiners_and_marks() -> None:
    from recall.tui.views import DeckFailure

    view = DeckFailure(path="x.toml", message="n\u200cj \u200d \u200f \u200b \u202e")
    assert view.message == "n\u200cj \u200d \u200f <U+200B> <U+202E>"


def test_an_import_cell_with_a_bidi_override_is_refused_naming_its_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "cards.csv"
    source.write_text('"front","back"\n"q","user\u202e admin"\n', encoding="utf-8")
    folder = tmp_path / "decks"
    folder.mkdir()
    assert main(["--decks", str(folder), "decks", "import", str(source), "--format", "csv"]) != 0
    output = "".join(capsys.readouterr())
    assert ":2: row 2, column 2" in output and "U+202E" in output, output
    assert list(folder.iterdir()) == []


def test_an_anki_package_with_a_bidi_override_imports_nothing(
    tmp_path: Path, isolated_recall_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.anki_packages import Card, Collection

    collection = Collection(
        notes=[(11, BASIC, ["Is the level user\u2067 admin?", "no"], "")],
        cards=[Card(note=11)],
    )
    source = package(tmp_path / "bidi.apkg", build_collection(tmp_path / "bidi.db", collection))
    assert main(["anki", "import", str(source)]) == 2
    err = capsys.readouterr().err
    assert "U+2067" in err and "\u2067" not in err, err
    assert not (isolated_recall_home / "decks").exists()


def test_a_typed_formula_with_a_bidi_override_is_refused_by_the_reader() -> None:
    from recall.errors import RecallError
    from recall.formula.parser import parse

    with pytest.raises(RecallError, match="U\\+202E"):
        parse("x\u202e^2")
