"""A deck out to other tools: CSV that Anki (and ``recall decks import``) read, or JSON.

The CSV carries Anki's plain-text headers (``#separator:comma``, ``#html:false``, ``#columns:``,
``#tags column:``), so Anki imports it as front/back notes, and recall imports it back with the
same card ids (the ``id`` column) and the same kinds: the last column, ``recall``, holds each
card's deck-file table as JSON, which ``recall decks import`` builds the card from again (a
formula card's symbols, a numeric card's parameters); Anki shows it as one more field.
JSON is the deck-file schema (:mod:`recall.cards.writer`) plus each card's reference answer in
typed syntax, lossless for every kind.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from recall.cards.model import Card, CardKind, Deck
from recall.cards.params import format_number
from recall.cards.schema import BLANK
from recall.cards.writer import card_to_dict, deck_header
from recall.interop.deck_tables import table_text

#: Bumped when the JSON layout changes incompatibly.
JSON_FORMAT_VERSION = 1
CSV_COLUMNS = ("id", "front", "back", "tags", "kind", "recall")


def front_text(card: Card) -> str:
    """What the learner is shown: the prompt, plus the formula for reverse cards; the statement
    with the blank as ``____`` for cloze cards."""
    if card.kind is CardKind.CLOZE:
        text = card.text.replace(BLANK, "____")
        return f"{card.prompt}\n{text}" if card.prompt else text
    if card.kind is CardKind.REVERSE and card.shown:
        return f"{card.prompt}\n{card.shown}"
    return card.prompt


def back_text(card: Card) -> str:
    """The reference answer as text (typed syntax for math, names joined by `` / ``)."""
    kind = card.kind
    if kind in (CardKind.FORMULA, CardKind.NUMERIC) or (kind is CardKind.CLOZE and card.answer):
        return card.answer
    if kind in (CardKind.REVERSE, CardKind.CLOZE):
        return " / ".join(card.accept)
    if kind is CardKind.FACT:
        unit = card.unit if card.unit == "%" else (f" {card.unit}" if card.unit else "")
        if card.value_range is not None:
            low, high = card.value_range
            return f"{format_number(low)}-{format_number(high)}{unit}"
        return f"{format_number(card.value if card.value is not None else float('nan'))}{unit}"
    return card.model_answer


#: First characters that make a spreadsheet treat a cell as a formula (``=cmd|...``, ``@SUM``,
#: ``-2+3``): such cells are exported with a leading ``'``, which spreadsheets show as text and
#: ``recall decks import`` removes again.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: str) -> str:
    """``cell`` as a spreadsheet will read it as text, never as a formula to run."""
    return "'" + cell if cell.startswith(FORMULA_TRIGGERS) else cell


def from_spreadsheet_safe(cell: str) -> str:
    """The cell :func:`spreadsheet_safe` was given (other text unchanged)."""
    if cell.startswith("'") and cell[1:].startswith(FORMULA_TRIGGERS):
        return cell[1:]
    return cell


def to_csv(deck: Deck) -> str:
    """The deck as an Anki-readable CSV with a header block; every cell spreadsheet-safe."""
    buffer = io.StringIO()
    buffer.write("#separator:comma\n#html:false\n")
    buffer.write("#columns:" + ",".join(CSV_COLUMNS) + "\n")
    buffer.write(f"#tags column:{CSV_COLUMNS.index('tags') + 1}\n")
    writer = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    for card in deck.cards:
        tags = " ".join(t.replace(" ", "_") for t in card.tags)
        table = table_text(card_to_dict(card))
        cells = [card.id, front_text(card), back_text(card), tags, str(card.kind), table]
        writer.writerow([spreadsheet_safe(cell) for cell in cells])
    return buffer.getvalue()


def card_json(card: Card, *, deck_tags: tuple[str, ...] = ()) -> dict[str, Any]:
    """One card for JSON output: the deck-file keys plus ``reference`` (typed), ``line`` and
    the key ``deck/card``."""
    data = card_to_dict(card, deck_tags=deck_tags)
    data["reference"] = back_text(card)
    data["key"] = card.key
    data["line"] = card.line
    return data


def to_json(deck: Deck) -> str:
    """The deck as JSON (``{"format": 1, "deck": {...}, "cards": [...]}``)."""
    payload = {
        "format": JSON_FORMAT_VERSION,
        "deck": {**deck_header(deck), "path": deck.path, "builtin": deck.builtin},
        "cards": [card_json(card, deck_tags=deck.tags) for card in deck.cards],
    }
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
