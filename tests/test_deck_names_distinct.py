"""Two decks never look alike where decks are listed: a name another loaded deck also has is
followed by the deck's id, on the home screen, in the deck browser and in ``recall decks list``.

Seen in the tryout: importing an Anki package whose deck is called "Activations" listed two
"Activations" decks (the built-in one and ``anki-activations``). The CLI half imports a real
package; the screens (Pilot at 80x24 and 100x30) load three deck files sharing a name with
each other and with a built-in deck, spelled with different case and spacing.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from textual.widgets import DataTable, OptionList

from recall.cards.deck_names import shown_deck_names
from recall.cards.model import Deck
from recall.cli import main
from recall.tui.app import RecallApp
from recall.tui.screens.decks import DecksScreen
from recall.tui.screens.home import HomeScreen
from tests.anki_packages import BASIC, Card, Collection, build_collection, package
from tests.tui_fixtures import FakeClock, isolate, real_services, settle

#: A ``recall decks list`` row: id, name, card count, file.
ROW = re.compile(r"^(\S+)\s{2,}(.+?)\s{2,}(\d+)\s{2}")


def _deck_file(deck_id: str, name: str) -> str:
    return (
        f'[deck]\nid = "{deck_id}"\nname = "{name}"\n[[card]]\nid = "c1"\nkind = "fact"\n'
        'prompt = "2+2?"\nvalue = 4\n'
    )


def test_a_shared_name_is_followed_by_the_id_and_a_unique_one_is_left_alone() -> None:
    decks = [
        Deck(id="activations", name="Activations"),
        Deck(id="anki-activations", name="activations "),
        Deck(id="losses", name="Losses"),
    ]
    assert shown_deck_names(decks) == {
        "activations": "Activations (activations)",
        "anki-activations": "activations  (anki-activations)",
        "losses": "Losses",
    }


def test_an_anki_deck_named_like_a_built_in_one_is_listed_apart(
    tmp_path: Path, isolated_recall_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    collection = Collection(
        deck_name="Activations",
        notes=[(11, BASIC, ["Sigmoid?", "because"], "")],
        cards=[Card(note=11)],
    )
    source = package(tmp_path / "a.apkg", build_collection(tmp_path / "a.db", collection))
    assert main(["anki", "import", str(source)]) == 0
    capsys.readouterr()
    assert main(["decks", "list"]) == 0
    out = capsys.readouterr().out
    rows = [ROW.match(line) for line in out.splitlines()[1:]]
    names = {row.group(1): row.group(2) for row in rows if row}
    assert names["anki-activations"] == "Activations (anki-activations)", out
    assert names["activations"] == "Activations (activations)", out
    assert len(set(names.values())) == len(names), out


SIZES = [(80, 24), (100, 30)]


@pytest.mark.parametrize("size", SIZES)
def test_the_home_screen_and_the_deck_browser_list_decks_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    isolate(monkeypatch, tmp_path)
    files = {
        "mine.toml": _deck_file("mine", "Twins"),
        "other.toml": _deck_file("other", "twins"),
        "act.toml": _deck_file("act", "Activations"),
    }
    app = RecallApp(real_services(tmp_path, FakeClock(), only=files))
    home_names: list[str] = []
    browser_names: list[str] = []

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            assert isinstance(app.screen, HomeScreen)
            table = app.screen.query_one("#decks", DataTable)
            column = 0 if app.screen.narrow else 1
            for row in range(table.row_count):
                home_names.append(str(table.get_row_at(row)[column]))
            await pilot.press("b")
            await settle(app, pilot)
            assert isinstance(app.screen, DecksScreen)
            options = app.screen.query_one("#deck-list", OptionList)
            for index in range(options.option_count):
                label = str(options.get_option_at_index(index).prompt)
                browser_names.append(label.rsplit("  ", 1)[0])  # the card count follows

    asyncio.run(flow())
    for names in (home_names, browser_names):
        assert len({name.casefold() for name in names}) == len(names), names
    for names in (home_names, browser_names):
        assert any(name.startswith("Twins (mine)") for name in names), names
        assert any(name.startswith("twins (other)") for name in names), names
