"""Numeric cards: the card's formula with the question's values substituted, then a tolerance.

The values are given, never drawn here: they are the ones the prompt showed (see
:mod:`recall.grading.question`), so the learner and the engine work from the same numbers. The
verdict's ``worked`` field shows formula, values and result.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from recall.cards.units import fraction_hint
from recall.errors import FormulaError
from recall.formula import Expression, Status, Verdict, evaluate_constant, grade_number
from recall.grading.quantities import in_card_unit, read_number
from recall.grading.tolerances import engine_tolerance

if TYPE_CHECKING:
    from recall.grading.question import Question


def grade_numeric(question: Question, answer_text: str) -> Verdict:
    """Grade a typed number against the question's expected value (its values, never drawn
    again)."""
    card = question.card
    quantity = in_card_unit(card, answer_text)
    if isinstance(quantity, Verdict):
        return replace(quantity, worked=question.worked)
    typed = read_number(quantity.number, "")
    hint = fraction_hint(quantity, typed, card.unit, _values(question.expected)) if typed else None
    if hint is not None:
        return Verdict(
            Status.INVALID, "unit", hint, interpreted=quantity.number, worked=question.worked
        )
    tolerance = engine_tolerance(card.tolerance)
    verdict = grade_number(question.expected, quantity.engine_text(), tolerance)
    if quantity.unit and verdict.interpreted:
        verdict = replace(verdict, interpreted=f"{quantity.number} {quantity.unit}")
    return replace(verdict, worked=question.worked)


def _values(expected: Expression) -> list[float]:
    try:
        return [evaluate_constant(expected)]
    except FormulaError:
        return []
