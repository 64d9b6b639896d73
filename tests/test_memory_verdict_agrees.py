"""The memory model's verdict follows from the figures shown beside it (issue 19, item 3):
"The model predicts your recall well." was said above a deck recalled 96% of the time against
67% predicted. The rule is the verdict's own test (gap beyond MAX_BIAS and beyond noise), applied
to every row the stats screen shows."""

from __future__ import annotations

import pytest

from recall.memory.report import ModelHealth, _said_of_what_is_shown
from recall.memory.sentences import verdict_sentence
from recall.scheduling.calibration import (
    Bias,
    CalibrationBin,
    GroupRetention,
    Health,
    Verdict,
)

GOOD = Verdict(Health.GOOD, {}, 900, 0.03, Bias(900, 0.9, 0.9))


def _health(
    decks: tuple[GroupRetention, ...] = (), bins: tuple[CalibrationBin, ...] = ()
) -> ModelHealth:
    return ModelHealth(GOOD, bins, decks, (), 0.9)


def test_a_deck_far_off_its_prediction_is_said_instead_of_well() -> None:
    off = GroupRetention("imported", 120, 0.96, 0.67, 0.9)
    fine = GroupRetention("losses", 700, 0.90, 0.89, 0.9)
    said = _said_of_what_is_shown(_health(decks=(fine, off))).verdict
    assert said.health is Health.UNEVEN
    assert "well." not in verdict_sentence(said).lower()
    assert (
        "deck imported" in verdict_sentence(said)
        and "96%" in verdict_sentence(said)
        and "67%" in verdict_sentence(said)
    )


def test_a_bar_of_the_chart_far_off_is_said_too() -> None:
    bar = CalibrationBin(0.6, 0.7, 80, 0.66, 0.96)
    said = _said_of_what_is_shown(_health(bins=(bar,))).verdict
    assert said.health is Health.UNEVEN and "60%–70% bar" in verdict_sentence(said)


@pytest.mark.parametrize(
    "row",
    [
        GroupRetention("small", 6, 1.0, 0.67, 0.9),  # six reviews: within noise
        GroupRetention("close", 500, 0.92, 0.89, 0.9),  # three points: within MAX_BIAS
    ],
)
def test_rows_that_agree_or_are_noise_keep_the_verdict(row: GroupRetention) -> None:
    assert _said_of_what_is_shown(_health(decks=(row,))).verdict == GOOD


def test_a_verdict_that_already_warns_is_left_alone() -> None:
    warning = Verdict(Health.OFF, {"rmse": 0.2}, 900, 0.2)
    health = ModelHealth(warning, (), (GroupRetention("x", 120, 0.96, 0.67, 0.9),), (), 0.9)
    assert _said_of_what_is_shown(health).verdict == warning
