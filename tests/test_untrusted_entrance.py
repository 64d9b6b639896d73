"""Issue 17, items 1 and 3: text recall did not write is refused where it enters.

Deck files (every string field and key), imports (CSV, Anki text, Quizlet) and config values may
not hold a C0 control other than newline and tab, DEL or a C1 control; ids may not hold bidi or
zero-width characters either. Each refusal names the file, the line (or the row and column) and
the field, and quotes nothing raw. All through ``recall.cli.main``, the real entry point.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from recall.cli import main

_RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")

ESC_TITLE = "\\u001b]0;TITLE\\u0007"  # TOML escapes: the parsed value holds ESC and BEL
CLIPBOARD = "\\u001b]52;c;cHduZWQ=\\u0007"


def _deck(folder: Path, body: str, name: str = "hostile.toml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(body, encoding="utf-8")
    return path


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    both = out + err
    assert not _RAW_CONTROL.search(both), repr(both)
    return status, both


_CLEAN_CARD = '[[card]]\nid = "c1"\nkind = "fact"\nprompt = "2+2?"\nvalue = 4\n'


@pytest.mark.parametrize(
    ("body", "line", "field"),
    [
        (f'[deck]\nid = "d"\nname = "n {ESC_TITLE}"\n{_CLEAN_CARD}', 3, "deck.name"),
        (
            f'[deck]\nid = "d"\nname = "n"\ndescription = "x {CLIPBOARD}"\n{_CLEAN_CARD}',
            4,
            "deck.description",
        ),
        (
            '[deck]\nid = "d"\nname = "n"\n[[card]]\nid = "c1"\nkind = "fact"\n'
            'prompt = "2+2? \\u001b[2J"\nvalue = 4\n',
            7,
            "prompt",
        ),
        (
            '[deck]\nid = "d"\nname = "n"\n[[card]]\nid = "c1"\nkind = "fact"\nprompt = "p"\n'
            'hint = "h\\u009b31m"\nvalue = 4\n',
            8,
            "hint",
        ),
        (
            '[deck]\nid = "d"\nname = "n"\n[deck.symbols]\nx = { domain = "real", '
            f'meaning = "m {ESC_TITLE}" }}\n{_CLEAN_CARD}',
            5,
            "deck.symbols.x.meaning",
        ),
        (
            '[deck]\nid = "d"\nname = "n"\n[[card]]\nid = "r1"\nkind = "reverse"\n'
            'prompt = "which?"\nshown = "x"\naccept = ["ok", "a\\u0000b"]\n',
            9,
            "accept.1",
        ),
        (
            '[deck]\nid = "d"\nname = "n"\n[[card]]\nid = "c1"\nkind = "fact"\nprompt = "p"\n'
            'value = 4\ntags = ["fine", "ta\\u200bg"]\n',
            9,
            "tags.1",
        ),
        (f'[deck]\nid = "d\\u202e"\nname = "n"\n{_CLEAN_CARD}', 2, "deck.id"),
        (f'[deck]\nid = "d\\n"\nname = "n"\n{_CLEAN_CARD}', 2, "deck.id"),
        (
            '[deck]\nid = "d"\nname = "n"\n[[card]]\nid = "c\\u200d1"\nkind = "fact"\n'
            'prompt = "p"\nvalue = 4\n',
            5,
            "id",
        ),
        (
            '[deck]\nid = "d"\nname = "n"\n[deck.symbols]\n"x\\u2066" = "real"\n' + _CLEAN_CARD,
            5,
            "deck.symbols.x<U+2066>",
        ),
    ],
)
def test_a_deck_with_a_control_or_invisible_character_is_refused_with_line_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, line: int, field: str
) -> None:
    path = _deck(tmp_path / "decks", body)
    status, output = _run(capsys, "decks", "validate", str(path))
    assert status != 0
    assert f"{path}:{line}:" in output
    assert f"'{field}'" in output
    assert "U+" in output


def test_a_refused_deck_is_listed_shown_and_validated_without_an_escape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The before-stop check: decks list, decks show and decks validate of a deck holding
    escapes write no ESC byte (the deck is refused, and the refusal is inert)."""
    folder = tmp_path / "decks"
    _deck(
        folder,
        f'[deck]\nid = "esc"\nname = "esc \\u001b[31mred"\n[[card]]\nid = "c\\u001b]0;x\\u0007"\n'
        f'kind = "fact"\nprompt = "2+2? {ESC_TITLE} \\u001b[2J"\nvalue = 4\n',
        "esc.toml",
    )
    for argv in (["decks", "list"], ["decks", "show", "esc"], ["decks", "validate"]):
        _, output = _run(capsys, "--decks", str(folder), *argv)
        assert "\x1b" not in output
        assert "esc.toml" in output


