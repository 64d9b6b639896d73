"""Hostile answers on the card path: the rewrites a card makes before the engine reads an answer
(a unit the prompt asks for dropped, a label's left side dropped, a cloze's words after the blank
dropped, a number word read) run only on answers within the engine's length limit.

An answer of 20,000 spaces between ``16N`` and ``x`` took 23 s in a backtracking unit regex (the
UI froze: it held the GIL), and ``d_h`` + 20,000 spaces + ``= d/H`` was graded correct after
11 s because stripping the label let the right side under the limit. Each member here is
answered *invalid* (too long), by Enter and by the live preview alike, and no rewrite ever sees
more than ``MAX_LENGTH`` characters: the work is bounded by the input size checked first (tests
never assert wall time). Answers at the limit are still read, in one linear pass.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import pytest

import recall.grading.expressions as expressions
from recall.cards.loader import load_decks
from recall.cards.model import Card
from recall.formula.lexer import MAX_LENGTH
from recall.grading import grade
from recall.grading.reference import preview
from recall.paths import builtin_decks_dir

PAD = " " * 20_000


@lru_cache(maxsize=1)
def cards() -> dict[str, Card]:
    return {
        card.key: card for deck in load_decks([builtin_decks_dir()]).decks for card in deck.cards
    }


HOSTILE = [
    ("inference-cost/training-memory", "16N" + PAD + "x"),
    ("inference-cost/training-memory", "16N" + PAD + "bytes"),
    ("inference-cost/training-memory", "16N" + PAD + "bits"),
    ("inference-cost/training-memory", "16N bytes" * 2_500),
    ("attention-transformers/mha-head-width", "d_h" + PAD + "= d/H"),
    ("attention-transformers/mha-head-width", PAD + "d_h = d/H"),
    ("attention-transformers/mha-head-width", "d_h = d/H" + PAD),
    ("attention-transformers/mha-head-width", "d_h =" + PAD + "d/H"),
    ("attention-transformers/mha-head-width", "(" * 3_000 + "= d/H"),
    ("activations/silu-beta", "one" + PAD),
    ("activations/silu-beta", PAD + "one"),
]


def cloze_with_words_after_blank() -> tuple[str, str]:
    """A built-in cloze whose text puts words after its blank ("▢ bytes per parameter")."""
    for key, card in cards().items():
        if card.answer and card.text and "{{}} bytes" in card.text:
            return key, card.answer
    raise AssertionError("no cloze with '{{}} bytes'")


@pytest.fixture
def rewrites_seen(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every text a card rewrite is handed."""
    seen: list[int] = []

    def spy(function: Callable[..., Any], position: int) -> Callable[..., Any]:
        def wrapped(*args: Any) -> Any:
            seen.append(len(args[position]))
            return function(*args)

        return wrapped

    for name, position in (
        ("without_prompt_words", 1),
        ("_without_unit", 1),
        ("without_label", 0),
        ("number_word", 1),
    ):
        monkeypatch.setattr(expressions, name, spy(getattr(expressions, name), position))
    return seen


def hostile_cases() -> list[tuple[str, str]]:
    key, answer = cloze_with_words_after_blank()
    return [
        *HOSTILE,
        (key, answer + PAD + "bytes"),
        (key, answer + " bytes" * 4_000),
        (key, answer + "-" * 20_000 + "bytes"),
    ]


@pytest.mark.parametrize(("key", "typed"), hostile_cases())
def test_a_hostile_answer_is_too_long_before_any_rewrite(
    key: str, typed: str, rewrites_seen: list[int]
) -> None:
    card = cards()[key]
    verdict = grade(card, typed)
    assert str(verdict.status) == "invalid"
    assert "too long" in verdict.message
    shown = preview(card, typed)
    assert not shown.ok and "too long" in shown.message
    assert rewrites_seen == []  # refused before any rewrite saw it


@pytest.mark.parametrize(
    ("key", "typed", "status"),
    [
        ("inference-cost/training-memory", "16N" + " " * 1_990 + "bytes", "correct"),
        ("inference-cost/training-memory", "16N" + " " * 1_990 + "x", "invalid"),
        ("attention-transformers/mha-head-width", "d_h" + " " * 1_980 + "= d/H", "correct"),
        ("attention-transformers/mha-head-width", "n" + " " * 1_980 + "= d/H", "invalid"),
        ("attention-transformers/mha-head-width", "d_h =" + " " * 1_980 + "d/H", "correct"),
    ],
)
def test_an_answer_at_the_limit_is_read(
    key: str, typed: str, status: str, rewrites_seen: list[int]
) -> None:
    """Within the limit the rewrites run, each on at most MAX_LENGTH characters: spaces around a
    label or before a unit are spaces, and a wrong label is still refused."""
    assert len(typed) <= MAX_LENGTH
    assert str(grade(cards()[key], typed).status) == status
    assert rewrites_seen and max(rewrites_seen) <= MAX_LENGTH


def test_the_cloze_words_after_the_blank_are_found_by_plain_string_tests() -> None:
    """The words a cloze puts after its blank are matched from the end of the answer, one
    character at a time: a run of them or of separators costs its length, never its square."""
    find = expressions._words_at_end
    assert find("8 bytes", ["bytes"]) == 2
    assert find("8 Bytes per parameter.", ["bytes", "per", "parameter"]) == 2
    assert find("8 bytes-per_parameter", ["bytes", "per", "parameter"]) == 2
    assert find("8megabytes", ["bytes"]) is None
    assert find("8 bytes per", ["bytes", "per", "parameter"]) is None
    assert find(" " * 1_999, ["bytes"]) is None
    assert find("bytes " * 300, ["bytes"]) == len("bytes " * 299)


@pytest.mark.parametrize("control", ["\x1c", "\x1f", "\x07", "\x1b", "\x85", "\u202e"])
@pytest.mark.parametrize(
    ("key", "around"),
    [
        ("inference-cost/training-memory", "16N{c}bytes"),
        ("inference-cost/training-memory", "16N bytes{c}"),
        ("attention-transformers/mha-head-width", "d_h{c}= d/H"),
        ("attention-transformers/mha-head-width", "{c}d_h = d/H"),
        ("attention-transformers/mha-head-width", "d_h ={c}d/H"),
        ("activations/silu-beta", "one{c}"),
    ],
)
def test_a_control_character_is_refused_before_a_rewrite_strips_it(
    key: str, around: str, control: str, rewrites_seen: list[int]
) -> None:
    """``str.strip`` takes U+001C-U+001F (and U+0085) as white space: stripping a unit or a
    label must not launder one away ('16N\\x1cbytes' was graded correct)."""
    typed = around.format(c=control)
    verdict = grade(cards()[key], typed)
    assert str(verdict.status) == "invalid" and "unexpected character" in verdict.message
    assert verdict.column == typed.index(control)
    assert not preview(cards()[key], typed).ok
    assert rewrites_seen == []
