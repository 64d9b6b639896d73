"""A card's FSRS memory state rebuilt from its review history alone.

Cards scheduled elsewhere without FSRS (an Anki collection on SM-2) carry a due date and an
interval but no stability or difficulty. Replaying their ratings through FSRS-6 with the gaps
between study days gives the state FSRS would have reached, which is what recall schedules
from next. fsrs-rs-python does the replay (``FSRS.memory_state``), imported only when used.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo
from functools import lru_cache
from typing import Any

from recall.scheduling.day import study_date


def replayed_memory(
    reviews: Sequence[tuple[datetime, int]],
    parameters: Sequence[float],
    *,
    rollover_hour: int = 4,
    tz: tzinfo | None = None,
) -> tuple[float, float] | None:
    """(stability, difficulty) after ``reviews`` ((time, rating 1-4), any order), or ``None``
    when there is nothing to replay."""
    ordered = sorted((at, int(rating)) for at, rating in reviews if 1 <= int(rating) <= 4)
    if not ordered:
        return None
    import fsrs_rs_python

    items = []
    previous = None
    for at, rating in ordered:
        day = study_date(at, rollover_hour, tz)
        gap = 0 if previous is None else (day - previous).days
        items.append(fsrs_rs_python.FSRSReview(rating, max(0, gap)))
        previous = day
    state = _model(tuple(parameters)).memory_state(fsrs_rs_python.FSRSItem(items))
    return float(state.stability), float(state.difficulty)


@lru_cache(maxsize=4)
def _model(parameters: tuple[float, ...]) -> Any:
    """One FSRS model per parameter set: making one costs more than a card's replay."""
    import fsrs_rs_python

    return fsrs_rs_python.FSRS(list(parameters))
