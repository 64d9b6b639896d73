"""Formula and math-cloze cards: the engine decides equivalence under the card's symbol table.

Strict: an undeclared name makes the answer *invalid*, with a suggestion, at no cost to the
learner (a silently different variable would be graded wrong instead).
"""

from __future__ import annotations

import re
from dataclasses import replace

from recall.cards.matching import head_phrases
from recall.cards.model import Card, CardKind
from recall.cards.rules import breach
from recall.errors import FormulaError, GradingError, ParseError
from recall.formula import Status, SymbolTable, Verdict, check, parse
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
    answer_text = without_prompt_words(card, answer_text)
    broken = form_rule_breach(card, answer_text)
    if broken is not None:
        return broken
    verdict = check(card.answer, answer_text, card_table(card))
    # The deck's own spelling (``sigma(x)`` where the card aliases the sigmoid), not the engine's
    # canonical one: it is the form the prompt and hint use.
    return replace(verdict, expected=card.answer)


def form_rule_breach(card: Card, answer_text: str) -> Verdict | None:
    """An answer in a form the card rules out (``require``/``forbid``) is invalid with the reason,
    whatever its value: ``sigmoid(x)`` is not "the definition with exp"."""
    rule = card.form_rule
    if not rule:
        return None
    try:
        used = parse(answer_text, card_table(card)).names
    except ParseError:
        return None  # the check that follows says what cannot be read
    reason = breach(rule, used)
    if reason is None:
        return None
    return Verdict(Status.INVALID, "form", reason, interpreted=answer_text.strip())


def without_prompt_words(card: Card, answer_text: str) -> str:
    """The typed answer without the words a cloze prompt already puts after its blank: ``8
    bytes`` for "▢ bytes per parameter", ``6N FLOPs`` for "▢ FLOPs per token", ``C - 1 degrees
    of freedom``. A word that is one of the card's own names is never dropped."""
    if card.kind is not CardKind.CLOZE or not card.text:
        return answer_text
    names = {spec.name.casefold() for spec in card.symbols} | {
        spec.name.casefold() for spec in card.functions
    }
    for head in sorted(head_phrases(card.text), key=len, reverse=True):
        words = head.split()
        if any(word in names for word in words):
            continue
        pattern = r"(?<![\w])" + r"[\W_]*".join(re.escape(word) for word in words) + r"\W*$"
        found = re.search(pattern, answer_text, flags=re.IGNORECASE)
        if found is not None and answer_text[: found.start()].strip():
            return answer_text[: found.start()].rstrip()
    return answer_text
