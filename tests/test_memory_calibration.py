"""Calibration bins, retention per group and the verdict, against hand computations."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from recall.memory.sentences import verdict_sentence
from recall.scheduling import calibration
from recall.scheduling.calibration import (
    Health,
    by_deck,
    calibration_bins,
    group_retention,
    verdict,
)
from recall.scheduling.evaluation import Prediction, predict
from recall.scheduling.history import History, ReviewEvent, Target
from recall.scheduling.rating import Rating
from tests.simulated_learners import DEFAULTS, FORGETFUL, simulate_history

T0 = datetime(2025, 3, 3, 12, tzinfo=UTC)

# Hand computation with the FSRS-6 defaults. A first review rated Good sets stability to
# w2 = 2.3065 days. With decay w20 = 0.1542 the curve's factor is 0.9^(-1/0.1542) - 1 = 0.98035,
# and recall after t days is (1 + 0.98035 t / 2.3065)^-0.1542:
#   t = 1: 1.42504^-0.1542 = 0.94685      t = 2: 1.85007^-0.1542 = 0.90949
#   t = 10: 5.25036^-0.1542 = 0.77437     t = 30: 13.75109^-0.1542 = 0.66753
R1, R2, R10, R30 = 0.94685, 0.90949, 0.77437, 0.66753
SMALL_LOG = [  # (card, days until the second review, recalled?)
    ("a", 1, True),
    ("b", 1, False),
    ("c", 2, True),
    ("d", 10, True),
    ("e", 10, False),
    ("f", 30, False),
]


def small_history() -> History:
    events = []
    for card, days, recalled in SMALL_LOG:
        deck = "one" if card in "abc" else "two"
        events.append(ReviewEvent(card, T0, Rating.Good, deck=deck))
        events.append(
            ReviewEvent(
                card,
                T0 + timedelta(days=days),
                Rating.Good if recalled else Rating.Again,
                deck=deck,
            )
        )
    return History.from_events(events, tz=UTC)


def test_bins_match_a_hand_computation_on_a_small_log() -> None:
    predictions = predict(DEFAULTS, small_history())
    got = {p.target.card: p.predicted for p in predictions}
    assert got == pytest.approx({"a": R1, "b": R1, "c": R2, "d": R10, "e": R10, "f": R30}, abs=2e-5)
    bins = calibration_bins(predictions)
    assert [b.reviews for b in bins] == [0, 0, 0, 0, 0, 0, 1, 2, 0, 3]
    assert [(b.low, b.high) for b in bins][6] == pytest.approx((0.6, 0.7))
    six, seven, nine = bins[6], bins[7], bins[9]
    assert (six.mean_predicted, six.observed) == pytest.approx((R30, 0.0), abs=2e-5)
    assert (seven.mean_predicted, seven.observed) == pytest.approx((R10, 0.5), abs=2e-5)
    assert (nine.mean_predicted, nine.observed) == pytest.approx(
        ((2 * R1 + R2) / 3, 2 / 3), abs=2e-5
    )
    assert bins[0].mean_predicted is None and bins[0].observed is None
    # RMSE weighted by bin size: sqrt((1*(R30-0)^2 + 2*(R10-.5)^2 + 3*(mean9-2/3)^2) / 6).
    mean9 = (2 * R1 + R2) / 3
    expected = ((R30**2 + 2 * (R10 - 0.5) ** 2 + 3 * (mean9 - 2 / 3) ** 2) / 6) ** 0.5
    assert calibration.binned_rmse(bins) == pytest.approx(expected, abs=2e-5)


def test_retention_per_group_against_desired() -> None:
    groups = group_retention(predict(DEFAULTS, small_history()), 0.9, by_deck)
    assert [g.group for g in groups] == ["one", "two"]
    one, two = groups
    assert (one.reviews, one.observed) == (3, pytest.approx(2 / 3))
    assert one.mean_predicted == pytest.approx((2 * R1 + R2) / 3, abs=2e-5)
    assert (two.reviews, two.observed) == (3, pytest.approx(1 / 3))
    assert two.shortfall == pytest.approx(0.9 - 1 / 3)
    assert two.to_dict()["desired"] == 0.9


def test_a_predicted_value_of_one_lands_in_the_last_bin() -> None:
    target = Target("x", 1, T0, 1, True)
    bins = calibration_bins([Prediction(target, 1.0), Prediction(target, 0.0)])
    assert bins[-1].reviews == 1 and bins[0].reviews == 1


def test_too_little_history_verdict() -> None:
    result = verdict(predict(DEFAULTS, small_history()))
    assert result.health is Health.TOO_LITTLE_HISTORY
    assert str(calibration.MIN_REVIEWS_FOR_VERDICT - 6) in verdict_sentence(result)


def test_defaults_predict_a_default_learner_well() -> None:
    history = History.from_events(simulate_history(DEFAULTS, cards=300, days=200, seed=0))
    result = verdict(predict(DEFAULTS, history))
    assert result.health is Health.GOOD, verdict_sentence(result)
    assert verdict_sentence(result) == "The model predicts your recall well."


def test_defaults_overestimate_a_forgetful_learner_at_long_intervals() -> None:
    history = History.from_events(simulate_history(FORGETFUL, cards=300, days=200, seed=0))
    predictions = predict(DEFAULTS, history)
    result = verdict(predictions)
    assert result.health is Health.OVERESTIMATES_LONG, verdict_sentence(result)
    assert verdict_sentence(result).startswith("It overestimates your recall of long intervals")
    assert verdict_sentence(result).endswith("fit again.")
    # Their true parameters describe them well.
    assert verdict(predict(FORGETFUL, history)).health is Health.GOOD


def _fake(predicted: float, recalled_share: float, n: int, elapsed: int) -> list[Prediction]:
    recalled = round(recalled_share * n)
    return [Prediction(Target(i, 1, T0, elapsed, i < recalled), predicted) for i in range(n)]


def test_verdict_thresholds() -> None:
    # Short intervals only, predicted 0.9, recalled 0.9: good.
    assert verdict(_fake(0.9, 0.9, 400, 3)).health is Health.GOOD
    # Recalled 0.97 against 0.9 predicted, far beyond noise: underestimates.
    assert verdict(_fake(0.9, 0.97, 400, 3)).health is Health.UNDERESTIMATES
    # Long intervals overestimated, short ones fine overall-ish: the long slice wins.
    mixed = _fake(0.9, 0.9, 400, 3) + _fake(0.9, 0.7, 100, 40)
    result = verdict(mixed)
    assert result.health is Health.OVERESTIMATES_LONG
    assert "after 21+ days" in verdict_sentence(result)
    # A 4-point gap is below MAX_BIAS: not called a bias.
    assert verdict(_fake(0.9, 0.86, 2000, 3)).health is Health.GOOD
    # A 10-point gap on 30 long reviews is inside two standard errors (0.055 * 2): not a bias.
    small = _fake(0.9, 0.9, 400, 3) + _fake(0.8, 0.7, 30, 40)
    assert verdict(small).long_intervals is not None
    assert verdict(small).health is not Health.OVERESTIMATES_LONG
