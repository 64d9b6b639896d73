"""A "did you mean ...?" only when it is plausible (issue 12: "margin" got "did you mean min?").

A slip of a key (a swapped pair, a doubled or dropped letter, one changed letter in a long name)
is suggested, the card's own names first; a different word that shares letters with a name is
answered with the names the card allows instead.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from recall.cards.loader import load_decks
from recall.cards.model import Card, CardKind
from recall.errors import ParseError
from recall.formula import SymbolTable, parse
from recall.grading import check_deck, symbol_table
from recall.paths import builtin_decks_dir
from recall.spelling import plausible_suggestion

TABLE = SymbolTable.build(
    {
        "y": "real",
        "y_hat": "(0, 1)",
        "sigma": "positive",
        "lambda": "positive",
        "epsilon": "positive",
        "m": "real",
        "a": "real",
        "n": "real",
    }
)


def message_of(typed: str, table: SymbolTable = TABLE) -> str:
    with pytest.raises(ParseError) as caught:
        parse(typed, table)
    return caught.value.message


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("sigam", "sigma"),  # two neighbours swapped
        ("lamdba", "lambda"),
        ("epsilom", "epsilon"),  # one key off in a long name
        ("Sigma", "sigma"),  # case
        ("yhat", "y_hat"),  # the underscore
        ("sigmoyd(y)", "sigmoid"),
        ("expp(y)", "exp"),  # a doubled letter
        ("mni(y, m)", "min"),
        ("tahn(y)", "tanh"),
        ("sqr(y)", "sqrt"),  # a dropped letter
    ],
)
def test_a_slip_of_a_key_gets_the_name_it_misspells(typed: str, meant: str) -> None:
    assert f"(did you mean {meant}?)" in message_of(typed)


#: Words a learner may type for a concept (an English or ML word), none a misspelt name.
WORDS = [
    "margin",
    "cost",
    "mean",
    "loss",
    "argmin",
    "logits",
    "error",
    "bias",
    "weight",
    "label",
    "target",
    "gain",
    "mine",
    "sine",
    "maxima",
    "expo",
    "tangent",
    "logs",
    "exponent",
    "signal",
]


@pytest.mark.parametrize("word", WORDS)
def test_a_different_word_gets_the_cards_names_not_a_guess(word: str) -> None:
    message = message_of(word)
    assert "did you mean" not in message
    assert message == (
        f"unknown name '{word}' (this question's names: a, epsilon, lambda, m, n, sigma, y, y_hat)"
    )


@pytest.mark.parametrize("word", WORDS)
def test_a_different_word_called_as_a_function_gets_no_guess(word: str) -> None:
    assert message_of(f"{word}(y)") == f"unknown function '{word}'"


def test_a_word_is_not_split_into_one_letter_names() -> None:
    # m, a, n are declared and e is Euler's number, yet "mean" and "mane" are words
    assert "did you mean" not in message_of("mean")
    assert "did you mean" not in message_of("amman")
    # a short run of names is still read as their product
    assert "(did you mean m*a?)" in message_of("ma")
    assert "(did you mean m*y_hat?)" in message_of("my_hat")


def test_the_cards_own_names_come_before_the_engines_functions() -> None:
    assert plausible_suggestion("epsilnn", (["epsilons"], ["epsilon"])) == "epsilon"  # fewest edits
    assert plausible_suggestion("coshx", (["coshy"], ["coshz"])) == "coshy"  # then the card's
    assert plausible_suggestion("coshx", ([], ["coshz"])) == "coshz"


@pytest.mark.parametrize("name", ["x", "y", "xi", "mu", "ab"], ids=lambda name: f"short-{name}")
def test_short_names_get_no_edit_guess(name: str) -> None:
    assert plausible_suggestion(name, (["z", "nu", "xy", "mi", "abc"],)) is None


@lru_cache(maxsize=1)
def builtin_formula_cards() -> list[Card]:
    result = load_decks([builtin_decks_dir()], check=check_deck)
    return [card for card in result.cards if card.kind in (CardKind.FORMULA, CardKind.NUMERIC)]


def test_over_every_builtin_card_words_get_the_list_of_names() -> None:
    """The same words, on every built-in formula and numeric card: no card's names make one of
    them a typo, so every answer is the list of the card's names."""
    cards = builtin_formula_cards()
    assert len(cards) > 100
    for card in cards:
        table = symbol_table(card)
        for word in WORDS:
            if word in table.variables or table.function(word) is not None:
                continue
            message = message_of(word, table)
            assert "did you mean" not in message, (card.key, message)
            assert "this question's names" in message, (card.key, message)


GREEK_TABLE = SymbolTable.build(
    {"gamma_i": "real", "beta_i": "real", "x_i": "real", "mu": "real", "sigma": "positive"}
)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        # a letter typed as one symbol before '(' multiplies, as x(1-x) does; its canonical name
        # being a word ("gamma") does not make it a function call
        ("γ(x_i-μ)", "unknown name 'γ' (did you mean γ_i?)"),
        ("β + γ_i x_i", "unknown name 'β' (did you mean β_i?)"),
        # typed in ASCII, answered in ASCII
        ("gamma (x_i-mu)", "unknown name 'gamma' (did you mean gamma_i?)"),
        # the list of names, spelled the learner's way
        ("λ", "unknown name 'λ' (this question's names: β_i, γ_i, μ, σ, x_i)"),
        (
            "lambda",
            "unknown name 'lambda' (this question's names: beta_i, gamma_i, mu, sigma, x_i)",
        ),
    ],
)
def test_messages_speak_the_learners_notation(typed: str, message: str) -> None:
    assert message_of(typed, GREEK_TABLE) == message


def test_over_every_builtin_card_a_greek_letter_before_a_bracket_is_a_name() -> None:
    """On every built-in card, every Greek letter the card does not declare, typed before '(':
    answered as an unknown *name* in the learner's spelling (a product was meant, as with
    ``x(1-x)``), never as a call of an unknown function ``gamma``."""
    from recall.formula.names import GREEK

    tried = 0
    for card in builtin_formula_cards()[::7]:
        table = symbol_table(card)
        for letter, name in GREEK.items():
            if name in table.variables or table.function(name) is not None:
                continue
            if table.is_constant(name):
                continue
            message = message_of(f"{letter}(1+x)", table)
            assert message.startswith(f"unknown name '{letter}'"), (card.key, message)
            tried += 1
    assert tried > 200
