"""Does the memory model predict this learner? Calibration bins, retention per group, a verdict.

A model is *calibrated* when, of all the reviews it gave a 80 % chance of recall, about 80 % were
recalled. :func:`calibration_bins` groups reviews by predicted recall (ten bins of width 0.1) and
sets the mean prediction of each against the share actually recalled; :func:`group_retention`
does the same per deck or topic and sets both against the retention the learner asked for.

:func:`verdict` reads those figures into one sentence a learner can act on. Its thresholds:

* fewer than :data:`MIN_REVIEWS_FOR_VERDICT` scored reviews: **too little history** (a bin of a
  dozen reviews moves 8 points with one answer);
* reviews at long intervals (at least :data:`LONG_INTERVAL_DAYS` days since the previous review,
  and at least :data:`MIN_REVIEWS_IN_SLICE` of them) whose predicted recall is higher than the
  observed one by more than :data:`MAX_BIAS` *and* by more than :data:`BIAS_Z` standard errors:
  **overestimates long intervals: fit again** (the costly error: cards come back too late);
  the mirror case **underestimates** (cards come back sooner than needed);
* otherwise the same test over all reviews (over- or underestimates recall in general);
* the size-weighted RMSE between predicted and observed recall over the bins above
  :data:`MAX_RMSE`: **predictions are off: fit again**;
* else **the model predicts your recall well**.

The bias is tested against both a size (points of recall a learner would notice) and a standard
error (so a small collection's noise is not read as a fault).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from recall.scheduling.evaluation import Prediction

#: Calibration bins over predicted recall: [0, 0.1), [0.1, 0.2), ..., [0.9, 1.0].
BIN_COUNT = 10
#: Below this many scored reviews no verdict is given.
MIN_REVIEWS_FOR_VERDICT = 100
#: Reviews this many days or more after the previous one are "long intervals".
LONG_INTERVAL_DAYS = 21
#: A slice (long intervals) needs this many reviews to be judged on its own.
MIN_REVIEWS_IN_SLICE = 30
#: Predicted minus observed recall (a fraction) beyond which the model is biased ...
MAX_BIAS = 0.05
#: ... provided the gap is also this many standard errors of the observed share.
BIAS_Z = 2.0
#: Size-weighted RMSE over bins beyond which the predictions are off.
MAX_RMSE = 0.10


@dataclass(frozen=True)
class CalibrationBin:
    """Reviews whose predicted recall fell in ``[low, high)`` (the last bin includes 1)."""

    low: float
    high: float
    reviews: int
    mean_predicted: float | None
    observed: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "low": self.low,
            "high": self.high,
            "reviews": self.reviews,
            "mean_predicted": self.mean_predicted,
            "observed": self.observed,
        }


def calibration_bins(
    predictions: Sequence[Prediction], bins: int = BIN_COUNT
) -> list[CalibrationBin]:
    """Predicted vs observed recall in ``bins`` equal-width bins over [0, 1]."""
    predicted, recalled, _elapsed = _columns(predictions)
    return calibration_bins_of(predicted, recalled, bins)


def calibration_bins_of(
    predicted: Any, recalled: Any, bins: int = BIN_COUNT
) -> list[CalibrationBin]:
    """:func:`calibration_bins` over columns: NumPy arrays of predicted recall and of whether
    each review was recalled (the form the health report of a big history is computed in)."""
    import numpy as np

    index = np.minimum((predicted * bins).astype(np.int64), bins - 1)
    counts = np.bincount(index, minlength=bins)
    predicted_sums = np.bincount(index, weights=predicted, minlength=bins)
    recalled_sums = np.bincount(index, weights=recalled.astype(np.float64), minlength=bins)
    out = []
    for i in range(bins):
        n = int(counts[i])
        out.append(
            CalibrationBin(
                low=i / bins,
                high=(i + 1) / bins,
                reviews=n,
                mean_predicted=float(predicted_sums[i]) / n if n else None,
                observed=float(recalled_sums[i]) / n if n else None,
            )
        )
    return out


def _columns(predictions: Sequence[Prediction]) -> tuple[Any, Any, Any]:
    """(predicted, recalled, elapsed days) of ``predictions`` as NumPy arrays."""
    import numpy as np

    return (
        np.array([p.predicted for p in predictions], dtype=np.float64),
        np.array([p.recalled for p in predictions], dtype=bool),
        np.array([p.target.elapsed_days for p in predictions], dtype=np.int64),
    )


def binned_rmse(bins: Sequence[CalibrationBin]) -> float | None:
    """Root mean square of (predicted − observed) over bins, weighted by reviews per bin."""
    total = sum(b.reviews for b in bins)
    if not total:
        return None
    square = sum(
        b.reviews * (b.mean_predicted - b.observed) ** 2
        for b in bins
        if b.reviews and b.mean_predicted is not None and b.observed is not None
    )
    return math.sqrt(square / total)


@dataclass(frozen=True)
class Bias:
    """Mean predicted and observed recall over some reviews."""

    reviews: int
    mean_predicted: float
    observed: float

    @property
    def gap(self) -> float:
        """Predicted minus observed (positive: the model overestimates recall)."""
        return self.mean_predicted - self.observed

    @property
    def standard_error(self) -> float:
        """Binomial standard error of the observed share (with the prediction as its rate)."""
        p = min(max(self.mean_predicted, 1e-6), 1 - 1e-6)
        return math.sqrt(p * (1 - p) / self.reviews)

    def direction(self) -> int:
        """+1 overestimates, −1 underestimates, 0 within the thresholds."""
        if abs(self.gap) <= MAX_BIAS or abs(self.gap) <= BIAS_Z * self.standard_error:
            return 0
        return 1 if self.gap > 0 else -1


def bias(predictions: Sequence[Prediction]) -> Bias | None:
    """:class:`Bias` of ``predictions`` (``None`` when there are none)."""
    predicted, recalled, _elapsed = _columns(predictions)
    return bias_of(predicted, recalled)


def bias_of(predicted: Any, recalled: Any) -> Bias | None:
    """:func:`bias` over columns (NumPy arrays)."""
    n = len(predicted)
    if not n:
        return None
    return Bias(n, float(predicted.mean()), float(recalled.mean()))


@dataclass(frozen=True)
class GroupRetention:
    """One deck's or topic's reviews: observed recall against what was predicted and asked."""

    group: str
    reviews: int
    observed: float
    mean_predicted: float
    desired: float

    @property
    def shortfall(self) -> float:
        """Desired minus observed retention (positive: remembering less than asked)."""
        return self.desired - self.observed

    def to_dict(self) -> dict[str, Any]:
        return {
            "group": self.group,
            "reviews": self.reviews,
            "observed": self.observed,
            "mean_predicted": self.mean_predicted,
            "desired": self.desired,
        }


def group_retention(
    predictions: Sequence[Prediction],
    desired_retention: float,
    key: Callable[[Prediction], str | None],
) -> list[GroupRetention]:
    """True retention per group (``key`` gives a prediction's group; ``None`` skips it),
    sorted by group name. True retention counts reviews a day or more after the previous one,
    the same reviews the model predicts."""
    import numpy as np

    predicted, recalled, _elapsed = _columns(predictions)
    codes_of: dict[str, int] = {}
    codes = np.array(
        [
            -1 if (name := key(p)) is None else codes_of.setdefault(name, len(codes_of))
            for p in predictions
        ],
        dtype=np.int64,
    )
    return group_retention_of(predicted, recalled, codes, tuple(codes_of), desired_retention)


def group_retention_of(
    predicted: Any,
    recalled: Any,
    codes: Any,
    names: Sequence[str],
    desired_retention: float,
) -> list[GroupRetention]:
    """:func:`group_retention` over columns: ``codes[k]`` is review ``k``'s group as an index
    into ``names`` (−1: no group)."""
    out = []
    for code in sorted(range(len(names)), key=lambda c: names[c]):
        mask = codes == code
        found = bias_of(predicted[mask], recalled[mask])
        if found is None:
            continue
        out.append(
            GroupRetention(
                names[code], found.reviews, found.observed, found.mean_predicted, desired_retention
            )
        )
    return out


def by_deck(p: Prediction) -> str | None:
    return p.target.deck


def by_topic(p: Prediction) -> str | None:
    return p.target.topic


class Health(StrEnum):
    """The verdict's kind. The learner's sentence for each is written above scheduling, in
    :mod:`recall.memory.sentences`: this package decides, it does not speak."""

    GOOD = "good"
    TOO_LITTLE_HISTORY = "too_little_history"
    OVERESTIMATES_LONG = "overestimates_long_intervals"
    UNDERESTIMATES_LONG = "underestimates_long_intervals"
    OVERESTIMATES = "overestimates"
    UNDERESTIMATES = "underestimates"
    OFF = "predictions_off"
    #: Right over all the reviews, but a deck, topic or calibration bar shown beside the
    #: verdict is off (``memory_report``).
    UNEVEN = "uneven"


@dataclass(frozen=True)
class Verdict:
    """The model's health, with the figures behind it (``figures``: the values its sentence
    names, e.g. ``predicted``, ``observed``, ``days``, ``rmse``; see
    :func:`recall.memory.sentences.verdict_sentence`)."""

    health: Health
    figures: Mapping[str, Any]
    reviews: int
    rmse: float | None = None
    overall: Bias | None = None
    long_intervals: Bias | None = None

    def to_dict(self) -> dict[str, Any]:
        def as_dict(b: Bias | None) -> dict[str, float | int] | None:
            if b is None:
                return None
            return {
                "reviews": b.reviews,
                "mean_predicted": b.mean_predicted,
                "observed": b.observed,
            }

        return {
            "health": str(self.health),
            "figures": dict(self.figures),
            "reviews": self.reviews,
            "rmse": self.rmse,
            "overall": as_dict(self.overall),
            "long_intervals": as_dict(self.long_intervals),
        }


def verdict(predictions: Sequence[Prediction]) -> Verdict:
    """The model's health over ``predictions`` (see the module docstring for the thresholds)."""
    return verdict_of(*_columns(predictions))


