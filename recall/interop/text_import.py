"""Flashcards from other tools (Anki's text export, Quizlet, plain CSV/TSV) → a recall deck.

Reading
    *Anki* "Notes in Plain Text" files start with ``#key:value`` header lines: ``#separator:``
    (``tab``, ``comma``, ``semicolon``, ``space``, ``pipe``, ``colon`` or the character itself),
    ``#html:true|false``, ``#columns:`` (column names, separated like the data), ``#tags column:N``
    and ``#guid column:N`` / ``#notetype column:N`` / ``#deck column:N`` (1-based). Fields are
    quoted CSV-style when they hold the separator, quotes or line breaks. HTML is reduced to text.
    *Quizlet* exports have no header and no quoting: term and definition split at the first tab
    (or comma), cards one per line or separated by ``;``.

Choosing a kind (conservative: nothing is graded by the engine that the learner did not write as
math with declared symbols)
    * a back that is a plain number (``16``, ``3e-4``, ``40%``) → ``fact``;
    * an Anki cloze (``{{c1::word}}``) → ``cloze`` with a word blank;
    * a short name-like back (at most five words, no sentence punctuation, no math operators) →
      ``reverse``: the front is shown and the back is the accepted name;
    * anything else → ``explain``, self-rated against the back.
    A back that *looks* like math stays ``explain``: turning it into a ``formula`` card needs its
    symbols declared, which only the learner can do (edit ``kind``, ``answer`` and
    ``[card.symbols]`` afterwards).
"""

from __future__ import annotations

import csv
import html
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from recall.cards.model import Card, CardKind, Deck
from recall.cards.schema import CARD_ID, DECK_ID, MAX_CARDS, MAX_ID
from recall.cards.untrusted import read_rows, refuse_control_lines, refuse_control_notes
from recall.cards.writer import card_to_dict
from recall.errors import DeckError
from recall.inert import quote
from recall.interop.deck_tables import card_table, deck_from_tables
from recall.interop.text_export import from_spreadsheet_safe

_SEPARATORS = {
    "tab": "\t",
    "comma": ",",
    "semicolon": ";",
    "space": " ",
    "pipe": "|",
    "colon": ":",
}
_HEADER = re.compile(r"^#([a-z ]+):(.*)$")
_NUMBER = re.compile(r"^[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][-+]?\d+)?\s*%?$")
_CLOZE = re.compile(r"\{\{c(\d+)::(.*?)(?:::(.*?))?\}\}", re.DOTALL)
_MATHY = re.compile(r"[=^\\*/<>]|\b(?:sum|exp|log|sqrt)\b")
_TAG = re.compile(r"<[^>]+>")
_BREAK = re.compile(r"<\s*(?:br\s*/?|/div|/p|/li)\s*>", re.IGNORECASE)

KINDS = ("auto", "explain", "reverse")

#: The most cards one import makes: a deck file holds at most this many
#: (:data:`recall.cards.schema.MAX_CARDS`); reading stops at the first row past it.
MAX_NOTES = MAX_CARDS


@dataclass
class Note:
    """One imported note: front, back, tags, and an id if the file carried one."""

    front: str
    back: str
    tags: tuple[str, ...] = ()
    note_id: str = ""
    #: The kind a ``kind`` column named (recall's CSV export), honoured where the text allows.
    kind: str = ""
    #: The card's deck-file table from a ``recall`` column: the card is built from it as is.
    table: dict[str, Any] | None = None


@dataclass
class ImportedFile:
    """What was read from a file: its notes and what was learned about its format."""

    notes: list[Note]
    format: str
    separator: str
    warnings: list[str] = field(default_factory=list)


# ----- reading -------------------------------------------------------------------------------


def read_notes(
    text: str,
    *,
    source: str = "<import>",
    fmt: str = "auto",
    field_sep: str | None = None,
    card_sep: str | None = None,
    max_notes: int = MAX_NOTES,
) -> ImportedFile:
    """Read notes from export text. ``fmt`` is ``auto``, ``anki``, ``quizlet`` or ``csv``.

    Raises :class:`DeckError` as soon as the text holds more than ``max_notes`` rows with
    content (more cards than a deck may hold): the rows past it are never parsed. A cell holding
    a control character is refused with its row and column, a note with one after its HTML was
    undone by its number (:mod:`recall.cards.untrusted`).
    """
    imported = _read_notes(text, source, fmt, field_sep, card_sep, max_notes)
    refuse_control_notes(imported.notes, source=source)
    refuse_control_lines(text, source=source)  # what no row holds: an Anki header line
    return imported


