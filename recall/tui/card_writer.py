"""Write a card made in the TUI's form into a custom deck file, as a ``[[card]]`` block.

Only the few TOML forms a form-made card needs are emitted (strings, numbers, lists of strings,
an inline table of symbols), by the deck writer's escaper. Adding appends a block; editing changes
only what the form shows, in place (tomlkit keeps the layout): the card's other keys (source,
tags, units, tolerance, a symbol's meaning, key points, ...), the rest of the file and its
comments are untouched. Nothing here validates: the caller reloads the deck with the real loader
and restores the old text if it no longer loads.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recall.cards.writer import toml_string

if TYPE_CHECKING:
    from recall.cards.model import Card

from recall.paths import make_private_dirs, write_atomically

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


def _string(text: str) -> str:
    """A one-line TOML string (the deck writer's escaper: one escaper for every deck file)."""
    return toml_string(text, multiline=False)


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _string(key)


def card_block(draft: CardDraft) -> str:
    """The ``[[card]]`` block for ``draft`` (ends with a newline)."""
    lines = ["[[card]]", f"id = {_string(draft.id)}", f"kind = {_string(draft.kind)}"]
    lines.append(f"prompt = {_string(draft.prompt)}")
    if draft.kind == "formula":
        lines.append(f"answer = {_string(draft.answer)}")
    elif draft.kind == "fact":
        lines.append(f"value = {draft.answer.strip() or '0'}")
    elif draft.kind == "reverse":
        lines.append(f"shown = {_string(draft.shown)}")
        lines.append("accept = [" + ", ".join(_string(a) for a in draft.accept) + "]")
    elif draft.kind == "explain":
        lines.append(f"model_answer = {_string(draft.model_answer)}")
    if draft.hint:
        lines.append(f"hint = {_string(draft.hint)}")
    if draft.symbols:
        inner = ", ".join(f"{_key(k)} = {_string(v)}" for k, v in draft.symbols.items())
        lines.append(f"symbols = {{ {inner} }}")
    return "\n".join(lines) + "\n"


def empty_deck_text(deck_id: str, name: str) -> str:
    """The header of a new custom deck file the form writes its first card into (the commented
    template of ``recall decks new`` is :func:`recall.cards.template.new_deck_text`)."""
    return f"[deck]\nid = {_string(deck_id)}\nname = {_string(name)}\n"


def with_card(text: str, draft: CardDraft, line: int | None) -> str:
    """``text`` with the card added (``line`` is ``None``) or its block at ``line`` replaced.

    ``line`` is the 1-based line of the card's ``[[card]]`` header, as the loader reports it.
    """
    block = card_block(draft)
    if line is None:
        return text.rstrip("\n") + "\n\n" + block
    lines = text.splitlines()
    if not (0 < line <= len(lines)) or not _HEADER.match(lines[line - 1]):
        raise ValueError(f"line {line} is not a [[card]] header")
    return _edited(text, draft, block)


#: The keys a form-made card may have that the form shows (``id`` and ``kind`` aside): an edit
#: sets them from the draft, and drops those the draft's kind does not write.
_FORM_KEYS = ("prompt", "answer", "value", "shown", "accept", "model_answer", "hint")


def _edited(text: str, draft: CardDraft, block: str) -> str:
    """``text`` with the card ``draft.id`` changed to say what the form says, and nothing else:
    a value the form did not change keeps its spelling, and every key the form does not show
    stays (a symbol declared with a meaning keeps it when only its domain changes)."""
    import tomlkit

    doc = tomlkit.parse(text)
    cards = doc.get("card", [])
    table = next((c for c in cards if c.get("id") == draft.id), None)
    if table is None:
        raise ValueError(f"no card '{draft.id}' in the deck file")
    fresh = tomlkit.parse(block)["card"][0]  # the form's values, by the deck writer's escaper
    for key in ("kind", *_FORM_KEYS):
        if key not in fresh:
            table.pop(key, None)
        elif table.get(key) != fresh[key]:
            table[key] = fresh[key]
    _edit_symbols(table, fresh.get("symbols", {}))
    return tomlkit.dumps(doc)


def _edit_symbols(table: Any, fresh: Any) -> None:
    """The card's symbols as the form lists them: a symbol whose domain is unchanged is left as
    written; one declared as a table (``{ domain = ..., meaning = ... }``) changes its domain
    only; a symbol the form dropped goes, a new one is added as ``name = "domain"``."""
    import tomlkit

    old = table.get("symbols")
    if not fresh:
        table.pop("symbols", None)
        return
    if old is None:
        table["symbols"] = fresh
        return
    # Only a ``[card.symbols]`` section is edited in place; an inline table, dotted keys
    # (``symbols.x = "real"``, ``symbols.x.domain = ...``) are rebuilt as one inline table.
    section = isinstance(old, tomlkit.items.Table) and not old.is_super_table()
    if not section:
        # Rebuilt in the form's order, entries copied: tomlkit spaces a key added to an
        # inline table oddly, and writes one added to dotted keys (``symbols.x = "real"``)
        # on the line of the key after them, which is no TOML.
        rebuilt = tomlkit.inline_table()
        for name in fresh:
            rebuilt[name] = _inline(old[name]) if name in old else str(fresh[name])
        table["symbols"] = old = rebuilt
    for name in [n for n in old if n not in fresh]:
        del old[name]
    # Plain strings, not the parsed block's items: those carry the inline table's layout (no
    # line end), which ran the next line on ("y = "real"[[card]]").
    for name, domain in ((name, str(value)) for name, value in fresh.items()):
        current = old.get(name)
        if isinstance(current, dict):
            if (str(current.get("domain", "")).strip() or "real") != domain:
                current["domain"] = domain
        elif current is None:
            old.add(name, domain)  # after the last symbol, the blank line after it kept
        elif (str(current).strip() or "real") != domain:
            old[name] = domain


def _inline(value: Any) -> Any:
    """A symbol's value as an inline table may hold it: a table (``symbols.x.domain = ...``)
    becomes an inline one with the same entries."""
    import tomlkit

    if isinstance(value, tomlkit.items.Table):
        inline = tomlkit.inline_table()
        for key, item in value.items():
            inline[key] = _inline(item)
        return inline
    return value


def write_card(path: Path, draft: CardDraft, line: int | None, deck_name: str = "") -> str:
    """Write the card into ``path`` (creating the deck file if needed); returns the old text
    (empty for a new file) so the caller can restore it if the deck no longer loads."""
    from recall.cards.loader import DECK_LIMITS
    from recall.toml_limits import read_bounded

    # A deck the loader accepted: a regular file within the deck limits (a FIFO swapped in is
    # refused, never blocked on).
    old = read_bounded(path, DECK_LIMITS).decode("utf-8") if os.path.lexists(path) else ""
    base = old or empty_deck_text(draft.deck_id, deck_name or draft.deck_id)
    make_private_dirs(path.parent)
    write_atomically(path, with_card(base, draft, line))  # a full disk never truncates a deck
    return old


def draft_from_card(card: Card) -> CardDraft | None:
    """The form's draft of a loaded card (``None`` for kinds the form does not edit)."""
    kind = str(card.kind)
    if kind not in FORM_KINDS:
        return None
    answer = card.answer
    if kind == "fact":
        answer = "" if card.value is None else f"{card.value:g}"
    return CardDraft(
        deck_id=card.deck_id,
        id=card.id,
        kind=kind,
        prompt=card.prompt,
        answer=answer,
        accept=card.accept,
        shown=card.shown,
        model_answer=card.model_answer,
        hint=card.hint,
        symbols={s.name: s.domain for s in card.symbols},
    )


#: The card form's fields, in form (and tab) order; errors are shown under the one they name.
FORM_FIELDS = ("deck", "id", "kind", "prompt", "answer", "shown", "symbols", "hint")

_ERROR_PREFIX = re.compile(r"^line \d+: (?:card '[^']*': )?")
#: What an error message starts with (or, failing that, mentions) → the field it is about.
_FIELD_WORDS = (
    ("deck id", "deck"),
    ("card id", "id"),
    ("prompt", "prompt"),
    ("symbol", "symbols"),
    ("domain", "symbols"),
    ("shown", "shown"),
    ("hint", "hint"),
    ("kind", "kind"),
    ("answer", "answer"),
)


def error_field(message: str) -> str:
    """The form field a save error is about (``answer`` when it names none: the answer is the
    only free-form value the form writes unquoted)."""
    text = _ERROR_PREFIX.sub("", message).lower()
    for words, name in _FIELD_WORDS:
        if text.startswith(words):
            return name
    for words, name in _FIELD_WORDS:
        if words in text:
            return name
    return "answer"


#: The form's field names as its labels say them, and what to type in each.
FIELD_HELP = {
    "deck": ("Deck id", "lowercase letters, digits, '-' and '_', e.g. my-losses"),
    "id": ("Card id", "lowercase letters, digits, '-' and '_', e.g. cube-derivative"),
    "kind": ("Kind", "choose one from the list"),
    "prompt": ("Prompt", "the question, in words"),
    "answer": ("Answer", "the answer in typed math, e.g. 3*x^2 (`recall help syntax`)"),
    "shown": ("Shown", "a LaTeX formula, e.g. \\frac{a}{b}, or nothing"),
    "symbols": ("Symbols", "name: domain, separated by commas, e.g. x: real, p: (0, 1)"),
    "hint": ("Hint", "a nudge in words, or nothing"),
}

#: Words of the deck file a form never shows: the table a field is written to.
_FILE_WORDS = re.compile(r"\[(?:card|deck)\.(\w+)\]")


def form_error(message: str) -> str:
    """A save error as the form says it: which field, what is wrong, what to type. The loader
    speaks of the deck file (``line 83: card 'x': ...``, ``[card.symbols]``); the learner
    filled a form and never saw that file."""
    field = error_field(message)
    text = _ERROR_PREFIX.sub("", message).strip()
    text = _FILE_WORDS.sub(lambda m: f"the {m.group(1).capitalize()} field", text)
    label, what = FIELD_HELP[field]
    if text.lower().startswith(f"{label.lower()}:"):
        text = text[len(label) + 1 :].strip()  # "card id: required" under Card id
    return f"{label}: {text[:1].lower()}{text[1:]} — type {what}."


def draft_problems(draft: CardDraft) -> list[str]:
    """What the loader would not explain well for a form (empty fields)."""
    problems = []
    if not draft.deck_id:
        problems.append("deck id: required")
    if not draft.id:
        problems.append("card id: required")
    if not draft.prompt:
        problems.append("prompt: required")
    if draft.kind in ("formula", "fact") and not draft.answer:
        problems.append("answer: required")
    if draft.kind == "reverse" and not draft.accept:
        problems.append("answer: give at least one accepted name")
    if draft.kind == "explain" and not draft.model_answer:
        problems.append("answer: the model answer is required")
    return problems


def save_draft(path: Path, draft: CardDraft, line: int | None) -> list[str]:
    """Write the card into ``path`` and validate the deck with the real loader.

    Returns the errors (and restores the file) when the deck would no longer load; an empty
    list means saved.
    """
    from recall.cards.loader import read_deck
    from recall.grading import check_deck
    from recall.tui.presenting import deck_error_line

    problems = draft_problems(draft)
    if problems:
        return problems
    existed = path.exists()
    old = write_card(path, draft, line)
    deck, errors = read_deck(path, check=check_deck)
    if deck is None:
        if existed:
            path.write_text(old, encoding="utf-8")
        else:
            path.unlink()
        return [deck_error_line(e) for e in errors]
    return []
