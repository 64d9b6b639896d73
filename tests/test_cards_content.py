"""Deck content the learner meets: names a card offers mean what the prompt says they mean.

A prompt that defines ``z = w·x`` accepts ``w*x`` where ``z`` is expected; a deck-wide ``g`` and a
card's ``g_t`` for the same gradient are one name on that card, not two independent variables
(an answer in the other spelling would be graded wrong).
"""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from recall.cards.loader import LoadResult, load_decks
from recall.cards.model import Card, CardKind
from recall.grading import check_deck, grade
from recall.paths import builtin_decks_dir


@lru_cache(maxsize=1)
def builtin() -> LoadResult:
    result = load_decks([builtin_decks_dir()], check=check_deck)
    assert result.ok, result.errors
    return result


def card(key: str) -> Card:
    deck_id, card_id = key.split("/")
    return builtin().deck(deck_id).card(card_id)


@pytest.mark.parametrize(
    ("key", "typed"),
    [
        ("gradients/logreg-grad-coordinate", "(sigma(w*x) - y)*x_j"),
        ("gradients/logreg-grad-coordinate", "(sigma(z) - y)*x_j"),
        ("gradients/linreg-grad-coordinate", "(w*x - y)*x_j"),
        ("gradients/mse-on-sigmoid-grad", "(sigma(w*x) - y)*sigma(w*x)*(1 - sigma(w*x))*x"),
        ("optimizers/adam-m", "beta_1*m_prev + (1 - beta_1)*g"),
        ("optimizers/adam-v", "beta_2*v_prev + (1 - beta_2)*g^2"),
    ],
)
def test_a_name_the_prompt_defines_can_be_typed_either_way(key: str, typed: str) -> None:
    assert grade(card(key), typed).is_correct


def test_the_definition_does_not_make_a_different_answer_right() -> None:
    assert not grade(card("gradients/logreg-grad-coordinate"), "(sigma(z) - y)*x").is_correct


def test_a_deck_name_and_a_cards_step_indexed_name_are_one_name() -> None:
    """``g`` (deck) beside ``g_t`` (card) in a card whose answer uses ``g_t``: either ``g`` is
    defined as ``g_t`` on that card, or the card does not offer it."""
    twins = []
    for item in builtin().cards:
        if item.kind is not CardKind.FORMULA:
            continue
        used = set(re.findall(r"[A-Za-z][A-Za-z0-9_]*", item.answer))
        symbols = {s.name: s for s in item.symbols}
        for name, spec in symbols.items():
            indexed = f"{name}_t"
            if indexed in used and name not in used and spec.equals != indexed:
                twins.append(f"{item.key}: {name} beside {indexed}")
    assert not twins, "\n".join(twins)
