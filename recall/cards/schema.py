"""The keys a deck file may use, per table and per card kind (the contract of docs/decks.md).

Kept as data so the validator, the ``decks new`` template and the docs can agree, and so an
unknown key can be answered with the closest known one.
"""

from __future__ import annotations

import re

from recall.cards.model import CardKind

#: Longest deck and card ids, deck names and topics: exactly what the database columns hold
#: (``recall.store.models``: ``String(100)``, ``String(200)``; a test keeps the two equal), so
#: a deck that validates can be stored on every backend (PostgreSQL refuses longer values).
MAX_ID = 100
MAX_NAME = 200
#: Most cards in one deck file (``docs/decks.md``, "Limits").
MAX_CARDS = 2000
#: Most grid values a numeric parameter's ``step`` may give over its range.
MAX_STEPS = 1e9
#: Largest magnitude of a number in a parameter spec (the range's width must stay finite).
MAX_MAGNITUDE = 1e300
#: Most significant figures a parameter may keep (a float holds about 16).
MAX_SIGFIGS = 15

#: Deck ids: lowercase letters, digits, ``-`` and ``_``, starting with a letter or digit.
DECK_ID = re.compile(rf"^[a-z0-9][a-z0-9_-]{{0,{MAX_ID - 1}}}\Z")
#: Card ids may also use ``.`` (``adam.bias-correction``).
CARD_ID = re.compile(rf"^[a-z0-9][a-z0-9_.-]{{0,{MAX_ID - 1}}}\Z")
#: A variable or function name in typed syntax: letters (any script) and digits, ``_``-joined
#: parts, optional trailing primes (``f'``).
NAME = re.compile(r"^[^\W\d_][^\W_]*(?:_[^\W_]+)*'*\Z")
#: ``{N}`` placeholders in a numeric prompt: a name in single braces (``{{}}`` and braces around
#: anything that is not a plain name, such as ``{t-1}``, are left alone).
PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z][A-Za-z0-9_]*)\}(?!\})")
#: The blank of a cloze card.
BLANK = "{{}}"

DECK_KEYS: dict[str, str] = {
    "id": "str",
    "name": "str",
    "description": "str",
    "topic": "str",
    "tags": "list[str]",
    "symbols": "table",
    "functions": "table",
}
DECK_REQUIRED = ("id", "name")

#: Keys every card may carry, with their types.
COMMON_KEYS: dict[str, str] = {
    "id": "str",
    "kind": "str",
    "prompt": "str",
    "hint": "str",
    "source": "str",
    "tags": "list[str]",
    "note": "str",
    "symbols": "table",
    "functions": "table",
    "identities": "list[table]",
    "siblings": "list[str]",
}

#: The form an answer must take (recall.cards.rules): names it must use, names it must avoid.
FORM_KEYS: dict[str, str] = {"require": "list[str]", "forbid": "list[str]"}

#: Keys specific to each kind, with their types.
KIND_KEYS: dict[CardKind, dict[str, str]] = {
    CardKind.FORMULA: {"answer": "str", "shown": "str", **FORM_KEYS},
    CardKind.NUMERIC: {"answer": "str", "params": "table", "tolerance": "table", "unit": "str"},
    CardKind.FACT: {
        "value": "number",
        "range": "list[number]",
        "tolerance": "table",
        "unit": "str",
    },
    CardKind.REVERSE: {"shown": "str", "accept": "list[str]"},
    CardKind.CLOZE: {"text": "str", "answer": "str", "accept": "list[str]", **FORM_KEYS},
    CardKind.EXPLAIN: {"model_answer": "str", "numbers": "list[str]", "points": "list[table]"},
}

#: Keys each kind must have (``prompt`` for every kind but cloze).
KIND_REQUIRED: dict[CardKind, tuple[str, ...]] = {
    CardKind.FORMULA: ("prompt", "answer"),
    CardKind.NUMERIC: ("prompt", "answer", "params"),
    CardKind.FACT: ("prompt",),
    CardKind.REVERSE: ("prompt", "shown", "accept"),
    CardKind.CLOZE: ("text",),
    CardKind.EXPLAIN: ("prompt", "model_answer"),
}

SYMBOL_KEYS = {"domain": "str", "meaning": "str", "equals": "str", "identities_only": "bool"}
FUNCTION_KEYS = {"means": "str", "meaning": "str"}
PARAM_KEYS = {
    "low": "number",
    "high": "number",
    "choices": "list[number]",
    "log": "bool",
    "integer": "bool",
    "step": "number",
    "sigfigs": "int",
    "meaning": "str",
}
TOLERANCE_KEYS = {"relative": "number", "absolute": "number", "sigfigs": "int", "exact": "bool"}
POINT_KEYS = {
    "say": "str",
    "words": "list[str]",
    "formulas": "list[str]",
    "values": "list[table]",
    "subject": "str",
    "versus": "list[str]",
    "opposites": "list[str]",
}
POINT_VALUE_KEYS = {"value": "number", "within": "number"}
#: Most key points one explain card may declare, and most phrasings one point may list.
MAX_POINTS = 12
MAX_PHRASINGS = 40
#: Most terms a key point may be contrasted with (``versus``).
MAX_CONTRAST = 6
IDENTITY_KEYS = {"lhs": "str", "rhs": "str", "derivative_of": "str", "wrt": "str"}


def all_card_keys() -> dict[str, str]:
    """Every key any card kind accepts (for "did you mean" suggestions)."""
    keys = dict(COMMON_KEYS)
    for extra in KIND_KEYS.values():
        keys.update(extra)
    return keys


def kinds_using(key: str) -> list[str]:
    """The kinds whose cards accept ``key``, in declaration order."""
    return [str(kind) for kind, keys in KIND_KEYS.items() if key in keys]
