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
    """Grade a typed name; ``others`` are the names of the card's neighbours.

    Every message says something the learner did not type: the other names the card accepts,
    the spelling of a forgiven typo, or what the card wanted instead of a neighbour's name.
    """
    result = match_name(answer_text, card.accept, others)
    expected = reference_answer(card)
    typed = answer_text.strip()
    if result.accepted:
        matched = result.matched or ""
        if result.how == "typo":
            message = f"Right, though it is spelled {matched}."
        else:
            also = [name for name in card.accept if name != matched][:3]
            message = f"Right; {_listing(also)} also count." if also else "Right."
        return Verdict(Status.CORRECT, "name", message, interpreted=typed, expected=expected)
    wanted = wanted_names(card)
    message = f"This card wants {wanted}."
    diagnosis = None
    if result.clash:
        message = f"{result.clash} answers a different card; this card wants {wanted}."
        diagnosis = Diagnosis(
            "confused",
            f"You named {result.clash}, which is another card's answer; here it is {wanted}.",
        )
    return Verdict(
        Status.INCORRECT,
        "name",
        message,
        interpreted=typed,
        diagnosis=diagnosis,
        expected=expected,
    )


def wanted_names(card: Card) -> str:
    """``mean squared error (also MSE or L2 loss)``: the card's first name, then its others."""
    if not card.accept:
        return "another answer"
    first, rest = card.accept[0], list(card.accept[1:4])
    return f"{first} (also {_listing(rest, 'or')})" if rest else first


def _listing(names: list[str], conjunction: str = "and") -> str:
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} {conjunction} {names[-1]}"
