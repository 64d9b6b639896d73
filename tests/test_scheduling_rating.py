"""Rating suggestions: each rule of the issue, and that a wrong answer is never a pass."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from recall.scheduling import Rating, suggest_rating


def test_ratings_are_numbered_as_fsrs_numbers_them() -> None:
    assert [r.value for r in Rating] == [1, 2, 3, 4]
    assert [r.name for r in Rating] == ["Again", "Hard", "Good", "Easy"]
    assert not Rating.Again.passed and Rating.Hard.passed


def test_invalid_gets_no_rating() -> None:
    assert suggest_rating("invalid", 3.0, False, True) is None


def test_self_rated_gets_no_suggestion() -> None:
    assert suggest_rating("self", 3.0, False, True) is None


def test_incorrect_is_again() -> None:
    assert suggest_rating("incorrect", 3.0, False, False) is Rating.Again


def test_correct_is_good() -> None:
    assert suggest_rating("correct", 20.0, False, False) is Rating.Good


def test_correct_but_slow_is_hard() -> None:
    assert suggest_rating("correct", 90.0, False, True) is Rating.Hard


def test_correct_with_hint_is_hard_even_when_fast() -> None:
    assert suggest_rating("correct", 2.0, True, True) is Rating.Hard


def test_fast_on_mature_card_is_easy_but_not_on_young_card() -> None:
    assert suggest_rating("correct", 2.0, False, True) is Rating.Easy
    assert suggest_rating("correct", 2.0, False, False) is Rating.Good


def test_unknown_time_is_neither_slow_nor_fast() -> None:
    assert suggest_rating("correct", None, False, True) is Rating.Good


def test_unknown_verdict_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown verdict"):
        suggest_rating("partial", 1.0, False, False)


@given(
    seconds=st.one_of(st.none(), st.floats(min_value=0, max_value=1e6)),
    hint=st.booleans(),
    mature=st.booleans(),
)
def test_a_wrong_answer_is_never_hard_or_better(
    seconds: float | None, hint: bool, mature: bool
) -> None:
    assert suggest_rating("incorrect", seconds, hint, mature) is Rating.Again
    assert suggest_rating("correct", seconds, hint, mature) in (
        Rating.Hard,
        Rating.Good,
        Rating.Easy,
    )
