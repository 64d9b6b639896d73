"""Issue 17's fault suite over the command line: hostile text in, nothing a terminal obeys out.

Hypothesis builds strings from every C0 and C1 control, DEL, ESC sequences (CSI, OSC 0/8/52,
DCS), bidi controls and zero-width characters, mixed with ordinary text, and feeds them through
the real entry point (``recall.cli.main``, in this process) as deck fields, ids, symbol names,
import cells, typed answers, config values and command-line arguments. Whatever recall accepts,
refuses or reports, what reaches stdout and stderr holds no control character but newline and
tab, and (on a terminal) no bidi control or hidden character either.

The TUI's half is ``tests/test_untrusted_tui.py`` (a real pty).
"""

from __future__ import annotations

import io
import re
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recall.cli import main
from recall.toml_text import toml_key, toml_string

#: What may never reach a terminal: C0 but newline and tab, DEL, C1; bidi controls and hidden
#: characters (zero-width space, word joiner, BOM, line separators). Joiners and direction marks
#: (U+200C to U+200F, U+061C) are text a right-to-left or joining script needs (recall.inert).
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u2028\u2029]"
)

_CONTROLS = [chr(code) for code in [*range(0x20), 0x7F, *range(0x80, 0xA0)]]
_SEQUENCES = [
    "\x1b[2J\x1b[H",  # CSI: clear the screen
    "\x1b[31m",
    "\x1b]0;TITLE\x07",  # OSC 0: the window title
    "\x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\",  # OSC 8: a hyperlink
    "\x1b]52;c;cHduZWQ=\x07",  # OSC 52: the clipboard
    "\x1bP+q544e\x1b\\",  # DCS
    "\x9b2J",  # C1 CSI
    "\x9d0;T\x9c",  # C1 OSC ... ST
]
_INVISIBLE = ["\u202e", "\u202a", "\u2066", "\u2069", "\u200b", "\u200d", "\u2060", "\ufeff"]
_PIECES = st.one_of(
    st.sampled_from(_CONTROLS),
    st.sampled_from(_SEQUENCES),
    st.sampled_from(_INVISIBLE),
    st.text(alphabet="abc xyz[]=/.:@-_", max_size=6),
)
HOSTILE = st.lists(_PIECES, min_size=1, max_size=6).map("".join)

_SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


class _Terminal(io.StringIO):
    """Captured output that says it is a terminal (so bidi marks are made visible too)."""

    def isatty(self) -> bool:
        return True


def _recall(*argv: str) -> str:
    """Run ``recall ARGV`` in this process; what it wrote to stdout and stderr, checked."""
    out, err = _Terminal(), _Terminal()
    with redirect_stdout(out), redirect_stderr(err):  # type: ignore[type-var]
        try:
            main(list(argv))
        except SystemExit:  # argparse refusing an argument
            pass
    written = out.getvalue() + err.getvalue()
    found = _UNSAFE.search(written)
    assert found is None, (argv, repr(written[max(0, found.start() - 60) : found.end() + 20]))
    return written


def _deck_text(field: str, value: str) -> str:
    """A deck file whose ``field`` holds ``value`` (TOML-escaped), everything else valid."""
    deck = {"id": '"hostile"', "name": '"Hostile"', "description": '"d"'}
    card = {"id": '"c1"', "kind": '"reverse"', "prompt": '"p"', "shown": '"x"', "hint": '"h"'}
    card_extra = 'accept = ["ok"]\ntags = ["t"]\n'
    symbol_name, symbol_meaning = "x", '"m"'
    quoted = toml_string(value, multiline=False)
    if field.startswith("deck."):
        deck[field[5:]] = quoted
    elif field == "accept":
        card_extra = f'accept = ["ok", {quoted}]\ntags = ["t"]\n'
    elif field == "tag":
        card_extra = f'accept = ["ok"]\ntags = [{quoted}]\n'
    elif field == "symbol":
        symbol_name = toml_key(value)
    elif field == "meaning":
        symbol_meaning = quoted
    else:
        card[field] = quoted
    header = "\n".join(f"{key} = {text}" for key, text in deck.items())
    body = "\n".join(f"{key} = {text}" for key, text in card.items())
    return (
        f"[deck]\n{header}\n[deck.symbols]\n{symbol_name} = "
        f'{{ domain = "real", meaning = {symbol_meaning} }}\n'
        f"[[card]]\n{body}\n{card_extra}"
    )


