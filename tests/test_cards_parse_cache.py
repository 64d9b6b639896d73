"""The parsed-deck cache (recall.cards.parse_cache): a second start does not re-parse unchanged
deck files, and nothing it reads back is trusted blindly."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recall.cards import loader, parse_cache
from recall.cards.loader import load_decks, read_deck
from recall.grading import check_deck
from recall.paths import builtin_decks_dir

DECK = """\
[deck]
id = "mini"
name = "Mini"
topic = "Tests"

[[card]]
id = "square"
kind = "formula"
prompt = "x squared"
answer = "x^2"
tags = ["a", "b"]
[card.symbols]
x = { domain = "real", meaning = "a number" }

[[card]]
id = "half"
kind = "fact"
prompt = "One half"
value = 0.5
unit = "s"
"""


@pytest.fixture(autouse=True)
def _fresh_process_cache():
    loader._CACHE.clear()
    yield
    loader._CACHE.clear()


@pytest.fixture
def deck_file(tmp_path: Path) -> Path:
    path = tmp_path / "decks" / "mini.toml"
    path.parent.mkdir()
    path.write_text(DECK, encoding="utf-8")
    return path


def _entries() -> list[Path]:
    folder = parse_cache.cache_dir()
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def _no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(_text: str) -> None:
        raise AssertionError("the deck file was parsed again")

    monkeypatch.setattr(loader.toml_parser, "loads", refuse)


def test_every_builtin_deck_reads_back_equal() -> None:
    result = load_decks([builtin_decks_dir()])
    assert result.ok and len(result.decks) >= 17
    assert len(_entries()) == len(result.decks)
    loader._CACHE.clear()
    for deck in result.decks:
        raw = Path(deck.path).read_bytes()
        again = parse_cache.load(raw, deck.path, builtin=deck.builtin, check=None)
        assert again == deck
        assert [c.content_hash() for c in again.cards] == [c.content_hash() for c in deck.cards]
        assert [(c.path, c.line) for c in again.cards] == [(c.path, c.line) for c in deck.cards]


CHECKED: list[str] = []


def counting_check(built, problems) -> None:
    """A module-level check (so its results may be cached) that counts its runs."""
    CHECKED.append(built.deck.id)


def test_a_second_start_does_not_parse_or_check_again(deck_file, monkeypatch) -> None:
    CHECKED.clear()
    first, errors = read_deck(deck_file, check=counting_check)
    assert first is not None and not errors and CHECKED == ["mini"]
    loader._CACHE.clear()
    _no_parsing(monkeypatch)
    second, errors = read_deck(deck_file, check=counting_check)
    assert second == first and not errors
    assert CHECKED == ["mini"]  # not checked again
    assert isinstance(second.cards[1].value, float) and second.cards[0].tags == ("a", "b")


def test_the_real_engine_check_is_cached(deck_file, monkeypatch) -> None:
    first, _ = read_deck(deck_file, check=check_deck)
    loader._CACHE.clear()
    _no_parsing(monkeypatch)
    assert read_deck(deck_file, check=check_deck)[0] == first


def test_a_check_without_a_stable_name_is_never_cached(deck_file) -> None:
    runs: list[int] = []
    for _ in range(2):
        loader._CACHE.clear()
        assert read_deck(deck_file, check=lambda built, problems: runs.append(1))[0] is not None
    assert runs == [1, 1]
    assert _entries() == []


def test_an_edited_file_is_parsed_again(deck_file) -> None:
    read_deck(deck_file)
    deck_file.write_text(DECK.replace('kind = "fact"', 'kind = "nonsense"'), encoding="utf-8")
    loader._CACHE.clear()
    deck, errors = read_deck(deck_file)
    assert deck is None and errors  # the broken edit is reported, not the cached deck served


def test_an_edit_the_engine_rejects_is_checked_again(deck_file) -> None:
    read_deck(deck_file, check=check_deck)
    deck_file.write_text(DECK.replace('answer = "x^2"', 'answer = "x^^2"'), encoding="utf-8")
    loader._CACHE.clear()
    deck, errors = read_deck(deck_file, check=check_deck)
    assert deck is None and errors


def test_the_same_bytes_elsewhere_get_their_own_path(deck_file, tmp_path) -> None:
    read_deck(deck_file)
    copy = tmp_path / "elsewhere.toml"
    shutil.copy(deck_file, copy)
    deck, _ = read_deck(copy)
    assert deck is not None
    assert deck.path == str(copy) and {c.path for c in deck.cards} == {str(copy)}
    assert len(_entries()) == 1  # one entry for one content


def test_flags_are_part_of_the_key(deck_file) -> None:
    read_deck(deck_file)
    read_deck(deck_file, check=check_deck)
    assert len(_entries()) == 2


def _with_header(text: str, **changes: str) -> str:
    head, _newline, payload = text.partition("\n")
    return json.dumps({**json.loads(head), **changes}) + "\n" + payload


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text[: len(text) // 2],  # truncated
        lambda text: "not json at all",
        lambda text: _with_header(text, digest="0" * 64),  # digest mismatch
        lambda text: _with_header(text, key="someone-else"),  # renamed entry
        lambda text: "[]",
        lambda text: "[]\n" + text.partition("\n")[2],  # a header that is not an object
        lambda text: text.partition("\n")[2],  # no header line
        lambda text: text + " ",  # the payload changed after its digest
    ],
    ids=["truncated", "garbage", "digest", "key", "not-an-object", "header", "headless", "extra"],
)
def test_a_corrupt_entry_is_ignored(deck_file, monkeypatch, damage) -> None:
    fresh, _ = read_deck(deck_file)
    (entry,) = _entries()
    entry.write_text(damage(entry.read_text(encoding="utf-8")), encoding="utf-8")
    loader._CACHE.clear()
    raw = deck_file.read_bytes()
    assert parse_cache.load(raw, str(deck_file), builtin=False, check=None) is None
    again, errors = read_deck(deck_file)
    assert again == fresh and not errors


@pytest.mark.parametrize(
    "tamper",
    [
        lambda deck: deck["cards"][0].update(kind="spell"),  # not a card kind
        lambda deck: deck["cards"][0].update(prompt=42),  # not text
        lambda deck: deck["cards"][0].update(tags="a"),  # not a list
        lambda deck: deck["cards"][0].update(unknown_field=1),
        lambda deck: deck["cards"][1].update(value=True),  # a bool is not a number
        lambda deck: deck.update(cards=[{"id": "no-kind"}]),  # required fields missing
        lambda deck: deck["cards"][0].update(symbols=[{"name": ["x"]}]),
        lambda deck: deck.update(shared={"prompt": "the same"}),  # not a field shared
        lambda deck: deck.update(shared={"topic": 3}),  # a shared value of the wrong type
        lambda deck: deck.update(shared=["topic"]),
        lambda deck: deck.update(shared={}, cards=["not a card"]),
    ],
    ids=[
        "enum",
        "str",
        "tuple",
        "field",
        "bool",
        "missing",
        "nested",
        "shared-field",
        "shared-type",
        "shared-list",
        "shared-card",
    ],
)
def test_a_well_formed_entry_with_wrong_types_is_ignored(deck_file, tamper) -> None:
    fresh, _ = read_deck(deck_file)
    (entry_file,) = _entries()
    header, payload = parse_cache.split_entry(entry_file.read_bytes())
    deck = json.loads(payload)
    tamper(deck)
    forged = parse_cache.join_entry(header["key"], json.dumps(deck))  # a consistent forgery
    entry_file.write_text(forged, encoding="utf-8")
    raw = deck_file.read_bytes()
    assert parse_cache.load(raw, str(deck_file), builtin=False, check=None) is None
    loader._CACHE.clear()
    assert read_deck(deck_file)[0] == fresh


def test_an_entry_from_other_code_is_stale(deck_file, monkeypatch) -> None:
    read_deck(deck_file)
    raw = deck_file.read_bytes()
    assert parse_cache.load(raw, str(deck_file), builtin=False, check=None) is not None
    monkeypatch.setattr(parse_cache, "_code_fingerprint", lambda checked: "another recall")
    assert parse_cache.load(raw, str(deck_file), builtin=False, check=None) is None


def test_the_fingerprint_covers_the_engine_only_when_checked() -> None:
    assert parse_cache._code_fingerprint(True) != parse_cache._code_fingerprint(False)


def test_a_failed_file_is_never_cached(deck_file) -> None:
    deck_file.write_text(DECK.replace('kind = "fact"', 'kind = "nonsense"'), encoding="utf-8")
    deck, errors = read_deck(deck_file)
    assert deck is None and errors
    assert _entries() == []


def test_an_unwritable_cache_folder_only_means_no_cache(deck_file, monkeypatch, tmp_path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setattr(parse_cache, "cache_dir", lambda: blocker / "decks")
    deck, errors = read_deck(deck_file)
    assert deck is not None and not errors


def test_the_cache_can_be_turned_off(deck_file, monkeypatch) -> None:
    monkeypatch.setenv(parse_cache.DISABLE_VARIABLE, "1")
    assert read_deck(deck_file)[0] is not None
    assert _entries() == []


def test_least_recently_used_entries_are_pruned(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(parse_cache, "MAX_ENTRIES", 3)
    for i in range(5):
        path = tmp_path / f"d{i}.toml"
        path.write_text(DECK.replace('id = "mini"', f'id = "mini{i}"'), encoding="utf-8")
        assert read_deck(path)[0] is not None
    assert len(_entries()) == 3


def test_cards_read_back_share_their_decks_symbols(tmp_path, monkeypatch) -> None:
    """Decoding hands every card of a deck the same tuple of symbols (a deck's symbols reach
    every card), equal to what was parsed; a card with other symbols gets its own."""
    monkeypatch.setenv("RECALL_HOME", str(tmp_path / "home"))
    file = tmp_path / "shared.toml"
    cards = "\n".join(
        f'[[card]]\nid = "c{i}"\nkind = "formula"\nprompt = "p{i}"\nanswer = "x + {i}"\n'
        for i in range(3)
    )
    own = '[[card]]\nid = "own"\nkind = "formula"\nprompt = "q"\nanswer = "y"\n'
    own += '[card.symbols]\ny = "positive"\n'
    file.write_text(
        '[deck]\nid = "shared"\nname = "S"\n[deck.symbols]\nx = "real"\n\n' + cards + own,
        encoding="utf-8",
    )
    parsed, _ = read_deck(file)
    loader._CACHE.clear()
    again, _ = read_deck(file)
    assert parsed is not None and again is not None and again == parsed
    symbols = [card.symbols for card in again.cards]
    assert symbols[0] is symbols[1] is symbols[2]
    assert symbols[3] is not symbols[0] and [s.name for s in symbols[3]] == ["x", "y"]
    assert [c.content_hash() for c in again.cards] == [c.content_hash() for c in parsed.cards]


def test_values_most_cards_share_are_written_once_and_read_back_into_each_card(
    tmp_path, monkeypatch
) -> None:
    """The symbols most cards have, the deck's id and its topic are written once (``shared``),
    not per card; a card with other symbols keeps its own, and one with none keeps its empty
    list (``shared`` must not fill it in): every card reads back equal, content hash included."""
    monkeypatch.setenv("RECALL_HOME", str(tmp_path / "home"))
    file = tmp_path / "shared.toml"
    cards = "\n".join(
        f'[[card]]\nid = "c{i}"\nkind = "formula"\nprompt = "p{i}"\nanswer = "x + {i}"\n'
        '[card.symbols]\nx = { domain = "positive", meaning = "a scale" }\n'
        for i in range(4)
    )
    own = '[[card]]\nid = "own"\nkind = "formula"\nprompt = "q"\nanswer = "y"\n'
    own += '[card.symbols]\ny = "positive"\n'
    fact = '[[card]]\nid = "fact"\nkind = "fact"\nprompt = "r"\nvalue = 2\n'
    file.write_text(
        '[deck]\nid = "shared"\nname = "S"\ntopic = "T"\n\n' + cards + own + fact,
        encoding="utf-8",
    )
    parsed, errors = read_deck(file)
    assert parsed is not None, errors
    (entry_file,) = _entries()
    _header, payload = parse_cache.split_entry(entry_file.read_bytes())
    data = json.loads(payload)
    assert data["shared"]["deck_id"] == "shared" and data["shared"]["topic"] == "T"
    assert [s["name"] for s in data["shared"]["symbols"]] == ["x"]
    assert payload.count(b'"a scale"') == 1  # once, not once per card
    assert not any("deck_id" in card or "topic" in card for card in data["cards"])
    by_id = {card["id"]: card for card in data["cards"]}
    assert by_id["fact"]["symbols"] == [] and "symbols" not in by_id["c0"]
    loader._CACHE.clear()
    again, _ = read_deck(file)
    assert again == parsed
    assert [c.content_hash() for c in again.cards] == [c.content_hash() for c in parsed.cards]
    read = {card.id: card for card in again.cards}
    assert read["fact"].symbols == () and [s.name for s in read["own"].symbols] == ["y"]
    assert read["c0"].symbols is read["c3"].symbols and read["c0"].symbols[0].meaning == "a scale"


def test_a_decoded_card_is_the_card_its_constructor_makes() -> None:
    """Decoding fills a frozen card's fields at once (no ``__init__`` per field): the result is
    what ``Card(**values)`` makes, equal and hashing alike, with a fresh ``extra`` each time,
    and a missing or unknown field is refused as before."""
    from recall.cards.model import Card, CardKind, SymbolSpec

    values = {
        "deck_id": "d",
        "id": "c",
        "kind": CardKind.FORMULA,
        "prompt": "p",
        "answer": "x",
        "symbols": (SymbolSpec("x", "positive", "a scale"),),
        "tags": ("t",),
        "line": 7,
        "value": 2,
    }
    build = parse_cache._builder(Card)
    made, again = build(dict(values)), build(dict(values))
    expected = Card(**values)
    assert made == expected and hash(made) == hash(expected)
    assert made.content_hash() == expected.content_hash()
    assert vars(made) == vars(expected)
    assert made.extra == {} and made.extra is not again.extra
    with pytest.raises(parse_cache._Invalid):
        build({k: v for k, v in values.items() if k != "kind"})
    with pytest.raises(parse_cache._Invalid):
        build({**values, "colour": "red"})
    decode = parse_cache._decoder(Card)
    for wrong in ({"line": "7"}, {"prompt": 42}, {"accept": "a"}, {"line": True}):
        with pytest.raises(parse_cache._Invalid):
            decode({"deck_id": "d", "id": "c", "kind": "formula", "prompt": "p", **wrong}, "f")
