"""The coverage table (``decks/COVERAGE.md``) stays true against the decks and the sheets.

Every card id it lists is a built-in card, every row lists at least one, and every line of the
two formula sheets that holds an item (the rule is written at the top of the table) has a row.
The sheets themselves are not shipped (their text is not ours to copy): they are read from
``RECALL_SHEETS`` (default ``/work/shared/seeds``), and must be the versions the table names.
"""

from __future__ import annotations

import hashlib
import os
import re
from functools import lru_cache
from pathlib import Path

import pytest

from recall.cards.loader import load_decks
from recall.paths import builtin_decks_dir

TABLE = Path(__file__).resolve().parent.parent / "decks" / "COVERAGE.md"
SHEET_FILES = {
    "cheatsheet": "000_48c3d15f3f71dd7d.txt",
    "formula-sheet": "001_6d4fb894a324e864.txt",
}
_ROW = re.compile(r"^\| (cheatsheet|formula-sheet) \| (\d+) \| ([^|]+) \| ([^|]*) \|$")


@lru_cache(maxsize=1)
def rows() -> tuple[tuple[str, int, tuple[str, ...]], ...]:
    out = []
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        match = _ROW.match(line)
        if match:
            cards = tuple(card.strip() for card in match.group(4).split(",") if card.strip())
            out.append((match.group(1), int(match.group(2)), cards))
    return tuple(out)


def item_lines(sheet: str, text: str) -> set[int]:
    """The lines of ``sheet`` holding an item, by the rule at the top of the table."""
    lines = text.split("\n")
    found = set()
    if sheet == "cheatsheet":
        reference = next(n for n, line in enumerate(lines, 1) if line == "Quick numeric reference")
        for n, line in enumerate(lines, 1):
            if n < reference and "\\(" in line:
                found.add(n)
        # the reference table: a "Quantity", "Value" header, then label and value lines in turn
        values = lines[reference + 2 :]
        for offset, line in enumerate(values):
            if offset % 2 == 1 and line.strip():
                found.add(reference + 3 + offset)
        return found
    for n, line in enumerate(lines, 1):
        heading = len(line.split()) <= 4 and not re.search(r"[$.—:=]", line)
        if n > 3 and line.strip() and not heading:
            found.add(n)
    return found


def test_the_table_has_rows_and_every_row_lists_real_cards() -> None:
    known = {card.key for card in load_decks([builtin_decks_dir()]).cards}
    assert len(rows()) > 200
    missing = [
        (sheet, n, card) for sheet, n, cards in rows() for card in cards if card not in known
    ]
    assert missing == []
    assert [(sheet, n) for sheet, n, cards in rows() if not cards] == []
    keys = [(sheet, n) for sheet, n, _ in rows()]
    assert len(keys) == len(set(keys))


def test_the_last_two_sheet_items_are_drilled() -> None:
    listed = {(sheet, n): cards for sheet, n, cards in rows()}
    assert "activations/tanh-range" in listed[("formula-sheet", 47)]
    assert "attention-transformers/mha-head-definition" in listed[("formula-sheet", 87)]


def test_every_sheet_line_holding_an_item_has_a_row() -> None:
    folder = Path(os.environ.get("RECALL_SHEETS", "/work/shared/seeds"))
    if not all((folder / name).is_file() for name in SHEET_FILES.values()):
        pytest.skip(f"the formula sheets are not in {folder} (set RECALL_SHEETS)")
    header = TABLE.read_text(encoding="utf-8")
    for sheet, name in SHEET_FILES.items():
        data = (folder / name).read_bytes()
        digest = hashlib.sha256(data).hexdigest()[:16]
        assert f"{sheet} `{digest}`" in header, f"{name} is not the version the table was made from"
        expected = item_lines(sheet, data.decode("utf-8"))
        listed = {n for s, n, _ in rows() if s == sheet}
        assert sorted(expected - listed) == [], f"{sheet}: lines holding an item without a row"
        assert sorted(listed - expected) == [], f"{sheet}: rows for lines that hold no item"
