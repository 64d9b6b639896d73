"""Formula and math-cloze cards: the engine decides equivalence under the card's symbol table.

Strict: an undeclared name makes the answer *invalid*, with a suggestion, at no cost to the
learner (a silently different variable would be graded wrong instead).
"""

from __future__ import annotations

from dataclasses import replace

from recall.cards.model import Card
from recall.errors import FormulaError, GradingError
from recall.formula import SymbolTable, Verdict, check
from recall.grading.tables import symbol_table


def card_table(card: Card) -> SymbolTable:
    """The card's strict symbol table; a bad declaration is the card's fault
    (:class:`~recall.errors.GradingError`), not the learner's."""
    try:
        return symbol_table(card)
    except FormulaError as error:
        raise GradingError(
            f"card '{card.key}' declares a bad symbol or function: {error}"
        ) from None


def grade_expression(card: Card, answer_text: str) -> Verdict:
    """Grade a typed expression against the card's answer."""
    verdict = check(card.answer, answer_text, card_table(card))
    # The deck's own spelling (``sigma(x)`` where the card aliases the sigmoid), not the engine's
    # canonical one: it is the form the prompt and hint use.
    return replace(verdict, expected=card.answer)
