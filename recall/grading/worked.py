"""A numeric card's formula as parsed, and its worked answer at a question's values.

:class:`recall.grading.question.Question` builds both (lazily, once per question) and
:mod:`recall.grading.numeric` grades against them; they live here, below both, so the question
and the grader never import each other.
"""

from __future__ import annotations

from collections.abc import Mapping

from recall.cards import params as param_values
from recall.cards.model import Card
from recall.cards.units import with_unit
from recall.errors import FormulaError, GradingError, ParseError
from recall.formula import Expression, evaluate_constant, parse
from recall.formula.names import canonical_name
from recall.formula.printer import to_text
from recall.grading.expressions import card_table

Values = Mapping[str, int | float]


def answer_template(card: Card) -> Expression:
    """The card's answer formula as parsed (a broken one is the card's fault)."""
    try:
        return parse(card.answer, card_table(card))
    except ParseError as error:
        raise GradingError(
            f"card '{card.key}' has an answer that does not parse: {error}"
        ) from None


def worked_answer(card: Card, template: Expression, values: Values, expected: Expression) -> str:
    """``6*N*D`` / ``N = 70 billion, D = 1.4 trillion`` / ``6*(70 billion)*(1.4 trillion)`` /
    ``= 5.88e23 FLOPs``."""
    # Brackets are the printer's: where an operator binds a value, never doubled in a call.
    shown = {name: param_values.format_number(value) for name, value in values.items()}
    canonical = {canonical_name(name): text for name, text in shown.items()}
    lines = [
        template.to_text(),
        ", ".join(f"{name} = {param_values.format_number(v)}" for name, v in values.items()),
        "= " + to_text(template.tree, canonical),
        f"= {expected_text(card, expected)}",
    ]
    return "\n".join(lines)


def expected_text(card: Card, expected: Expression) -> str:
    """The answer at a question's values as the worked answer ends with it: ``5.88e23 FLOPs``."""
    try:
        result = param_values.format_number(float(evaluate_constant(expected)))
    except FormulaError as error:
        result = f"undefined ({error})"
    return with_unit(result, card.unit)