def verdict_of(predicted: Any, recalled: Any, elapsed_days: Any) -> Verdict:
    """:func:`verdict` over columns (NumPy arrays of predicted recall, recalled or not, and days
    since the previous review)."""
    n = len(predicted)
    if n < MIN_REVIEWS_FOR_VERDICT:
        needed = {"needed": MIN_REVIEWS_FOR_VERDICT - n}
        return Verdict(Health.TOO_LITTLE_HISTORY, needed, n)
    overall = bias_of(predicted, recalled)
    long_mask = elapsed_days >= LONG_INTERVAL_DAYS
    long_bias = (
        bias_of(predicted[long_mask], recalled[long_mask])
        if int(long_mask.sum()) >= MIN_REVIEWS_IN_SLICE
        else None
    )
    rmse = binned_rmse(calibration_bins_of(predicted, recalled))

    def made(health: Health, b: Bias | None = None) -> Verdict:
        figures: dict[str, Any] = {"days": LONG_INTERVAL_DAYS, "rmse": rmse or 0.0}
        if b is not None:
            figures.update(predicted=b.mean_predicted, observed=b.observed)
        return Verdict(health, figures, n, rmse, overall, long_bias)

    if long_bias is not None and long_bias.direction():
        return made(
            Health.OVERESTIMATES_LONG if long_bias.direction() > 0 else Health.UNDERESTIMATES_LONG,
            long_bias,
        )
    assert overall is not None
    if overall.direction():
        return made(
            Health.OVERESTIMATES if overall.direction() > 0 else Health.UNDERESTIMATES, overall
        )
    if rmse is not None and rmse > MAX_RMSE:
        return made(Health.OFF)
    return made(Health.GOOD)
