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
say = "The loss has no upper bound: a confidently wrong prediction costs a lot."
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
    ("minimize the xent", {1}, set()),
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

#: "It is not the case that ...", "it's a myth that ...", "it is false that ..." deny the whole
#: rest of the clause, past the "and" and "that" where a plain "not" stops.
DENIED_REST = [
    ("it is not the case that the entropy is constant and we maximize likelihood", set(), {0, 1}),
    ("it's a myth that the loss is unbounded", set(), {2}),
    ("it is false that we maximize likelihood", set(), {1}),
    ("it isn't true that perplexity is the exp of the loss", set(), {5}),
    ("it is true that the entropy is constant", {0}, set()),
]

CASES = [
    *(("denied rest", *case) for case in DENIED_REST),
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
    # a number in a list states no value either
    (
        "inference-cost/explain-where-compute-goes",
        "6 flops forward backward 2x chinchilla 20 tokens inference params overtrained",
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


#: The other word of a pair the point leans on, said of what the point says its own word of,
#: denies the point; the point's own word credits it (each denial beside its statement).
LEANINGS = [
    ("losses/why-cross-entropy", "It is the positive log likelihood of the wrong label.", [], [0]),
    (
        "losses/why-cross-entropy",
        "It is the negative log likelihood of the correct label.",
        [0],
        [],
    ),
    (
        "alignment/moe-aux-explain",
        "DeepSeek-V3 balances load with per-expert biases and a far larger auxiliary term.",
        [],
        [5],
    ),
    (
        "alignment/moe-aux-explain",
        "DeepSeek-V3 balances load with per-expert biases and a far smaller auxiliary term.",
        [5],
        [],
    ),
    (
        "probability-statistics/explain-map-mle",
        "A zero-mean Gaussian prior gives an L2 penalty that gets weaker as the prior narrows.",
        [],
        [2],
    ),
    (
        "probability-statistics/explain-map-mle",
        "A zero-mean Gaussian prior gives an L2 penalty that gets stronger as the prior narrows.",
        [2],
        [],
    ),
    (
        "diffusion-flow/classifier-guidance-explain",
        "The classifier gradient is multiplied by a scale below one to soften the conditioning.",
        [],
        [3],
    ),
    (
        "diffusion-flow/classifier-guidance-explain",
        "The classifier gradient is multiplied by a scale above one to sharpen the conditioning.",
        [3],
        [],
    ),
    ("metrics/rmse-mae-mape", "MAPE treats over- and under-prediction equally.", [], [3]),
    ("metrics/rmse-mae-mape", "MAPE treats over- and under-prediction unequally.", [3], []),
    (
        "generative-models/explain-gan-jsd",
        "The non-saturating fix has the generator minimise log D(G(z)) instead.",
        [],
        [5],
    ),
    # up and down
    ("optimizers/explain-warmup", "ramp the lr down linearly over the first 1% of steps", [], [3]),
    (
        "optimizers/explain-warmup",
        "ramp the lr up linearly over the first 1% of steps so the estimates can settle",
        [3],
        [],
    ),
    (
        "optimizers/explain-warmup",
        "after the peak a cosine schedule raises the rate to ten times the peak",
        [],
        [4],
    ),
    # the point's own word said of something else does not save it ("rare" of negatives)
    ("metrics/pr-vs-roc", "use PR-AUC when positives are common and negatives rare", [], [0]),
    ("metrics/pr-vs-roc", "use PR-AUC when positives are rare and negatives common", [0], []),
    # the other word in another part of the clause, still beside what the point says it of
    (
        "losses/why-cross-entropy",
        "it's the positive log probability of the correct class, so minimising it is maximum "
        "likelihood",
        [],
        [0],
    ),
    # said the other way, the point's own formula beside it does not make it either
    (
        "regularization/explain-l1-zeros",
        "L2's gradient 2λw grows as the weight goes to zero.",
        [],
        [0],
    ),
    (
        "generative-models/explain-gan-jsd",
        "The non-saturating fix has the generator maximise log D(G(z)) instead.",
        [5],
        [],
    ),
]

#: Whose distribution: the data's (true, empirical) or the model's (predicted). And
#: cross-entropy is one word however written, so "CE(p, q)" is no "entropy of p, q".
WHOSE = [
    ("losses/why-cross-entropy", "CE(p,q) = entropy(p) + KL(p||q)", [1], []),
    (
        "losses/why-cross-entropy",
        "cross-entropy is the entropy of the model distribution plus the KL",
        [],
        [1],
    ),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "Cross entropy = the entropy of the predicted distribution plus the KL divergence",
        [],
        [0],
    ),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "Cross entropy = the entropy of the true distribution plus the KL divergence",
        [0],
        [],
    ),
    ("information-theory/explain-perplexity", "PPL = exp(CE)", [0], []),
    (
        "retrieval-evaluation/speculative-decoding-explain",
        "a small draft model guesses k tokens and the target scores them all in one pass",
        [1],
        [],
    ),
]

