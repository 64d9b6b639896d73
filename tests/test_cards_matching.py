"""Name matching for reverse and word-cloze cards: forgiving of form, strict about meaning."""

from __future__ import annotations

import pytest

from recall.cards.matching import forms, match_name, normalise
from recall.spelling import edit_distance

MSE = ["mean squared error", "MSE", "L2 loss"]
NEIGHBOURS = ["mean absolute error", "MAE", "L1 loss", "LayerNorm", "BatchNorm"]


@pytest.mark.parametrize(
    "typed",
    [
        "Mean Squared Error",
        "mean-squared-error",
        "  mean   squared error. ",
        "MSE",
        "mse",
        "the mean squared error",
        "L2",
        "l2 loss",
        "Mean squared error loss",
        "meansquarederror",
    ],
)
def test_form_does_not_matter(typed: str) -> None:
    result = match_name(typed, MSE, NEIGHBOURS)
    assert result.accepted and result.how == "exact"


@pytest.mark.parametrize("typed", ["mean sqaured error", "mean squard error", "men squared eror"])
def test_small_typos_in_long_names_are_forgiven(typed: str) -> None:
    result = match_name(typed, MSE, NEIGHBOURS)
    assert result.accepted and result.how == "typo"


@pytest.mark.parametrize("typed", ["MAE", "mean absolute error", "L1"])
def test_a_different_listed_term_is_never_accepted(typed: str) -> None:
    result = match_name(typed, MSE, NEIGHBOURS)
    assert not result.accepted
    assert result.clash is not None


def test_short_names_get_no_typo_allowance() -> None:
    assert not match_name("MSA", MSE).accepted
    assert not match_name("ReLU", ["GELU"]).accepted


def test_a_typo_closer_to_a_neighbour_is_rejected() -> None:
    # "RMProp" is one edit from RMSProp, but also one edit from Rprop: not forgiven.
    result = match_name("RMProp", ["RMSProp"], ["Rprop"])
    assert not result.accepted and result.clash == "Rprop"
    # without that neighbour the same typo is forgiven
    assert match_name("RMProp", ["RMSProp"], ["Adam"]).accepted
    # and a typo nearer the neighbour than the answer is rejected
    assert not match_name("Rprp", ["RMSProp"], ["Rprop"]).accepted


def test_empty_and_wrong_answers() -> None:
    assert not match_name("", MSE).accepted
    assert not match_name("???", MSE).accepted
    assert not match_name("cross entropy", MSE).accepted


def test_normalisation_details() -> None:
    assert normalise("Jensen–Shannon divergence") == "jensen shannon divergence"
    assert normalise("Bradley-Terry & Elo") == "bradley terry and elo"
    assert normalise("Ñame") == "name"
    assert forms("Huber loss") == {"huberloss", "huber"}
    assert forms("loss") == {"loss"}


def test_edit_distance_counts_swaps_as_one() -> None:
    assert edit_distance("sigmoid", "sigmiod") == 1
    assert edit_distance("abc", "abc") == 0
    assert edit_distance("kitten", "sitting") == 3
    assert edit_distance("a", "abcdefgh", limit=2) == 3


def test_symbolic_answers_match_exactly_up_to_spelling() -> None:
    accept = ["-inf", "−∞"]
    assert match_name("-∞", accept).accepted
    assert match_name("- inf", accept).accepted
    assert not match_name("inf", accept).accepted
    assert not match_name("+inf", accept).accepted
    interval = ["(0, 1)", "0 to 1"]
    assert match_name("(0,1)", interval).accepted
    assert not match_name("[0, 1]", interval).accepted
    assert match_name("0 to 1", interval).accepted


def test_spelling_variants_and_genre_words() -> None:
    assert match_name("layer normalisation", ["LayerNorm"]).accepted
    assert match_name("KL", ["KL divergence"]).accepted
    assert match_name("Jensen-Shannon", ["Jensen–Shannon divergence"]).accepted
