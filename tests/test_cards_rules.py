"""A card that asks for a form (``require``/``forbid``) never grades another form as Correct.

The pure rule check, its validation in deck files, the grading glue, and every built-in card:
a prompt that asks for a form ("with exp", "in terms of σ", "without the relu function") declares
it, and its own reference answer obeys it.
"""

from __future__ import annotations

import re
import textwrap
from functools import lru_cache
from pathlib import Path

import pytest

from recall.cards.loader import LoadResult, load_decks, read_deck
from recall.cards.model import Card, CardKind
from recall.cards.rules import FormRule, breach, problems, resolve
from recall.formula import Status, parse
from recall.grading import check_deck, grade, symbol_table
from recall.paths import builtin_decks_dir


@lru_cache(maxsize=1)
def builtin() -> LoadResult:
    result = load_decks([builtin_decks_dir()], check=check_deck)
    assert result.ok, result.errors
    return result


def card(key: str) -> Card:
    deck_id, card_id = key.split("/")
    return builtin().deck(deck_id).card(card_id)


# ----- the pure check ------------------------------------------------------------------------


def test_breach_names_what_is_forbidden_and_what_is_missing() -> None:
    rule = FormRule(require=("exp",), forbid=("sigmoid",))
    assert breach(rule, {"x", "exp"}) is None
    assert breach(rule, {"x", "sigmoid"}) == "This card asks for it without sigmoid and with exp."
    assert breach(rule, {"x", "exp", "sigmoid"}) == "This card asks for it without sigmoid."
    assert breach(FormRule(require=("min", "max")), {"rho"}) == (
        "This card asks for it with min and max."
    )
    assert breach(FormRule(), {"anything"}) is None


def test_the_constant_e_is_a_form_of_exp() -> None:
    assert breach(FormRule(require=("exp",)), {"e", "x"}) is None
    assert breach(FormRule(forbid=("exp",)), {"e", "x"}) is not None


def test_aliases_resolve_to_the_builtin_they_name() -> None:
    rule = resolve(["sigma"], ["relu"], {"sigma": "sigmoid", "f": "unknown"})
    assert rule == FormRule(require=("sigmoid",), forbid=("relu",))
    assert resolve(["f"], [], {"f": "unknown"}).require == ("f",)


def test_rule_problems_are_reported() -> None:
    assert problems(["exp"], ["sigmoid"]) == []
    assert problems(["exp", "exp"], []) == ["'require' lists 'exp' twice"]
    assert problems(["exp"], ["exp"]) == ["'exp' is both required and forbidden"]
    assert problems([" "], []) == ["'require' has an empty name"]


# ----- deck files ----------------------------------------------------------------------------

HEADER = '[deck]\nid = "t"\nname = "Test"\n'


def deck_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "deck.toml"
    path.write_text(HEADER + textwrap.dedent(body), encoding="utf-8")
    return path


def test_a_rule_is_read_onto_the_card(tmp_path: Path) -> None:
    path = deck_file(
        tmp_path,
        """
        [[card]]
        id = "s"
        kind = "formula"
        prompt = "The sigmoid, with exp."
        answer = "1/(1 + exp(-x))"
        require = ["exp"]
        forbid = ["sigma"]
        [card.symbols]
        x = "real"
        [card.functions]
        sigma = "sigmoid"
        """,
    )
    deck, errors = read_deck(path, check=check_deck)
    assert not errors, [str(e) for e in errors]
    assert deck is not None
    loaded = deck.card("s")
    assert (loaded.require, loaded.forbid) == (("exp",), ("sigma",))
    assert loaded.form_rule == FormRule(require=("exp",), forbid=("sigmoid",))
    assert grade(loaded, "sigma(x)").status is Status.INVALID
    assert grade(loaded, "1/(1 + e^-x)").status is Status.CORRECT


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ('require = ["exp"]\nforbid = ["exp"]', "'exp' is both required and forbidden"),
        ('require = ["σ"]', "'σ' in 'require' is not a name in typed syntax"),
        ('forbid = ["relux"]', "'relux' in 'forbid' is neither a declared name nor a builtin"),
        ('forbid = ["exp"]', "the card's own answer breaks its rule"),
    ],
)
def test_a_bad_rule_is_a_deck_error(tmp_path: Path, rule: str, message: str) -> None:
    path = deck_file(
        tmp_path,
        f"""
        [[card]]
        id = "s"
        kind = "formula"
        prompt = "The sigmoid."
        answer = "1/(1 + exp(-x))"
{textwrap.indent(rule, " " * 8)}
        [card.symbols]
        x = "real"
        """,
    )
    deck, errors = read_deck(path, check=check_deck)
    assert deck is None
    assert any(message in str(error) for error in errors), [str(e) for e in errors]