#: Either-or pairs (bounded or not, saturating or exploding): a negated word is the other
#: side, and either side said beside the point's words is said of what the point is about.
EITHER_OR = [
    (
        "losses/why-cross-entropy",
        "The failure mode: once the model is confidently wrong the loss saturates.",
        [],
        [3],
    ),
    (
        "losses/why-cross-entropy",
        "When it is confidently wrong the loss plateaus at a ceiling.",
        [],
        [3],
    ),
    (
        "losses/why-cross-entropy",
        "The failure mode: once the model is confidently wrong the loss explodes.",
        [3],
        [],
    ),
    (
        "losses/why-cross-entropy",
        "When it is confidently wrong the loss is not bounded.",
        [3],
        [],
    ),
    (
        "retrieval-evaluation/fid-vs-is",
        "IS is unbounded, it is not capped by the number of classes.",
        [],
        [2],
    ),
    ("retrieval-evaluation/fid-vs-is", "IS is capped by the number of classes.", [2], []),
]

#: A remedy or a quantity the point values, said beside the point's terms to do harm or no
#: good ("makes it worse", "is useless", "doesn't help", "doesn't matter"), denies the point.
UNDERMINED = [
    ("losses/why-cross-entropy", "Gradient clipping is useless against it.", [], [4]),
    # a clause that ends on its negation denies all of it
    (
        "losses/why-cross-entropy",
        "Label smoothing is no fix for it; gradient clipping neither.",
        [],
        [4],
    ),
    ("losses/why-cross-entropy", "Label smoothing only makes the overconfidence worse.", [], [4]),
    ("losses/why-cross-entropy", "Gradient clipping doesnt really help here.", [], [4]),
    (
        "losses/why-cross-entropy",
        "Label smoothing and gradient clipping guard against it.",
        [4],
        [],
    ),
    (
        "retrieval-evaluation/speculative-decoding-explain",
        "The acceptance rate does not matter for the speedup.",
        [],
        [4],
    ),
    (
        "retrieval-evaluation/speculative-decoding-explain",
        "The speedup is limited by the acceptance rate.",
        [4],
        [],
    ),
]


@pytest.mark.parametrize(
    ("key", "text", "states", "denies"),
    [*LEANINGS, *WHOSE, *EITHER_OR, *UNDERMINED],
    ids=[case[1][:40] for case in [*LEANINGS, *WHOSE, *EITHER_OR, *UNDERMINED]],
)
def test_a_point_said_the_other_way_is_not_made(
    key: str, text: str, states: list[int], denies: list[int]
) -> None:
    cards = {c.key: c for c in load_decks([builtin_decks_dir()]).cards}
    outcomes = check_explanation(cards[key], text).outcomes
    made = {i for i, outcome in enumerate(outcomes) if outcome.made}
    assert set(states) <= made, "stated but not made"
    assert not set(denies) & made, "said the other way but made"


def test_a_leaning_is_read_from_the_model_sentence_only_where_it_takes_one_side() -> None:
    from recall.grading.explain_polarity import leaning

    one_sided = leaning("The loss is the negative log-probability of the right class.")
    assert len(one_sided.sides) == 2
    # both sides of large/small in one sentence: the point is the contrast, no leaning on it
    assert not leaning("A small β chases reward, a large β stays close to the reference.").sides
    # a negated word takes no side
    assert not leaning("The estimate is not large.").sides


def test_a_pair_word_said_of_something_else_leaves_the_point_alone(card: Card) -> None:
    # "right" here is said of the class, not of the prediction the point calls wrong
    assert 2 in made(card, "no upper bound: predict ~0 for the right class and it is unbounded")
    # "use" negated is not "useful" negated: only words that say a thing does good count
    assert 0 in made(card, "the entropy doesnt use the data's labels, it is constant")


def test_harm_said_in_another_part_of_the_clause_leaves_the_point_alone(card: Card) -> None:
    assert 1 in made(card, "we maximize likelihood, otherwise the fit gets worse")
    assert 1 not in made(card, "we maximize likelihood, which makes things worse")


