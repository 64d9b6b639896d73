"""Numbers a learner spells out make the points that state them (issue 23): "seven hundred
sixty-eight", "point zero three seven", "one point three", "ninety-one percent", "seven
tenths", "two minus two cos". Sentences written for these tests, over several built-in cards;
lone number words that are no quantity ("one-hot", "at this point two things") stay words.
"""

from __future__ import annotations

import pytest

from recall.grading.explain import check_explanation
from recall.grading.explain_numbers import spelt_numbers
from tests.test_explain_classes import builtin_explain_cards


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("seven hundred and sixty-eight dims", "768 dims"),
        ("near thirty-one or thirty-two", "near 31 or 32"),
        ("about point zero one three", "about 0.013"),
        ("so one point three points", "so 1.3 points"),
        ("zero point five", "0.5"),
        ("give or take seven tenths", "give or take 0.7"),
        ("four hundredths", "0.04"),
        ("over a thousand questions", "over 1000 questions"),
        ("half a percent to two percent", "0.5 percent to two percent"),
        ("e to the point seven", "e to the 0.7"),
        ("Twenty-Four branches", "24 branches"),
        ("fifteen thousand two hundred", "15200"),
        # lone words and nouns stay as written
        ("one-hot, one key, two features", "one-hot, one key, two features"),
        ("at this point two things happen", "at this point two things happen"),
        ("a one point gap is noise", "a one point gap is noise"),
        ("the point is that", "the point is that"),
        ("fifty-fifty", "fifty-fifty"),
    ],
)
def test_spelt_numbers_are_written_in_digits(text: str, expected: str) -> None:
    assert spelt_numbers(text) == expected


#: (card, text, points it states)
SPELT = [
    (
        "gaussians/explain-random-cosine",
        "with seven hundred and sixty-eight dimensions two random unit vectors have a cosine "
        "spread of about point zero three seven",
        [2],
    ),
    (
        "probability-statistics/explain-clt",
        "at eighty percent on a thousand questions the error bar is about one point three points",
        [3],
    ),
    (
        "retrieval-evaluation/elo-explain",
        "a gap of four hundred points gives the stronger player about ninety-one percent",
        [2],
    ),
    (
        "gaussians/explain-thin-shell",
        "the length of such a vector wobbles by about seven tenths, whatever the dimension",
        [1],
    ),
    (
        "retrieval-evaluation/l2-cosine-explain",
        "for unit vectors the squared distance is two minus two cos theta",
        [0],
    ),
    (
        "metrics/accuracy-imbalance-explain",
        "with ninety-nine percent negatives the always-negative model scores ninety-nine percent "
        "and finds nobody",
        [1],
    ),
]


@pytest.mark.parametrize(("key", "text", "states"), SPELT, ids=[case[1][:40] for case in SPELT])
def test_a_number_said_in_words_makes_its_point(key: str, text: str, states: list[int]) -> None:
    outcomes = check_explanation(builtin_explain_cards()[key], text).outcomes
    assert [i for i in states if not outcomes[i].made] == []


def test_a_number_word_beside_a_phrasing_digit_is_not_that_digit() -> None:
    """ "log 2" is not made by "log 4, two bits": a number's word form stands for a phrasing's
    digit only inside a chain of close words ("2>minus>2>cos")."""
    card = builtin_explain_cards()["information-theory/explain-js"]
    outcomes = check_explanation(card, "JS tops out at log 4, two bits.").outcomes
    assert not outcomes[2].made
