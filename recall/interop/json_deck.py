"""A deck read back from recall's JSON export (:func:`recall.interop.text_export.to_json`).

The export is the deck-file schema plus a few keys for readers (``reference``, ``key``,
``line``), so reading it is building those tables again: every kind, symbol and parameter comes
back as it was written.
"""

from __future__ import annotations

import json
import re
from typing import Any

from recall.cards.model import Deck
from recall.errors import DeckError
from recall.inert import quote
from recall.interop.deck_tables import deck_from_tables
from recall.interop.text_export import JSON_FORMAT_VERSION

#: Header keys the deck file knows; the export's ``path`` and ``builtin`` describe where the
#: deck came from and are not part of it.
DECK_KEYS = ("id", "name", "description", "topic", "tags")


#: How deep arrays and objects may nest in an export: a deck's tables nest a few levels (a card's
#: symbols, a parameter's range), and a deck file may nest 16 (``DECK_LIMITS``).
MAX_DEPTH = 32
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _too_deep(text: str) -> bool:
    """Whether ``text`` nests arrays and objects deeper than :data:`MAX_DEPTH` (strings are
    skipped): checked before ``json.loads``, whose recursion a hostile file could exhaust."""
    depth = 0
    for match in _JSON_TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif token in "]}":
            depth -= 1
    return False


def looks_like_json(text: str) -> bool:
    """Whether ``text`` starts like a JSON object (how ``--format auto`` tells it apart)."""
    return text.lstrip("\ufeff \t\r\n").startswith("{")


def read_json_deck(
    text: str, *, source: str = "<json>", deck_id: str | None = None, name: str | None = None
) -> Deck:
    """The deck in a JSON export (under ``deck_id``/``name`` when given, else its own); anything
    else raises :class:`DeckError` saying what."""
    if _too_deep(text):
        raise DeckError(
            f"arrays and objects nest deeper than {MAX_DEPTH} levels: not a recall deck export",
            path=source,
        )
    try:
        data: Any = json.loads(text.lstrip("\ufeff"))
    except RecursionError:
        raise DeckError("nested too deeply: not a recall deck export", path=source) from None
    except ValueError as error:
        raise DeckError(f"not valid JSON: {error}", path=source) from None
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise DeckError(
            "not a recall deck export: expected an object with 'deck' and 'cards'",
            path=source,
            suggestion="make it with `recall decks export DECK --format json`",
        )
    version = data.get("format")
    if version != JSON_FORMAT_VERSION:
        raise DeckError(
            f"deck export format {quote(repr(version))} is not {JSON_FORMAT_VERSION}",
            path=source,
            suggestion="export it again with this version of recall",
        )
    header = data.get("deck")
    if not isinstance(header, dict):
        raise DeckError("the export has no 'deck' object", path=source)
    cards = data["cards"]
    if not all(isinstance(card, dict) for card in cards):
        raise DeckError("every entry of 'cards' must be an object", path=source)
    wanted = {key: header[key] for key in DECK_KEYS if key in header}
    if deck_id:
        wanted["id"] = deck_id
    if name:
        wanted["name"] = name
    return deck_from_tables(wanted, cards, source=source)
