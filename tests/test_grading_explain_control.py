"""A typed explanation holding a control character is *invalid*, as every other kind of answer
is: it is said which character, and nothing is graded or self-rated.

Seen with ``recall check --card gradients/why-mse-sigmoid-trains-badly``: an explanation with a
BEL in it was graded ("correct, 3 of 5 key points"), and ``x`` followed by ``ESC [2J`` was
"incorrect, 0 of 5", where a formula, fact, name or numeric answer with the same character is
refused as invalid.
"""

from __future__ import annotations

import pytest

from recall.cards.model import Card, CardKind, KeyPoint
from recall.grading.dispatch import grade
from recall.inert import first_control
from recall.verdicts import Status

POINTS = (KeyPoint("The log cancels the slope.", words=("log cancels slope",)),)
WITH_POINTS = Card("d", "c", CardKind.EXPLAIN, "Why?", model_answer="Because.", points=POINTS)
SELF_RATED = Card("d", "s", CardKind.EXPLAIN, "Why?", model_answer="Because.")


@pytest.mark.parametrize("card", [WITH_POINTS, SELF_RATED], ids=["points", "self-rated"])
@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("the log cancels the slope \x07", "U+0007"),
        ("x\x1b[2J", "U+001B"),
        ("the log\x00 cancels", "U+0000"),
        ("the log cancels \x9b31m the slope", "U+009B"),
        ("\x7f", "U+007F"),
    ],
)
def test_a_control_character_makes_an_explanation_invalid(card: Card, text: str, code: str) -> None:
    verdict = grade(card, text)
    assert verdict.status is Status.INVALID
    assert code in verdict.message
    assert verdict.column == first_control(text)
    assert not verdict.points


def test_an_explanation_without_one_is_still_checked() -> None:
    assert grade(WITH_POINTS, "the log cancels the slope\tof the sigmoid").status is Status.CORRECT
    assert grade(SELF_RATED, "the log cancels the slope").status is Status.SELF


def test_the_drill_screen_says_why_words_were_refused() -> None:
    """The answer box of a card answered in words (an explanation, a name) showed only
    ``answer: …`` for an invalid answer, never the reason; a formula's showed it."""
    from rich.console import Console

    from recall.tui.views import PreviewView
    from recall.tui.widgets.math_panels import render_preview

    text = "the log cancels \x07"
    verdict = grade(WITH_POINTS, text)
    preview = PreviewView(
        text=text, ok=False, message=verdict.message, column=verdict.column, math=False
    )
    console = Console(width=80, record=True, color_system=None)
    console.print(render_preview(preview))
    shown = console.export_text()
    assert "unexpected character U+0007" in shown and "the log cancels ␇" in shown
    assert "\x07" not in shown
