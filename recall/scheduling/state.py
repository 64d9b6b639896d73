"""A card's memory state, as plain values.

:class:`CardState` is what the store keeps per card and what the scheduler maps to the next
state. It adds to FSRS's card the things FSRS leaves to the application: a *new* phase (FSRS
starts every card in Learning), and the review and lapse counters that leech detection needs.
Suspension, burying and retirement are queue flags the store keeps beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum, StrEnum

from recall.scheduling.rating import MATURE_STABILITY_DAYS


class Phase(IntEnum):
    """Where a card is in its life. 1..3 are FSRS's own state numbers; 0 is ours."""

    NEW = 0
    LEARNING = 1
    REVIEW = 2
    RELEARNING = 3


class ReviewKind(StrEnum):
    """What a review was: the phase the card was in before it, or ``OFF_SCHEDULE`` for a drill
    outside the schedule (cram, weakest, missed), which changed no state. Retention counts only
    ``REVIEW`` reviews; the daily new-card limit counts ``NEW`` ones."""

    NEW = "new"
    LEARNING = "learning"
    REVIEW = "review"
    RELEARNING = "relearning"
    OFF_SCHEDULE = "off_schedule"

    @classmethod
    def of(cls, phase: Phase) -> ReviewKind:
        """The kind of a scheduled review of a card in ``phase``."""
        return _KIND_OF_PHASE[phase]


_KIND_OF_PHASE = {
    Phase.NEW: ReviewKind.NEW,
    Phase.LEARNING: ReviewKind.LEARNING,
    Phase.REVIEW: ReviewKind.REVIEW,
    Phase.RELEARNING: ReviewKind.RELEARNING,
}


@dataclass(frozen=True, slots=True)
class CardState:
    """Memory state of one card. Times are timezone-aware UTC; ``due`` is ``None`` while new."""

    phase: Phase = Phase.NEW
    step: int | None = None
    stability: float | None = None
    difficulty: float | None = None
    due: datetime | None = None
    last_review: datetime | None = None
    reps: int = 0
    lapses: int = 0

    @property
    def is_new(self) -> bool:
        """Never reviewed."""
        return self.phase is Phase.NEW

    @property
    def is_mature(self) -> bool:
        """Stable enough that a fast right answer can be rated Easy."""
        return self.stability is not None and self.stability >= MATURE_STABILITY_DAYS


NEW_STATE = CardState()


def is_leech(lapses: int, threshold: int) -> bool:
    """A card forgotten ``threshold`` times after it was learned is a leech: drilling it again
    the same way will not help, so it is flagged for the learner to rewrite or suspend."""
    return threshold > 0 and lapses >= threshold


def became_leech(lapses_before: int, lapses_after: int, threshold: int) -> bool:
    """True exactly on the review that makes a card a leech (so it is surfaced once)."""
    return is_leech(lapses_after, threshold) and not is_leech(lapses_before, threshold)
