"""A negated property said for the prefixed word a card's phrasing uses: "not tractable" is
"intractable" (:func:`recall.grading.explain_prefixes.with_prefixed_twins`)."""

from __future__ import annotations

import pytest

from recall.grading.explain_prefixes import with_prefixed_twins
from tests.explain_cases import assert_points

PHRASINGS = ("estimates unreliable|noisy", "training unstable", "intractable")


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("the estimates are not reliable", "the estimates are unreliable"),
        ("Training isn't stable early on", "Training is unstable early on"),
        ("it was never tractable", "it was intractable"),
        ("they weren’t reliable", "they were unreliable"),
        # a base no phrasing prefixes, a property not negated, and the twin itself stay as typed
        ("the loss is not bounded", "the loss is not bounded"),
        ("the estimates are reliable", "the estimates are reliable"),
        ("the estimates are unreliable", "the estimates are unreliable"),
        # a modal's contraction is no "isn't": left for the reader's own negation
        ("it can't stable", "it can't stable"),
    ],
)
def test_a_negated_base_is_read_as_the_phrasings_prefixed_word(typed: str, read: str) -> None:
    assert with_prefixed_twins(typed, PHRASINGS) == read


def test_no_phrasing_with_a_prefixed_word_leaves_the_text_alone() -> None:
    assert with_prefixed_twins("it is not reliable", ("noisy estimates",)) == "it is not reliable"


@pytest.mark.parametrize(
    ("text", "states", "denies"),
    [
        # the ELBO card's first point: the marginal likelihood is intractable
        (
            "The marginal likelihood log p(x) is not tractable, so the VAE maximises the ELBO.",
            [0],
            [],
        ),
        ("log p(x) isn't tractable: the VAE optimises a lower bound instead.", [0], []),
        ("log p(x) is perfectly tractable, the VAE just prefers the ELBO.", [], [0]),
    ],
)
def test_a_negated_base_makes_a_built_in_point(
    text: str, states: list[int], denies: list[int]
) -> None:
    assert_points("prefixed twin", "generative-models/explain-elbo", text, states, denies)
