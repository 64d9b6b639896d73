"""Classes of learner wording the explain matcher reads generically (issue 23), each tried on
a deck written for these tests, so that the matcher's reading is checked apart from the
built-in decks' phrasings: negations typed without their apostrophe, informal abbreviations,
an arrow between words, a list of terms that states nothing.

Each class is tried with several members, and beside a near miss that must stay unmade, so a
change that simply credited more would fail too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from recall.cards.loader import load_decks, read_deck
from recall.cards.model import Card
from recall.grading import check_deck, grade
from recall.grading.explain import check_explanation
from recall.paths import builtin_decks_dir

DECK = """\
[deck]
id = "talk"
name = "Talk"

[[card]]
id = "ce"
kind = "explain"
prompt = "Why cross-entropy?"
model_answer = "Minimising cross-entropy is maximum likelihood; the entropy is constant."

[[card.points]]
say = "The entropy does not depend on the parameters."
words = ["entropy not depend parameters", "entropy constant"]

[[card.points]]
say = "Minimising the cross-entropy is maximum likelihood."
words = ["minimize cross entropy", "maximize likelihood", "negative log likelihood"]

[[card.points]]
say = "The loss has no upper bound."
words = ["unbounded", "no upper bound"]
opposites = ["bounded"]

[[card.points]]
say = "The spread is one standard deviation."
words = ["standard deviation"]

[[card.points]]
say = "The reward model is only trusted near its data."
words = ["reward model trusted|trust near|close"]

[[card.points]]
say = "Perplexity is the exponential of the loss."
words = ["perplexity exponential|exp loss"]
"""


@pytest.fixture(scope="module")
def card(tmp_path_factory: pytest.TempPathFactory) -> Card:
    path: Path = tmp_path_factory.mktemp("deck") / "talk.toml"
    path.write_text(DECK, encoding="utf-8")
    deck, errors = read_deck(path, check=check_deck)
    assert deck is not None, errors
    return deck.cards[0]


def made(card: Card, text: str) -> set[int]:
    return {i for i, outcome in enumerate(check_explanation(card, text).outcomes) if outcome.made}


#: A negation typed without its apostrophe is a negation: "doesnt depend" is not "depends",
#: "isnt bounded" is "unbounded".
BARE_CONTRACTIONS = [
    ("the entropy doesnt depend on the parameters", {0}, {2}),
    ("entropy dont depend on params", {0}, set()),
    ("the entropy didnt depend on parameters at all", {0}, set()),
    ("the loss isnt bounded", set(), {2}),
    ("the loss is bounded", set(), {2}),
    ("it cant be bounded, the loss has no upper bound", {2}, set()),
]

#: Informal abbreviations that open into several words, wherever the text writes them.
SPELT_OUT = [
    ("min CE, i.e. minimize CE", {1}, set()),
    ("the NLL of the right class", {1}, set()),
    ("one std of spread", {3}, set()),
    ("entropy is const", {0}, set()),
    ("the RM is trusted only near its data", {4}, set()),
    ("PPL is exp of the loss", {5}, set()),
    ("the entropy is constant w.r.t the parameters", {0}, set()),
]

#: An arrow between words says "so": it ends a negation's reach ("doesnt involve θ → max
#: likelihood"), where an arrow into a number is a limit and leaves the words alone.
ARROWS = [
    ("the entropy doesnt depend on parameters → maximize likelihood", {0, 1}, set()),
    ("entropy isnt changed => maximize likelihood", {1}, set()),
    ("it does not maximize likelihood", set(), {1}),
]

#: Terms listed with nothing linking them (no small word, preposition, negation or sign) state
#: no relation between them and make no point; the same terms in a terse note still do.
LISTS = [
    ("entropy constant parameters minimize cross entropy likelihood unbounded", set(), {0, 1, 2}),
    ("entropy, constant, unbounded, perplexity, exp, loss", set(), {0, 2, 5}),
    (
        "the answer: entropy constant parameters maximize likelihood unbounded upper bound",
        set(),
        {0, 1, 2},
    ),
    ("entropy constant. maximize likelihood. unbounded loss", {0, 1, 2}, set()),
    ("the entropy is constant, so we maximize likelihood", {0, 1}, set()),
    ("loss unbounded, entropy constant", {0, 2}, set()),
]

CASES = [
    *(("list", *case) for case in LISTS),
    *(("bare contraction", *case) for case in BARE_CONTRACTIONS),
    *(("spelt out", *case) for case in SPELT_OUT),
    *(("arrow", *case) for case in ARROWS),
]


@pytest.mark.parametrize(
    ("kind", "text", "states", "denies"), CASES, ids=[f"{c[0]}:{c[1][:40]}" for c in CASES]
)
def test_each_reading_class(
    card: Card, kind: str, text: str, states: set[int], denies: set[int]
) -> None:
    got = made(card, text)
    assert states <= got, f"{kind}: stated but not made {states - got}"
    assert not denies & got, f"{kind}: contradicted but made {denies & got}"


def test_a_word_that_merely_ends_in_nt_is_not_opened() -> None:
    from recall.grading.explain_words import normalised

    assert "not" not in normalised("the current gradient isnt constant").split()[:3]
    assert normalised("doesnt isnt cant wont").split() == [
        "does", "not", "is", "not", "can", "not", "will", "not"
    ]  # fmt: skip


#: A list of terms on built-in cards: every word a phrasing wants is there, and no point is made.
BUILTIN_LISTS = [
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "bce mse sigmoid log cancel slope extra factor saturate",
    ),
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "bce, mse, sigmoid, log, cancels, slope, extra factor, saturates, loud, mutes",
    ),
    (
        "losses/why-cross-entropy",
        "keywords: cross entropy entropy kl split constant parameters unbounded confidently "
        "wrong label smoothing gradient clipping mle",
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        "batchnorm layernorm batch features running averages train test transformers",
    ),
]


@pytest.mark.parametrize(("key", "text"), BUILTIN_LISTS)
def test_a_list_of_terms_makes_no_point_and_the_verdict_says_why(key: str, text: str) -> None:
    cards = {c.key: c for c in load_decks([builtin_decks_dir()]).cards}
    verdict = grade(cards[key], text)
    assert [p.say for p in verdict.points if p.made] == []
    assert "Terms listed without saying how they relate make no point" in verdict.message


def test_a_sentence_with_the_same_terms_is_still_read() -> None:
    cards = {c.key: c for c in load_decks([builtin_decks_dir()]).cards}
    verdict = grade(
        cards["gradients/why-mse-sigmoid-trains-badly"],
        "With BCE the log cancels the sigmoid's slope; with MSE the gradient keeps an extra "
        "factor of the sigmoid's slope.",
    )
    assert sum(p.made for p in verdict.points) >= 2
    assert "Terms listed" not in verdict.message
