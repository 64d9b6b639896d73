"""A question + typed answer → :class:`~recall.formula.Verdict`: each kind graded as it deserves.

* ``formula`` and math ``cloze``: the engine decides equivalence (:mod:`.expressions`);
* ``numeric``: the typed number against the formula at the question's values (:mod:`.numeric`);
* ``fact``: a number or a range against the card's value or range (:mod:`.facts`);
* ``reverse`` and word ``cloze``: forgiving name matching (:mod:`.names`);
* ``explain``: a typed explanation of a card with key points is checked point by point
  (:mod:`.explain`); one said aloud (nothing typed), or a card without points, is self-rated: the
  verdict's status is :attr:`~recall.verdicts.Status.SELF`, the rating rules suggest nothing and
  the learner judges.

A verdict's ``status`` is what the scheduler's rating rules and the session take as it is.
"""

from __future__ import annotations

from collections.abc import Iterable

from recall.cards.model import Card, CardKind
from recall.errors import GradingError
from recall.formula import SymbolTable, Verdict
from recall.grading.explain import grade_explanation
from recall.grading.expressions import card_table, grade_expression
from recall.grading.facts import grade_fact
from recall.grading.names import grade_name
from recall.grading.numeric import grade_numeric
from recall.grading.question import Question
from recall.verdicts import Status


def explain_table(card: Card) -> SymbolTable:
    """The names a formula in an explanation may use: the card's, else any (an explanation is
    prose; a name it invents simply fails to match a point)."""
    if card.symbols or card.functions:
        return card_table(card).with_strictness(False)
    return SymbolTable.build(strict=False)


def grade(asked: Question | Card, answer_text: str, *, others: Iterable[str] = ()) -> Verdict:
    """Grade ``answer_text`` for the question ``asked``.

    A card without parameters may be passed as it is; a numeric card must come as the
    :class:`Question` that was shown (its values are never drawn here). ``others`` are names
    from the card's neighbours (for reverse and word-cloze cards): a typo is never forgiven
    toward an answer that is closer to one of them. Raises :class:`~recall.errors.GradingError`
    for a card that cannot be graded (a broken card, not a wrong answer).
    """
    if isinstance(asked, Card):
        if asked.params:
            raise GradingError(
                f"card '{asked.key}' is numeric: grade the Question that was shown "
                "(Question.draw), whose values the prompt used"
            )
        asked = Question.draw(asked)
    card = asked.card
    kind = card.kind
    if kind is CardKind.EXPLAIN:
        # Refused like any other answer with one, before anything is checked or self-rated.
        refused = Verdict.control_character(answer_text, expected=card.model_answer)
        if refused is not None:
            return refused
        if card.points and answer_text.strip():
            return grade_explanation(card, answer_text, explain_table(card))
        return Verdict(
            status=Status.SELF,
            method="self",
            message="Self-rated: compare what you said with the model answer, then rate yourself.",
            expected=card.model_answer,
        )
    if not answer_text.strip():
        return Verdict(Status.INVALID, "parse", "Type an answer first.")
    if kind is CardKind.FORMULA or (kind is CardKind.CLOZE and card.answer):
        return grade_expression(card, answer_text)
    if kind is CardKind.NUMERIC:
        return grade_numeric(asked, answer_text)
    if kind is CardKind.FACT:
        return grade_fact(card, answer_text)
    if kind in (CardKind.REVERSE, CardKind.CLOZE):
        return grade_name(card, answer_text, others)
    raise GradingError(f"card '{card.key}' has an unknown kind '{kind}'")
