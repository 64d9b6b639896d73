"""Reverse and word-cloze cards: forgiving name matching (:mod:`recall.cards.matching`).

A typo is forgiven, but never toward a name that is closer to one of the card's neighbours: that
answer names the neighbour, and the verdict says so.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import replace

from recall.cards.matching import head_phrases, match_name
from recall.cards.model import Card
from recall.errors import ParseError
from recall.formula import Diagnosis, Verdict
from recall.grading.reference import reference_answer
from recall.verdicts import Status


def grade_name(card: Card, answer_text: str, others: Iterable[str]) -> Verdict:
    """Grade a typed name; ``others`` are the names of the card's neighbours.

    Every message says something the learner did not type: the other names the card accepts,
    the spelling of a forgiven typo, or what the card wanted instead of a neighbour's name.
    """
    expected = reference_answer(card)
    others = list(others)
    unreadable = _unreadable(answer_text, [*card.accept, *others])
    if unreadable is not None:
        return replace(unreadable, expected=expected)
    result = match_name(answer_text, card.accept, others, heads=card_heads(card))
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


def card_heads(card: Card) -> tuple[str, ...]:
    """The words the card's prompt puts after its answer (the blank's head noun, or the noun
    a reverse card names: "Name this loss"), which a natural answer repeats."""
    if card.text:
        return head_phrases(card.text)
    return head_phrases(card.prompt)


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


#: Punctuation a typed name may carry (``X^T``, ``(0, 1]``, ``pass@k``, ``I(X;Y)``, ``p - y``);
#: anything else, unless the card's names or its neighbours' have it, is a stray key.
_NAME_PUNCTUATION = frozenset("-'’‘.,;@/&()[]{}^_+*=<>|:!?%−–—·×≤≥∞√\\\"′ʹ")
_OPENERS, _CLOSERS = "([{", ")]}"


def _unreadable(text: str, names: list[str]) -> Verdict | None:
    """An *invalid* verdict for a typed name that cannot be what the learner meant: brackets
    that do not balance (``X^T((``) or a stray symbol (``X^T$``). The matcher reads names
    forgivingly, dropping punctuation, so without this ``X^T((`` would be read as ``X^T``.

    ``(`` and ``[`` open alike and ``)`` and ``]`` close alike, so a half-open interval
    ``(0, 1]`` balances; braces balance on their own.
    """
    allowed = _NAME_PUNCTUATION | {char for name in names for char in name}
    depth = braces = 0
    opened: list[int] = []
    for column, char in enumerate(text):
        if char in "([":
            depth += 1
            opened.append(column)
        elif char in ")]":
            if depth == 0:
                return _invalid(f"Unbalanced brackets: this '{char}' closes nothing.", text, column)
            depth -= 1
            opened.pop()
        elif char == "{":
            braces += 1
        elif char == "}":
            braces -= 1
            if braces < 0:
                return _invalid("Unbalanced brackets: this '}' closes nothing.", text, column)
        elif not (char.isalnum() or char.isspace() or char in allowed or _is_mark(char)):
            return _invalid(f"A stray symbol: '{char}' has no place in a name.", text, column)
    if depth:
        return _invalid(
            f"Unbalanced brackets: this '{text[opened[-1]]}' is never closed.", text, opened[-1]
        )
    if braces:
        return _invalid("Unbalanced brackets: a '{' is never closed.", text, text.rindex("{"))
    return None


def _is_mark(char: str) -> bool:
    return unicodedata.category(char).startswith("M")


def _invalid(message: str, text: str, column: int) -> Verdict:
    return Verdict.unreadable(ParseError(message, text, column))
