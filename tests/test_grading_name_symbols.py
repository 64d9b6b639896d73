"""A typed name with brackets that do not balance, or a stray symbol, is *invalid* with the
reason, never read as the name without them (found on gradients/linreg-grad-matrix: ``X^T((``
and ``X^T))`` were Correct). Checked over every built-in reverse and word-cloze card."""

from __future__ import annotations

from functools import lru_cache

import pytest

from recall.cards.loader import LoadResult, load_decks
from recall.cards.model import Card, CardKind
from recall.grading import check_deck, grade
from recall.paths import builtin_decks_dir
from recall.verdicts import Status


@lru_cache(maxsize=1)
def builtin() -> LoadResult:
    return load_decks([builtin_decks_dir()], check=check_deck)


def name_cards() -> list[Card]:
    return [c for c in builtin().cards if c.kind is CardKind.REVERSE or c.accept]


def test_there_are_name_cards() -> None:
    assert len(name_cards()) > 30


@pytest.mark.parametrize("card", name_cards(), ids=lambda c: c.key)
def test_every_accepted_name_is_readable_and_broken_brackets_are_not(card: Card) -> None:
    for name in card.accept:
        assert grade(card, name).status is not Status.INVALID, name
    name = card.accept[0]
    unclosed = grade(card, f"{name}((")
    assert unclosed.status is Status.INVALID
    assert "never closed" in unclosed.message and unclosed.column is not None
    assert f"{name}((".startswith(unclosed.caret.splitlines()[0])
    assert f"{name}(("[unclosed.column] == "("
    closing = grade(card, f"{name}))")
    assert closing.status is Status.INVALID and "closes nothing" in closing.message
    assert closing.column == len(name) + _extra(name)
    if not any("$" in accepted for accepted in card.accept):
        stray = grade(card, f"{name} $")
        assert stray.status is Status.INVALID and "'$'" in stray.message
        assert stray.column == len(name) + 1


def _extra(name: str) -> int:
    """Where the first unmatched ')' of ``name + '))'`` is, past the name's own brackets."""
    depth = 0
    for char in name:
        depth += char in "(["
        depth -= char in ")]"
    return depth  # each still-open bracket of the name takes one of the two ')'


def test_a_half_open_interval_balances() -> None:
    card = next(c for c in name_cards() if any(a.startswith("(") for a in c.accept))
    assert grade(card, "(0, 1]").status is not Status.INVALID
    assert grade(card, "[0, 1)").status is not Status.INVALID
