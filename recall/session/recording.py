"""Recording a rating: the checks a rating must pass, what one review commits, and undo's memory.

The grading rules (see :mod:`recall.scheduling.rating`) forbid two ratings, and the session
refuses them before anything is written (:func:`check_rating`): Hard for an ``incorrect``
verdict (Hard is a passing grade) and any rating of an ``invalid`` one (an unreadable answer
costs nothing). What :meth:`recall.session.Session.record` returns is a :class:`Recorded`,
built only after the store has committed the review.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from recall.errors import RatingError
from recall.scheduling.rating import Rating
from recall.scheduling.state import became_leech
from recall.verdicts import Status

if TYPE_CHECKING:
    from recall.store import AppliedReview, ReviewEntry, StoredCard


@dataclass(frozen=True)
class Recorded:
    """What :meth:`recall.session.Session.record` committed.

    ``became_leech`` is true exactly on the review that makes the card a leech: a scheduled
    review whose lapse takes the card's lapses to :attr:`recall.config.Settings.leech_threshold`
    (see :func:`recall.scheduling.became_leech`). It is false for a card that already was one,
    for every off-schedule review (cram, weakest, missed change no state, so no lapse), and
    always when the threshold is 0. Undoing that review and rating it again announces it again.
    """

    entry: ReviewEntry
    card: StoredCard  # its state after the review
    became_leech: bool  # this review made it a leech: surface it to the learner
    buried: int  # siblings buried until tomorrow
    finished: bool  # the budget is spent: this was the last card


@dataclass
class Done:
    """A review this session recorded, remembered so it can be undone."""

    review_id: int
    key: str  # ``deck/card``
    seconds: float
    requeued: bool = False  # an off-schedule miss queued another try of the card
    hint_used: bool = False  # undone, the card keeps its hint penalty


def check_rating(verdict: Status, rating: Rating) -> None:
    """Refuse the two ratings the grading rules forbid (:class:`recall.errors.RatingError`)."""
    if verdict is Status.INVALID:
        raise RatingError(
            "an answer that could not be read is not rated: it costs nothing, try again"
        )
    if verdict is Status.INCORRECT and rating is Rating.Hard:
        raise RatingError(
            "a wrong answer cannot be rated Hard: Hard is a passing grade. "
            "Rate it Again, or Good or Easy if the grader was wrong"
        )


def made_leech(applied: AppliedReview, threshold: int) -> bool:
    """Whether the committed review ``applied`` made its card a leech (see :class:`Recorded`)."""
    before, after = applied.entry.before, applied.entry.after
    if before is None or after is None:  # off-schedule: no state changed, no lapse counted
        return False
    return became_leech(before.lapses, applied.card.state.lapses, threshold)


__all__ = ["Done", "Recorded", "check_rating", "made_leech"]