def _read_notes(
    text: str,
    source: str,
    fmt: str,
    field_sep: str | None,
    card_sep: str | None,
    max_notes: int,
) -> ImportedFile:
    text = text.lstrip("\ufeff")
    if fmt == "auto":
        fmt = "anki" if text.startswith("#") and _HEADER.match(text.splitlines()[0]) else ""
        if not fmt:
            fmt = "csv" if _looks_like_csv(text) else "quizlet"
    if fmt == "anki":
        return _read_anki(text, source, field_sep, max_notes)
    if fmt == "quizlet":
        return _read_quizlet(text, source, field_sep, card_sep, max_notes)
    if fmt == "csv":
        sep = _separator(field_sep) if field_sep else ("\t" if "\t" in text else ",")
        # The first row may name the columns.
        rows = _bounded_rows(read_rows(text, sep, source=source), max_notes + 1, source)
        if rows and _is_header(rows[0]):
            names = [cell.strip().lower() for cell in rows[0]]
            front, back = _pick_columns(names, list(range(len(names))))
            tags = names.index("tags") if "tags" in names else None
            notes = _rows_to_notes(rows[1:], front=front, back=back, tags=tags)
            warning = f"the first row was read as column names ({', '.join(names)})"
            return ImportedFile(notes, "csv", sep, [warning])
        if len(rows) > max_notes:
            raise _too_many(max_notes, source)
        notes = _rows_to_notes(rows, front=0, back=1, tags=2 if _has_third(rows) else None)
        return ImportedFile(notes, "csv", sep)
    raise DeckError(
        f"unknown import format '{quote(fmt)}'",
        path=source,
        suggestion="use auto, anki, quizlet or csv",
    )


def _separator(spec: str) -> str:
    spec = spec.strip()
    if spec.lower() in _SEPARATORS:
        return _SEPARATORS[spec.lower()]
    if spec in ("\\t", "\t"):
        return "\t"
    if len(spec) == 1:
        return spec
    raise DeckError(
        f"unknown separator '{quote(spec)}'",
        suggestion="tab, comma, semicolon, space, pipe, colon, or one character",
    )


def _too_many(max_notes: int, source: str) -> DeckError:
    return DeckError(
        f"more than {max_notes:,} cards: a deck holds at most {MAX_CARDS:,}",
        path=source,
        suggestion="split the file and import each part as its own deck",
    )


def _pieces(text: str, sep: str) -> Iterator[str]:
    """``text.split(sep)`` one piece at a time (no list of a million strings)."""
    start = 0
    while (end := text.find(sep, start)) >= 0:
        yield text[start:end]
        start = end + len(sep)
    yield text[start:]


def _more_than(pieces: Iterable[str], limit: int) -> bool:
    """Whether more than ``limit`` of ``pieces`` hold anything but white space."""
    count = 0
    for piece in pieces:
        if piece.strip():
            count += 1
            if count > limit:
                return True
    return False


def _bounded_rows(rows: Iterable[list[str]], max_notes: int, source: str) -> list[list[str]]:
    """The rows with content, read lazily and refused at the first one past ``max_notes``; a
    row the csv module cannot read (a field over its 128 kB limit, say) is refused by number."""
    kept: list[list[str]] = []
    seen = 0
    try:
        for row in rows:
            seen += 1
            if any(cell.strip() for cell in row):
                if len(kept) >= max_notes:
                    raise _too_many(max_notes, source)
                kept.append(row)
    except csv.Error as error:
        raise DeckError(
            f"row {seen + 1} is not readable as CSV ({error})",
            path=source,
            suggestion="check its quotes; a card's text is far shorter than that",
        ) from None
    return kept


