"""Raw TOML data → :class:`~recall.cards.model.Deck`, checking structure as it goes.

This is the stdlib half of validation: keys, types, required fields, id syntax and uniqueness,
and the rules of each card kind. It needs no formula engine, so it is fast and always runs.
This module is the deck header and the skeleton of one card; the shared key/type check
(:mod:`recall.cards.checking`), the spec readers (:mod:`recall.cards.specs`) and the per-kind
rules (:mod:`recall.cards.kinds`) are split out so each stays one concept.
Whether expressions parse and templates evaluate is the engine's job
(:func:`recall.grading.check_deck`).

Every problem is recorded in a :class:`~recall.cards.problems.Problems` with its line; a card
with structural errors is left out of the result, and the caller treats any error as a failed
deck.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from recall.cards import schema
from recall.cards.checking import type_ok
from recall.cards.kinds import MISSING_HINTS, KindRules
from recall.cards.model import Card, CardKind, Deck, FunctionSpec, SymbolSpec
from recall.cards.positions import Path
from recall.cards.problems import Problems, did_you_mean
from recall.inert import quote

__all__ = ["BuiltCard", "BuiltDeck", "DeckBuilder", "type_ok"]


@dataclass(frozen=True)
class BuiltCard:
    """A card and its position in the file's ``card`` array (for locating later errors)."""

    index: int
    card: Card
    own_symbols: frozenset[str] = frozenset()  # declared on the card itself, not the deck
    own_functions: frozenset[str] = frozenset()


@dataclass
class BuiltDeck:
    """The structural result: the deck header and the cards that passed."""

    deck: Deck
    cards: list[BuiltCard]
    symbols: list[SymbolSpec]
    functions: list[FunctionSpec]


