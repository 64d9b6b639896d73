"""The coverage table (``decks/COVERAGE.md``) stays true against the decks and the sheets.

The table lists every item of the two formula sheets (the itemisation rule is written at its top),
one row each, with the cards that drill it. These tests keep it true:

- every card id it lists is a built-in card, and every row lists at least one;
- every line of the sheets that holds an item has rows, and no other line has any;
- a line holds at least as many items as it visibly states (each display formula of the formula
  sheet, each formula the cheatsheet separates with ``;``, each comma-separated value of the
  cheatsheet's quick numeric reference), so a line cannot be counted as one item by mistake;
- no item is listed twice, and the counts the table's header states are the rows it has;
- every card tagged with a sheet is in a row, or in the table's list of cards that go beyond the
  sheets' items;
- where the row names what the answer holds (a formula in typed syntax, a number, a word), one of
  its cards' reference answers holds it, so a card that stops drilling its item fails here.

The sheets themselves are not shipped (their text is not ours to copy): they are read from
``RECALL_SHEETS`` (default ``/work/shared/seeds``, or ``shared/seeds`` beside the checkout), and
must be the versions the table names.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pytest

from recall.cards.loader import load_decks
from recall.cards.model import Card
from recall.paths import builtin_decks_dir

TABLE = Path(__file__).resolve().parent.parent / "decks" / "COVERAGE.md"
SHEET_FILES = {
    "cheatsheet": "000_48c3d15f3f71dd7d.txt",
    "formula-sheet": "001_6d4fb894a324e864.txt",
}
KINDS = {"formula", "number", "claim", "explanation"}
# | sheet | line | kind | item | `answer holds` | cards |   (a "|" inside a cell is written "\|")
_CELL = r"((?:[^|\\]|\\.)*)"
_ROW = re.compile(
    r"^\| (cheatsheet|formula-sheet) \| (\d+) \| (\w+) \| "
    + _CELL
    + r" \| "
    + _CELL
    + r" \| "
    + _CELL
    + r" \|$"
)
_BEYOND = re.compile(r"^- `([a-z0-9_-]+/[a-z0-9_.-]+)`: ")
_COUNTS = re.compile(r"(\d+) items: (\d+) of the cheatsheet and (\d+) of the formula sheet")


@dataclass(frozen=True)
class Row:
    sheet: str
    line: int
    kind: str
    item: str
    holds: str
    cards: tuple[str, ...]


def _unescape(cell: str) -> str:
    return cell.strip().replace("\\|", "|")


@lru_cache(maxsize=1)
def rows() -> tuple[Row, ...]:
    out = []
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        match = _ROW.match(line)
        if match:
            holds = _unescape(match.group(5))
            if holds.startswith("`") and holds.endswith("`"):
                holds = holds[1:-1]
            cards = tuple(c.strip() for c in _unescape(match.group(6)).split(",") if c.strip())
            out.append(
                Row(
                    match.group(1),
                    int(match.group(2)),
                    match.group(3),
                    _unescape(match.group(4)),
                    holds,
                    cards,
                )
            )
    return tuple(out)


@lru_cache(maxsize=1)
def builtin_cards() -> dict[str, Card]:
    return {card.key: card for card in load_decks([builtin_decks_dir()]).cards}


def _spaced(text: str) -> str:
    """Text compared without case, runs of spacing or the typographic minus."""
    return re.sub(r"\s+", " ", text.replace("−", "-").lower()).strip()


def _flat(text: str) -> str:
    return _spaced(text).replace(" ", "")


def holds(answer: str, wanted: str) -> bool:
    """Whether ``answer`` (one of a card's answer texts) holds ``wanted``.

    A formula is looked for without spacing (``2*L*H_kv`` in ``2 * L * H_kv * d_h``); a short
    piece (three characters or fewer: ``0``, ``d/H``, ``kl``) only as a whole token, so that ``0``
    is not found in ``10`` nor ``n`` in ``tanh``.
    """
    if len(_flat(wanted)) > 3:
        return _flat(wanted) in _flat(answer)
    for form in (_spaced, _flat):
        token = re.escape(form(wanted))
        if re.search(rf"(?<![\w.]){token}(?![\w.])", form(answer)):
            return True
    return False


def _number(value: float) -> str:
    return f"{value:g}"


def answer_texts(card: Card) -> list[str]:
    """What answering ``card`` requires producing: its reference answer in every form it has."""
    texts = [card.answer, *card.accept, card.model_answer, *card.numbers]
    if card.value is not None:
        texts.append(_number(card.value))
    if card.value_range is not None:
        low, high = card.value_range
        texts += [_number(low), _number(high), f"{_number(low)}-{_number(high)}"]
    for point in card.points:
        texts += [point.say, *point.words, *point.formulas]
        texts += [_number(value.value) for value in point.values]
    return [text for text in texts if text]


def item_lines(sheet: str, text: str) -> set[int]:
    """The lines of ``sheet`` holding an item, by the rule at the top of the table."""
    lines = text.split("\n")
    found = set()
    if sheet == "cheatsheet":
        reference = next(n for n, line in enumerate(lines, 1) if line == "Quick numeric reference")
        for n, line in enumerate(lines[: reference - 1], 1):
            # a row's label printed above its formula ("Thin shell (dim d)"): the formula's line
            # holds the row's items
            label = not line.startswith("\\(") and n < len(lines) and lines[n].startswith("\\(")
            if "\\(" in line and not label:
                found.add(n)
        # the reference table: a "Quantity", "Value" header, then label and value lines in turn
        values = lines[reference + 2 :]
        for offset, line in enumerate(values):
            if offset % 2 == 1 and line.strip():
                found.add(reference + 3 + offset)
        return found
    for n, line in enumerate(lines, 1):
        heading = len(line.split()) <= 4 and not re.search(r"[$.—:=]", line)
        introduces_a_list = line.rstrip().endswith(":")  # "Complexity — sequence n, width d:"
        if n > 3 and line.strip() and not heading and not introduces_a_list:
            found.add(n)
    return found


def items_stated(sheet: str, line: str, reference: bool) -> int:
    """How many items a sheet line visibly states at least (a floor, not the count)."""
    if sheet == "formula-sheet":
        return max(1, line.count("$$") // 2)
    if reference:
        return len(line.split(","))
    return line.count(" ; ") + 1


def sheets_folder() -> Path | None:
    """``RECALL_SHEETS``, else the shared folder of this workplace or one beside the checkout."""
    if os.environ.get("RECALL_SHEETS"):
        candidates = [Path(os.environ["RECALL_SHEETS"])]
    else:
        candidates = [Path("/work/shared/seeds"), TABLE.parent.parent.parent / "shared" / "seeds"]
    for folder in candidates:
        if all((folder / name).is_file() for name in SHEET_FILES.values()):
            return folder
    return None


def sheets() -> dict[str, str]:
    folder = sheets_folder()
    if folder is None:
        pytest.skip("the formula sheets are not here (set RECALL_SHEETS to their folder)")
    return {
        sheet: (folder / name).read_bytes().decode("utf-8") for sheet, name in SHEET_FILES.items()
    }


def test_every_row_lists_real_cards() -> None:
    known = builtin_cards()
    assert len(rows()) > 300
    missing = [(row.sheet, row.line, c) for row in rows() for c in row.cards if c not in known]
    assert missing == []
    assert [(row.sheet, row.line, row.item) for row in rows() if not row.cards] == []
    assert {row.kind for row in rows()} <= KINDS


def beyond_the_sheets() -> list[str]:
    """The cards the table says go beyond the sheets' items (its last section)."""
    text = TABLE.read_text(encoding="utf-8")
    section = text[text.index("## Cards beyond the sheets' items") :]
    return [m.group(1) for line in section.splitlines() if (m := _BEYOND.match(line))]


def test_every_card_made_from_the_sheets_is_in_the_table() -> None:
    """A card tagged with a sheet drills a listed item, or is listed as going beyond them."""
    in_rows = {card for row in rows() for card in row.cards}
    beyond = beyond_the_sheets()
    assert beyond, "the table lists the cards beyond the sheets' items"
    assert sorted(set(beyond) & in_rows) == []
    assert sorted(set(beyond) - set(builtin_cards())) == []
    assert len(beyond) == len(set(beyond))
    tagged = {
        key
        for key, card in builtin_cards().items()
        if any(tag.startswith("sheet:") for tag in card.tags)
    }
    assert sorted(tagged - in_rows - set(beyond)) == []


def test_no_item_is_listed_twice_and_the_header_counts_the_rows() -> None:
    keys = Counter((row.sheet, row.line, row.item) for row in rows())
    assert [key for key, n in keys.items() if n > 1] == []
    stated = _COUNTS.search(TABLE.read_text(encoding="utf-8"))
    assert stated, "the header must say how many items the table lists"
    total, cheatsheet, formula_sheet = (int(n) for n in stated.groups())
    per_sheet = Counter(row.sheet for row in rows())
    assert (total, cheatsheet, formula_sheet) == (
        len(rows()),
        per_sheet["cheatsheet"],
        per_sheet["formula-sheet"],
    )


def test_each_card_drills_what_its_row_says_the_answer_holds() -> None:
    cards = builtin_cards()
    unheld = []
    for row in rows():
        if not row.holds:
            continue
        drilled_by = [
            key
            for key in row.cards
            if any(holds(text, row.holds) for text in answer_texts(cards[key]))
        ]
        if not drilled_by:
            unheld.append((row.sheet, row.line, row.item, row.holds))
        elif row.kind == "formula" and all(cards[k].kind.value == "reverse" for k in drilled_by):
            # naming a formula that is shown is not producing it
            unheld.append((row.sheet, row.line, row.item, "only a reverse card"))
    assert unheld == []


def test_what_an_answer_holds_is_matched_as_written() -> None:
    """The matching itself: spacing is ignored, a short piece is a whole token."""
    assert holds("2 * L * H_kv * d_h", "2*L*H_kv")
    assert holds("(0.6, 1.3)", "0.6")
    assert holds("d", "d") and holds("d/H", "d/h")
    assert not holds("10", "0")
    assert not holds("tanh(x)", "n")
    assert holds("R - D", "R-D") and holds("The KL divergence", "kl")
    assert not holds("x_1 - x_0", "x_1+x_0")


def test_the_last_two_sheet_items_are_drilled() -> None:
    listed = {(row.sheet, row.line, row.holds): row.cards for row in rows()}
    assert "activations/tanh-range" in listed[("formula-sheet", 47, "(-1,1)")]
    head = listed[("formula-sheet", 87, "Attention(X*W_Q,X*W_K,X*W_V)")]
    assert "attention-transformers/mha-head-definition" in head


def test_every_sheet_line_holding_an_item_has_its_rows() -> None:
    header = TABLE.read_text(encoding="utf-8")
    for sheet, text in sheets().items():
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
        assert f"{sheet} `{digest}`" in header, f"{sheet} is not the version the table names"
        expected = item_lines(sheet, text)
        per_line = Counter(row.line for row in rows() if row.sheet == sheet)
        assert sorted(expected - set(per_line)) == [], f"{sheet}: lines with items but no row"
        assert sorted(set(per_line) - expected) == [], f"{sheet}: rows for lines that hold no item"
        lines = text.split("\n")
        reference = lines.index("Quick numeric reference") + 1 if sheet == "cheatsheet" else 0
        short = {
            n: (per_line[n], items_stated(sheet, lines[n - 1], 0 < reference < n))
            for n in expected
            if per_line[n] < items_stated(sheet, lines[n - 1], 0 < reference < n)
        }
        assert short == {}, f"{sheet}: lines with fewer rows than the items they state"


def test_the_floor_counts_what_a_line_states() -> None:
    """The floor rule itself, on lines shaped like the sheets' (so it cannot silently be 1)."""
    assert items_stated("formula-sheet", "Adam: $$a$$ $$b$$ $$c$$ Defaults $x$.", False) == 3
    assert items_stated("cheatsheet", "RoPE \\(a\\) ; rotate \\(b\\) ; \\(c\\)", False) == 3
    assert items_stated("cheatsheet", "512 tokens, 64 overlap", True) == 2
