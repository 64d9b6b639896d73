"""The one way a deck-file table is checked: unknown keys and wrong types, with fixes to suggest.

Every table in a deck file (the header, a card, a symbol, a parameter, a tolerance) is checked
the same way, so the messages read alike wherever the mistake is. This holds that shared check
(:class:`TableChecker`) and the type words it speaks, apart from what each table means, so the
spec readers and the kind rules built on it stay small.
"""

from __future__ import annotations

from typing import Any

from recall.cards import schema
from recall.cards.positions import Path
from recall.cards.problems import Problems, did_you_mean
from recall.inert import quote

_TYPE_WORDS = {
    "str": "a string",
    "number": "a number",
    "int": "a whole number",
    "bool": "true or false",
    "table": "a table",
    "list[str]": "a list of strings",
    "list[number]": "a list of numbers",
    "list[table]": "a list of tables",
}


def type_ok(value: Any, type_name: str) -> bool:
    """Whether a TOML value has the type a schema names."""
    if type_name == "str":
        return isinstance(value, str)
    if type_name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if type_name == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if type_name == "bool":
        return isinstance(value, bool)
    if type_name == "table":
        return isinstance(value, dict)
    if type_name.startswith("list["):
        inner = type_name[5:-1]
        return isinstance(value, list) and all(type_ok(item, inner) for item in value)
    raise ValueError(type_name)


def _type_word(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


class TableChecker:
    """Reports into ``problems``; the base of :class:`~recall.cards.build.DeckBuilder`."""

    def __init__(self, problems: Problems) -> None:
        self.problems = problems

    def _check_table(
        self,
        table: dict[str, Any],
        allowed: dict[str, str],
        where: Path,
        card_id: str | None,
        what: str,
        *,
        known_elsewhere: dict[str, str] | None = None,
        kind: str | None = None,
    ) -> dict[str, Any]:
        """Report unknown keys and wrong types in ``table``; return the well-typed entries."""
        good: dict[str, Any] = {}
        for key, value in table.items():
            at = (*where, key)
            if key not in allowed:
                if known_elsewhere and key in known_elsewhere and kind:
                    owners = ", ".join(schema.kinds_using(key))
                    self.problems.add(
                        f"key '{quote(key)}' is not used by {kind} cards",
                        at,
                        card_id=card_id,
                        suggestion=f"it belongs to {owners} cards; remove it or change 'kind'",
                    )
                    continue
                hint = did_you_mean(key, allowed) or did_you_mean(key, known_elsewhere or {})
                allowed_list = ", ".join(sorted(allowed))
                self.problems.add(
                    f"unknown key '{quote(key)}' in {what}",
                    at,
                    card_id=card_id,
                    suggestion=hint or f"allowed keys: {allowed_list}",
                )
                continue
            expected = allowed[key]
            if not type_ok(value, expected):
                self.problems.add(
                    f"'{quote(key)}' must be {_TYPE_WORDS[expected]}, not {_type_word(value)}",
                    at,
                    card_id=card_id,
                    suggestion=_type_fix(expected, value),
                )
                continue
            good[key] = value
        return good


def _type_fix(expected: str, value: Any) -> str | None:
    if expected == "str" and isinstance(value, int | float):
        return f'quote it: "{value}"'
    if expected.startswith("list[") and not isinstance(value, list):
        return f"wrap it in a list: [{value!r}]" if isinstance(value, str | int | float) else None
    if expected in ("number", "int") and isinstance(value, str):
        return "remove the quotes"
    return None
