"""Numeric cards: the card's formula with the question's values substituted, then a tolerance.

The values are given, never drawn here: they are the ones the prompt showed (see
:mod:`recall.grading.question`), so the learner and the engine work from the same numbers. The
verdict's ``worked`` field shows formula, values and result.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from recall.formula import Verdict, grade_number
from recall.grading.tolerances import engine_tolerance

if TYPE_CHECKING:
    from recall.grading.question import Question


def grade_numeric(question: Question, answer_text: str) -> Verdict:
    """Grade a typed number against the question's expected value (its values, never drawn
    again)."""
    tolerance = engine_tolerance(question.card.tolerance)
    verdict = grade_number(question.expected, answer_text, tolerance)
    return replace(verdict, worked=question.worked)
