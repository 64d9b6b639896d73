"""The entrance half of :mod:`recall.inert` for deck files and imports.

Anyone can write a deck file or an export, and a terminal obeys the control characters in what
it is given (``ESC ] 52`` writes the clipboard). So text is refused here, before it becomes a
card: every string a deck file holds (and every key) may not hold a C0 control other than
newline and tab, DEL, a C1 control, or a bidi embedding, override or isolate (they reorder what
is drawn after them: "Trojan Source"); an *id* (deck and card ids, tags, the names a card must
use or avoid, and every key, which names a symbol, a function or a parameter) may not hold a
line break, a tab, a bidirectional control or a zero-width character either, since those make
two ids look alike. TOML forbids raw control characters but not ``\\u001b`` escapes, so the
check is on the parsed values.

An import is refused by row and column (:func:`refuse_control_rows`), so the person can find the
cell in their spreadsheet.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from recall.cards.positions import Path
from recall.cards.problems import Problems
from recall.errors import DeckError
from recall.inert import describe_char, first_control, first_invisible, is_bidi_control, quote

#: Keys whose string value is an identifier, and keys whose list items are.
ID_KEYS = frozenset({"id"})
ID_LIST_KEYS = frozenset({"tags", "require", "forbid", "numbers"})


def record_forbidden_characters(data: Mapping[str, Any], problems: Problems) -> None:
    """Record a problem for every string (and key) of a parsed deck file that holds a character
    deck text may not hold, located by line and naming the field."""
    _walk(data, (), problems, _card_ids(data))


def _card_ids(data: Mapping[str, Any]) -> dict[int, str]:
    """The clean ids of the cards, by index, to name a card in its problems."""
    cards = data.get("card")
    ids: dict[int, str] = {}
    if isinstance(cards, list):
        for index, card in enumerate(cards):
            card_id = card.get("id") if isinstance(card, dict) else None
            if isinstance(card_id, str) and card_id and first_invisible(card_id) is None:
                ids[index] = card_id
    return ids


def _walk(value: object, path: Path, problems: Problems, card_ids: dict[int, str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            key_path = (*path, key)
            if isinstance(key, str):
                found = first_invisible(key)
                if found is not None:
                    _add(problems, key_path, key, found, card_ids, what="the key")
            _walk(item, key_path, problems, card_ids)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _walk(item, (*path, index), problems, card_ids)
    elif isinstance(value, str):
        found = first_invisible(value) if _is_id(path) else first_control(value)
        if found is not None:
            _add(problems, path, value, found, card_ids, what="the value of")


def _is_id(path: Path) -> bool:
    """Whether the string at ``path`` is an identifier (see :data:`ID_KEYS`)."""
    if path and path[-1] in ID_KEYS:
        return True
    return len(path) >= 2 and isinstance(path[-1], int) and path[-2] in ID_LIST_KEYS


def _add(
    problems: Problems,
    path: Path,
    text: str,
    index: int,
    card_ids: dict[int, str],
    *,
    what: str,
) -> None:
    card_id = None
    which = ""
    field_parts = path
    if len(path) >= 2 and path[0] == "card" and isinstance(path[1], int):
        card_id = card_ids.get(path[1])
        field_parts = path[2:]
        if card_id is None:
            which = f"card {path[1] + 1}: "
    field = quote(".".join(str(part) for part in field_parts) or "?")
    identifier = _is_id(path) or what == "the key"
    rule = (
        "an id or a name may not hold control, invisible or direction-changing characters"
        if identifier
        else "deck text may not hold control characters other than newline and tab, nor bidi "
        "controls"
    )
    problems.add(
        f"{which}{what} '{field}' holds {describe_char(text[index])} "
        f"at character {index + 1}: {rule}",
        path,
        card_id=card_id,
        suggestion=_remove_it(text[index]),
    )


def _remove_it(char: str) -> str:
    """What to do about a refused character, and why."""
    if is_bidi_control(char):
        return "remove it: the learner would not see the text as the file has it"
    return "remove it: escape sequences could drive the terminal"


def refuse_control_rows(
    rows: Iterable[tuple[int, Sequence[str]]],
    *,
    source: str,
    columns: Sequence[str] = (),
    first_number: int = 1,
) -> None:
    """Raise :class:`DeckError` naming the first row and column of an import whose cell holds a
    control character other than newline and tab (a Windows line break, CR LF, inside a quoted
    cell is a line break). ``rows`` pairs each row with the file line it starts on; ``columns``
    names the columns when the file does; ``first_number`` is the first row's number."""
    for number, (line, row) in enumerate(rows, start=first_number):
        for column, cell in enumerate(row):
            text = cell.replace("\r\n", "\n")
            found = first_control(text)
            if found is None:
                continue
            name = f" ({quote(columns[column], 40)})" if column < len(columns) else ""
            raise DeckError(
                f"row {number}, column {column + 1}{name} holds {describe_char(text[found])} "
                f"at character {found + 1}: imported text may not hold control characters "
                "other than newline and tab",
                path=source,
                line=line,
                suggestion=_remove_it(text[found]),
            )


def refuse_control_lines(text: str, *, source: str) -> None:
    """Raise :class:`DeckError` naming the line of the first control character in ``text``
    other than newline, tab and a CR LF line end (what a row-by-row check did not reach, such
    as an Anki header line)."""
    found = first_control(text.replace("\r\n", "\n"))
    if found is None:
        return
    normalized = text.replace("\r\n", "\n")
    line = normalized.count("\n", 0, found) + 1
    raise DeckError(
        f"line {line} holds {describe_char(normalized[found])}: imported text may not hold "
        "control characters other than newline and tab",
        path=source,
        line=line,
        suggestion=_remove_it(normalized[found]),
    )


def read_rows(
    text: str, delimiter: str, *, source: str, first_line: int = 1
) -> Iterator[list[str]]:
    """The CSV rows of ``text`` (``"`` quotes), one at a time, each refused by row and column
    (:func:`refuse_control_rows`) when a cell holds a control character; ``first_line`` is the
    file line ``text`` starts on. Lazy, so a caller that stops early (too many rows) never
    parses the rest."""
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, quotechar='"')
    start = first_line
    for number, row in enumerate(reader, start=1):
        refuse_control_rows([(start, row)], source=source, first_number=number)
        yield row
        start = first_line + reader.line_num


def refuse_control_notes(notes: Iterable[Any], *, source: str) -> None:
    """Raise :class:`DeckError` for the first imported note (front, back, tags, id) that holds a
    control character, after HTML and spreadsheet quoting were undone; a tag or an id may not
    hold an invisible or direction-changing character either. The net under the row check."""
    for number, note in enumerate(notes, start=1):
        fields: list[tuple[str, str, bool]] = [
            ("front", note.front, False),
            ("back", note.back, False),
            ("id", note.note_id, True),
            *(("tags", tag, True) for tag in note.tags),
        ]
        for name, text, is_id in fields:
            found = first_invisible(text) if is_id else first_control(text)
            if found is not None:
                raise DeckError(
                    f"card {number}: its {name} holds {describe_char(text[found])} at character "
                    f"{found + 1}: imported text may not hold control characters"
                    + (", nor an id or a tag invisible ones" if is_id else ""),
                    path=source,
                    suggestion=_remove_it(text[found]),
                )