#: A formula the clause states as the value of what it names ("is", "=", "equals") and that the
#: engine grades wrong for the point unmakes the words said beside it; the right formula in the
#: same words credits, and a formula that is only an operand ("dividing by 1 − β1^t") is no
#: statement of a value.
WRONG_FORMULA_STATED = [
    ("probability-statistics/explain-clt", "The standard error of the mean is sigma/n.", [], [1]),
    ("probability-statistics/explain-clt", "The standard error is sigma times sqrt(n).", [], [1]),
    (
        "probability-statistics/explain-clt",
        "So the error bar, the standard error, equals σ/n.",
        [],
        [1],
    ),
    (
        "probability-statistics/explain-clt",
        "The standard error of the mean is sigma/sqrt(n).",
        [1],
        [],
    ),
    (
        "retrieval-evaluation/l2-cosine-explain",
        "For unit vectors the squared distance is 2 + 2 cos(theta).",
        [],
        [0],
    ),
    (
        "retrieval-evaluation/l2-cosine-explain",
        "For unit vectors the squared distance is 2 - 2 cos(theta).",
        [0],
        [],
    ),
    # the words are the right side's; only the left side is a part the engine cannot equate
    (
        "retrieval-evaluation/l2-cosine-explain",
        "||a - b||² = 2 - 2cos for unit vectors",
        [0],
        [],
    ),
    (
        "gaussians/explain-random-cosine",
        "The cosine of two random unit vectors has variance = d.",
        [],
        [1],
    ),
    (
        "optimizers/explain-bias-correction",
        "An unbiased estimate is m_hat = m_t/(1 + β1^t).",
        [],
        [2],
    ),
    # β1 typed without a subscript key is β₁, not β·1
    (
        "optimizers/explain-bias-correction",
        "An unbiased estimate is m_hat = m_t/(1 - β1^t).",
        [2],
        [],
    ),
    (
        "optimizers/explain-bias-correction",
        "Dividing by 1 - β1^t gives an unbiased estimate.",
        [2],
        [],
    ),
]


@pytest.mark.parametrize(
    ("key", "text", "states", "denies"),
    WRONG_FORMULA_STATED,
    ids=[case[1][:40] for case in WRONG_FORMULA_STATED],
)
def test_a_wrong_formula_stated_beside_the_words_unmakes_them(
    key: str, text: str, states: list[int], denies: list[int]
) -> None:
    cards = {c.key: c for c in load_decks([builtin_decks_dir()]).cards}
    made = {i for i, o in enumerate(check_explanation(cards[key], text).outcomes) if o.made}
    assert set(states) <= made, "stated but not made"
    assert not set(denies) & made, "written wrong but made"


#: A formula with its quantities named differently: written as words the field writes with a
#: letter (``6·params·tokens`` for ``6ND``), in the other case (``M = (P+Q)/2``), with ``plus``
#: and ``minus`` said inside brackets. Each beside a wrong formula written the same way.
NAMED_DIFFERENTLY = [
    (
        "inference-cost/explain-where-compute-goes",
        "Training compute is about 6·params·tokens.",
        [0],
        [],
    ),
    ("inference-cost/explain-where-compute-goes", "C ≈ 6 * parameters * tokens", [0], []),
    ("inference-cost/explain-where-compute-goes", "C ≈ 2 * params * tokens", [], [0]),
    ("information-theory/explain-js", "JS compares P and Q with M = (P+Q)/2.", [0], []),
    ("information-theory/explain-js", "JS compares P and Q with M = (P-Q)/2.", [], [0]),
    ("information-theory/explain-js", "JS compares p and q with m = (p plus q) over 2.", [0], []),
    ("information-theory/explain-js", "JS compares p and q with m = (p minus q)/2.", [], [0]),
    ("probability-statistics/explain-clt", "The error bar shrinks as σ/√N.", [1], []),
]


@pytest.mark.parametrize(
    ("key", "text", "states", "denies"),
    NAMED_DIFFERENTLY,
    ids=[case[1][:40] for case in NAMED_DIFFERENTLY],
)
def test_a_formula_with_its_quantities_named_differently_is_graded(
    key: str, text: str, states: list[int], denies: list[int]
) -> None:
    cards = {c.key: c for c in load_decks([builtin_decks_dir()]).cards}
    made = {i for i, o in enumerate(check_explanation(cards[key], text).outcomes) if o.made}
    assert set(states) <= made, "stated but not made"
    assert not set(denies) & made, "written wrong but made"


