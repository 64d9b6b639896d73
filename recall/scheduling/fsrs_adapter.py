"""The FSRS-6 scheduler behind one small function: state + rating + time ─▶ next state.

py-fsrs does the memory model; this module does the bookkeeping around it that it leaves to us:

* a *new* phase (py-fsrs has none: a fresh ``fsrs.Card`` is already Learning),
* review and lapse counts (a lapse is a Review-phase card rated Again),
* UTC discipline: py-fsrs accepts only ``datetime.timezone.utc``, so any aware time is converted,
  and a naive one is refused rather than guessed,
* our own ``card_id`` (without one, each new ``fsrs.Card`` sleeps a millisecond to make an id).

Fuzzing (on by default, as in use) draws from the global ``random`` module; tests turn it off in
:class:`SchedulerSettings` or seed ``random``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import fsrs

from recall.scheduling.rating import Rating
from recall.scheduling.state import CardState, Phase

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class SchedulerSettings:
    """What the learner can tune (see :mod:`recall.config`), with FSRS's own defaults."""

    desired_retention: float = 0.9
    learning_steps: tuple[timedelta, ...] = (timedelta(minutes=1), timedelta(minutes=10))
    relearning_steps: tuple[timedelta, ...] = (timedelta(minutes=10),)
    maximum_interval_days: int = 36500
    enable_fuzzing: bool = True
    parameters: tuple[float, ...] = tuple(fsrs.scheduler.DEFAULT_PARAMETERS)


def as_utc(moment: datetime) -> datetime:
    """``moment`` as a ``timezone.utc`` datetime; a naive time is a bug, not a guess."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"naive datetime {moment!r}: recall keeps every time timezone-aware")
    return moment.astimezone(UTC)


class Scheduler:
    """Maps a :class:`CardState` and a :class:`Rating` to the next state with FSRS-6."""

    def __init__(self, settings: SchedulerSettings | None = None) -> None:
        self.settings = settings or SchedulerSettings()
        self._fsrs = fsrs.Scheduler(
            parameters=self.settings.parameters,
            desired_retention=self.settings.desired_retention,
            learning_steps=self.settings.learning_steps,
            relearning_steps=self.settings.relearning_steps,
            maximum_interval=self.settings.maximum_interval_days,
            enable_fuzzing=self.settings.enable_fuzzing,
        )

    @property
    def decay(self) -> float:
        """The (negative) power-law decay of the forgetting curve, FSRS-6's last parameter."""
        return -self.settings.parameters[20]

    def review(self, card_id: int, state: CardState, rating: Rating, now: datetime) -> CardState:
        """The state after rating the card ``rating`` at ``now``."""
        now = as_utc(now)
        rating = Rating(rating)
        after, _log = self._fsrs.review_card(
            _to_fsrs(card_id, state, now), fsrs.Rating(int(rating)), now
        )
        lapsed = state.phase is Phase.REVIEW and rating is Rating.Again
        return CardState(
            phase=Phase(int(after.state)),
            step=after.step,
            stability=after.stability,
            difficulty=after.difficulty,
            due=as_utc(after.due),
            last_review=as_utc(after.last_review) if after.last_review else now,
            reps=state.reps + 1,
            lapses=state.lapses + (1 if lapsed else 0),
        )

    def preview(self, card_id: int, state: CardState, now: datetime) -> dict[Rating, datetime]:
        """When the card would be due next under each rating (for labelling the rating keys).

        Fuzz is left out so the labels do not flicker between calls.
        """
        plain = Scheduler(replace(self.settings, enable_fuzzing=False))
        out: dict[Rating, datetime] = {}
        for rating in Rating:
            due = plain.review(card_id, state, rating, now).due
            assert due is not None
            out[rating] = due
        return out

    def retrievability(self, state: CardState, now: datetime) -> float:
        """Probability of recall at ``now`` (0 for a card never reviewed)."""
        if state.last_review is None or state.stability is None:
            return 0.0
        card = _to_fsrs(0, state, as_utc(now))
        return float(self._fsrs.get_card_retrievability(card, as_utc(now)))

    def retrievability_many(
        self, stability: np.ndarray | Sequence[float], elapsed_days: np.ndarray | Sequence[float]
    ) -> np.ndarray:
        """Vectorised :meth:`retrievability` for many cards at once.

        ``elapsed_days`` are whole days since each card's last review (FSRS counts whole days);
        entries with no stability (NaN) get 0, as never-reviewed cards do.
        """
        import numpy as np

        s = np.asarray(stability, dtype=np.float64)
        t = np.maximum(np.asarray(elapsed_days, dtype=np.float64), 0.0)
        decay = self.decay
        factor = 0.9 ** (1.0 / decay) - 1.0
        with np.errstate(invalid="ignore", divide="ignore"):
            r = (1.0 + factor * t / s) ** decay
        return np.where(np.isfinite(r) & (s > 0), r, 0.0)


def _to_fsrs(card_id: int, state: CardState, now: datetime) -> fsrs.Card:
    """Our state as an ``fsrs.Card``; a new card becomes a fresh Learning card at step 0."""
    if state.phase is Phase.NEW:
        return fsrs.Card(card_id=card_id, state=fsrs.State.Learning, step=0, due=now)
    return fsrs.Card(
        card_id=card_id,
        state=fsrs.State(int(state.phase)),
        step=state.step,
        stability=state.stability,
        difficulty=state.difficulty,
        due=as_utc(state.due) if state.due else now,
        last_review=as_utc(state.last_review) if state.last_review else None,
    )
