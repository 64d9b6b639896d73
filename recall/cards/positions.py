"""Line numbers for a deck file's tables and keys.

``tomllib`` returns plain dicts with no positions, but every error recall reports must name a
line. This module scans the raw text once, with just enough of TOML's lexical rules to stay
correct (multi-line strings are skipped, so a ``[[card]]`` inside a model answer is not a header;
comments and quoted keys are understood), and records where each table header and each key is.

Paths are tuples: ``("deck",)``, ``("deck", "symbols", "y")``, and for cards the card's index in
the ``card`` array first: ``("card", 0)``, ``("card", 0, "answer")``,
``("card", 0, "params", "N")``. Elements of a multi-line array get their index appended:
``("card", 0, "identities", 1)``. :meth:`Positions.line` falls back to the nearest recorded
ancestor, so a lookup always yields the most precise line known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from recall import toml_parser

_HEADER = re.compile(r"^\s*(\[\[?)\s*(?P<name>[^\]]*?)\s*(\]\]?)\s*(#.*)?$")
_BARE_KEY = r"[A-Za-z0-9_-]+"
_QUOTED_KEY = r"\"(?:[^\"\\]|\\.)*\"|'[^']*'"
_KEY_PART = rf"(?:{_BARE_KEY}|{_QUOTED_KEY})"
_KEY_LINE = re.compile(rf"^\s*(?P<key>{_KEY_PART}(?:\s*\.\s*{_KEY_PART})*)\s*=(?P<rest>.*)$")
_SIMPLE_KEY = re.compile(_BARE_KEY)
_KEY_SPLIT = re.compile(rf"\s*({_KEY_PART})\s*(?:\.|$)")

Path = tuple[object, ...]


@dataclass
class Positions:
    """Where things are in one deck file (1-based lines)."""

    lines: dict[Path, int] = field(default_factory=dict)
    card_count: int = 0
    array_tables: dict[Path, int] = field(default_factory=dict)  # ``[[card.x]]`` seen per card

    def line(self, *path: object) -> int | None:
        """The line of ``path``, or of its nearest recorded ancestor, or ``None``."""
        parts = tuple(path)
        while parts:
            found = self.lines.get(parts)
            if found is not None:
                return found
            parts = parts[:-1]
        return None

    def card_line(self, index: int) -> int | None:
        """The line of the ``[[card]]`` header of card number ``index`` (0-based)."""
        return self.lines.get(("card", index))


def _split_key(text: str) -> list[str]:
    """``a."b.c".d`` → ``["a", "b.c", "d"]`` (quotes removed, a double-quoted key's escapes
    decoded)."""
    if _SIMPLE_KEY.fullmatch(text):
        return [text]  # most keys: one bare part
    parts: list[str] = []
    for match in _KEY_SPLIT.finditer(text):
        raw = match.group(1)
        if raw[:1] == '"' and "\\" in raw:
            raw = _decoded_key(raw)
        elif raw[:1] in "\"'":
            raw = raw[1:-1]
        parts.append(raw)
    return parts


def _decoded_key(raw: str) -> str:
    """A double-quoted key with its escapes decoded as TOML does (``"x\\u2066"``), so a key
    that holds an escaped character is found by the path the parsed data gives it."""
    try:
        return next(iter(toml_parser.loads(f"{raw} = 0")))
    except (toml_parser.TOMLDecodeError, StopIteration):
        return raw[1:-1]


#: Where :func:`_strip_strings` stops: a comment, or a quote opening a string.
_STRING_OR_COMMENT = re.compile(r"[#\"']")
#: The rest of a one-line basic string after its opening quote, up to its closing quote (a
#: backslash escapes the next character, whatever it is).
_BASIC_BODY = re.compile(r'[^"\\]*(?:\\[\s\S]?[^"\\]*)*')
#: The body of a multi-line basic string up to its closing ``"""`` (escapes skipped; a quote or
#: two inside the body do not close it).
_MULTILINE_BASIC_BODY = re.compile(r'(?:[^"\\]+|\\[\s\S]?|"(?!""))*')


def _strip_strings(line: str) -> tuple[str, str | None]:
    """Remove single-line strings and comments from ``line`` so brackets can be counted.

    Returns the stripped text and, if the line opens a multi-line string that does not close on
    it, that string's delimiter (the scanner then skips lines until it closes). The text
    between strings is copied in slices, found with a regular expression: this runs on every
    line of every deck file a first start reads.
    """
    out: list[str] = []
    i = 0
    end_of_line = len(line)
    while True:
        found = _STRING_OR_COMMENT.search(line, i)
        if found is None:
            out.append(line[i:])
            break
        start = found.start()
        out.append(line[i:start])
        ch = line[start]
        if ch == "#":
            break
        delim = ch * 3
        if line.startswith(delim, start):
            end = _find_close(line, start + 3, delim)
            if end is None:
                return "".join(out), delim
            out.append('""')
            i = end
            continue
        out.append('""')
        if ch == "'":
            close = line.find("'", start + 1)
            i = (close if close >= 0 else end_of_line) + 1
        else:
            body = _BASIC_BODY.match(line, start + 1)
            i = (body.end() if body else end_of_line) + 1
        if i >= end_of_line:
            break
    return "".join(out), None


def _find_close(line: str, start: int, delim: str) -> int | None:
    """Index just past the closing ``delim`` in ``line`` from ``start``, or ``None``."""
    if delim == '"""':
        body = _MULTILINE_BASIC_BODY.match(line, start)
        i = body.end() if body else start
        if not line.startswith(delim, i):
            return None
    else:
        i = line.find(delim, start)
        if i < 0:
            return None
    # TOML allows up to two extra quotes right before the closing delimiter.
    end = i + 3
    while end < len(line) and line[end] == delim[0] and end - i < 5:
        end += 1
    return end


def scan(text: str) -> Positions:
    """Record the line of every table header, key and multi-line array element in ``text``."""
    positions = Positions()
    table: Path = ()
    open_string: str | None = None
    array_path: Path | None = None  # a multi-line array value being read
    array = _ArrayReader(())

    for number, line in enumerate(text.splitlines(), start=1):
        if open_string is not None:
            end = _find_close(line, 0, open_string)
            if end is None:
                continue
            open_string = None
            line = line[end:]
            if array_path is None:
                continue
        if array_path is not None:
            stripped, open_string = _strip_strings(line)
            if array.feed(stripped, number, positions):
                array_path = None
            continue

        header = _HEADER.match(line)
        if header and not _KEY_LINE.match(line):
            names = _split_key(header.group("name"))
            is_array = header.group(1) == "[[" and header.group(3) == "]]"
            table = _table_path(positions, names, is_array)
            positions.lines.setdefault(table, number)
            continue

        key_line = _KEY_LINE.match(line)
        if key_line:
            path = (*table, *_split_key(key_line.group("key")))
            positions.lines.setdefault(path, number)
            rest = key_line.group("rest")
            if not rest.lstrip().startswith("[") and not _opens_multiline(rest):
                continue  # a one-line value: nothing to follow onto the next lines
            stripped, open_string = _strip_strings(rest)
            value = stripped.strip()
            if value.startswith("["):
                array = _ArrayReader(path)
                if not array.feed(value, number, positions):
                    array_path = path
            continue
        if open_string is None and _opens_multiline(line):
            _, open_string = _strip_strings(line)
    return positions


def _opens_multiline(text: str) -> bool:
    """Whether ``text`` may open a multi-line string (most lines cannot: they hold no triple
    quote, and :func:`_strip_strings` need not read them)."""
    return '"""' in text or "'''" in text


class _ArrayReader:
    """Follows an array value across lines, recording the line where each element starts."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.depth = 0
        self.index = 0
        self.expecting = True

    def feed(self, stripped: str, number: int, positions: Positions) -> bool:
        """Read one line (strings and comments already stripped); ``True`` once the array
        closes."""
        for ch in stripped:
            if ch in "[{":
                if self.depth == 1 and self.expecting:
                    self._record(number, positions)
                self.depth += 1
            elif ch in "]}":
                self.depth -= 1
                if self.depth <= 0:
                    return True
            elif self.depth == 1:
                if ch == ",":
                    self.expecting = True
                elif not ch.isspace() and self.expecting:
                    self._record(number, positions)
        return False

    def _record(self, number: int, positions: Positions) -> None:
        positions.lines.setdefault((*self.path, self.index), number)
        self.index += 1
        self.expecting = False


def _table_path(positions: Positions, names: list[str], is_array: bool) -> Path:
    """The path a header opens: ``[[card]]`` becomes ``("card", n)``; ``[card.params]`` belongs
    to the latest card; ``[[card.identities]]`` counts its own elements per card."""
    if not names:
        return ()
    if names[0] == "card":
        if len(names) == 1 and is_array:
            index = positions.card_count
            positions.card_count += 1
            return ("card", index)
        card: Path = ("card", max(positions.card_count - 1, 0))
        rest: Path = tuple(names[1:])
        if is_array:
            count = positions.array_tables.get((*card, *rest), 0)
            positions.array_tables[(*card, *rest)] = count + 1
            return (*card, *rest, count)
        return (*card, *rest)
    return tuple(names)