#: Column names a header row of a plain CSV or TSV may hold (what Anki's ``#columns`` and the
#: common exports call them); a first row made only of these, naming a front, is a header.
_FRONT_NAMES = ("front", "term", "question", "text")
_COLUMN_NAMES = frozenset(
    {*_FRONT_NAMES, "back", "definition", "answer", "extra", "tags", "id", "guid", "kind"}
)
#: A field that opens with a quote: CSV quoting, which Quizlet's export never uses.
_QUOTED_FIELD = re.compile(r'(?:^|[,\t;])[ ]*"', re.MULTILINE)


def _is_header(row: list[str]) -> bool:
    """Whether a first row names columns (``front,back[,tags]``) rather than holding a card."""
    names = [cell.strip().lower() for cell in row]
    return (
        len(names) >= 2
        and all(name in _COLUMN_NAMES for name in names)
        and any(name in _FRONT_NAMES for name in names)
    )


def _looks_like_csv(text: str) -> bool:
    """Auto-detection between CSV and Quizlet's unquoted export: a header row of column names
    or any quoted field makes it CSV (Quizlet splits at the first separator and keeps quotes)."""
    first = next((line for line in _pieces(text, "\n") if line.strip()), "")
    sep = "\t" if "\t" in first else ","
    try:
        cells = next(csv.reader([first], delimiter=sep, quotechar='"'), [])
    except csv.Error:
        cells = []  # not a header; the reader reports it with its row
    return _is_header(cells) or _QUOTED_FIELD.search(text) is not None


def _has_third(rows: list[list[str]]) -> bool:
    return any(len(r) > 2 for r in rows)


def _read_anki(text: str, source: str, field_sep: str | None, max_notes: int) -> ImportedFile:
    headers: dict[str, str] = {}
    lines = text.splitlines(keepends=True)
    body_start = 0
    for number, line in enumerate(lines):
        match = _HEADER.match(line.rstrip("\r\n"))
        if not match:
            break
        headers[match.group(1).strip().lower()] = match.group(2).strip()
        body_start = number + 1
    sep = _separator(field_sep or headers.get("separator", "tab"))
    is_html = headers.get("html", "false").lower() == "true"
    body = "".join(lines[body_start:])
    rows = _bounded_rows(
        read_rows(body, sep, source=source, first_line=body_start + 1), max_notes, source
    )

    meta: dict[int, str] = {}
    for key in ("tags", "guid", "notetype", "deck"):
        value = headers.get(f"{key} column")
        if value:
            try:
                meta[int(value) - 1] = key
            except ValueError:
                raise DeckError(
                    f"'#{key} column:{value}' is not a column number", path=source
                ) from None
    names = (
        [n.strip().lower() for n in headers["columns"].split(sep)] if "columns" in headers else []
    )
    for index, name in enumerate(names):
        if name in ("tags", "guid", "id") and index not in meta:
            meta[index] = "guid" if name in ("guid", "id") else "tags"
        elif name in ("kind", "recall") and index not in meta:
            meta[index] = name
    content = [i for i in range(max((len(r) for r in rows), default=0)) if i not in meta]
    front, back = _pick_columns(names, content)

    tags_index = next((i for i, k in meta.items() if k == "tags"), None)
    guid_index = next((i for i, k in meta.items() if k == "guid"), None)
    kind_index = next((i for i, k in meta.items() if k == "kind"), None)
    table_index = next((i for i, k in meta.items() if k == "recall"), None)
    notes = [
        Note(
            _cell(row, front, is_html),
            _cell(row, back, is_html),
            tuple(_cell(row, tags_index, is_html).split()),
            _cell(row, guid_index, is_html),
            kind=_cell(row, kind_index).lower(),
            table=card_table(_raw_cell(row, table_index)),
        )
        for row in rows
    ]
    warnings = (
        []
        if names or len(content) <= 2
        else [f"{len(content)} content columns and no #columns header: used the first two"]
    )
    return ImportedFile([n for n in notes if n.front or n.back], "anki", sep, warnings)


def _pick_columns(names: list[str], content: list[int]) -> tuple[int | None, int | None]:
    """Front and back columns: by name when ``#columns`` names them, else the first two."""
    by_name = {name: i for i, name in enumerate(names)}
    for front_name, back_name in (
        ("front", "back"),
        ("text", "extra"),
        ("term", "definition"),
        ("question", "answer"),
    ):
        if front_name in by_name:
            return by_name[front_name], by_name.get(back_name)
    front = content[0] if content else None
    back = content[1] if len(content) > 1 else None
    return front, back


