"""One review of an exchanged review log, as the memory model reads it.

The type lives in the pure scheduling library so the fitting and the health report can take
imported rows without knowing any file format; :mod:`recall.interop.review_csv` reads and writes
it as CSV.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from recall.scheduling.rating import Rating
from recall.scheduling.state import Phase


@dataclass(frozen=True, slots=True)
class RevlogRow:
    """One valid row. ``row`` is its line in the file (header = 1)."""

    row: int
    card_id: str
    reviewed_at: datetime
    rating: Rating
    state: Phase | None = None
    duration_ms: int | None = None
