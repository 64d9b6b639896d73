"""Scheduling: pure rules from a card's state, a rating and the time to the next state and queue.

Nothing here touches a database, a terminal or SymPy: the store persists what these functions
compute, the session strings them together. FSRS-6 comes from the ``fsrs`` package
(:mod:`recall.scheduling.fsrs_adapter`); the rest (new-card limits, ordering, siblings, leeches,
rating suggestions, study days) is ours.
"""

from recall.scheduling.day import day_start, study_date, today_bounds
from recall.scheduling.fsrs_adapter import Scheduler, SchedulerSettings, as_utc
from recall.scheduling.queue import build_queue, drop_siblings, interleave, remaining, sibling_group
from recall.scheduling.rating import VERDICTS, Rating, as_status, suggest_rating
from recall.scheduling.state import (
    NEW_STATE,
    CardState,
    Phase,
    ReviewKind,
    became_leech,
    is_leech,
)

__all__ = [
    "NEW_STATE",
    "VERDICTS",
    "CardState",
    "Phase",
    "Rating",
    "ReviewKind",
    "Scheduler",
    "SchedulerSettings",
    "as_status",
    "as_utc",
    "became_leech",
    "build_queue",
    "day_start",
    "drop_siblings",
    "interleave",
    "is_leech",
    "remaining",
    "sibling_group",
    "study_date",
    "suggest_rating",
    "today_bounds",
]
