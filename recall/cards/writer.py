"""Decks back to data: a card as a plain dict in the deck-file schema, a deck as TOML text.

Used by ``recall decks import`` (which builds a deck and writes it out), ``decks export --format
json`` and ``decks show --json``. What :func:`deck_to_toml` writes loads back to equal cards; the
tests hold it to that.
"""

from __future__ import annotations

from typing import Any

from recall.cards.model import Card, CardKind, Deck, ParamSpec, Tolerance
from recall.toml_text import toml_key, toml_string


def tolerance_to_dict(tolerance: Tolerance) -> dict[str, Any]:
    """``Tolerance("relative", 0.01)`` → ``{"relative": 0.01}`` (the deck-file form)."""
    if tolerance.kind == "exact":
        return {"exact": True}
    if tolerance.kind == "sigfigs":
        return {"sigfigs": int(tolerance.value)}
    return {tolerance.kind: tolerance.value}


def param_to_dict(spec: ParamSpec) -> dict[str, Any]:
    """A parameter in the deck-file form, leaving out defaults."""
    out: dict[str, Any] = {}
    if spec.choices:
        out["choices"] = [_plain(c) for c in spec.choices]
    else:
        out["low"] = _plain(spec.low)
        out["high"] = _plain(spec.high)
    if spec.log:
        out["log"] = True
    if spec.integer:
        out["integer"] = True
    if spec.step is not None:
        out["step"] = _plain(spec.step)
    if spec.sigfigs is not None:
        out["sigfigs"] = spec.sigfigs
    if spec.meaning:
        out["meaning"] = spec.meaning
    return out


def card_to_dict(card: Card, *, deck_tags: tuple[str, ...] = ()) -> dict[str, Any]:
    """The card as the keys of a ``[[card]]`` table (deck-level tags left out)."""
    out: dict[str, Any] = {"id": card.id, "kind": str(card.kind)}
    if card.prompt:
        out["prompt"] = card.prompt
    kind = card.kind
    if kind is CardKind.CLOZE:
        out["text"] = card.text
    if card.shown and kind in (CardKind.FORMULA, CardKind.REVERSE):
        out["shown"] = card.shown
    if card.answer and kind in (CardKind.FORMULA, CardKind.NUMERIC, CardKind.CLOZE):
        out["answer"] = card.answer
    if card.accept and kind in (CardKind.REVERSE, CardKind.CLOZE):
        out["accept"] = list(card.accept)
    if kind is CardKind.FACT:
        if card.value_range is not None:
            out["range"] = [_plain(v) for v in card.value_range]
        elif card.value is not None:
            out["value"] = _plain(card.value)
    if kind is CardKind.EXPLAIN:
        out["model_answer"] = card.model_answer
        if card.numbers:
            out["numbers"] = list(card.numbers)
    if card.tolerance is not None and kind in (CardKind.NUMERIC, CardKind.FACT):
        out["tolerance"] = tolerance_to_dict(card.tolerance)
    if card.unit and kind in (CardKind.NUMERIC, CardKind.FACT):
        out["unit"] = card.unit
    for key in ("hint", "source", "note"):
        value = getattr(card, key)
        if value:
            out[key] = value
    tags = [t for t in card.tags if t not in deck_tags]
    if tags:
        out["tags"] = tags
    if card.identities:
        out["identities"] = [
            {"derivative_of": i.derivative_of, "wrt": i.wrt, "rhs": i.rhs}
            if i.derivative_of is not None
            else {"lhs": i.lhs, "rhs": i.rhs}
            for i in card.identities
        ]
    if card.symbols:
        out["symbols"] = {
            s.name: ({"domain": s.domain, "meaning": s.meaning} if s.meaning else s.domain)
            for s in card.symbols
        }
    if card.functions:
        out["functions"] = {
            f.name: ({"means": f.means, "meaning": f.meaning} if f.meaning else f.means)
            for f in card.functions
        }
    if card.params:
        out["params"] = {spec.name: param_to_dict(spec) for spec in card.params}
    return out


def deck_header(deck: Deck) -> dict[str, Any]:
    """The ``[deck]`` table of ``deck``."""
    out: dict[str, Any] = {"id": deck.id, "name": deck.name}
    if deck.description:
        out["description"] = deck.description
    if deck.topic and deck.topic != deck.name:
        out["topic"] = deck.topic
    if deck.tags:
        out["tags"] = list(deck.tags)
    return out


def deck_to_dict(deck: Deck) -> dict[str, Any]:
    """The whole deck in the deck-file schema (``{"deck": {...}, "card": [...]}``)."""
    return {
        "deck": deck_header(deck),
        "card": [card_to_dict(card, deck_tags=deck.tags) for card in deck.cards],
    }


# ----- TOML ----------------------------------------------------------------------------------

_SUBTABLES = ("symbols", "functions", "params")


def deck_to_toml(deck: Deck, *, comment: str = "") -> str:
    """TOML text for ``deck`` that loads back to the same content."""
    data = deck_to_dict(deck)
    lines: list[str] = []
    for line in comment.splitlines():
        lines.append(f"# {line}".rstrip())
    if lines:
        lines.append("")
    lines.append("[deck]")
    lines.extend(f"{_key(k)} = {_value(v)}" for k, v in data["deck"].items())
    for card in data["card"]:
        lines.append("")
        lines.append("[[card]]")
        for key, value in card.items():
            if key in _SUBTABLES:
                continue
            lines.append(f"{_key(key)} = {_value(value)}")
        for key in _SUBTABLES:
            if key in card:
                lines.append(f"[card.{key}]")
                lines.extend(f"{_key(k)} = {_value(v)}" for k, v in card[key].items())
    return "\n".join(lines) + "\n"


def _key(key: str) -> str:
    return toml_key(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def _float(value: float) -> str:
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError("deck values must be finite")
    text = repr(value)
    return text if any(c in text for c in ".en") else text + ".0"


def _plain(value: float | None) -> int | float | None:
    """Whole floats as ints, so files read ``16`` rather than ``16.0``."""
    if value is None:
        return None
    if float(value).is_integer() and abs(value) < 1e15:
        return int(value)
    return float(value)
