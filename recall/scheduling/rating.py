"""Ratings, and the rating a grader's verdict suggests.

The learner rates every review with one of four grades (FSRS's own scale). recall grades typed
answers itself, so it can *suggest* the grade from the verdict (:class:`recall.verdicts.Status`);
the learner overrides it with one key. The rules are deliberately plain so a learner can predict
them:

* ``invalid`` (the answer could not be read): no rating at all, the learner tries again;
* ``incorrect``: Again. Never Hard: Hard is a passing grade in FSRS, and rating a wrong answer
  Hard would tell the scheduler the card was remembered;
* ``correct``: Good; Hard when it was slow or needed the hint; Easy when it was fast on a mature
  card (a young card answered fast is still Good, the memory is not yet proven);
* a checked explanation that passed but missed a key point: Hard (it was recalled, not fully);
* ``self`` (an explain card the learner judges): no suggestion, the learner picks.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from recall.verdicts import Status

#: A correct answer that took longer than this (seconds) is suggested Hard.
SLOW_SECONDS: Final = 45.0
#: A correct answer on a mature card faster than this (seconds) is suggested Easy.
FAST_SECONDS: Final = 8.0
#: A card is mature once its stability reaches this many days (the same line Anki draws).
MATURE_STABILITY_DAYS: Final = 21.0


class Rating(IntEnum):
    """The four grades, numbered as FSRS numbers them."""

    Again = 1
    Hard = 2
    Good = 3
    Easy = 4

    @property
    def passed(self) -> bool:
        """Hard, Good and Easy all mean the card was recalled."""
        return self is not Rating.Again

    @property
    def key(self) -> str:
        """The key that gives this rating on the drill screen: ``1`` to ``4``."""
        return str(self.value)

    @classmethod
    def named(cls, name: str) -> Rating:
        """The rating called ``name``, in any case (``"again"``, ``"Good"``); ``ValueError``
        for any other name."""
        for rating in cls:
            if rating.name.lower() == name.lower():
                return rating
        raise ValueError(f"no rating is called {name!r}; expected again, hard, good or easy")


def suggest_rating(
    verdict: Status,
    seconds: float | None,
    used_hint: bool,
    card_is_mature: bool,
    *,
    complete: bool = True,
    slow_seconds: float = SLOW_SECONDS,
    fast_seconds: float = FAST_SECONDS,
) -> Rating | None:
    """The rating a verdict suggests, or ``None`` when there is nothing to suggest.

    ``seconds`` is the time the learner took (``None`` when unknown: neither slow nor fast).
    ``complete`` is false for a right answer that left something out (an explanation that passed
    with a key point missed): at best Hard.
    A stored verdict string (``"correct"``) is read as its :class:`Status`; raises
    ``ValueError`` for one that is not a verdict.
    """
    verdict = as_status(verdict)
    if not verdict.graded:  # unreadable, or self-rated
        return None
    if verdict is Status.INCORRECT:
        return Rating.Again
    if not complete or used_hint or (seconds is not None and seconds > slow_seconds):
        return Rating.Hard
    if card_is_mature and seconds is not None and seconds < fast_seconds:
        return Rating.Easy
    return Rating.Good


def as_status(verdict: Status | str) -> Status:
    """``verdict`` as a :class:`Status` (a review-log string is read as its member); raises
    ``ValueError`` for anything else."""
    try:
        return Status(verdict)
    except ValueError:
        expected = ", ".join(str(status) for status in Status)
        raise ValueError(f"unknown verdict {verdict!r}; expected one of {expected}") from None
