"""Fit FSRS-6 to the learner's own history, and keep the fit only if it predicts better.

The optimizer is fsrs-rs-python's ``FSRS.compute_parameters`` (a Rust wheel with no
dependencies; py-fsrs's own optimizer needs torch). What this module adds is the discipline
around it, so a fit never makes the schedule worse:

1. **Enough history.** At least :data:`MIN_REVIEWS` reviews that came a day or more after the
   card's previous review (the only ones a forgetting curve predicts). Below that, the answer
   says how many more are needed and nothing is fitted: fsrs-rs would quietly hand back its
   defaults or fit only the first four parameters, and a held-out quarter of a smaller history
   is too few reviews to tell a better model from luck.
2. **A time-series split.** The earliest ``1 − test_share`` of those reviews train a candidate;
   the rest, which happened later, score it against the parameters in use. Testing on the
   future is the honest question: "would this fit have predicted what happened next?"
3. **Better means clearly better.** The candidate is kept only if its log loss on the held-out
   reviews is lower by more than :data:`SIGNIFICANCE_Z` standard errors of the paired
   per-review difference, *and* its RMSE over bins is no worse. A learner whose memory matches
   the parameters in use therefore keeps them, instead of trading them for a fit to noise.
4. **Then use all of it.** When the candidate wins, the parameters kept are refitted on the whole
   history (the split judged the procedure; the latest reviews are the most informative ones to
   learn from). ``refit_on_all=False`` keeps the candidate exactly as tested.

A fit is suggested again once the history has grown by half since the last one
(:func:`should_refit`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from recall.scheduling.evaluation import Gain, Score, paired_gain, predict, score
from recall.scheduling.history import History, time_split

#: Reviews (a day or more after the previous one) needed before a fit is tried.
MIN_REVIEWS = 400
#: Share of the latest reviews held out to test a fit.
TEST_SHARE = 0.25
#: A fit is kept only when its held-out log-loss gain exceeds this many standard errors.
SIGNIFICANCE_Z = 2.0
#: Suggest a new fit once the history is this many times what the last fit saw.
REFIT_GROWTH = 1.5
#: The optimizer's seed: the same history gives the same parameters.
TRAINING_SEED = 2023


class FitStatus(StrEnum):
    """What came of a fit."""

    KEPT = "kept"  # the new parameters predict better and replace the ones in use
    REJECTED = "rejected"  # fitted, but not better on later reviews: the ones in use stay
    TOO_LITTLE_HISTORY = "too_little_history"  # nothing fitted


@dataclass(frozen=True)
class Comparison:
    """The parameters in use and the candidate, scored on the same later reviews."""

    current: Score
    candidate: Score
    gain: Gain
    train_reviews: int

    @property
    def candidate_better(self) -> bool:
        """The rule of point 3 in the module docstring."""
        return (
            self.gain.significant(SIGNIFICANCE_Z)
            and self.candidate.rmse_bins <= self.current.rmse_bins
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "current": self.current.to_dict(),
            "candidate": self.candidate.to_dict(),
            "log_loss_gain": self.gain.to_dict(),
            "train_reviews": self.train_reviews,
            "test_reviews": self.current.reviews,
            "candidate_better": self.candidate_better,
        }


@dataclass(frozen=True)
class FitResult:
    """The outcome of :func:`fit_parameters`.

    ``parameters`` are the ones to schedule with from now on: the new fit when ``status`` is
    ``KEPT``, otherwise the ones passed in. ``candidate`` is what the training part produced
    (``None`` when nothing was fitted).
    """

    status: FitStatus
    parameters: tuple[float, ...]
    reviews: int
    reviews_needed: int = 0
    candidate: tuple[float, ...] | None = None
    comparison: Comparison | None = None

    @property
    def kept(self) -> bool:
        return self.status is FitStatus.KEPT

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": str(self.status),
            "parameters": list(self.parameters),
            "reviews": self.reviews,
            "reviews_needed": self.reviews_needed,
            "candidate": None if self.candidate is None else list(self.candidate),
            "comparison": None if self.comparison is None else self.comparison.to_dict(),
        }


def countable_reviews(history: History) -> int:
    """Reviews a forgetting curve can be scored on (a day or more after the previous one)."""
    return len(history.targets)


def reviews_needed(history: History, min_reviews: int = MIN_REVIEWS) -> int:
    """How many more countable reviews before a fit is tried (0 when there are enough)."""
    return max(0, min_reviews - countable_reviews(history))


def should_refit(
    reviews_at_last_fit: int | None, reviews_now: int, min_reviews: int = MIN_REVIEWS
) -> bool:
    """Whether to suggest a fit: enough history, and none yet or the history grew by half."""
    if reviews_now < min_reviews:
        return False
    if reviews_at_last_fit is None or reviews_at_last_fit <= 0:
        return True
    return reviews_now >= math.ceil(reviews_at_last_fit * REFIT_GROWTH)


def optimize(
    history: History,
    targets_count: int | None = None,
    *,
    relearning_steps: int = 1,
    seed: int = TRAINING_SEED,
) -> tuple[float, ...]:
    """fsrs-rs-python's fit on every target of ``history`` (or the first ``targets_count``)."""
    import fsrs_rs_python

    targets = history.targets if targets_count is None else history.targets[:targets_count]
    items = history.items_for(targets)
    model = fsrs_rs_python.FSRS(list(fsrs_rs_python.DEFAULT_PARAMETERS))
    fitted = model.compute_parameters(
        items,
        enable_short_term=True,
        num_relearning_steps=relearning_steps,
        training_config=fsrs_rs_python.TrainingConfig(seed=seed),
    )
    return tuple(float(w) for w in fitted)


def fit_parameters(
    history: History,
    current: Sequence[float],
    *,
    min_reviews: int = MIN_REVIEWS,
    test_share: float = TEST_SHARE,
    refit_on_all: bool = True,
    relearning_steps: int = 1,
    seed: int = TRAINING_SEED,
) -> FitResult:
    """Fit, test on later reviews, and keep only a clear improvement (see the module docstring)."""
    current = tuple(float(w) for w in current)
    available = countable_reviews(history)
    if available < min_reviews:
        return FitResult(
            FitStatus.TOO_LITTLE_HISTORY,
            current,
            reviews=available,
            reviews_needed=min_reviews - available,
        )
    train, test = time_split(history.targets, test_share)
    if not train or not test:
        return FitResult(FitStatus.TOO_LITTLE_HISTORY, current, reviews=available, reviews_needed=1)
    candidate = optimize(history, len(train), relearning_steps=relearning_steps, seed=seed)
    comparison = Comparison(
        current=score(current, history, test),
        candidate=score(candidate, history, test),
        gain=paired_gain(predict(current, history, test), predict(candidate, history, test)),
        train_reviews=len(train),
    )
    if not comparison.candidate_better:
        return FitResult(
            FitStatus.REJECTED, current, available, candidate=candidate, comparison=comparison
        )
    kept = (
        optimize(history, relearning_steps=relearning_steps, seed=seed)
        if refit_on_all
        else candidate
    )
    return FitResult(FitStatus.KEPT, kept, available, candidate=candidate, comparison=comparison)