_FIELDS = st.sampled_from(
    ["deck.id", "deck.name", "deck.description", "id", "prompt", "shown", "hint", "accept"]
    + ["tag", "symbol", "meaning"]
)


@_SETTINGS
@given(field=_FIELDS, value=HOSTILE)
def test_a_hostile_deck_field_is_never_written_raw(field: str, value: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "hostile.toml"
        path.write_text(_deck_text(field, value), encoding="utf-8")
        output = _recall("decks", "validate", str(path))
        _recall("decks", "show", str(path))
        _recall("decks", "export", str(path), "--format", "csv")
        _recall("--decks", folder, "decks", "show", "hostile")
        _recall("--decks", folder, "decks", "show", "--rendered", "hostile")
        _recall("--decks", folder, "decks", "list")
        _recall("--decks", folder, "today")
        if "error" in output and any(ch in value for ch in _CONTROLS if ch not in "\n\t"):
            assert "U+" in output  # the refusal names the character, never shows it


@_SETTINGS
@given(front=HOSTILE, back=HOSTILE, fmt=st.sampled_from(["csv", "anki", "quizlet", "auto"]))
def test_a_hostile_import_is_never_written_raw(front: str, back: str, fmt: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "cards.txt"
        quoted = ",".join('"' + cell.replace('"', '""') + '"' for cell in (front, back))
        header = "#separator:comma\n" if fmt == "anki" else ""
        source.write_text(f'{header}"front","back"\n{quoted}\n', encoding="utf-8")
        decks = Path(folder) / "decks"
        decks.mkdir()
        output = _recall("--decks", str(decks), "decks", "import", str(source), "--format", fmt)
        # the import ran, or was refused naming the file (two empty cells: "no cards to import")
        assert "imported" in output or source.name in output
        for written in decks.glob("*.toml"):
            _recall("decks", "show", str(written))


@_SETTINGS
@given(value=HOSTILE)
def test_hostile_arguments_and_answers_are_never_echoed_raw(value: str) -> None:
    _recall("check", "x + 1", value)
    _recall("check", "--json", value, "x")
    _recall("check", "--card", f"losses/{value}", "x")
    _recall("decks", "show", value)
    _recall("config", "theme", value)
    _recall("config", value)
    _recall("--db", value, "stats")
    _recall("drill", "--minutes", value)
    _recall(value)


@_SETTINGS
@given(value=HOSTILE, where=st.sampled_from(["value", "key", "binding"]))
def test_a_hostile_config_file_is_never_echoed_raw(
    isolated_recall_home: Path, value: str, where: str
) -> None:
    isolated_recall_home.mkdir(parents=True, exist_ok=True)
    quoted = toml_string(value, multiline=False)
    text = {
        "value": f"theme = {quoted}\n",
        "key": f"{toml_key(value)} = 1\n",
        "binding": f'[keys]\n"drill.hint" = {quoted}\n',
    }[where]
    (isolated_recall_home / "config.toml").write_text(text, encoding="utf-8")
    _recall("config")
    _recall("stats")


@pytest.mark.parametrize("name", ["\x1b]0;TITLE\x07.toml", "\u202eevil.toml", "a\x9bb.toml"])
def test_a_hostile_deck_file_name_is_never_written_raw(tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_text(
        '[deck]\nid = "d"\nname = "n"\n[[card]]\nid = "c1"\nkind = "fact"\n'
        'prompt = "p"\nvalue = 4\nbad_key = 1\n',
        encoding="utf-8",
    )
    output = _recall("--decks", str(tmp_path), "decks", "validate")
    assert "bad_key" in output
    _recall("--decks", str(tmp_path), "decks", "list")
