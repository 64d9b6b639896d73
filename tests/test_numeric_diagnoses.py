"""Numeric diagnoses say what is true and read as the legend does (issue 19, item 5), through
the real ``recall check`` command and over every built-in numeric card."""

from __future__ import annotations

import re

import pytest

from recall.cards.loader import load_decks
from recall.cards.model import CardKind
from recall.cli import main
from recall.grading.checks import check_deck
from recall.grading.question import Question
from recall.paths import builtin_decks_dir


def _check(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    main(["check", *argv])
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("expected", "typed", "orders", "direction"),
    [
        ("3.2e10", "12", 9, "too small"),
        ("3.2e10", "-12", 9, "too small"),
        ("0.004", "400", 5, "too large"),
        ("5", "60", 1, "too large"),
        ("7e-30", "0.7", 29, "too large"),
    ],
)
def test_an_answer_orders_of_magnitude_off_says_so(
    capsys: pytest.CaptureFixture[str], expected: str, typed: str, orders: int, direction: str
) -> None:
    out = _check(capsys, "--tolerance", "0.01", expected, typed)
    assert "verdict: incorrect" in out
    assert "100%" not in out and "99.9" not in out
    magnitude = "order" if orders == 1 else "orders"
    assert f"about {orders} {magnitude} of magnitude {direction}" in out, out
    assert ("wrong sign" in out) == typed.startswith("-")


@pytest.mark.parametrize(("expected", "typed", "percent"), [("5", "7", "40%"), ("5", "4", "20%")])
def test_an_answer_within_a_factor_of_ten_keeps_its_percentage(
    capsys: pytest.CaptureFixture[str], expected: str, typed: str, percent: str
) -> None:
    out = _check(capsys, "--tolerance", "0.01", expected, typed)
    assert f"Off by {percent}" in out and "magnitude" not in out


@pytest.mark.parametrize(
    "typed", ["s/d_k + M", "s*sqrt(d_k) + M", "s/sqrt(d_k)", "2*s/sqrt(d_k) + M"]
)
def test_the_point_shown_takes_the_values_the_legend_gives(
    capsys: pytest.CaptureFixture[str], typed: str
) -> None:
    """The mask M is "0 (allowed) or −∞ (disallowed)": the point a diagnosis names never has a
    drawn M like 0.464 (M = 0 whenever the mistake does not hang on M)."""
    out = _check(capsys, "--card", "attention-transformers/sdpa-logit", typed)
    assert "verdict: incorrect" in out
    (point,) = re.findall(r"at (M = [^,]+), d_k = ([^,]+), s = ([^ ]+) the reference", out)
    mask, width, dot = point
    assert mask in ("M = 0", "M = -1"), out
    assert float(width) > 0 and "." not in width + dot, out  # plain values, not drawn ones


def _numeric_cards() -> list[object]:
    result = load_decks([builtin_decks_dir()], check=check_deck)
    return [card for card in result.cards if card.kind is CardKind.NUMERIC]


#: A value in a call's own brackets, bracketed again: ``sigmoid((-2.5))``.
DOUBLED = re.compile(r"\w\(\([^()]*\)\)")


def test_worked_answers_never_double_the_brackets_of_a_call() -> None:
    cards = _numeric_cards()
    assert len(cards) > 20
    for card in cards:
        for seed in range(12):
            worked = Question.draw(card, seed=seed).worked
            assert worked and not DOUBLED.search(worked), (card.key, worked)


def test_the_sigmoid_worked_answer_reads_as_typed(capsys: pytest.CaptureFixture[str]) -> None:
    out = _check(capsys, "--card", "activations/sigmoid-derivative-numeric", "--seed", "3", "0")
    assert "= sigmoid(-2.5)*(1 - sigmoid(-2.5))" in out
    assert "((" not in out


@pytest.mark.parametrize(
    ("expected", "typed", "argv"),
    [
        # Rounded as the learner would: the negation is within the card's tolerance.
        ("-0.878054", "0.878", ("--card", "retrieval-evaluation/cosine-numeric", "--seed", "6")),
        ("-0.629941", "0.63", ("--tolerance", "0.01", "-0.629941")),
        ("-12.5", "12.5", ("--tolerance", "0.01", "-12.5")),
    ],
)
def test_the_right_number_with_the_wrong_sign_is_said_to_be_off_by_a_sign(
    capsys: pytest.CaptureFixture[str], expected: str, typed: str, argv: tuple[str, ...]
) -> None:
    """Found by trying recall as a learner: 0.63 for a cosine of -0.629941 was "Off by
    1.2599408", the gap between the two, when the number was right and only its sign wrong."""
    out = _check(capsys, *argv, typed)
    assert "verdict: incorrect" in out
    assert "Off by a sign" in out, out
    assert f"expected {expected}" in out
