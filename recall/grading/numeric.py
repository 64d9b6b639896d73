"""Numeric cards: the card's formula with the question's values substituted, then a tolerance.

The values are given, never drawn here: they are the ones the prompt showed (see
:mod:`recall.grading.question`), so the learner and the engine work from the same numbers. The
verdict's ``worked`` field shows formula, values and result.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from recall.cards import params as param_values
from recall.cards.model import Card
from recall.cards.units import fraction_hint, with_unit
from recall.errors import FormulaError, GradingError, ParseError
from recall.formula import Expression, Status, Verdict, evaluate_constant, grade_number, parse
from recall.formula.names import canonical_name
from recall.formula.printer import to_text
from recall.grading.expressions import card_table
from recall.grading.quantities import in_card_unit, read_number
from recall.grading.tolerances import engine_tolerance

if TYPE_CHECKING:
    from recall.grading.question import Question

Values = Mapping[str, int | float]


def answer_template(card: Card) -> Expression:
    """The card's answer formula as parsed (a broken one is the card's fault)."""
    try:
        return parse(card.answer, card_table(card))
    except ParseError as error:
        raise GradingError(
            f"card '{card.key}' has an answer that does not parse: {error}"
        ) from None


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


def worked_answer(card: Card, template: Expression, values: Values, expected: Expression) -> str:
    """``6*N*D`` / ``N = 70 billion, D = 1.4 trillion`` / ``6*(70 billion)*(1.4 trillion)`` /
    ``= 5.88e23 FLOPs``."""
    shown = {}
    for name, value in values.items():
        text = param_values.format_number(value)
        shown[name] = f"({text})" if (" " in text or text.startswith("-")) else text
    canonical = {canonical_name(name): text for name, text in shown.items()}
    try:
        result = param_values.format_number(float(evaluate_constant(expected)))
    except FormulaError as error:
        result = f"undefined ({error})"
    lines = [
        template.to_text(),
        ", ".join(f"{name} = {param_values.format_number(v)}" for name, v in values.items()),
        "= " + to_text(template.tree, canonical),
        f"= {with_unit(result, card.unit)}",
    ]
    return "\n".join(lines)
