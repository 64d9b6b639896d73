"""What the learner is shown around an answer: the reference answer, and the live preview.

The reference is the card's answer as a learner would type it (``decks show`` prints it, the
feedback shows it); the preview is how a typed answer is read, cheap enough for every keystroke.
"""

from __future__ import annotations

import math
from dataclasses import replace

from recall.cards import params as param_values
from recall.cards.model import Card, CardKind
from recall.errors import ParseError
from recall.formula import Preview, Verdict
from recall.formula import preview as engine_preview
from recall.grading.expressions import card_table, read_answer
from recall.grading.quantities import quantity_preview


def reference_answer(card: Card) -> str:
    """The card's reference answer as a learner would type it (what ``decks show`` prints)."""
    if card.kind in (CardKind.FORMULA, CardKind.NUMERIC) or (
        card.kind is CardKind.CLOZE and card.answer
    ):
        return card.answer
    if card.kind is CardKind.FACT:
        if card.value_range is not None:
            low, high = card.value_range
            return f"{param_values.format_number(low)} to {param_values.format_number(high)}"
        return param_values.format_number(card.value if card.value is not None else math.nan)
    if card.kind in (CardKind.REVERSE, CardKind.CLOZE):
        return " / ".join(card.accept[:3]) if card.accept else ""
    return card.model_answer


def preview(card: Card, text: str) -> Preview:
    """How ``text`` is read for ``card``, cheap enough for every keystroke (the TUI's live
    "interpreted as"). Numeric and fact answers are read as numbers."""
    if card.kind in (CardKind.NUMERIC, CardKind.FACT):
        return quantity_preview(text, card.unit)
    # Read as Enter reads it (read_answer): "8 bytes" for "▢ bytes per parameter" previews the
    # 8, "d_h = d/H" its right side, and a wrong label or unit is refused here as there.
    if not text.strip():
        return Preview(True)
    read = read_answer(card, text)
    if isinstance(read, Verdict):
        return Preview(False, message=read.message, column=read.column, caret=read.caret)
    shift, expression = read
    shown = engine_preview(expression, card_table(card))
    if shift and shown.column is not None:
        column = shown.column + shift
        caret = ParseError(shown.message, text, column).caret()
        return replace(shown, column=column, caret=caret)
    return shown
