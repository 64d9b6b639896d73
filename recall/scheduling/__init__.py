"""Scheduling: pure rules from a card's state, a rating and the time to the next state and queue.

Nothing here touches a database, a terminal or SymPy: the store persists what these functions
compute, the session strings them together. FSRS-6 comes from the ``fsrs`` package
(:mod:`recall.scheduling.fsrs_adapter`); the rest (new-card limits, ordering, siblings, leeches,
rating suggestions, study days) is ours. The FSRS names (:class:`Scheduler`,
:class:`SchedulerSettings`, :func:`as_utc`) load ``fsrs`` on first use, so the light modules
(ratings, states, days) import without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from recall.scheduling.day import day_start, study_date, today_bounds
from recall.scheduling.queue import build_queue, drop_siblings, interleave, remaining, sibling_group
from recall.scheduling.rating import Rating, as_status, suggest_rating
from recall.scheduling.state import (
    NEW_STATE,
    CardState,
    Phase,
    ReviewKind,
    became_leech,
    is_leech,
)

if TYPE_CHECKING:
    from recall.scheduling.fsrs_adapter import Scheduler, SchedulerSettings, as_utc

#: Loaded on first use: importing ``fsrs`` costs about 7 ms, and the TUI imports
#: :class:`Rating` and the session's light modules before its first frame.
_FSRS_NAMES = frozenset({"Scheduler", "SchedulerSettings", "as_utc"})


def __getattr__(name: str) -> Any:
    if name not in _FSRS_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from recall.scheduling import fsrs_adapter

    value = getattr(fsrs_adapter, name)
    globals()[name] = value
    return value


__all__ = [
    "NEW_STATE",
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
