"""Write a card made in the TUI's form into a custom deck file, as a ``[[card]]`` block.

Only the few TOML forms a form-made card needs are emitted (strings, numbers, lists of strings,
an inline table of symbols), so no TOML writer dependency is needed. Adding appends a block;
editing replaces the card's block in place (from its ``[[card]]`` header to the next header), so
the rest of the file, comments included, is untouched. Nothing here validates: the caller reloads
the deck with the real loader and restores the old text if it no longer loads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from recall.paths import write_atomically

#: Kinds the form can make (numeric cards need a parameter table: use the editor for those).
FORM_KINDS = ("formula", "fact", "reverse", "explain")

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_HEADER = re.compile(r"^\s*\[\[\s*card\s*\]\]\s*(#.*)?$")


@dataclass(frozen=True)
class CardDraft:
    """What the card form holds: enough for the kinds in :data:`FORM_KINDS`."""

    deck_id: str
    id: str
    kind: str
    prompt: str
    answer: str = ""  # formula: typed syntax; fact: the number
    accept: tuple[str, ...] = ()  # reverse
    shown: str = ""  # reverse: the formula shown
    model_answer: str = ""  # explain
    hint: str = ""
    symbols: dict[str, str] = field(default_factory=dict)  # name -> domain


def toml_string(text: str) -> str:
    """A basic TOML string, escaped (multi-line text uses ``\\n``)."""
    out = text.replace("\\", "\\\\").replace('"', '\\"')
    out = out.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
    out = "".join(c if c >= " " or c in "\\" else f"\\u{ord(c):04x}" for c in out)
    return f'"{out}"'


def toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else toml_string(key)


def card_block(draft: CardDraft) -> str:
    """The ``[[card]]`` block for ``draft`` (ends with a newline)."""
    lines = ["[[card]]", f"id = {toml_string(draft.id)}", f"kind = {toml_string(draft.kind)}"]
    lines.append(f"prompt = {toml_string(draft.prompt)}")
    if draft.kind == "formula":
        lines.append(f"answer = {toml_string(draft.answer)}")
    elif draft.kind == "fact":
        lines.append(f"value = {draft.answer.strip() or '0'}")
    elif draft.kind == "reverse":
        lines.append(f"shown = {toml_string(draft.shown)}")
        lines.append("accept = [" + ", ".join(toml_string(a) for a in draft.accept) + "]")
    elif draft.kind == "explain":
        lines.append(f"model_answer = {toml_string(draft.model_answer)}")
    if draft.hint:
        lines.append(f"hint = {toml_string(draft.hint)}")
    if draft.symbols:
        inner = ", ".join(f"{toml_key(k)} = {toml_string(v)}" for k, v in draft.symbols.items())
        lines.append(f"symbols = {{ {inner} }}")
    return "\n".join(lines) + "\n"


def new_deck_text(deck_id: str, name: str) -> str:
    """A fresh custom deck file's header."""
    return f"[deck]\nid = {toml_string(deck_id)}\nname = {toml_string(name)}\n"


def with_card(text: str, draft: CardDraft, line: int | None) -> str:
    """``text`` with the card added (``line`` is ``None``) or its block at ``line`` replaced.

    ``line`` is the 1-based line of the card's ``[[card]]`` header, as the loader reports it.
    """
    block = card_block(draft)
    if line is None:
        return text.rstrip("\n") + "\n\n" + block
    lines = text.splitlines(keepends=True)
    start = line - 1
    if not (0 <= start < len(lines)) or not _HEADER.match(lines[start]):
        raise ValueError(f"line {line} is not a [[card]] header")
    end = start + 1
    while end < len(lines):
        stripped = lines[end].lstrip()
        if stripped.startswith("[") and not stripped.startswith("[card."):
            break  # the next card or table; ``[card.symbols]`` still belongs to this card
        end += 1
    tail = "".join(lines[end:])
    return "".join(lines[:start]) + block + ("\n" + tail if tail else "")


def write_card(path: Path, draft: CardDraft, line: int | None, deck_name: str = "") -> str:
    """Write the card into ``path`` (creating the deck file if needed); returns the old text
    (empty for a new file) so the caller can restore it if the deck no longer loads."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    base = old or new_deck_text(draft.deck_id, deck_name or draft.deck_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, with_card(base, draft, line))  # a full disk never truncates a deck
    return old