ROLES_DECK = """\
[deck]
id = "roles"
name = "Roles"

[[card]]
id = "losses"
kind = "explain"
prompt = "MSE against cross-entropy on a sigmoid?"
model_answer = "Cross-entropy keeps errors loud where MSE mutes them."

[[card.points]]
say = "MSE carries the sigmoid's slope."
subject = "mse"
versus = ["bce|crossentropy"]
words = ["slope"]

[[card.points]]
say = "Cross-entropy keeps errors loud exactly where MSE mutes them."
words = ["mutes", "loud"]
"""

#: A point with no subject of its own, on a card whose points declare their terms: its words
#: are said of the term its model sentence says them of; said of the other term they swap the
#: roles. The right roles credit, in any order.
ROLES = [
    ("cross-entropy mutes the errors that mse keeps loud", set(), {1}),
    ("mse keeps the error signal strong, cross entropy mutes it", set(), {1}),
    ("mse mutes the errors that cross-entropy keeps loud", {1}, set()),
    ("where mse mutes the errors, BCE keeps them loud", {1}, set()),
]


@pytest.mark.parametrize(("text", "states", "denies"), ROLES)
def test_words_said_of_the_other_term_swap_the_roles(
    tmp_path: Path, text: str, states: set[int], denies: set[int]
) -> None:
    path = tmp_path / "roles.toml"
    path.write_text(ROLES_DECK, encoding="utf-8")
    deck, errors = read_deck(path, check=check_deck)
    assert deck is not None, errors
    got = made(deck.cards[0], text)
    assert states <= got, "stated but not made"
    assert not denies & got, "roles swapped but made"


BUILTIN_ROLES = [
    # a term inside brackets is a formula's argument, not who the sentence is about
    (
        "diffusion-flow/v-prediction-why",
        2,
        True,
        "(x_t, v) is just (x_0, eps) rotated by an angle, so v has unit scale at every timestep",
    ),
    (
        "gradients/why-mse-sigmoid-trains-badly",
        4,
        False,
        "cross-entropy mutes the errors that MSE keeps loud",
    ),
    (
        "gradients/why-mse-sigmoid-trains-badly",
        4,
        True,
        "MSE mutes the errors that cross-entropy keeps loud",
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        3,
        False,
        "Transformers use BatchNorm, because LayerNorm depends on the batch size.",
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        3,
        True,
        "Transformers use LayerNorm because it does not depend on the batch.",
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        2,
        False,
        "LayerNorm is the one that keeps running averages for inference.",
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        2,
        True,
        "BatchNorm keeps running averages for inference, so train and test differ.",
    ),
]


@pytest.mark.parametrize(("key", "point", "expected", "text"), BUILTIN_ROLES)
def test_roles_on_built_in_cards(key: str, point: int, expected: bool, text: str) -> None:
    cards = {c.key: c for c in load_decks([builtin_decks_dir()]).cards}
    assert check_explanation(cards[key], text).outcomes[point].made is expected


#: A multiple between two things ("twice", "2x", "half") read with its sides: swapped, or
#: turned the other way with the sides in place, it says the opposite; both at once say the
#: same thing again.
COMPARISONS = [
    ("the forward pass costs twice the backward", False),
    (
        "forward is 2x backward because it computes gradients for both activations and weights",
        False,
    ),
    ("the backward pass costs half the forward", False),
    ("the backward pass costs twice the forward", True),
    ("backward = 2x forward because it computes gradients for both activations and weights", True),
    (
        "the forward pass costs half the backward, since the backward computes gradients for "
        "activations and weights",
        True,
    ),
]


@pytest.mark.parametrize(("text", "expected"), COMPARISONS)
def test_a_multiple_read_with_its_sides(text: str, expected: bool) -> None:
    cards = {c.key: c for c in load_decks([builtin_decks_dir()]).cards}
    card = cards["inference-cost/explain-where-compute-goes"]
    assert check_explanation(card, text).outcomes[1].made is expected


#: A right formula said to be another quantity than the model sentence says it is ("the
#: variance of the mean is σ/√n" for the standard error) makes no point; said of the point's
#: own quantity, or of a name the list of distinct quantities does not hold ("SE = σ/√n"), it
#: does.
SAID_OF_ANOTHER = [
    ("probability-statistics/explain-clt", 1, False, "the variance of the sample mean is σ/√n"),
    ("probability-statistics/explain-clt", 1, False, "Var = σ/√n"),
    (
        "probability-statistics/explain-clt",
        1,
        True,
        "the standard error of the sample mean is σ/√n",
    ),
    ("probability-statistics/explain-clt", 1, True, "SE = σ/√n"),
    ("inference-cost/explain-where-compute-goes", 0, False, "inference costs 6ND"),
    ("inference-cost/explain-where-compute-goes", 0, True, "training costs 6ND"),
    ("information-theory/explain-js", 0, False, "the KL is (p + q)/2"),
    ("information-theory/explain-js", 0, True, "the mixture m = (p + q)/2"),
    (
        "retrieval-evaluation/l2-cosine-explain",
        0,
        False,
        "for unit vectors the inner product is 2 - 2cos θ",
    ),
    (
        "retrieval-evaluation/l2-cosine-explain",
        0,
        True,
        "for unit vectors the squared distance is 2 - 2cos θ",
    ),
]


