"""The leak check's index narrows the search and never changes what is found (issue 18, item 7).

:func:`recall.grading.leaks.deck_leaks` grades each card's answer only against the fields its
index names as able to show it. Here the exhaustive check (every card against every field of its
deck) and the indexed one are run over the built-in decks and over generated decks with leaks of
every kind planted in them, and their findings compared whole.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from recall.cards.loader import load_decks
from recall.cards.model import Card, CardKind, Deck, SymbolSpec
from recall.grading.leaks import DeckLeaks, deck_leaks, sibling_pairs_of
from recall.paths import builtin_decks_dir

_SYMBOLS = ("x", "y", "w", "b", "mu", "sigma", "alpha", "beta")
_SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "pe", "su")


@lru_cache(maxsize=1)
def builtin_decks() -> tuple[Deck, ...]:
    result = load_decks([builtin_decks_dir()])
    assert result.ok, result.errors
    return tuple(result.decks)


def both(deck: Deck) -> tuple[DeckLeaks, DeckLeaks]:
    pairs = sibling_pairs_of(deck)
    return deck_leaks(deck, pairs, exhaustive=True), deck_leaks(deck, pairs)


def test_the_index_finds_what_every_field_shows_in_the_builtin_decks() -> None:
    compared = 0
    for deck in builtin_decks():
        exhaustive, indexed = both(deck)
        assert indexed == exhaustive, deck.id
        compared += len(exhaustive.own) + len(exhaustive.across) + len(exhaustive.vocabulary)
    assert compared > 0  # the decks do show answers across cards: the comparison has content


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3)))


def _formula(rng: random.Random) -> str:
    a, b, c = rng.sample(_SYMBOLS, 3)
    shape = rng.choice((f"{a}*{b} + {c}", f"({a} - {b})^2/{c}", f"exp(-{a}/{b})*{c}"))
    return f"{rng.randint(2, 97)}*({shape})"


def generated(seed: int, size: int) -> Deck:
    """A deck of ``size`` cards of every answering kind, with leaks planted: formulas and
    names shown by other cards, facts' values written plainly, as percents and at other
    scales, a constant formula's value and a symbolic name written elsewhere."""
    rng = random.Random(seed)
    symbols = tuple(SymbolSpec(name=name, domain="real") for name in _SYMBOLS)
    names = [f"{_word(rng)} {_word(rng)}" for _ in range(size)]
    formulas = [_formula(rng) for _ in range(size)]
    values = [round(rng.uniform(1, 500), rng.choice((0, 1, 3))) for _ in range(size)]
    cards: list[Card] = []
    for index in range(size):
        other = rng.randrange(size)
        planted = rng.choice(
            (
                f"with {formulas[other]} beside it",
                f"as {names[other]} does",
                f"at {values[other]:g}",
                f"at {values[other]:g}%",
                f"at {values[other] / 100:g}",
                f"near {values[other] * 1.004:g}",
                f"using {formulas[other].split('*(', 1)[1].rstrip(')')}",
                "between (−1, 1)",
                "the value 0.5",
                f"item {index}",
            )
        )
        prompt = f"The {_word(rng)} rule {planted}, card {index}."
        kind = rng.choice(("formula", "fact", "reverse", "cloze", "constant", "symbolic"))
        base: dict[str, object] = {"id": f"c{index}", "deck_id": f"gen-{seed}", "symbols": symbols}
        if kind == "formula":
            card = Card(kind=CardKind.FORMULA, prompt=prompt, answer=formulas[index], **base)
        elif kind == "constant":
            card = Card(kind=CardKind.FORMULA, prompt=prompt, answer="1/2", **base)
        elif kind == "fact":
            unit = rng.choice(("", "%"))
            card = Card(kind=CardKind.FACT, prompt=prompt, value=values[index], unit=unit, **base)
        elif kind == "reverse":
            card = Card(
                kind=CardKind.REVERSE,
                prompt=prompt,
                shown=formulas[index],
                accept=(names[index],),
                **base,
            )
        elif kind == "symbolic":
            card = Card(kind=CardKind.REVERSE, prompt=prompt, accept=("(-1, 1)",), **base)
        else:
            text = f"{prompt} It is called the {{{{}}}} rule."
            card = Card(kind=CardKind.CLOZE, prompt="", text=text, accept=(names[index],), **base)
        cards.append(card)
    return Deck(id=f"gen-{seed}", name=f"Generated {seed}", cards=tuple(cards))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_index_finds_what_every_field_shows_in_generated_decks(seed: int) -> None:
    exhaustive, indexed = both(generated(seed, 60))
    assert indexed == exhaustive
    found = exhaustive.own + exhaustive.across + exhaustive.vocabulary
    kinds = {card.id: card.kind for card in generated(seed, 60).cards}
    # the planted leaks are found, for every kind of answer the index screens differently
    assert {kinds[leak.card] for leak in found} >= {
        CardKind.FORMULA,
        CardKind.FACT,
        CardKind.REVERSE,
        CardKind.CLOZE,
    }


@pytest.mark.parametrize(
    "typed",
    ["3*(x*y + w)", "3*(y*x) + 3*w", "3*(x*y - w)", "x*y + w", "3*(x*y + w", "3*(x*y + q)", "0"],
)
def test_grading_without_a_diagnosis_keeps_the_status(typed: str) -> None:
    from recall.formula.compare import status_only
    from recall.grading.dispatch import grade

    symbols = tuple(SymbolSpec(name=name, domain="real") for name in ("x", "y", "w"))
    card = Card(
        deck_id="d", id="f", kind=CardKind.FORMULA, prompt="?", answer="3*(x*y + w)",
        symbols=symbols,
    )  # fmt: skip
    full = grade(card, typed)
    with status_only():
        quick = grade(card, typed)
    assert quick.status is full.status