def test_a_word_blank_cannot_have_a_rule(tmp_path: Path) -> None:
    path = deck_file(
        tmp_path,
        """
        [[card]]
        id = "w"
        kind = "cloze"
        text = "BatchNorm normalises over the {{}} dimension."
        accept = ["batch"]
        forbid = ["x"]
        """,
    )
    deck, errors = read_deck(path)
    assert deck is None
    assert any("needs a math blank" in str(error) for error in errors)


def test_a_rule_belongs_to_formula_and_cloze_cards_only(tmp_path: Path) -> None:
    path = deck_file(
        tmp_path,
        """
        [[card]]
        id = "f"
        kind = "fact"
        prompt = "Bytes per fp16 element?"
        value = 2
        forbid = ["x"]
        """,
    )
    deck, errors = read_deck(path)
    assert deck is None
    assert any("'forbid' is not used by fact cards" in str(error) for error in errors)


# ----- the issue's cases, graded ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "typed", "reason"),
    [
        ("activations/sigmoid", "sigmoid(x)", "without sigmoid"),
        ("activations/tanh-via-sigmoid", "tanh(x)", "without tanh"),
        ("activations/relu", "relu(x)", "without relu"),
        ("activations/tanh-derivative", "1/cosh(x)^2", "with tanh"),
        ("activations/sigmoid-derivative", "exp(-x)/(1 + exp(-x))^2", "with sigmoid"),
        # right in value, max written as -min(-a, -b)
        ("alignment/ppo-clip", "min(rho*A, -min(epsilon - 1, -min(rho, 1 + epsilon))*A)", "max"),
    ],
)
def test_the_forbidden_form_is_invalid_with_the_reason(key: str, typed: str, reason: str) -> None:
    verdict = grade(card(key), typed)
    assert verdict.status is Status.INVALID
    assert verdict.method == "form"
    assert reason in verdict.message


@pytest.mark.parametrize(
    ("key", "typed"),
    [
        ("alignment/ppo-clip", "rho*A"),  # the unclipped surrogate
        ("activations/leaky-relu", "min(alpha*x, x)"),  # the wrong function, not the wrong form
        ("activations/sigmoid", "sigmoid(2*x)"),
        ("activations/sigmoid-derivative", "exp(-x)/(1 + exp(-x))"),
    ],
)
def test_an_answer_wrong_in_any_form_is_graded_wrong(key: str, typed: str) -> None:
    """The rule says how a right answer must be written; an answer that is wrong whatever its
    form is graded wrong, with its diagnosis, not sent back for its form."""
    verdict = grade(card(key), typed)
    assert verdict.status is Status.INCORRECT, verdict.message


@pytest.mark.parametrize(
    ("key", "typed"),
    [
        ("activations/sigmoid", "1/(1 + exp(-x))"),
        ("activations/sigmoid", "1/(1 + e^(-x))"),
        ("activations/sigmoid", "exp(x)/(exp(x) + 1)"),
        ("activations/tanh-via-sigmoid", "2σ(2x) - 1"),
        ("activations/relu", "max(x, 0)"),
        ("activations/relu", "(x + abs(x))/2"),
    ],
)
def test_the_asked_form_is_still_graded_by_the_engine(key: str, typed: str) -> None:
    assert grade(card(key), typed).status is Status.CORRECT


