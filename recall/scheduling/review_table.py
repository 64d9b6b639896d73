"""Scheduled reviews as columns: the health report of a big history without an object per review.

:class:`~recall.scheduling.history.History` holds one event per review and one target per
predictable review, which the optimizer needs and which costs seconds at 100k reviews. The health
report (``recall stats``, the stats screen) needs only figures over all reviews, so
:class:`ReviewTable` keeps the same history as NumPy arrays: each review's card, rating and
study-day gap, grouped by card and ordered by time. It follows the rules of
:mod:`recall.scheduling.history` exactly (study days at the rollover hour in local time; the same
card at the same moment counted once, first source first; a target is a review a day or more
after the card's previous one), and predictions come from the same function
(:func:`recall.scheduling.evaluation.recall_before`), so both give the same report.

NumPy is imported inside the functions: the TUI imports scheduling before its first frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any

_MS_PER_DAY = 86_400_000
_MS_PER_HOUR = 3_600_000
#: Every time zone changes its offset on a quarter hour, so one offset per quarter hour is
#: exact; a quarter hour whose two ends differ anyway is resolved review by review.
_QUARTER_HOUR_MS = 900_000


def study_day_numbers(millis: Any, rollover_hour: int = 4, tz: tzinfo | None = None) -> Any:
    """The study day (days since 1970-01-01, local) of each time in ``millis`` (epoch
    milliseconds): :func:`recall.scheduling.day.study_date`, for an array at once."""
    import numpy as np

    millis = np.asarray(millis, dtype=np.int64)
    if not len(millis):
        return np.zeros(0, dtype=np.int64)
    buckets, inverse = np.unique(millis // _QUARTER_HOUR_MS, return_inverse=True)
    starts = np.array([_offset_ms(int(b) * _QUARTER_HOUR_MS, tz) for b in buckets])
    ends = np.array([_offset_ms((int(b) + 1) * _QUARTER_HOUR_MS - 1, tz) for b in buckets])
    offsets = starts[inverse].astype(np.int64)
    for i in np.flatnonzero((starts != ends)[inverse]):
        offsets[i] = _offset_ms(int(millis[i]), tz)
    return (millis + offsets - rollover_hour * _MS_PER_HOUR) // _MS_PER_DAY


def _offset_ms(moment_ms: int, tz: tzinfo | None) -> int:
    moment = datetime.fromtimestamp(moment_ms / 1000, UTC).astimezone(tz)
    offset = moment.utcoffset()
    return 0 if offset is None else int(offset.total_seconds() * 1000)


@dataclass(frozen=True)
class ReviewTable:
    """Reviews grouped by card (``card`` ascending), oldest first within each card.

    ``card`` is each review's card code (any integer: the store's card id), ``rating`` 1..4,
    ``delta_days`` the study days since the card's previous review (0 for its first),
    ``position`` the review's index in its card's history and ``row`` its card's index in
    :attr:`cards` (the distinct codes, ascending).
    """

    card: Any
    rating: Any
    delta_days: Any
    position: Any
    row: Any
    cards: Any

    @classmethod
    def build(
        cls,
        card: Any,
        millis: Any,
        rating: Any,
        rollover_hour: int = 4,
        tz: tzinfo | None = None,
    ) -> ReviewTable:
        """Group reviews (in source order: the own log first, imported ones after) by card and
        time, dropping a repeat of a card at a moment already seen."""
        import numpy as np

        card = np.asarray(card, dtype=np.int64)
        millis = np.asarray(millis, dtype=np.int64)
        rating = np.asarray(rating, dtype=np.int64)
        order = np.argsort(millis, kind="stable")
        order = order[np.argsort(card[order], kind="stable")]
        card, millis, rating = card[order], millis[order], rating[order]
        if len(card):
            repeat = np.zeros(len(card), dtype=bool)
            repeat[1:] = (card[1:] == card[:-1]) & (millis[1:] == millis[:-1])
            keep = ~repeat
            card, millis, rating = card[keep], millis[keep], rating[keep]
        days = study_day_numbers(millis, rollover_hour, tz)
        first = np.ones(len(card), dtype=bool)
        first[1:] = card[1:] != card[:-1]
        delta = np.zeros(len(card), dtype=np.int64)
        delta[1:] = np.where(first[1:], 0, days[1:] - days[:-1])
        starts = np.flatnonzero(first)
        row = np.cumsum(first) - 1
        position = np.arange(len(card)) - starts[row] if len(card) else row
        return cls(card, rating, delta, position, row, card[starts])

    def __len__(self) -> int:
        return len(self.card)

    @property
    def targets(self) -> Any:
        """Which reviews the forgetting curve predicts (a boolean array): a day or more after
        the card's previous review."""
        return (self.position > 0) & (self.delta_days > 0)

    def card_reviews(self) -> list[list[tuple[int, int]]]:
        """Each card's (rating, delta_t) pairs, in :attr:`cards` order."""
        import numpy as np

        pairs = list(zip(self.rating.tolist(), self.delta_days.tolist(), strict=True))
        bounds = np.append(np.flatnonzero(self.position == 0), len(pairs)).tolist()
        return [pairs[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


@dataclass(frozen=True)
class Scored:
    """The table's predictable reviews with the model's predicted recall, as columns."""

    predicted: Any
    recalled: Any
    elapsed_days: Any
    card: Any  # card code of each


def score_table(parameters: Sequence[float], table: ReviewTable) -> Scored:
    """Predict every target of ``table`` under ``parameters``."""
    import numpy as np

    from recall.scheduling.evaluation import recall_before

    mask = table.targets
    if not mask.any():
        empty = np.zeros(0)
        return Scored(empty, empty.astype(bool), empty.astype(np.int64), empty.astype(np.int64))
    predicted = recall_before(
        parameters,
        table.card_reviews(),
        table.row[mask],
        table.position[mask],
        table.delta_days[mask].astype(np.float64),
    )
    return Scored(predicted, table.rating[mask] != 1, table.delta_days[mask], table.card[mask])


def group_codes(card: Any, groups: dict[int, str]) -> tuple[Any, tuple[str, ...]]:
    """(code per review, names) for ``groups`` (card code ─▶ group name; a card not in it has
    no group, code −1), in the form :func:`recall.scheduling.calibration.group_retention_of`
    reads."""
    import numpy as np

    names = tuple(sorted(set(groups.values())))
    index = {name: i for i, name in enumerate(names)}
    unique, inverse = np.unique(card, return_inverse=True)
    per_card = np.array(
        [-1 if (name := groups.get(int(c))) is None else index[name] for c in unique.tolist()],
        dtype=np.int64,
    )
    return (per_card[inverse] if len(card) else np.zeros(0, dtype=np.int64)), names
