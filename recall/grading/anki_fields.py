"""A card as the two fields of an Anki note: the prompt and the answer, in HTML with MathJax.

Anki shows fields as HTML and draws ``\\(…\\)`` with MathJax (desktop and phones alike), so a
formula answer is written as LaTeX from the parsed tree (:func:`recall.formula.latex_writer.
to_latex`), never from the typed text. Anki cannot draw new numbers for each review, so a
numeric card goes as one instance, drawn from a fixed seed that the answer names (the same seed
gives the same numbers in recall). Everything else is the reference answer as text, escaped.

This is grading's job because it joins a card to the engine; the Anki package itself is written
by :mod:`recall.interop.apkg_write`, which never imports the engine.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from recall.cards.model import Card, CardKind
from recall.errors import RecallError

#: The seed numeric cards are drawn with for Anki: fixed, so every export shows the same numbers.
EXPORT_SEED = 20_260_101


@dataclass(frozen=True)
class NoteFields:
    """The HTML of the two fields, and the seed a numeric card's numbers were drawn with."""

    prompt: str
    answer: str
    seed: int | None = None


def _html(text: str) -> str:
    return html.escape(text).replace("\n", "<br>")


def formula_html(text: str, card: Card) -> str:
    """``text`` (typed syntax) as MathJax inline math, or as escaped text when it does not parse
    with the card's symbols."""
    from recall.formula.latex_writer import to_latex
    from recall.formula.parser import parse
    from recall.grading.expressions import card_table

    try:
        tree = parse(text, card_table(card)).tree
    except RecallError:
        return _html(text)
    return "\\(" + html.escape(to_latex(tree), quote=False) + "\\)"


def note_fields(card: Card, seed: int = EXPORT_SEED) -> NoteFields:
    """The prompt and answer fields for ``card``."""
    from recall.grading.question import Question
    from recall.grading.reference import reference_answer

    kind = card.kind
    if kind is CardKind.NUMERIC:
        question = Question.draw(card, seed)
        answer = formula_html(card.answer, card)
        try:
            worked = question.worked
        except RecallError:
            worked = ""
        parts = [answer]
        if worked:
            parts.append(_html(worked))
        parts.append(f"<small>numbers drawn by recall with seed {question.seed}</small>")
        return NoteFields(_html(question.prompt), "<br>".join(parts), question.seed)
    prompt = Question.draw(card).prompt
    if kind is CardKind.REVERSE and card.shown:
        prompt = f"{prompt}\n{card.shown}" if prompt else card.shown
        shown = _html(prompt)
    else:
        shown = _html(prompt)
    if kind is CardKind.FORMULA or (kind is CardKind.CLOZE and card.answer):
        return NoteFields(shown, formula_html(card.answer, card))
    return NoteFields(shown, _html(reference_answer(card)))
