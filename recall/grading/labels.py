"""Which left side of an equation names the quantity a card asks for (``d_h`` in ``d_h = d/H``).

An equation typed where an expression is asked is graded by its right side only when its left
side is the card's own label: the name the card's ``shown`` formula puts before its box
(``d_h = □``, ``w ← □``, ``C ≈ □``), the name a cloze puts before its blank (``β = {{}}``),
or the name the prompt asks for (``Type y``, ``What is the width d_h``, or, with no such
phrase, the first name the prompt spells as math that the card does not declare: ``α_t in
terms of beta_t``, ``R²``, ``σ_w²``). Another of the card's names (``H = d/H``), a
different name (``n = d/H``), a function of something (``sqrt(d_h) = d/H``) or a power
(``d_h^2 = d/H``) is not the label, and the answer is sent back (see
:func:`recall.grading.expressions.read_answer`).

Labels are compared by their tokens, so ``α_t``, ``alpha_t`` and ``\\alpha_t`` are one label.
"""

from __future__ import annotations

import re

from recall.cards.model import Card, CardKind
from recall.errors import ParseError
from recall.formula.latex import latex_to_plain, looks_like_latex
from recall.formula.lexer import tokenize

#: A label longer than this is not a name (and is never lexed).
MAX_LABEL = 40

LabelKey = tuple[tuple[str, str], ...]

#: What a ``shown`` formula puts between the label and the box.
_RELATIONS = ("=", r"\leftarrow", r"\gets", r"\approx", ":=")
#: What separates the formula holding the box from others on the same line.
_SEPARATORS = (r"\qquad", r"\quad", ";", ",")
#: A name as a prompt spells it: letters, digits, subscripts, marks, primes, a square.
_NAME = r"[^\W\d][\w\u0300-\u036f'′²³^]*(?:\([\w, ]{1,12}\))?"
_PROMPT_NAME = re.compile(r"(?<![\w\\∂/])" + _NAME)
#: What follows the quantity a prompt is about: "α_t in terms of", "R², from", "ρ of X".
_SUBJECT = re.compile(r"(?: in terms of|,? from| of| for) ")
#: The phrases a prompt asks for a named quantity with.
_ASKING = re.compile(
    r"(?<!\()\b(?:[Tt]ype|[Ww]rite|[Ww]hat is)(?: the(?: \w+){0,2}?)?\s+"
    r"(?![a-z]{3,}\b|(?:it|in|as|on|of|to|an|is|be)\b)(?P<name>" + _NAME + ")"
)


def label_key(text: str) -> LabelKey:
    """``text`` as a label: its tokens (the lexer's canonical names), or its characters
    without spaces and braces when it does not lex (``w_{t+1}``)."""
    text = text.strip()
    if len(text) > MAX_LABEL:
        return (("long", text[:MAX_LABEL]),)
    try:
        plain = latex_to_plain(text) if looks_like_latex(text) else text
        return tuple((token.kind, token.text) for token in tokenize(plain) if token.kind != "end")
    except ParseError:
        raw = "".join(char for char in text if char not in " {}\\")
        return (("raw", raw),)


def _is_plain_name(key: LabelKey) -> bool:
    return len(key) == 1 and key[0][0] == "name"


def is_label_shaped(key: LabelKey) -> bool:
    """A name, with at most an argument list of names (``L(N)``, ``σ'(x)``) and a power
    (``R²``, ``σ_w^2``): a label a card may put before its box. ``ρA``-like products and
    bracketed formulas are not."""
    if not key or key[0][0] != "name":
        return False
    rest = list(key[1:])
    if rest[:1] == [("open", "(")]:
        close = next((i for i, token in enumerate(rest) if token[0] == "close"), None)
        if close is None or any(kind not in ("name", "sep") for kind, _ in rest[1:close]):
            return False
        rest = rest[close + 1 :]
    if rest[:1] == [("op", "^")] and len(rest) == 2 and rest[1][0] in ("num", "name"):
        rest = []
    return not rest


