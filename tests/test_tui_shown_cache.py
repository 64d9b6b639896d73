"""Formulas drawn once are read back by the next start, and only when nothing changed."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from recall.cards import parse_cache
from recall.cards.loader import load_deck
from recall.cards.model import Card
from recall.tui import shown_cache as module
from recall.tui.presenting import (
    SHOWN_WIDTH,
    card_view,
    remember_shown_formulas,
    render_quietly,
)
from recall.tui.shown_cache import ShownCache, shown_cache

SAMPLE = Path(__file__).parent / "fixtures" / "decks" / "sample" / "sample.toml"


@pytest.fixture
def cards() -> list[Card]:
    shown = [card for card in load_deck(SAMPLE).cards if card.shown]
    assert len(shown) >= 2
    return shown


def _fresh() -> ShownCache:
    """The cache as the next start sees it: a new object on the same folder."""
    return ShownCache(shown_cache().folder)


def test_formulas_drawn_by_the_warm_up_are_read_back_by_the_next_start(cards) -> None:
    assert remember_shown_formulas(cards) == len(cards)
    assert shown_cache().path.is_file()
    again = _fresh()
    for card in cards:
        assert again.get(card, SHOWN_WIDTH) == render_quietly(card.shown, card, width=SHOWN_WIDTH)
    # Drawn already: nothing is drawn twice.
    assert remember_shown_formulas(cards) == 0


def test_the_card_view_uses_the_formula_drawn_before(cards, monkeypatch) -> None:
    remember_shown_formulas(cards)
    monkeypatch.setattr(module, "_CACHES", {})  # a new process
    import recall.tui.presenting as presenting

    def no_engine(*args: object, **kwargs: object) -> str:
        raise AssertionError("rendered again")

    monkeypatch.setattr(presenting, "render_quietly", no_engine)
    view = card_view(cards[0])
    assert view.shown and view.shown == _fresh().get(cards[0], SHOWN_WIDTH)


def test_an_edited_card_is_drawn_again(cards) -> None:
    remember_shown_formulas(cards)
    edited = dataclasses.replace(cards[0], shown=cards[0].shown + " + 1")
    assert _fresh().get(edited, SHOWN_WIDTH) is None
    assert _fresh().get(cards[0], SHOWN_WIDTH + 1) is None  # another width, another drawing
    assert card_view(edited).shown == render_quietly(edited.shown, edited, width=SHOWN_WIDTH)


def test_a_file_written_by_other_code_is_not_trusted(cards, monkeypatch) -> None:
    remember_shown_formulas(cards)
    monkeypatch.setattr(module, "code_key", lambda: "another recall or another SymPy")
    assert _fresh().get(cards[0], SHOWN_WIDTH) is None


@pytest.mark.parametrize(
    "content",
    [
        b"not json",
        b"[]",
        b'{"code": 1}',
        b"ENTRIES NOT A MAPPING",  # written below with this code's key, so only that is wrong
    ],
)
def test_a_damaged_file_is_ignored_and_replaced(cards, content: bytes) -> None:
    if content == b"ENTRIES NOT A MAPPING":
        content = json.dumps({"code": module.code_key(), "entries": ["x"]}).encode()
    path = shown_cache().path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    assert _fresh().get(cards[0], SHOWN_WIDTH) is None
    assert remember_shown_formulas(cards) == len(cards)
    assert _fresh().get(cards[0], SHOWN_WIDTH) is not None


def test_entries_that_are_not_text_are_dropped(cards) -> None:
    remember_shown_formulas(cards)
    path = shown_cache().path
    data = json.loads(path.read_text(encoding="utf-8"))
    key = next(iter(data["entries"]))
    data["entries"][key] = {"not": "text"}
    path.write_text(json.dumps(data), encoding="utf-8")
    found = [_fresh().get(card, SHOWN_WIDTH) for card in cards]
    assert found.count(None) == 1


def test_an_oversized_file_is_not_read(cards, monkeypatch) -> None:
    remember_shown_formulas(cards)
    monkeypatch.setattr(module, "MAX_FILE_BYTES", 10)
    assert _fresh().get(cards[0], SHOWN_WIDTH) is None


def test_the_cache_can_be_turned_off(cards, monkeypatch) -> None:
    monkeypatch.setenv(parse_cache.DISABLE_VARIABLE, "1")
    assert remember_shown_formulas(cards) == 0
    assert not shown_cache().path.exists()
    assert card_view(cards[0]).shown == render_quietly(cards[0].shown, cards[0])


def test_an_unwritable_folder_only_means_no_cache(cards, tmp_path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("", encoding="utf-8")
    cache = ShownCache(blocked / "cache")
    cache.fill(cards, SHOWN_WIDTH, lambda card: "drawn")
    assert cache.save() is False
    assert cache.get(cards[0], SHOWN_WIDTH) == "drawn"  # still served from memory
