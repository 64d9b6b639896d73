"""Card + typed answer → :class:`~recall.formula.Verdict`: each kind graded the way it deserves.

* ``formula`` and math ``cloze``: the engine decides equivalence (:mod:`.expressions`);
* ``numeric``: the typed number against the formula at the question's values (:mod:`.numeric`);
* ``fact``: a number or a range against the card's value or range (:mod:`.facts`);
* ``reverse`` and word ``cloze``: forgiving name matching (:mod:`.names`);
* ``explain``: self-rated; the verdict says so (``method == "self"``) and suggests nothing.

Use :func:`rating_verdict` to turn a verdict into the string the scheduler's rating rules take.
"""

from __future__ import annotations

from collections.abc import Iterable

from recall.cards import params as param_values
from recall.cards.model import Card, CardKind
from recall.errors import GradingError
from recall.formula import Expression, Status, Verdict
from recall.grading.expressions import grade_expression
from recall.grading.facts import grade_fact
from recall.grading.names import grade_name
from recall.grading.numeric import answer_template, grade_numeric
from recall.grading.tables import substitute


def grade(
    card: Card, answer_text: str, *, seed: int | None = None, others: Iterable[str] = ()
) -> Verdict:
    """Grade ``answer_text`` for ``card``.

    ``seed`` is required for numeric cards (the one recorded when the question was shown).
    ``others`` are names from the card's neighbours (for reverse and word-cloze cards): a typo is
    never forgiven toward an answer that is closer to one of them. Raises
    :class:`~recall.errors.GradingError` for a card that cannot be graded (a broken card, not a
    wrong answer).
    """
    kind = card.kind
    if kind is CardKind.EXPLAIN:
        return Verdict(
            status=Status.INVALID,
            method="self",
            message="Self-rated: compare what you said with the model answer, then rate yourself.",
            expected=card.model_answer,
        )
    if not answer_text.strip():
        return Verdict(Status.INVALID, "parse", "Type an answer first.")
    if kind is CardKind.FORMULA or (kind is CardKind.CLOZE and card.answer):
        return grade_expression(card, answer_text)
    if kind is CardKind.NUMERIC:
        if seed is None:
            raise GradingError(f"card '{card.key}' is numeric: grading needs the question's seed")
        values = param_values.draw(card.params, seed)
        return grade_numeric(card, answer_template(card), values, answer_text)
    if kind is CardKind.FACT:
        return grade_fact(card, answer_text)
    if kind in (CardKind.REVERSE, CardKind.CLOZE):
        return grade_name(card, answer_text, others)
    raise GradingError(f"card '{card.key}' has an unknown kind '{kind}'")


def rating_verdict(verdict: Verdict) -> str:
    """The verdict as the scheduler's rating rules take it: ``self`` for self-rated cards, else the
    status (``correct``, ``incorrect``, ``invalid``)."""
    return "self" if verdict.method == "self" else str(verdict.status)


def expected_value(card: Card, seed: int) -> tuple[Expression, dict[str, int | float]]:
    """The card's answer with the seed's values substituted (a constant expression), and the
    values."""
    values = param_values.draw(card.params, seed)
    return substitute(answer_template(card), values), values
