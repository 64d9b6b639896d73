"""A deck file that failed is checked once (recall.cards.failure_cache): a later start reads
its errors back instead of parsing and checking it again, an edit is checked afresh, and no
entry is trusted blindly (issue 18, item 7)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from recall.cards import failure_cache, loader, parse_cache
from recall.cards.loader import read_deck
from recall.grading import check_deck

BROKEN = """\
[deck]
id = "broken"
name = "Broken"

[[card]]
id = "fine"
kind = "fact"
prompt = "One half"
value = 0.5

[[card]]
id = "typo"
kind = "formula"
prompt = "x squared"
answer = "x^^2"
[card.symbols]
x = "real"

[[card]]
id = "undeclared"
kind = "formula"
prompt = "y doubled"
answer = "2*y"
"""


@pytest.fixture(autouse=True)
def _fresh_process_cache():
    loader._CACHE.clear()
    yield
    loader._CACHE.clear()


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    path = tmp_path / "decks" / "broken.toml"
    path.parent.mkdir()
    path.write_text(BROKEN, encoding="utf-8")
    return path


def _entries() -> list[Path]:
    folder = failure_cache.cache_dir()
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def _no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(_text: str) -> None:
        raise AssertionError("the deck file was parsed again")

    monkeypatch.setattr(loader.toml_parser, "loads", refuse)


def test_a_broken_deck_is_checked_once_and_reported_the_same(broken, monkeypatch) -> None:
    deck, first = read_deck(broken, check=check_deck)
    assert deck is None and len(first) == 2
    assert len(_entries()) == 1
    loader._CACHE.clear()
    _no_parsing(monkeypatch)
    deck, again = read_deck(broken, check=check_deck)
    assert deck is None
    assert [str(e) for e in again] == [str(e) for e in first]
    assert [(e.line, e.card_id) for e in again] == [(15, "typo"), (23, "undeclared")]


def test_the_errors_are_located_where_the_file_is_now(broken, tmp_path, monkeypatch) -> None:
    read_deck(broken, check=check_deck)
    moved = tmp_path / "elsewhere.toml"
    shutil.copy(broken, moved)
    _no_parsing(monkeypatch)
    _deck, errors = read_deck(moved, check=check_deck)
    assert errors and all(e.path == str(moved) for e in errors)


def test_an_edited_file_is_checked_afresh(broken) -> None:
    read_deck(broken, check=check_deck)
    broken.write_text(BROKEN.replace("x^^2", "x^2"), encoding="utf-8")
    loader._CACHE.clear()
    _deck, errors = read_deck(broken, check=check_deck)
    assert [e.card_id for e in errors] == ["undeclared"]
    fixed = BROKEN.replace("x^^2", "x^2") + '[card.symbols]\ny = "real"\n'
    broken.write_text(fixed, encoding="utf-8")
    loader._CACHE.clear()
    deck, errors = read_deck(broken, check=check_deck)
    assert errors == [] and deck is not None  # the cleaned deck is not held back by its past


def test_structure_only_and_checked_reads_keep_their_own_verdicts(broken) -> None:
    """The check is part of the key: a file whose engine check fails loads for structure."""
    _deck, checked = read_deck(broken, check=check_deck)
    assert checked
    loader._CACHE.clear()
    deck, errors = read_deck(broken)
    assert deck is not None and errors == []


@pytest.mark.parametrize(
    "tamper",
    [
        lambda entry: {**entry, "key": "0" * 64},
        lambda entry: {**entry, "errors": [["a message", "12", None, None]]},
        lambda entry: {**entry, "errors": [["a message", 0, None, None]]},
        lambda entry: {**entry, "errors": [[3, 1, None, None]]},
        lambda entry: {**entry, "errors": [["a message", 1, None]]},
        lambda entry: {**entry, "errors": []},
        lambda entry: [entry],
    ],
)
def test_an_entry_that_does_not_read_as_kept_is_ignored(broken, tamper) -> None:
    _deck, first = read_deck(broken, check=check_deck)
    (entry,) = _entries()
    entry.write_text(json.dumps(tamper(json.loads(entry.read_text()))), encoding="utf-8")
    loader._CACHE.clear()
    _deck, again = read_deck(broken, check=check_deck)
    assert [str(e) for e in again] == [str(e) for e in first]  # found afresh


def test_a_fifo_in_place_of_an_entry_is_passed_over(broken) -> None:
    _deck, first = read_deck(broken, check=check_deck)
    (entry,) = _entries()
    entry.unlink()
    os.mkfifo(entry)
    loader._CACHE.clear()
    _deck, again = read_deck(broken, check=check_deck)  # returns: never waits on the FIFO
    assert [str(e) for e in again] == [str(e) for e in first]


def test_nothing_is_kept_when_the_cache_is_off_or_the_check_has_no_name(
    broken, monkeypatch
) -> None:
    read_deck(broken, check=lambda built, problems: check_deck(built, problems))
    assert _entries() == []
    monkeypatch.setenv(parse_cache.DISABLE_VARIABLE, "1")
    loader._CACHE.clear()
    read_deck(broken, check=check_deck)
    assert _entries() == []
