"""Cards given as deck-file tables (the keys of a ``[[card]]``), built into a checked deck.

recall's own exports carry each card as the table the deck file would hold (the JSON export's
``cards``, the CSV export's ``recall`` column, the ``.apkg`` note's hidden field), so importing
them builds the deck through the same :class:`~recall.cards.build.DeckBuilder` a ``.toml`` file
goes through: every kind comes back as it was, and a table that is not a valid card is refused
with the builder's own message rather than guessed at.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from recall.cards.build import DeckBuilder
from recall.cards.model import Deck
from recall.cards.problems import Problems
from recall.cards.siblings import with_sibling_groups
from recall.cards.untrusted import record_forbidden_characters
from recall.errors import DeckError

#: Characters of one card's table as JSON, at most (a real card is a few hundred).
MAX_TABLE_CHARS = 20_000

#: Keys the exports add beside a card's deck-file keys; dropped before building.
EXPORT_ONLY_KEYS = ("reference", "key", "line")


def card_table(text: str) -> dict[str, Any] | None:
    """``text`` as one card's table (a JSON object), or ``None`` when it is not one."""
    text = text.strip()
    if not text.startswith("{") or len(text) > MAX_TABLE_CHARS:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def table_text(table: Mapping[str, Any]) -> str:
    """One card's table as compact JSON (the inverse of :func:`card_table`)."""
    return json.dumps(table, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def deck_from_tables(
    header: Mapping[str, Any],
    tables: Iterable[Mapping[str, Any]],
    *,
    source: str,
    siblings: bool = True,
) -> Deck:
    """A deck built from its ``[deck]`` table and card tables; every problem raises one
    :class:`DeckError` listing them all. ``siblings=False`` skips finding the cards that give
    each other's answers away, for a deck that is only written out (loading it finds them)."""
    cards = [
        {key: value for key, value in table.items() if key not in EXPORT_ONLY_KEYS}
        for table in tables
    ]
    problems = Problems(source)
    data = {"deck": dict(header), "card": cards}
    record_forbidden_characters(data, problems)  # control characters, and invisible ones in ids
    built = DeckBuilder(problems).build(data, source)
    if problems or built is None:
        errors = problems.sorted()
        lines = "\n".join(str(error) for error in errors[:10])
        more = f"\n… and {len(errors) - 10} more" if len(errors) > 10 else ""
        raise DeckError(f"the cards do not make a valid deck:\n{lines}{more}", path=source)
    return with_sibling_groups(built.deck) if siblings else built.deck
