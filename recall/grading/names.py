"""Reverse and word-cloze cards: forgiving name matching (:mod:`recall.cards.matching`).

A typo is forgiven, but never toward a name that is closer to one of the card's neighbours: that
answer names the neighbour, and the verdict says so.
"""

from __future__ import annotations

from collections.abc import Iterable

from recall.cards.matching import match_name
from recall.cards.model import Card
from recall.formula import Diagnosis, Verdict
from recall.grading.reference import reference_answer
from recall.verdicts import Status


def grade_name(card: Card, answer_text: str, others: Iterable[str]) -> Verdict:
    """Grade a typed name; ``others`` are the names of the card's neighbours."""
    result = match_name(answer_text, card.accept, others)
    expected = reference_answer(card)
    if result.accepted:
        message = f"Right: {result.matched}."
        if result.how == "typo":
            message = f"Right (spelled {result.matched})."
        return Verdict(
            Status.CORRECT, "name", message, interpreted=answer_text.strip(), expected=expected
        )
    message = f"Expected {expected}."
    diagnosis = None
    if result.clash:
        message = f"That is {result.clash}; expected {expected}."
        diagnosis = Diagnosis("confused", f"'{answer_text.strip()}' names {result.clash}.")
    return Verdict(
        Status.INCORRECT,
        "name",
        message,
        interpreted=answer_text.strip(),
        diagnosis=diagnosis,
        expected=expected,
    )