def test_a_wrong_answer_in_the_right_form_is_still_wrong() -> None:
    assert grade(card("activations/sigmoid"), "1/(1 + exp(x))").status is Status.INCORRECT


# ----- every built-in card that asks for a form declares it ----------------------------------

#: A function name the prompts use for the form they ask for, as the rule spells it.
_FUNCTION_WORDS = {
    "exp": "exp",
    "log": "log",
    "max": "max",
    "min": "min",
    "sigmoid": "sigmoid",
    "σ": "sigmoid",
    "tanh": "tanh",
    "relu": "relu",
    "softplus": "softplus",
    "phi": "Phi",
    "Φ": "Phi",
    "binom": "binom",
}
_WORD = "|".join(re.escape(word) for word in _FUNCTION_WORDS)
#: "with exp", "using softplus", "use min", "as a sigmoid", "in terms of σ", "in terms of x and
#: σ(x)", "with min and max", "without the relu function"; not a spelling hint ("type sigma for
#: σ", "write the sigmoid as sigma") and not an offered choice ("write it out or use sigmoid").
FORM_PHRASE = re.compile(
    rf"(?<!or )\b(?P<how>without|with|using|use|as an?|in terms of)\s+(?:the |its |x and )?"
    rf"(?P<names>(?:{_WORD})(?:\s+and\s+(?:{_WORD}))*)(?![\w])(?!\s+for\b)(?!\s+as\b)",
    re.IGNORECASE,
)


def asked_forms(item: Card) -> tuple[set[str], set[str]]:
    """The functions the card's prompt (or cloze text) asks to use, and to avoid."""
    required: set[str] = set()
    forbidden: set[str] = set()
    declared_sigma = any(f.name == "sigma" and f.means == "sigmoid" for f in item.functions)
    for text in (item.prompt, item.text):
        for match in FORM_PHRASE.finditer(text):
            for word in re.split(r"\s+and\s+", match["names"]):
                if word == "σ" and not declared_sigma:
                    continue  # σ is a standard deviation on this card, not the sigmoid
                name = _FUNCTION_WORDS[word.lower() if word.isascii() else word]
                (forbidden if match["how"].lower() == "without" else required).add(name)
    return required, forbidden


def math_cards() -> list[Card]:
    return [
        c
        for c in builtin().cards
        if c.kind is CardKind.FORMULA or (c.kind is CardKind.CLOZE and c.answer)
    ]


def test_the_form_phrase_reader_finds_the_issue_cases() -> None:
    assert asked_forms(card("activations/sigmoid")) == ({"exp"}, set())
    assert asked_forms(card("activations/tanh-via-sigmoid")) == ({"sigmoid"}, set())
    assert asked_forms(card("activations/relu")) == (set(), {"relu"})
    assert asked_forms(card("alignment/ppo-clip")) == ({"min", "max"}, set())
    # spelling hints and offered choices are not forms
    assert asked_forms(card("alignment/bradley-terry")) == (set(), set())
    assert asked_forms(card("probability-statistics/logit-inverse")) == (set(), set())
    assert asked_forms(card("probability-statistics/standard-error")) == (set(), set())


def test_every_builtin_card_that_asks_for_a_form_declares_it() -> None:
    missing = []
    for item in math_cards():
        required, forbidden = asked_forms(item)
        rule = item.form_rule
        if not required <= set(rule.require) or not forbidden <= set(rule.forbid):
            missing.append(f"{item.key}: asks with {required} without {forbidden}, declares {rule}")
    assert not missing, "\n".join(missing)
    assert sum(1 for item in math_cards() if item.form_rule) >= 15


@pytest.mark.parametrize("item", [c for c in math_cards() if c.form_rule], ids=lambda c: c.key)
def test_a_cards_own_answer_obeys_its_rule(item: Card) -> None:
    names = parse(item.answer, symbol_table(item)).names
    assert breach(item.form_rule, names) is None
    assert grade(item, item.answer).status is Status.CORRECT