@pytest.mark.parametrize(("key", "point", "expected", "text"), SAID_OF_ANOTHER)
def test_a_right_formula_said_to_be_another_quantity(
    key: str, point: int, expected: bool, text: str
) -> None:
    cards = {c.key: c for c in load_decks([builtin_decks_dir()]).cards}
    assert check_explanation(cards[key], text).outcomes[point].made is expected


#: A value the model sentence pairs with one number, written beside another of its numbers
#: ("a 400-point gap means 64%" against "about 100 is 64%, 400 is 91%"), is a swapped pairing
#: and makes no point; the say's own pairs, in any order and joined by "and", do.
PAIRED_NUMBERS = [
    ("A 400-point gap means a 64% win probability.", False),
    ("0 points is 50% and 400 is 64%", False),
    ("A 100-point gap means a 64% win probability.", True),
    ("about 100 points gives 64%, 400 gives 91%", True),
    ("0 is 50%, 100 is 64% and 400 is 91%", True),
]


@pytest.mark.parametrize(("text", "expected"), PAIRED_NUMBERS)
def test_a_value_paired_with_another_of_the_says_numbers(text: str, expected: bool) -> None:
    cards = {c.key: c for c in load_decks([builtin_decks_dir()]).cards}
    card = cards["retrieval-evaluation/elo-explain"]
    assert check_explanation(card, text).outcomes[2].made is expected


def test_the_feedback_panel_says_why_a_list_made_no_point(tmp_path: Path) -> None:
    from recall.tui.presenting import feedback_view

    path = tmp_path / "roles.toml"
    path.write_text(ROLES_DECK, encoding="utf-8")
    deck, errors = read_deck(path, check=check_deck)
    assert deck is not None, errors
    card = deck.cards[0]
    listed = "mse, bce, slope, loud, mutes, sigmoid"
    shown = feedback_view(card, listed, grade(card, listed), None)
    assert shown.diagnosis.startswith("Terms listed without saying how they relate")
    assert "'mse bce slope loud mutes sigmoid'" in shown.diagnosis
    stated = "mse mutes the errors that cross-entropy keeps loud"
    assert "Terms listed" not in feedback_view(card, stated, grade(card, stated), None).diagnosis


#: A direction "from" one thing "to" another in the model sentence, taken the other way round
#: in the text, makes no point ("the KL from the true posterior to the encoder").
DIRECTIONS = [
    (
        "the ELBO falls short of log p(x) by the KL from the true posterior to the encoder",
        False,
    ),
    (
        "the ELBO falls short of log p(x) by the KL from the encoder's q to the true posterior",
        True,
    ),
]


@pytest.mark.parametrize(("text", "expected"), DIRECTIONS)
def test_a_direction_taken_the_other_way(text: str, expected: bool) -> None:
    cards = {c.key: c for c in load_decks([builtin_decks_dir()]).cards}
    card = cards["generative-models/explain-elbo"]
    assert check_explanation(card, text).outcomes[1].made is expected


#: A rate "A per B" of the model sentence said as "B per A" makes no point, its number no more
#: than its words; a part with several "per" names no single rate and is left alone.
RATES = [
    (
        "training-scaling/explain-overtraining",
        1,
        False,
        "grow both together, about 20 parameters per token",
    ),
    (
        "training-scaling/explain-overtraining",
        1,
        True,
        "grow both together, about 20 tokens per parameter",
    ),
    (
        "inference-cost/explain-where-compute-goes",
        2,
        False,
        "chinchilla: about 20 params per token is compute-optimal",
    ),
    (
        "inference-cost/explain-where-compute-goes",
        2,
        True,
        "chinchilla: about 20 tokens per param is compute optimal",
    ),
    ("inference-cost/explain-where-compute-goes", 0, True, "about 6 FLOPs per token per parameter"),
]


@pytest.mark.parametrize(("key", "point", "expected", "text"), RATES)
def test_a_rate_said_the_other_way_round(key: str, point: int, expected: bool, text: str) -> None:
    cards = {c.key: c for c in load_decks([builtin_decks_dir()]).cards}
    assert check_explanation(cards[key], text).outcomes[point].made is expected