class DeckBuilder(KindRules):
    """Builds one deck from its parsed TOML, reporting into ``problems``.

    The table check, the spec readers and the kind rules it inherits live in
    :mod:`recall.cards.checking`, :mod:`recall.cards.specs` and :mod:`recall.cards.kinds`; this
    module is the deck header and the card skeleton that calls them.
    """

    def __init__(self, problems: Problems, *, builtin: bool = False) -> None:
        super().__init__(problems)
        self.builtin = builtin

    # ----- the deck header -----------------------------------------------------------------

    def build(self, data: dict[str, Any], path: str) -> BuiltDeck | None:
        """Check the whole file; ``None`` when even the deck header is unusable."""
        top_allowed = {"deck": "table", "card": "list[table]"}
        for key in data:
            if key not in top_allowed:
                self.problems.add(
                    f"unknown top-level table or key '{quote(key)}'",
                    (key,),
                    suggestion=did_you_mean(key, top_allowed)
                    or "a deck file has [deck] and [[card]] tables",
                )
        raw_deck = data.get("deck")
        if not isinstance(raw_deck, dict):
            self.problems.add(
                "the file has no [deck] table",
                line=1,
                suggestion='start with [deck] and id = "...", name = "..."',
            )
            return None
        header = self._check_table(raw_deck, schema.DECK_KEYS, ("deck",), None, "[deck]")
        for key in schema.DECK_REQUIRED:
            if key not in raw_deck:
                self.problems.add(
                    f"[deck] is missing '{quote(key)}'",
                    ("deck",),
                    suggestion=f'add {key} = "..."',
                )
        deck_id = header.get("id", "")
        if isinstance(deck_id, str) and len(deck_id) > schema.MAX_ID:
            self.problems.add(
                f"deck id is {len(deck_id)} characters long; the most is {schema.MAX_ID}",
                ("deck", "id"),
                suggestion="shorten it (the database stores at most that many)",
            )
        elif "id" in header and not schema.DECK_ID.match(deck_id):
            self.problems.add(
                f"deck id '{quote(deck_id)}' is not valid",
                ("deck", "id"),
                suggestion="use lowercase letters, digits, '-' and '_', e.g. "
                f"'{_slug(deck_id) or 'my-deck'}'",
            )
        deck_symbols = self._symbols(header.get("symbols", {}), ("deck", "symbols"), None)
        deck_functions = self._functions(header.get("functions", {}), ("deck", "functions"), None)
        name = header.get("name", deck_id)
        topic = header.get("topic", "") or name
        deck_tags = tuple(header.get("tags", ()))
        for key, text in (("name", name), ("topic", topic)):
            if isinstance(text, str) and len(text) > schema.MAX_NAME:
                self.problems.add(
                    f"the deck {key} is {len(text)} characters long; the most is {schema.MAX_NAME}",
                    ("deck", key if key in header else "name"),
                    suggestion="shorten it (the database stores at most that many)",
                )

        raw_cards = data.get("card", [])
        if not isinstance(raw_cards, list):
            raw_cards = []
        if len(raw_cards) > schema.MAX_CARDS:
            self.problems.add(
                f"the deck has {len(raw_cards)} cards; the most in one file is {schema.MAX_CARDS}",
                ("deck",),
                suggestion="split it into several decks",
            )
            raw_cards = []
        # No cards is not a problem: a new deck (`recall decks new`) starts with its example
        # cards commented out, so nothing enters the plan until the learner writes a card.
        cards: list[BuiltCard] = []
        seen: dict[str, int] = {}
        for index, raw in enumerate(raw_cards):
            if not isinstance(raw, dict):
                self.problems.add("a card must be a table", ("card", index))
                continue
            card = self._card(
                raw,
                index,
                deck_id=deck_id,
                topic=topic,
                deck_tags=deck_tags,
                deck_symbols=deck_symbols,
                deck_functions=deck_functions,
                path=path,
            )
            card_id = raw.get("id") if isinstance(raw.get("id"), str) else None
            if card_id is not None:
                if card_id in seen:
                    first_line = self.problems.positions.line("card", seen[card_id])
                    self.problems.add(
                        f"duplicate card id '{quote(card_id)}'",
                        ("card", index, "id"),
                        card_id=card_id,
                        suggestion="ids must be unique in a deck; "
                        f"the first is at line {first_line}",
                    )
                    continue
                seen[card_id] = index
            if card is not None:
                cards.append(
                    BuiltCard(
                        index,
                        card,
                        frozenset(_names(raw.get("symbols"))),
                        frozenset(_names(raw.get("functions"))),
                    )
                )

        self._check_siblings(cards, seen)
        deck = Deck(
            id=deck_id,
            name=name,
            description=header.get("description", ""),
            tags=deck_tags,
            topic=topic,
            path=path,
            builtin=self.builtin,
            cards=tuple(built.card for built in cards),
        )
        return BuiltDeck(deck, cards, deck_symbols, deck_functions)

    def _check_siblings(self, cards: list[BuiltCard], ids: dict[str, int]) -> None:
        """Each declared sibling must be another card of the deck."""
        for built in cards:
            card = built.card
            for other in card.siblings:
                if other == card.id:
                    self.problems.add(
                        "a card cannot be its own sibling",
                        ("card", built.index, "siblings"),
                        card_id=card.id,
                    )
                elif other not in ids:
                    self.problems.add(
                        f"sibling '{other}' is not a card of this deck",
                        ("card", built.index, "siblings"),
                        card_id=card.id,
                        suggestion=did_you_mean(other, list(ids))
                        or "list ids of this deck's cards",
                    )

    # ----- one card ------------------------------------------------------------------------

    def _card(
        self,
        raw: dict[str, Any],
        index: int,
        *,
        deck_id: str,
        topic: str,
        deck_tags: tuple[str, ...],
        deck_symbols: list[SymbolSpec],
        deck_functions: list[FunctionSpec],
        path: str,
    ) -> Card | None:
        where: Path = ("card", index)
        before = len(self.problems.errors)
        raw_id = raw.get("id")
        card_id = raw_id if isinstance(raw_id, str) else None
        label = card_id or f"#{index + 1}"
        if raw_id is None:
            self.problems.add(
                f"card #{index + 1} has no 'id'",
                where,
                suggestion='add id = "..." (lowercase, unique in the deck, never changed later)',
            )
        elif not isinstance(raw_id, str):
            self.problems.add("'id' must be a string", (*where, "id"), card_id=label)
        elif len(raw_id) > schema.MAX_ID:
            self.problems.add(
                f"card id is {len(raw_id)} characters long; the most is {schema.MAX_ID}",
                (*where, "id"),
                card_id=raw_id[:40] + "…",
                suggestion="shorten it (the database stores at most that many)",
            )
        elif not schema.CARD_ID.match(raw_id):
            self.problems.add(
                f"card id '{quote(raw_id)}' is not valid",
                (*where, "id"),
                card_id=raw_id,
                suggestion="use lowercase letters, digits, '-', '_' and '.', "
                f"e.g. '{_slug(raw_id) or 'card-1'}'",
            )

        raw_kind = raw.get("kind")
        kind: CardKind | None = None
        kind_names = _KIND_NAMES
        if raw_kind is None:
            self.problems.add(
                "card has no 'kind'",
                where,
                card_id=label,
                suggestion="kind is one of " + ", ".join(kind_names),
            )
        elif not isinstance(raw_kind, str) or raw_kind not in kind_names:
            self.problems.add(
                f"unknown kind {raw_kind!r}",
                (*where, "kind"),
                card_id=label,
                suggestion=did_you_mean(str(raw_kind), kind_names)
                or "kind is one of " + ", ".join(kind_names),
            )
        else:
            kind = CardKind(raw_kind)

        if kind is None:
            # Still report unknown keys, against every kind's keys.
            self._check_table(raw, schema.all_card_keys(), where, label, "the card")
            return None

        allowed = _allowed_keys(kind)
        entry = self._check_table(
            raw,
            allowed,
            where,
            label,
            "the card",
            known_elsewhere=_all_card_keys(),
            kind=str(kind),
        )
        for key in schema.KIND_REQUIRED[kind]:
            if key not in raw:
                self.problems.add(
                    f"{kind} card is missing '{quote(key)}'",
                    where,
                    card_id=label,
                    suggestion=MISSING_HINTS.get(key, f"add '{quote(key)}'"),
                )
            elif isinstance(raw[key], str) and not raw[key].strip():
                self.problems.add(f"'{quote(key)}' is empty", (*where, key), card_id=label)

        symbols = _merge(
            deck_symbols, self._symbols(entry.get("symbols", {}), (*where, "symbols"), label)
        )
        functions = _merge(
            deck_functions,
            self._functions(entry.get("functions", {}), (*where, "functions"), label),
        )
        identities = self._identities(entry.get("identities", []), (*where, "identities"), label)
        fields: dict[str, Any] = {}
        check = getattr(self, f"_kind_{kind}")
        check(entry, where, label, fields)

        if len(self.problems.errors) > before or card_id is None:
            return None
        tags = tuple(dict.fromkeys((*deck_tags, *entry.get("tags", ()))))
        return Card(
            deck_id=deck_id,
            id=card_id,
            kind=kind,
            prompt=entry.get("prompt", "").strip(),
            answer=entry.get("answer", "").strip(),
            shown=entry.get("shown", "").strip(),
            text=entry.get("text", "").strip(),
            model_answer=entry.get("model_answer", "").strip(),
            numbers=tuple(entry.get("numbers", ())),
            accept=tuple(a.strip() for a in entry.get("accept", ())),
            symbols=tuple(symbols),
            functions=tuple(functions),
            identities=tuple(identities),
            unit=entry.get("unit", ""),
            hint=entry.get("hint", "").strip(),
            source=entry.get("source", ""),
            note=entry.get("note", "").strip(),
            siblings=tuple(dict.fromkeys(entry.get("siblings", ()))),
            tags=tags,
            topic=topic,
            line=self.problems.positions.card_line(index) or 0,
            path=path,
            **fields,
        )


def _names(table: Any) -> list[str]:
    return list(table) if isinstance(table, dict) else []


def _merge(base: list[Any], own: list[Any]) -> list[Any]:
    """Deck-level specs overridden by the card's own (same name), card order last."""
    by_name = {spec.name: spec for spec in base}
    for spec in own:
        by_name.pop(spec.name, None)
    return [*by_name.values(), *own]


def _slug(text: str) -> str:
    out = []
    for ch in text.lower():
        if ch.isascii() and ch.isalnum():
            out.append(ch)
        elif out and out[-1] != "-":
            out.append("-")
    return "".join(out).strip("-")


#: The card kinds' names, in declaration order (read for every card).
_KIND_NAMES: Final = [str(kind) for kind in CardKind]


@cache
def _allowed_keys(kind: CardKind) -> dict[str, str]:
    """The keys a card of ``kind`` may have, with their types: made once per kind, not once
    per card (the schema's tables are constants)."""
    return {**schema.COMMON_KEYS, **schema.KIND_KEYS[kind]}


@cache
def _all_card_keys() -> dict[str, str]:
    """:func:`recall.cards.schema.all_card_keys`, made once."""
    return schema.all_card_keys()
