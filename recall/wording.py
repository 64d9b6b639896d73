"""Counts as a person writes them: "1 day", "2 days", "1 byte", "0 cards".

Every layer prints counts (the scheduler's exam plan, the deck format's units, the commands and
the screens), so the one rule lives here, below all of them, stdlib-only. A count is singular
only when it is exactly one; anything else (0, 2, 1.5) takes the plural.
"""

from __future__ import annotations

import re
import string
import unicodedata

__all__ = ["REVIEW_AHEAD", "count_of", "in_scope", "is_one", "key_name", "plural", "unit_for"]

#: A last word that is an English plural of a unit (``bytes``, ``FLOPs``, ``GPU-hours``), not an
#: abbreviation that happens to end in s (``ms``, ``s``).
_PLURAL_WORD = re.compile(r"(?P<stem>[A-Za-z][A-Za-z-]*[A-Za-z])s$")
#: Words whose plural is not the singular plus "s".
_IRREGULAR = {"entry": "entries", "child": "children", "index": "indices", "query": "queries"}


def is_one(number: float | str) -> bool:
    """Whether ``number`` (a count, or a number as shown: ``"1"``, ``"1.0"``) is exactly one."""
    if isinstance(number, str):
        return number.strip() in ("1", "+1", "-1", "1.0")
    return abs(number) == 1


def plural(word: str, count: float | str = 2) -> str:
    """``word`` in the form that goes with ``count``: ``plural("day", 1)`` → ``day``."""
    if is_one(count):
        return word
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in tuple("aeiou"):
        return word[:-1] + "ies"
    return word + "s"


def count_of(count: float, word: str) -> str:
    """``3 days``, ``1 day``, ``0 cards``: the number and the word that goes with it."""
    shown = f"{count:g}" if isinstance(count, float) else str(count)
    return f"{shown} {plural(word, count)}"


def unit_for(number: str, unit: str) -> str:
    """A card's unit as it reads after ``number``: ``bytes`` after 1 is ``byte``, ``bits/char``
    is ``bit/char``, ``KV heads`` is ``KV head``; symbols (``GB``, ``%``, ``×``) never change."""
    if not is_one(number) or unit.startswith(("%", "×")):
        return unit
    head, slash, rest = unit.partition("/")
    words = head.split(" ")
    match = _PLURAL_WORD.fullmatch(words[-1])
    if match is None or words[-1].isupper():
        return unit
    words[-1] = match["stem"]
    return " ".join(words) + slash + rest


#: The one name of the off-schedule session of the weakest cards, on every screen that offers it.
REVIEW_AHEAD = "review ahead"

_KEY_NAMES = {
    "space": "Space",
    "escape": "Esc",
    "enter": "Enter",
    "tab": "Tab",
    "backspace": "Backspace",
    "delete": "Del",
    "insert": "Ins",
    "home": "Home",
    "end": "End",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "up": "Up",
    "down": "Down",
    "left": "Left",
    "right": "Right",
}
#: Textual's shortened names for a few punctuation keys (the others are the Unicode name).
_SHORTENED_KEYS = {
    "solidus": "slash",
    "reverse_solidus": "backslash",
    "commercial_at": "at",
    "hyphen_minus": "minus",
    "plus_sign": "plus",
    "low_line": "underscore",
}


def _punctuation_key(character: str) -> str:
    """Textual's name for the key of a punctuation ``character``: ``=`` → ``equals_sign``."""
    name = unicodedata.name(character).lower().replace("-", "_").replace(" ", "_")
    return _SHORTENED_KEYS.get(name, name)


#: The printable ASCII punctuation keys by Textual's name, back to the character they type.
_PUNCTUATION_KEYS = {_punctuation_key(c): c for c in string.punctuation}
#: Modifier prefixes of a key name, as words say them.
_MODIFIERS = (("ctrl+", "Ctrl-"), ("alt+", "Alt-"), ("shift+", "Shift-"))


def key_name(key: str) -> str:
    """A key as the words around it say it: ``ctrl+o`` → ``Ctrl-O``, ``escape`` → ``Esc``,
    ``f1`` → ``F1``, ``equals_sign`` → ``=``, ``shift+tab`` → ``Shift-Tab`` (the help screen,
    dialogs and notices; the footer's ``^o`` is Textual's short form of the same key)."""
    name = key.strip()
    for prefix, word in _MODIFIERS:
        if name.startswith(prefix):
            bare = key_name(name[len(prefix) :])
            return word + (bare.upper() if len(bare) == 1 else bare)
    if name in _KEY_NAMES:
        return _KEY_NAMES[name]
    if name in _PUNCTUATION_KEYS:
        return _PUNCTUATION_KEYS[name]
    if name.startswith("f") and name[1:].isdigit():
        return name.upper()
    return name


def in_scope(scope: str) -> str:
    """``in`` a session's scope as a sentence says it: ``in any deck`` (not "in every deck"),
    ``in deck Losses``, ``in topic Metrics``."""
    return "in any deck" if scope == "every deck" else f"in {scope}"