def card_labels(card: Card) -> dict[LabelKey, str]:
    """The labels an answer to ``card`` may start with, each with the card's spelling of it
    (for the message that says which left side was expected)."""
    found: dict[LabelKey, str] = {}
    for label, update in _shown_labels(card):
        key = label_key(label)
        if not is_label_shaped(key):
            continue
        found.setdefault(key, label)
        if update and _is_plain_name(key):
            # w ← □: the updated weight is also written w_{t+1} (or w').
            for spelling in (f"{label}_{{t+1}}", f"{label}_(t+1)", f"{label}'"):
                found.setdefault(label_key(spelling), label)
    for label in _prompt_labels(card):
        if is_label_shaped(label_key(label)):
            found.setdefault(label_key(label), label)
    return found


def label_text(label: str) -> str:
    """A card's label as a learner types it (``\\hat v_t`` → ``v_hat_t``), for a message."""
    try:
        return latex_to_plain(label) if looks_like_latex(label) else label
    except ParseError:
        return label


def _declared(card: Card) -> set[LabelKey]:
    names = {spec.name for spec in card.symbols} | {spec.name for spec in card.functions}
    return {label_key(name) for name in names}


def _shown_labels(card: Card) -> list[tuple[str, bool]]:
    """``d_h`` from ``…,\\qquad d_h=\\square``; ``β`` from a cloze's ``β = {{}}``; with
    whether the relation is an update (``w \\leftarrow \\square``)."""
    if card.kind is CardKind.CLOZE:
        before, blank, _ = card.text.partition("{{")
        if not blank:
            return []
        # "at x = {{}}": the name, not the sentence before it
        return [(label, False) for label in _left_of_box(before, sentence=True)]
    labels: list[tuple[str, bool]] = []
    for before in card.shown.split(r"\square")[:-1]:
        stripped = before.rstrip()
        update = stripped.endswith((r"\leftarrow", r"\gets"))
        labels.extend((label, update) for label in _left_of_box(before))
    return labels


def _left_of_box(before: str, *, sentence: bool = False) -> list[str]:
    """The name right before ``= box`` at the end of ``before``, if that is all there is; in a
    ``sentence`` (a cloze's text, "whose number of KV groups is g = {{}}") the last word."""
    text = before.rstrip()
    for spacing in (r"\,", r"\;", r"\!", r"\ "):
        text = text.removesuffix(spacing).rstrip()
    relation = next((r for r in _RELATIONS if text.endswith(r)), None)
    if relation is None:
        return []
    left = text[: -len(relation)].rstrip()
    cuts = [left.rfind(sep) + len(sep) for sep in (*_SEPARATORS, "=") if sep in left]
    label = left[max(cuts, default=0) :].strip()
    if sentence and label:
        label = label.split()[-1]
    return [label] if label and len(label) <= MAX_LABEL else []


def _prompt_labels(card: Card) -> list[str]:
    """The name the prompt asks for: after ``Type``/``Write``/``What is``, or else the first
    name spelled as math (a subscript, a Greek letter, a mark, a square) the card does not
    declare that the prompt is about (``α_t in terms of``, ``R², from``). A prompt of a card
    whose ``shown`` puts its box inside a larger formula (``\\sum_j \\square``) asks for a
    term, which has no label."""
    if card.kind is not CardKind.FORMULA or (r"\square" in card.shown and not _shown_labels(card)):
        return []
    declared = _declared(card)
    asked = [
        m.group("name")
        for m in _ASKING.finditer(card.prompt)
        if not card.prompt[m.end() :].lstrip().startswith("=")  # "Write d_ap = d(a, p)"
    ]
    if asked:
        return [name for name in asked if len(name) <= MAX_LABEL]
    for match in _PROMPT_NAME.finditer(card.prompt):
        name = match.group(0)
        if _SUBJECT.match(card.prompt, match.end()) is None:
            continue
        if not name[0].isalpha() or name.startswith(("Σ_", "∑")) or len(name) > MAX_LABEL:
            continue
        if not _spelled_as_math(name):
            continue
        key = label_key(name)
        if key not in declared and len(key) <= 3:
            return [name]
    return []


def _spelled_as_math(name: str) -> bool:
    head = name.split("(", 1)[0]
    return "_" in head or "^" in head or not head.isascii()
