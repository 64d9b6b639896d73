"""Fault suite, deck files (issue 10, items 3, 4 and 5), through ``recall`` in a child process.

One hostile or broken deck file is that file's error, with its line where there is one, and
every other deck still loads; files are bounded (bytes, nesting, dotted-key parts, cards) before
``tomllib`` reads them; ids and names are refused when longer than the database columns hold,
so a deck that validates can be stored on PostgreSQL too.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from recall.cards import schema
from tests.fault_helpers import run_recall

SAMPLE = Path(__file__).parent / "fixtures" / "decks" / "sample" / "sample.toml"

HEADER = '[deck]\nid = "{id}"\nname = "{name}"\n'
FACT = '[[card]]\nid = "{id}"\nkind = "fact"\nprompt = "How many?"\nvalue = 16\n'
NUMERIC = (
    '[[card]]\nid = "n"\nkind = "numeric"\nprompt = "Twice {{N}}?"\nanswer = "2*N"\n'
    "[card.params]\nN = {{ low = 1, high = 10, {spec} }}\n"
)


def _hostile_decks(folder: Path) -> dict[str, str]:
    """Write one good deck and a bad file of every kind; returns file name -> expected text."""
    folder.mkdir()
    shutil.copy(SAMPLE, folder / "sample.toml")
    expected: dict[str, str] = {}

    def deck(name: str, text: str, says: str) -> None:
        (folder / name).write_text(text, encoding="utf-8")
        expected[name] = says

    deck(
        "deep-tags.toml",
        HEADER.format(id="deep", name="D") + "tags = " + "[" * 5000 + "]" * 5000 + "\n",
        ":4: arrays and tables are nested more than 16 deep",
    )
    deck(
        "tiny-step.toml",
        HEADER.format(id="tiny", name="T") + NUMERIC.format(spec="step = 1e-300"),
        "has a step of 1e-300",
    )
    deck(
        "huge-range.toml",
        HEADER.format(id="huge", name="H")
        + NUMERIC.format(spec="sigfigs = 3").replace("high = 10", "high = 1e308"),
        "numbers must be finite and at most 1e+300",
    )
    deck(
        "dotted.toml",
        HEADER.format(id="dotted", name="D") + "a" + ".b" * 20_000 + " = 1\n",
        ":4: a key has more than 8 dotted parts",
    )
    deck(
        "many-cards.toml",
        HEADER.format(id="many", name="M")
        + "".join(FACT.format(id=f"c{i}") for i in range(schema.MAX_CARDS + 1)),
        f"the deck has {schema.MAX_CARDS + 1} cards; the most in one file is {schema.MAX_CARDS}",
    )
    deck(
        "long-deck-id.toml",
        HEADER.format(id="d" * 101, name="L") + FACT.format(id="c"),
        ":2: deck id is 101 characters long; the most is 100",
    )
    deck(
        "long-card-id.toml",
        HEADER.format(id="longcard", name="L") + FACT.format(id="c" * 101),
        ":5: card 'cccc",
    )
    deck(
        "long-name.toml",
        HEADER.format(id="longname", name="n" * 201) + FACT.format(id="c"),
        ":3: the deck name is 201 characters long; the most is 200",
    )
    deck(
        "big-int.toml",  # tomllib raises a plain ValueError for this one
        HEADER.format(id="bigint", name="B") + "x = 1" + "0" * 5000 + "\n",
        "the file could not be read (ValueError",
    )
    # A huge sparse file: 4 GiB long, no disk used; it must be refused unread.
    with open(folder / "sparse.toml", "wb") as sparse:
        sparse.truncate(4 << 30)
    expected["sparse.toml"] = "the file is larger than 1 MiB, the limit for a deck file"
    return expected


def test_every_bad_deck_file_is_its_own_error_and_the_rest_load(tmp_path: Path) -> None:
    folder = tmp_path / "decks"
    expected = _hostile_decks(folder)
    done = run_recall(["--decks", str(folder), "decks", "list", "--json"], tmp_path / "home")
    assert done.returncode == 0, done.stderr
    listing = json.loads(done.stdout)
    assert "sample" in {deck["id"] for deck in listing["decks"]}
    failures = {Path(f["path"]).name: "\n".join(f["errors"]) for f in listing["failures"]}
    assert set(failures) == set(expected)
    for name, says in expected.items():
        assert says in failures[name], (name, failures[name])
        assert failures[name].startswith(str(folder / name)), failures[name]
    assert "Traceback" not in done.stderr


def test_validate_refuses_what_the_database_cannot_hold(tmp_path: Path) -> None:
    limit = schema.MAX_ID
    ok, too_long = tmp_path / "ok.toml", tmp_path / "too-long.toml"
    ok.write_text(HEADER.format(id="d" * limit, name="n" * 200) + FACT.format(id="c" * limit))
    too_long.write_text(HEADER.format(id="d" * (limit + 1), name="N") + FACT.format(id="c"))
    assert run_recall(["decks", "validate", str(ok)], tmp_path / "home").returncode == 0
    done = run_recall(["decks", "validate", str(too_long)], tmp_path / "home")
    assert done.returncode == 1
    assert f"the most is {limit}" in done.stdout


def test_decks_new_never_writes_a_deck_the_database_cannot_hold(tmp_path: Path) -> None:
    home = tmp_path / "home"
    done = run_recall(["decks", "new", "x" * 400], home)
    assert done.returncode == 2
    assert "the most is 200" in done.stderr
    assert not list((home / "decks").glob("*.toml")) if (home / "decks").exists() else True
    made = run_recall(["decks", "new", "word " * 40], home)  # 200 characters: fits
    assert made.returncode == 0, made.stderr
    (written,) = (home / "decks").glob("*.toml")
    assert len(written.stem) <= schema.MAX_ID
    assert run_recall(["decks", "validate", str(written)], home).returncode == 0


def test_the_limits_are_the_database_columns() -> None:
    """The validator's limits are exactly the schema's column lengths (on every backend)."""
    from recall.store.models import CardRow, DeckRow

    assert DeckRow.__table__.c.slug.type.length == schema.MAX_ID
    assert CardRow.__table__.c.key.type.length == schema.MAX_ID
    assert CardRow.__table__.c.sibling_group.type.length == schema.MAX_ID
    assert DeckRow.__table__.c.name.type.length == schema.MAX_NAME
    assert DeckRow.__table__.c.topic.type.length == schema.MAX_NAME
