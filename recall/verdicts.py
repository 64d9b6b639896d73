"""How an answer was judged: the one verdict kind every layer speaks.

The engine sets it on each :class:`recall.formula.Verdict` (``verdict.status``); the scheduler's
rating rules take it (:func:`recall.scheduling.suggest_rating`); the session checks ratings
against it and the review log stores its value (``review_log.verdict``: the strings
``correct``, ``incorrect``, ``invalid`` and ``self``, so ``Status(entry.verdict)`` reads any row
ever written); the screens colour their feedback by it.

It lives here, below both the engine and the scheduler, because neither may import the other.
Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Status(StrEnum):
    """The verdict on one answer.

    ``invalid`` means the answer could not be read: it costs the learner nothing and is never
    rated. ``self`` is a self-rated card (explain): the learner judges it; the engine never
    returns it.
    """

    CORRECT = "correct"
    INCORRECT = "incorrect"
    INVALID = "invalid"
    SELF = "self"

    @property
    def graded(self) -> bool:
        """Whether the answer was judged right or wrong (so it may be rated and scheduled by
        its outcome): not for an unreadable answer nor a self-rated one."""
        return self in (Status.CORRECT, Status.INCORRECT)


#: What a checked explanation's verdict says when it read words as a list of terms (no
#: statement, no point): the screens show the rest of the message from here on.
LISTED_TERMS = "Terms listed without saying how they relate make no point"


@dataclass(frozen=True)
class PointOutcome:
    """One key point of a checked explanation: its model sentence, whether the learner made it,
    and the learner's words that made it (``""`` when missed)."""

    say: str
    made: bool
    said: str = ""
