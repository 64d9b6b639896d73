"""A unit typed after a formula answer (``16N bytes``) is dropped only when it is the unit the
prompt asks the answer in; another unit sends the answer back, naming both, invalid at no cost.

Before, any unit word that appeared anywhere in the prompt was dropped: ``N*q/8 bits`` was graded
correct on a card asking for bytes (the prompt names q "bits per weight"), and ``16N parameters``
on a card asking for bytes of N parameters. Invalid, not incorrect: the expression and the unit
disagree, so the value cannot be graded either way (``N*q bits`` is the right amount in the wrong
unit). The class runs over every built-in formula card.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from recall.cards.loader import load_decks
from recall.cards.model import Card, CardKind
from recall.grading import grade
from recall.grading.expressions import _UNITS, asked_units
from recall.grading.reference import preview
from recall.paths import builtin_decks_dir

#: Two spellings of one unit.
SAME = {"flop": "flops", "params": "parameters"}


@lru_cache(maxsize=1)
def formula_cards() -> list[Card]:
    return [
        card
        for deck in load_decks([builtin_decks_dir()]).decks
        for card in deck.cards
        if card.kind is CardKind.FORMULA and not card.params and grade(card, card.answer).is_correct
    ]


def card(key: str) -> Card:
    return next(c for c in formula_cards() if c.key == key)


@pytest.mark.parametrize(
    ("key", "units"),
    [
        ("inference-cost/serving-weights-bits", {"bytes"}),  # not "q bits per weight"
        ("inference-cost/training-memory", {"bytes"}),  # not "N parameters"
        ("inference-cost/kv-cache", {"bytes"}),  # not "T cached tokens per sequence"
        ("inference-cost/training-flops", {"FLOPs"}),  # not "N parameters", "D tokens"
        ("inference-cost/inference-flops", {"FLOPs"}),  # ": FLOPs per generated token"
        ("inference-cost/param-count", {"Parameters"}),  # the prompt's first word
        ("information-theory/bpc-formula", {"Bits"}),  # not "L_total (in nats)"
        ("information-theory/entropy-max-uniform", {"nats"}),
        ("information-theory/perplexity-from-ce", set()),  # "L nats per token" is an input
        ("information-theory/perplexity-from-bits", set()),
        ("training-scaling/mfu", set()),  # "Model FLOPs utilisation" is a ratio
        ("training-scaling/budget-n", set()),  # "a budget of C FLOPs" is an input
    ],
)
def test_the_unit_asked_is_the_one_the_answer_is_in(key: str, units: set[str]) -> None:
    assert asked_units(card(key)) == units


def test_the_asked_unit_is_dropped_and_any_other_refused_naming_both() -> None:
    wrong = []
    asking = 0
    for each in formula_cards():
        asked = asked_units(each)
        names = {spec.name.casefold() for spec in each.symbols}
        if not asked:
            typed = f"{each.answer} bytes"
            if grade(each, typed).is_correct:
                wrong.append(f"{each.key}: {typed!r} credited with no unit asked")
            continue
        asking += 1
        folded = {unit.casefold() for unit in asked}
        for unit in _UNITS:
            if unit.casefold() in names:
                continue
            typed = f"{each.answer} {unit}"
            verdict = grade(each, typed)
            if SAME.get(unit.casefold(), unit.casefold()) in folded:
                if not verdict.is_correct:
                    wrong.append(f"{each.key}: {typed!r} refused: {verdict.message}")
                continue
            said = verdict.message.casefold()
            if str(verdict.status) != "invalid" or unit.casefold() not in said:
                wrong.append(f"{each.key}: {typed!r}: {verdict.status}, {verdict.message}")
            elif not any(word in said for word in folded):
                wrong.append(f"{each.key}: {typed!r} does not name the asked unit")
            shown = preview(each, typed)
            if shown.ok or shown.message != verdict.message:
                wrong.append(f"{each.key}: preview of {typed!r} disagrees: {shown}")
    assert asking >= 10
    assert wrong == []


@pytest.mark.parametrize(
    ("key", "typed", "status"),
    [
        ("inference-cost/serving-weights-bits", "N*q/8 bits", "invalid"),
        ("inference-cost/serving-weights-bits", "N*q bits", "invalid"),
        ("inference-cost/serving-weights-bits", "N*q/8 bytes", "correct"),
        ("inference-cost/serving-weights-bits", "N*q bytes", "incorrect"),
        ("inference-cost/training-memory", "16N parameters", "invalid"),
        ("inference-cost/training-memory", "16N bytes", "correct"),
        ("inference-cost/training-flops", "6ND FLOP", "correct"),
        ("information-theory/perplexity-from-ce", "exp(L) nats", "invalid"),
    ],
)
def test_the_reviewers_units(key: str, typed: str, status: str) -> None:
    assert str(grade(card(key), typed).status) == status