@pytest.mark.parametrize(
    ("name", "text", "where"),
    [
        ("plain.csv", '"front","back"\n"q","a\x1b]52;c;cHduZWQ=\x07"\n', ":2: row 2, column 2"),
        ("tabs.tsv", '"q"\t"ok"\n"x\x00y"\t"b"\n', ":2: row 2, column 1"),
        (
            "anki.txt",
            "#separator:tab\n#html:false\nfront\tback\nq\x9dx\ta\n",
            ":4: row 2, column 1",
        ),
        ("multi.csv", '"a\nb","c"\n"d","e\x07"\n', ":3: row 2, column 2"),
        # (a first row "term<TAB>definition" would name the columns: a plain card here)
        ("quizlet.txt", "word\tmeaning\nq\tan\x1b[2Jswer\n", "card 2: its back"),
        ("header.txt", "#separator:tab\n#columns:front\x1b]0;T\x07\tback\nq\ta\n", ":2:"),
    ],
)
def test_an_import_with_a_control_character_is_refused_naming_its_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, where: str
) -> None:
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    folder = tmp_path / "decks"
    folder.mkdir()
    fmt = ["--format", "csv"] if name.endswith((".csv", ".tsv")) else []
    status, output = _run(capsys, "--decks", str(folder), "decks", "import", str(source), *fmt)
    assert status != 0
    assert f"{source}" in output and where in output, output
    assert "U+" in output
    assert list(folder.iterdir()) == []  # nothing was written


def test_an_import_with_windows_line_ends_is_still_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "crlf.csv"
    # Two cards (a first row "front","back" would name the columns, not be a card).
    source.write_bytes(b'"first","card"\r\n"two words","a\r\nb"\r\n')
    (tmp_path / "decks").mkdir()
    status, output = _run(
        capsys,
        "--decks",
        str(tmp_path / "decks"),
        "decks",
        "import",
        str(source),
        "--format",
        "csv",
    )
    assert status == 0, output
    assert "imported 2 cards" in output


def test_a_file_name_with_an_escape_becomes_inert_deck_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "deck\x1b]0;T\x07.csv"
    source.write_text('"front","back"\n"q","an answer"\n', encoding="utf-8")
    folder = tmp_path / "decks"
    folder.mkdir()
    status, output = _run(
        capsys, "--decks", str(folder), "decks", "import", str(source), "--format", "csv"
    )
    assert status == 0, output
    written = "".join(p.read_text(encoding="utf-8") for p in folder.iterdir())
    assert "\x1b" not in written and "\\u001b" not in written


@pytest.mark.parametrize(
    ("config", "setting", "line"),
    [
        ('theme = "dark\\u001b]0;T\\u0007"\n', "theme", 1),
        ('new_per_day = 5\n[keys]\n"drill.hint" = "f3\\u0007"\n', "keys.drill.hint", 2),
        ('[keys]\n"drill\\u009b" = "f3"\n', "keys", 1),
    ],
)
def test_a_config_value_with_a_control_character_is_refused_with_its_line(
    isolated_recall_home: Path,
    capsys: pytest.CaptureFixture[str],
    config: str,
    setting: str,
    line: int,
) -> None:
    isolated_recall_home.mkdir(parents=True, exist_ok=True)
    path = isolated_recall_home / "config.toml"
    path.write_text(config, encoding="utf-8")
    status, output = _run(capsys, "config")
    assert status != 0
    assert f"{path}:{line}: the setting '{setting}' holds U+" in output, output


def test_a_json_deck_export_with_a_control_character_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    status, exported = _run(capsys, "decks", "export", "losses", "--format", "json")
    assert status == 0
    data = json.loads(exported)
    data["cards"][0]["prompt"] += " \x1b]52;c;cHduZWQ=\x07"
    source = tmp_path / "losses.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    folder = tmp_path / "decks"
    folder.mkdir()
    status, output = _run(
        capsys, "--decks", str(folder), "decks", "import", str(source), "--id", "mine"
    )
    assert status != 0
    assert "'prompt' holds U+001B (ESC)" in output
    assert list(folder.iterdir()) == []  # nothing was written