def _clean(text: str, is_html: bool) -> str:
    if is_html:
        text = _BREAK.sub("\n", text)
        text = _TAG.sub("", text)
        text = html.unescape(text).replace("\xa0", " ")
    return "\n".join(line.strip() for line in text.strip().splitlines()).strip()


def _read_quizlet(
    text: str, source: str, field_sep: str | None, card_sep: str | None, max_notes: int
) -> ImportedFile:
    sep = _separator(field_sep) if field_sep else ("\t" if "\t" in text else ",")
    given = (_separator(card_sep) if card_sep.lower() != "newline" else "\n") if card_sep else ""
    # Counted before any list is made: a ';'-separated file has more pieces than lines, so more
    # lines (or records, with --card-sep) than a deck holds is too many either way.
    if _more_than(_pieces(text, given or "\n"), max_notes):
        raise _too_many(max_notes, source)
    lines = [line for line in text.splitlines() if line.strip()]
    if card_sep:
        record_sep = given
    else:
        pieces = [p for p in text.split(";") if p.strip()]
        record_sep = ";" if len(pieces) > len(lines) and all(sep in p for p in pieces) else "\n"
    records = [r.strip("\r\n") for r in text.split(record_sep)] if record_sep != "\n" else lines
    if sum(1 for record in records if record.strip()) > max_notes:
        raise _too_many(max_notes, source)
    notes = []
    warnings = []
    for number, record in enumerate(records, start=1):
        if not record.strip():
            continue
        if sep not in record:
            warnings.append(f"card {number} has no separator: skipped ({record[:40]!r})")
            continue
        term, _, definition = record.partition(sep)
        notes.append(Note(term.strip(), definition.strip()))
    if not notes:
        raise DeckError(
            "no cards found",
            path=source,
            suggestion="is the separator right? try --field-sep and --card-sep",
        )
    return ImportedFile(notes, "quizlet", sep, warnings)


def _raw_cell(row: list[str], index: int | None) -> str:
    """A row's cell as written (no HTML or whitespace cleaning); empty when absent."""
    if index is None or index >= len(row):
        return ""
    return from_spreadsheet_safe(row[index])


def _cell(row: list[str], index: int | None, is_html: bool = False) -> str:
    """A row's cell, cleaned; empty when the column is absent."""
    if index is None or index >= len(row):
        return ""
    return _clean(from_spreadsheet_safe(row[index]), is_html)


def _rows_to_notes(
    rows: list[list[str]], *, front: int | None, back: int | None, tags: int | None
) -> list[Note]:
    return [
        Note(_cell(row, front), _cell(row, back), tuple(_cell(row, tags).split()))
        for row in rows
        if any(cell.strip() for cell in row)
    ]


# ----- building the deck ---------------------------------------------------------------------


def choose_kind(note: Note) -> CardKind:
    """The kind an imported note becomes under ``--kind auto`` (see the module docstring)."""
    if _CLOZE.search(note.front):
        return CardKind.CLOZE
    back = note.back.strip()
    if back and _NUMBER.match(back) and any(ch.isdigit() for ch in back):
        return CardKind.FACT
    words = back.split()
    if (
        back
        and len(words) <= 5
        and len(back) <= 48
        and "\n" not in back
        and not _MATHY.search(back)
        and not back.rstrip().endswith((".", "!", "?"))
    ):
        return CardKind.REVERSE
    return CardKind.EXPLAIN


