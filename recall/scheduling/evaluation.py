"""How well a set of FSRS parameters predicts a learner's reviews.

Two views of the same question:

* :func:`score` asks fsrs-rs-python's own ``FSRS.evaluate`` for the two figures the FSRS
  benchmark uses: **log loss** (the mean of ``-log p`` for each review's actual outcome; lower is
  better, 0 is perfect) and **RMSE over bins** (reviews grouped by interval, history length and
  lapses, then the root mean square gap between predicted and observed recall per group,
  weighted by group size). fsrs-rs weights items by their position, later ones more (as its
  training does), so items go in oldest first and its log loss is not the plain mean;
* :func:`predict` gives every review its own predicted recall (memory state before the review
  from ``FSRS.historical_memory_state_batch``, then the forgetting curve of
  :meth:`recall.scheduling.fsrs_adapter.Scheduler.retrievability_many`), which calibration bins
  and which :func:`paired_gain` compares review by review.

A paired comparison is what makes "predicts better" a claim rather than noise: the same held-out
reviews are scored under both parameter sets, and the mean gain in log loss is set against its
own standard error.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from recall.scheduling.history import History, Target

#: Predictions are kept inside (ε, 1 − ε) before taking logs, as fsrs-rs does, so one review the
#: model was certain about cannot make the loss infinite.
EPSILON = 1e-4


@dataclass(frozen=True)
class Score:
    """Log loss and RMSE over bins of one parameter set on some reviews."""

    log_loss: float
    rmse_bins: float
    reviews: int

    def to_dict(self) -> dict[str, float | int]:
        return {"log_loss": self.log_loss, "rmse_bins": self.rmse_bins, "reviews": self.reviews}


@dataclass(frozen=True, slots=True)
class Prediction:
    """One review: what the model expected (probability of recall) and what happened."""

    target: Target
    predicted: float

    @property
    def recalled(self) -> bool:
        return self.target.recalled


def score(parameters: Sequence[float], history: History, targets: Sequence[Target]) -> Score:
    """fsrs-rs-python's evaluation of ``parameters`` on ``targets`` (at least one)."""
    import fsrs_rs_python

    if not targets:
        raise ValueError("nothing to score: no reviews a day or more after the previous one")
    model = fsrs_rs_python.FSRS(list(parameters))
    evaluation = model.evaluate(history.items_for(targets))
    return Score(float(evaluation.log_loss), float(evaluation.rmse_bins), len(targets))


def predict(
    parameters: Sequence[float], history: History, targets: Sequence[Target] | None = None
) -> list[Prediction]:
    """Each target's predicted recall under ``parameters`` (all targets by default)."""
    import numpy as np

    chosen = history.targets if targets is None else list(targets)
    if not chosen:
        return []
    cards = history.cards
    row_of = {card.card: row for row, card in enumerate(cards)}
    recall = recall_before(
        parameters,
        [card.review_pairs() for card in cards],
        np.array([row_of[t.card] for t in chosen], dtype=np.int64),
        np.array([t.index for t in chosen], dtype=np.int64),
        np.array([t.elapsed_days for t in chosen], dtype=np.float64),
    )
    return [Prediction(t, float(p)) for t, p in zip(chosen, recall, strict=True)]


def recall_before(
    parameters: Sequence[float],
    card_reviews: Sequence[Sequence[tuple[int, int]]],
    rows: Any,
    positions: Any,
    elapsed_days: Any,
) -> Any:
    """The predicted recall (a NumPy array, kept inside (ε, 1 − ε)) of review ``positions[k]``
    of card ``rows[k]``: the memory state after the card's review before it (from
    ``FSRS.historical_memory_state_batch`` over each card's (rating, delta_t) pairs), then the
    forgetting curve ``elapsed_days[k]`` days on. The one prediction :func:`predict` and the
    columnar health report (:mod:`recall.scheduling.review_table`) both use."""
    import fsrs_rs_python
    import numpy as np

    from recall.scheduling.fsrs_adapter import Scheduler, SchedulerSettings

    model = fsrs_rs_python.FSRS(list(parameters))
    items = [
        fsrs_rs_python.FSRSItem([fsrs_rs_python.FSRSReview(r, d) for r, d in reviews])
        for reviews in card_reviews
    ]
    states = model.historical_memory_state_batch(items)
    stability = np.array(
        [
            states[row][position - 1].stability
            for row, position in zip(rows.tolist(), positions.tolist(), strict=True)
        ],
        dtype=np.float64,
    )
    curve = Scheduler(SchedulerSettings(parameters=tuple(parameters), enable_fuzzing=False))
    return np.clip(curve.retrievability_many(stability, elapsed_days), EPSILON, 1.0 - EPSILON)


def log_losses(predictions: Sequence[Prediction]) -> list[float]:
    """``-log p`` of each review's actual outcome."""
    return [-math.log(p.predicted if p.recalled else 1.0 - p.predicted) for p in predictions]


@dataclass(frozen=True)
class Gain:
    """Mean per-review log-loss improvement of one parameter set over another, with its
    standard error (positive: the challenger predicts better)."""

    mean: float
    standard_error: float
    reviews: int

    def significant(self, z: float) -> bool:
        """The gain is more than ``z`` standard errors above zero."""
        return self.mean > z * self.standard_error

    def to_dict(self) -> dict[str, float | int]:
        return {"mean": self.mean, "standard_error": self.standard_error, "reviews": self.reviews}


def paired_gain(incumbent: Sequence[Prediction], challenger: Sequence[Prediction]) -> Gain:
    """How much ``challenger`` lowers log loss per review on the same reviews as ``incumbent``."""
    if len(incumbent) != len(challenger):
        raise ValueError("paired predictions must cover the same reviews")
    diffs = [a - b for a, b in zip(log_losses(incumbent), log_losses(challenger), strict=True)]
    n = len(diffs)
    if n == 0:
        return Gain(0.0, 0.0, 0)
    mean = sum(diffs) / n
    if n == 1:
        return Gain(mean, math.inf, 1)
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return Gain(mean, math.sqrt(variance / n), n)
