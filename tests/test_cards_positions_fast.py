"""The position scanner's string stripping, made faster (regular expressions instead of a loop
over characters; a first start runs it over every line of every deck), gives exactly what the
character loop gave: the loop is kept here as the oracle, and Hypothesis writes lines from the
characters that matter (quotes, backslashes, comment marks, brackets)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from recall.cards import positions
from recall.cards.positions import scan
from recall.paths import builtin_decks_dir


def _oracle_strip(line: str) -> tuple[str, str | None]:
    out: list[str] = []
    i = 0
    while i < len(line):
        ch = line[i]
        if ch == "#":
            break
        if line.startswith('"""', i) or line.startswith("'''", i):
            delim = line[i : i + 3]
            end = _oracle_close(line, i + 3, delim)
            if end is None:
                return "".join(out), delim
            out.append('""')
            i = end
            continue
        if ch in "\"'":
            j = i + 1
            while j < len(line) and line[j] != ch:
                j += 2 if (ch == '"' and line[j] == "\\") else 1
            out.append('""')
            i = j + 1
            continue
        out.append(ch)
        i += 1
    return "".join(out), None


def _oracle_close(line: str, start: int, delim: str) -> int | None:
    i = start
    while i < len(line):
        if delim == '"""' and line[i] == "\\":
            i += 2
            continue
        if line.startswith(delim, i):
            end = i + 3
            while end < len(line) and line[end] == delim[0] and end - i < 5:
                end += 1
            return end
        i += 1
    return None


LINES = st.text(alphabet=st.sampled_from(list("\"'\\#[]{},= ab\tx\u00e9")), max_size=40)


@settings(max_examples=400, deadline=None)
@given(LINES)
def test_stripping_agrees_with_the_character_loop(line: str) -> None:
    assert positions._strip_strings(line) == _oracle_strip(line)


@settings(max_examples=400, deadline=None)
@given(LINES, st.integers(min_value=0, max_value=40), st.sampled_from(['"""', "'''"]))
def test_finding_a_close_agrees_with_the_character_loop(line: str, start: int, delim: str) -> None:
    assert positions._find_close(line, start, delim) == _oracle_close(line, start, delim)


def test_every_line_of_the_builtin_decks_agrees() -> None:
    files = sorted(Path(builtin_decks_dir()).glob("*.toml"))
    assert len(files) >= 17
    for file in files:
        for line in file.read_text(encoding="utf-8").splitlines():
            assert positions._strip_strings(line) == _oracle_strip(line), (file.name, line)
            for delim in ('"""', "'''"):
                assert positions._find_close(line, 0, delim) == _oracle_close(line, 0, delim)


def _oracle_split(text: str) -> list[str]:
    parts: list[str] = []
    for match in positions._KEY_SPLIT.finditer(text):
        raw = match.group(1)
        if raw[:1] == '"' and "\\" in raw:
            raw = positions._decoded_key(raw)
        elif raw[:1] in "\"'":
            raw = raw[1:-1]
        parts.append(raw)
    return parts


def _oracle_scan(text: str) -> positions.Positions:
    """The scanner as it was: every line's strings stripped by the character loop."""
    found = positions.Positions()
    table: tuple[object, ...] = ()
    open_string: str | None = None
    array_path: tuple[object, ...] | None = None
    array = positions._ArrayReader(())
    for number, line in enumerate(text.splitlines(), start=1):
        if open_string is not None:
            end = _oracle_close(line, 0, open_string)
            if end is None:
                continue
            open_string = None
            line = line[end:]
            if array_path is None:
                continue
        if array_path is not None:
            stripped, open_string = _oracle_strip(line)
            if array.feed(stripped, number, found):
                array_path = None
            continue
        header = positions._HEADER.match(line)
        if header and not positions._KEY_LINE.match(line):
            names = _oracle_split(header.group("name"))
            is_array = header.group(1) == "[[" and header.group(3) == "]]"
            table = positions._table_path(found, names, is_array)
            found.lines.setdefault(table, number)
            continue
        key_line = positions._KEY_LINE.match(line)
        if key_line:
            path = (*table, *_oracle_split(key_line.group("key")))
            found.lines.setdefault(path, number)
            stripped, open_string = _oracle_strip(key_line.group("rest"))
            value = stripped.strip()
            if value.startswith("["):
                array = positions._ArrayReader(path)
                if not array.feed(value, number, found):
                    array_path = path
            continue
        if open_string is None:
            _, open_string = _oracle_strip(line)
    return found


DECKISH = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "[deck]",
                "[[card]]",
                "[card.params]",
                "[[card.identities]]",
                '["q.k"]',
                "x = [",
                "]",
                'a = """',
                '"""',
                "b = '''",
                "'''",
                'c."d.e" = 1',
                "k = { a = \"[\", b = ']' }",
                '  "x", [1, 2],',
                "# [[card]]",
            ]
        ),
        LINES,
        st.builds(lambda k, v: f"{k} = {v}", st.from_regex(r"[a-z_]{1,6}", fullmatch=True), LINES),
    ),
    max_size=30,
).map("\n".join)


@settings(max_examples=300, deadline=None)
@given(DECKISH)
def test_whole_scans_agree_with_the_character_loop(text: str) -> None:
    assert scan(text) == _oracle_scan(text)


def test_every_builtin_deck_scans_as_before() -> None:
    for file in sorted(Path(builtin_decks_dir()).glob("*.toml")):
        text = file.read_text(encoding="utf-8")
        assert scan(text) == _oracle_scan(text), file.name


def test_a_deck_with_every_kind_of_string_keeps_its_lines() -> None:
    text = (
        '[deck]\nid = "x" # a "comment"\n[[card]]\nid = "a\\"b" # [[card]]\n'
        'answer = \'\'\'\n[[card]]\n\'\'\'\nprompt = """one \\""" still\n[[card]]\n"""""\n'
        '[[card]]\nid = \'c\'\nlist = [\n  "x]", \'y[\',\n  """z\n]""",\n  "w",\n]\n'
    )
    found = scan(text)
    assert found.card_count == 2
    assert found.card_line(0) == 3 and found.card_line(1) == 11  # line 6 and 9 are in strings
    assert found.line("card", 0, "prompt") == 8
    assert found.line("card", 1, "list", 0) == 14
    assert found == _oracle_scan(text)