def notes_to_deck(
    notes: Iterable[Note],
    *,
    deck_id: str,
    name: str,
    description: str = "",
    kind: str = "auto",
    source: str = "",
) -> Deck:
    """Build a deck from notes (ids made from the fronts, unique in the deck)."""
    if not DECK_ID.match(deck_id):
        raise DeckError(
            f"deck id '{quote(deck_id)}' is not valid",
            suggestion="lowercase letters, digits, '-' and '_'; pass --id",
        )
    if kind not in KINDS:
        raise DeckError(f"unknown kind '{quote(kind)}'", suggestion="auto, explain or reverse")
    cards: list[Card] = []
    tables: list[dict[str, Any]] = []
    used: set[str] = set()
    for number, note in enumerate(notes, start=1):
        if not note.front and not note.back and note.table is None:
            continue
        card_id = _unique_id(note, number, used)
        if note.table is not None and kind == "auto":
            tables.append({**note.table, "id": card_id})
            continue
        chosen = _written_kind(note) if kind == "auto" else CardKind(kind)
        if chosen is CardKind.REVERSE and not note.back:
            chosen = CardKind.EXPLAIN
        card = _card(note, chosen, deck_id, card_id, source)
        cards.append(card)
        tables.append(card_to_dict(card))
    if not tables:
        raise DeckError("no cards to import", path=source or None)
    if len(tables) == len(cards):
        return Deck(id=deck_id, name=name, description=description, cards=tuple(cards))
    # Some cards came as recall's own tables: build them all the way a deck file is built.
    header: dict[str, Any] = {"id": deck_id, "name": name}
    if description:
        header["description"] = description
    return deck_from_tables(header, tables, source=source or "<import>")


#: Kinds a ``kind`` column may choose on its own: the front and back are all they need.
_TEXT_KINDS = {"explain": CardKind.EXPLAIN, "reverse": CardKind.REVERSE, "fact": CardKind.FACT}


def _written_kind(note: Note) -> CardKind:
    """The kind a ``kind`` column named, when the note's text can make it; else the choice of
    :func:`choose_kind` (a formula card needs its symbols, which only a ``recall`` table has)."""
    named = _TEXT_KINDS.get(note.kind)
    if named is None:
        return choose_kind(note)
    if named is CardKind.FACT and choose_kind(note) is not CardKind.FACT:
        return choose_kind(note)
    return named


def _card(note: Note, kind: CardKind, deck_id: str, card_id: str, source: str) -> Card:
    common: dict[str, Any] = {
        "deck_id": deck_id,
        "id": card_id,
        "tags": note.tags,
        "source": source,
    }
    front = note.front or "(empty front)"
    back = note.back or "(empty back)"
    if kind is CardKind.CLOZE:
        match = _CLOZE.search(note.front)
        assert match is not None
        answer = match.group(2).strip()
        text = note.front[: match.start()] + "{{}}" + note.front[match.end() :]
        text = _CLOZE.sub(lambda m: m.group(2), text)  # further clozes are shown revealed
        hint = (match.group(3) or "").strip()
        extra = f" {note.back}" if note.back else ""
        return Card(
            kind=kind, prompt="", text=(text + extra).strip(), accept=(answer,), hint=hint, **common
        )
    if kind is CardKind.FACT:
        value_text = back.replace(",", "").replace(" ", "")
        unit = "%" if value_text.endswith("%") else ""
        value = float(value_text.rstrip("%"))
        return Card(kind=kind, prompt=front, value=value, unit=unit, **common)
    if kind is CardKind.REVERSE:
        accept = tuple(a.strip() for a in re.split(r"\s*[;/]\s*", back) if a.strip()) or (back,)
        return Card(kind=kind, prompt="Name it.", shown=front, accept=accept, **common)
    return Card(kind=CardKind.EXPLAIN, prompt=front, model_answer=back, **common)


def _unique_id(note: Note, number: int, used: set[str]) -> str:
    base = slug(note.note_id) if note.note_id else ""
    if not base or not CARD_ID.match(base):
        words = slug(_CLOZE.sub(lambda m: m.group(2), note.front)).split("-")[:6]
        base = "-".join(w for w in words if w)[:48].strip("-") or f"card-{number}"
    if not base[0].isalnum():
        base = f"card-{base}"
    candidate, suffix = base, 2
    while candidate in used:
        candidate, suffix = f"{base}-{suffix}", suffix + 1
    used.add(candidate)
    return candidate


def slug(text: str) -> str:
    """Lowercase ASCII letters and digits joined by ``-`` (for ids made from text)."""
    out: list[str] = []
    for ch in text.lower():
        if ch.isascii() and ch.isalnum():
            out.append(ch)
        elif ch in "._" and out and out[-1] not in "-._":
            out.append(ch)
        elif out and out[-1] != "-":
            out.append("-")
    made = "".join(out).strip("-._")
    # An id longer than the database holds would make a deck that cannot be stored.
    return made[:MAX_ID].rstrip("-._")
