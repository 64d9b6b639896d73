"""Fitting FSRS to simulated learners with known memory, scored on later reviews."""

from __future__ import annotations

import math

import fsrs
import pytest

from recall.memory.sentences import fit_sentence
from recall.scheduling import fitting
from recall.scheduling.evaluation import log_losses, paired_gain, predict, score
from recall.scheduling.fitting import FitStatus, fit_parameters, reviews_needed, should_refit
from recall.scheduling.history import History, time_split
from tests.simulated_learners import DEFAULTS, FORGETFUL, recall_probability, simulate_history


@pytest.fixture(scope="module")
def forgetful() -> History:
    return History.from_events(
        simulate_history(FORGETFUL, cards=400, days=240, new_per_day=5, seed=3)
    )


@pytest.fixture(scope="module")
def typical() -> History:
    return History.from_events(
        simulate_history(DEFAULTS, cards=400, days=240, new_per_day=5, seed=3)
    )


def test_the_two_libraries_share_the_default_parameters() -> None:
    assert DEFAULTS == pytest.approx(fsrs.scheduler.DEFAULT_PARAMETERS, abs=1e-6)


def test_a_forgetful_learner_gets_parameters_that_predict_their_later_reviews_better(
    forgetful: History,
) -> None:
    result = fit_parameters(forgetful, DEFAULTS)
    assert result.status is FitStatus.KEPT, fit_sentence(result)
    comparison = result.comparison
    assert comparison is not None
    assert comparison.candidate.log_loss < comparison.current.log_loss
    assert comparison.candidate.rmse_bins < comparison.current.rmse_bins
    assert comparison.gain.mean > 2 * comparison.gain.standard_error
    assert result.parameters != DEFAULTS and len(result.parameters) == 21
    # Scored independently of the fit: the kept parameters beat the defaults on the held-out
    # reviews and come close to the learner's true memory there.
    _train, test = time_split(forgetful.targets, 0.25)
    truth = score(FORGETFUL, forgetful, test).log_loss
    kept = score(result.parameters, forgetful, test).log_loss
    assert kept < score(DEFAULTS, forgetful, test).log_loss
    assert kept - truth < 0.01
    # And py-fsrs accepts them as a scheduler's parameters.
    fsrs.Scheduler(parameters=result.parameters)
    assert "now in use" in fit_sentence(result)


def test_a_learner_whose_memory_is_the_default_keeps_the_defaults(typical: History) -> None:
    result = fit_parameters(typical, DEFAULTS)
    assert result.status is FitStatus.REJECTED, fit_sentence(result)
    assert result.parameters == DEFAULTS
    assert result.candidate is not None and result.candidate != DEFAULTS
    assert "stay" in fit_sentence(result)


def test_too_little_history_is_reported_not_fitted(monkeypatch: pytest.MonkeyPatch) -> None:
    history = History.from_events(simulate_history(FORGETFUL, cards=20, days=30, seed=1))
    have = len(history.targets)
    assert 0 < have < fitting.MIN_REVIEWS

    def no_fit(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the optimizer must not run")

    monkeypatch.setattr(fitting, "optimize", no_fit)
    result = fit_parameters(history, DEFAULTS)
    assert result.status is FitStatus.TOO_LITTLE_HISTORY
    assert result.parameters == DEFAULTS
    assert result.reviews == have
    assert result.reviews_needed == fitting.MIN_REVIEWS - have == reviews_needed(history)
    assert f"{fitting.MIN_REVIEWS - have} more needed" in fit_sentence(result)
    assert result.comparison is None and result.to_dict()["status"] == "too_little_history"


def test_the_same_history_gives_the_same_fit(forgetful: History) -> None:
    assert fitting.optimize(forgetful, 500) == fitting.optimize(forgetful, 500)


def test_should_refit_when_history_grew_by_half() -> None:
    low = fitting.MIN_REVIEWS
    assert not should_refit(None, low - 1)
    assert should_refit(None, low)
    assert not should_refit(1000, 1499)
    assert should_refit(1000, 1500)
    assert should_refit(0, low)


def test_predictions_are_the_forgetting_curve_of_the_state_before_each_review() -> None:
    history = History.from_events(simulate_history(FORGETFUL, cards=30, days=60, seed=2))
    import fsrs_rs_python

    model = fsrs_rs_python.FSRS(list(DEFAULTS))
    predictions = predict(DEFAULTS, history)
    assert len(predictions) == len(history.targets) > 20
    for p in predictions[:20]:
        card = history.by_card()[p.target.card]
        before = model.memory_state(card.fsrs_item(p.target.index))
        expected = recall_probability(DEFAULTS, before.stability, p.target.elapsed_days)
        assert p.predicted == pytest.approx(expected, rel=1e-5)
        # One item alone: fsrs-rs's own log loss is exactly this review's -log p.
        (item,) = history.items_for([p.target])
        alone = model.evaluate([item]).log_loss
        assert alone == pytest.approx(log_losses([p])[0], rel=1e-4)


def test_paired_gain_is_the_mean_log_loss_difference() -> None:
    history = History.from_events(simulate_history(FORGETFUL, cards=30, days=60, seed=2))
    a, b = predict(DEFAULTS, history), predict(FORGETFUL, history)
    gain = paired_gain(a, b)
    diffs = [x - y for x, y in zip(log_losses(a), log_losses(b), strict=True)]
    assert gain.mean == pytest.approx(sum(diffs) / len(diffs))
    spread = math.sqrt(sum((d - gain.mean) ** 2 for d in diffs) / (len(diffs) - 1))
    assert gain.standard_error == pytest.approx(spread / math.sqrt(len(diffs)))
    assert paired_gain(a, a).mean == 0.0
    with pytest.raises(ValueError):
        paired_gain(a, b[:-1])


def test_without_refit_the_kept_parameters_are_the_tested_candidate(forgetful: History) -> None:
    import json

    result = fit_parameters(forgetful, DEFAULTS, refit_on_all=False)
    assert result.kept and result.parameters == result.candidate
    refitted = fit_parameters(forgetful, DEFAULTS)
    assert refitted.parameters != refitted.candidate  # the refit saw the held-out quarter too
    data = json.loads(json.dumps(result.to_dict()))
    assert data["status"] == "kept" and data["comparison"]["candidate_better"] is True
    assert data["comparison"]["train_reviews"] + data["comparison"]["test_reviews"] == len(
        forgetful.targets
    )
