"""The TOML reader (:mod:`recall.toml_parser`): the compiled ``tomli`` when installed, and the
same results as stdlib ``tomllib`` on everything recall reads, including what either refuses."""

from __future__ import annotations

import tomllib

import pytest

from recall import toml_parser
from recall.paths import builtin_decks_dir

tomli = pytest.importorskip("tomli")  # a declared dependency: present wherever recall installs

#: Text where the two could differ: TOML 1.1 forms (newlines in inline tables, ``\e`` and
#: ``\x`` escapes, times without seconds), which tomli 2.4 reads and tomllib 3.11 refuses; the
#: usual mistakes of a deck's author; values at the edges of the types.
CASES = [
    "a = {x = 1,\n y = 2}\n",
    'a = "\\e"\n',
    'a = "\\x41"\n',
    "a = 07:32\n",
    "a = 1979-05-27 07:32\n",
    'a = "unclosed\n',
    "a = 1\na = 2\n",
    "[x]\n[x]\n",
    "a = [1,\n",
    "b = 01\n",
    "x = 1" + "0" * 5000 + "\n",
    "x = 9223372036854775808\n",
    "x = 1e400\n",
    "x = nan\ny = -inf\n",
    "x = 0x_1\n",
    'k."a b".c = 1\n',
    "[[card]]\nid = 'a'\n[card.symbols]\nx = 'real'\n[[card]]\nid = 'b'\n",
    "a = '''\nline\n'''\n",
    'a = """\\\n  folded"""\n',
    'a = "\u0007"\n',
    "a = 'tab\there'\n",
    "\ufeffa = 1\n",
]


def _read(loads: object, text: str) -> tuple[str, object]:
    try:
        return "ok", repr(loads(text))  # type: ignore[operator]  # repr: nan is not nan
    except tomllib.TOMLDecodeError as error:
        return "error", str(error)
    except tomli.TOMLDecodeError as error:
        return "error", str(error)
    except ValueError as error:
        return type(error).__name__, str(error)


def test_the_compiled_parser_is_the_one_in_use() -> None:
    assert toml_parser.loads is tomli.loads
    assert toml_parser.parser_name() == "tomli"


@pytest.mark.parametrize("text", CASES)
def test_both_parsers_read_and_refuse_alike(text: str) -> None:
    assert _read(tomli.loads, text) == _read(tomllib.loads, text)


def test_both_parsers_read_every_builtin_deck_alike() -> None:
    files = sorted(builtin_decks_dir().glob("*.toml"))
    assert files
    for file in files:
        text = file.read_text(encoding="utf-8")
        assert tomli.loads(text) == tomllib.loads(text), file.name
