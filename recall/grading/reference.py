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
from recall.formula import Preview
from recall.formula import preview as engine_preview
from recall.grading.expressions import card_table, number_word, without_label, without_prompt_words
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
    # "8 bytes" for "▢ bytes per parameter" previews as it is graded: the 8; "d_h = d/H" as
    # d/H, "one" on a numeric blank as 1.
    shift, answer = without_label(without_prompt_words(card, text))
    shown = engine_preview(number_word(card, answer), card_table(card))
    if shift and shown.column is not None:
        column = shown.column + shift
        caret = ParseError(shown.message, text, column).caret()
        shown = replace(shown, column=column, caret=caret)
    return shown
