"""The explain matcher's classes of paraphrase (issue 23), each tried on sentences written for
these tests (not the corpus's), over several built-in cards: contrasts bound to their side,
declared opposites, word order, clause sides, negation scope, Unicode folding, abbreviations,
slips that would turn a word into its opposite.

Each case names the card, the text, the points it states (must be made) and the points it
contradicts (must not be). Several cases are the right statement beside the wrong one, so a fix
that simply stopped crediting the words would fail too.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from recall.cards.loader import load_decks, read_deck
from recall.cards.model import Card, CardKind
from recall.grading import check_deck
from recall.grading.explain import check_explanation
from recall.grading.explain_words import normalised
from recall.paths import builtin_decks_dir

#: Points bound to one side of a contrast (``subject``/``versus``): the same words said of the
#: other side do not make them, and said of the right side they do.
CONTRASTS = [
    (
        "inference-cost/explain-inference-regimes",
        "Prefill is bandwidth-limited and decode is compute-bound.",
        [],
        [0, 2],
    ),
    (
        "inference-cost/explain-inference-regimes",
        "During decode the bottleneck is memory bandwidth, and prefill saturates the compute "
        "units.",
        [0, 2],
        [],
    ),
    (
        "metrics/rmse-mae-mape",
        "MAE punishes large errors heavily, and RMSE is the one that is robust.",
        [],
        [0, 1],
    ),
    (
        "metrics/rmse-mae-mape",
        "Outliers dominate RMSE because the errors are squared, whereas MAE treats each unit of "
        "error equally.",
        [0, 1],
        [],
    ),
    (
        "diffusion-flow/sde-vs-ode",
        "The SDE is deterministic, while the ODE adds fresh noise at each step.",
        [],
        [1, 2, 3],
    ),
    (
        "probability-statistics/explain-map-mle",
        "Put a Laplace prior on the weights and you get an L2 penalty, a Gaussian one gives L1.",
        [],
        [2, 3],
    ),
    (
        "probability-statistics/explain-map-mle",
        "A Gaussian prior turns into an L2 penalty and a Laplace prior into L1.",
        [2, 3],
        [],
    ),
    (
        "regularization/explain-weight-decay-vs-l2",
        "In AdamW the decay still goes through the gradient and gets divided by sqrt(v).",
        [],
        [2],
    ),
    (
        "normalization/one-line-difference",
        "LayerNorm standardises each feature over the batch, BatchNorm each example over its own "
        "features.",
        [],
        [0, 1],
    ),
    ("normalization/one-line-difference", "RMSNorm is LayerNorm minus the centring step.", [2], []),
    (
        "normalization/explain-pre-norm",
        "Post-norm keeps a clean identity path for the gradient, while pre-norm puts a norm on "
        "the main path.",
        [],
        [1, 3],
    ),
    (
        "normalization/explain-pre-norm",
        "Pre-norm leaves an identity path for the gradient; post-norm puts the norm on the main "
        "path.",
        [1, 3],
        [],
    ),
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "With MSE the log cancels the sigmoid's slope, while BCE picks up an extra sigmoid "
        "derivative factor.",
        [],
        [0, 1],
    ),
    (
        "regularization/explain-l1-zeros",
        "L2 gives a constant pull however small the weight, whereas L1's push shrinks away near "
        "zero.",
        [],
        [0, 2],
    ),
    (
        "regularization/explain-l1-zeros",
        "The L1 gradient is constant in size, unlike L2's push, which shrinks with the weight.",
        [0, 2],
        [],
    ),
    (
        "information-theory/explain-js",
        "KL stays finite even for disjoint supports, while JS can blow up.",
        [],
        [1],
    ),
    (
        "information-theory/explain-js",
        "JS stays finite even for disjoint supports, unlike KL which can blow up.",
        [1],
        [],
    ),
    (
        "losses/explain-infonce",
        "A large temperature makes hard negatives dominate the gradient.",
        [],
        [5],
    ),
    (
        "losses/explain-infonce",
        "Small tau sharpens the softmax so the hard negatives dominate; large tau spreads the "
        "weight.",
        [5],
        [],
    ),
    (
        "retrieval-evaluation/fid-vs-is",
        "FID only looks at generated images and never compares with real data, while IS fits "
        "Gaussians to real and generated features.",
        [],
        [1, 2, 3],
    ),
    (
        "retrieval-evaluation/fid-vs-is",
        "The Inception Score only uses generated samples and never sees real data; FID compares "
        "Gaussian fits of real and generated features.",
        [1, 2, 3],
        [],
    ),
    (
        "retrieval-evaluation/fid-vs-is",
        "Lower IS is better, and IS catches mode dropping.",
        [],
        [4],
    ),
    (
        "metrics/ranking-vs-calibration",
        "Calibration only asks whether positives are ranked above negatives.",
        [],
        [0],
    ),
    (
        "retrieval-evaluation/speculative-decoding-explain",
        "The large model guesses k tokens and the small draft model checks them in one pass.",
        [],
        [1],
    ),
    (
        "retrieval-evaluation/speculative-decoding-explain",
        "A small draft model guesses k tokens and the large model checks them in one pass.",
        [1],
        [],
    ),
    (
        "regularization/explain-early-stopping",
        "Low-curvature directions are fitted quickly, high-curvature ones slowly.",
        [],
        [1],
    ),
    (
        "inference-cost/explain-inference-regimes",
        "Decode is the second phase. It is bandwidth-bound.",
        [2],
        [],
    ),
    (
        "inference-cost/explain-inference-regimes",
        "Prefill is the first phase. It is bandwidth-bound.",
        [],
        [2],
    ),
]
#: A clause that states a point's declared opposite (an antonym of its claim) does not make it.
OPPOSITES = [
    (
        "losses/why-cross-entropy",
        "The loss is capped, so being confidently wrong costs little.",
        [],
        [3],
    ),
    ("attention-transformers/explain-sqrt-dk", "Tiny logits make the softmax one-hot.", [], [1]),
    (
        "gaussians/explain-thin-shell",
        "The width of the shell increases like sqrt(d) as the dimension grows.",
        [],
        [1],
    ),
    ("alignment/grpo-explain", "GRPO drops the clipping and keeps the critic.", [], [0, 2]),
    ("information-theory/explain-kl", "KL can be negative when q is broader than p.", [], [2]),
    ("information-theory/explain-kl", "KL is symmetric, so it is a proper distance.", [], [5]),
    ("alignment/lora-explain", "B is random at init.", [], [4]),
    (
        "inference-cost/explain-training-memory",
        "Adam's two moments are kept in fp16, so they take 2 + 2 = 4 bytes.",
        [],
        [1],
    ),
    ("information-theory/explain-kl", "KL can be zero even when q differs from p.", [], [3]),
    (
        "metrics/roc-auc-imbalance",
        "A random model scores 0.5 only when the classes are balanced.",
        [],
        [4],
    ),
    ("losses/why-cross-entropy", "Confident mistakes cost little.", [], [3]),
    (
        "alignment/grpo-explain",
        "Dividing by the group std down-weights prompts that are almost always solved.",
        [],
        [4],
    ),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "Lowering the cross-entropy raises the KL.",
        [],
        [2],
    ),
    (
        "optimizers/explain-warmup",
        "Warmup starts at the peak rate and lowers it over the first steps.",
        [],
        [3],
    ),
    (
        "probability-statistics/explain-clt",
        "A 95% interval is about plus or minus one standard error.",
        [],
        [2],
    ),
    (
        "retrieval-evaluation/l2-cosine-explain",
        "For unit vectors the inner product and the cosine differ.",
        [],
        [1],
    ),
    (
        "diffusion-flow/forward-variance-preserving",
        "Scaling by sqrt(1 - beta) makes the variance explode.",
        [],
        [0],
    ),
    (
        "generative-models/explain-gan-jsd",
        "For a fixed discriminator the best generator is p_data/(p_data + p_g).",
        [],
        [0],
    ),
]
#: Phrasings whose meaning is in the order (``a>b``): the same words in another order do not
#: make them.
ORDER = [
    (
        "normalization/batchnorm-vs-layernorm",
        "LayerNorm averages over the batch for each feature.",
        [],
        [0],
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        "BatchNorm computes its statistics over the batch, one feature at a time.",
        [0],
        [],
    ),
    (
        "probability-statistics/explain-bias-variance",
        "More capacity lowers the variance and raises the bias.",
        [],
        [5],
    ),
    (
        "inference-cost/explain-where-compute-goes",
        "Chinchilla puts it at roughly 20 params per token.",
        [],
        [2],
    ),
    (
        "diffusion-flow/cfg-explain",
        "At sampling it extrapolates past the unconditional prediction, away from the "
        "conditional one.",
        [],
        [1],
    ),
    (
        "diffusion-flow/cfg-explain",
        "Sampling pushes beyond the conditional prediction and away from the unconditional one.",
        [1],
        [],
    ),
    (
        "information-theory/explain-kl",
        "The expectation is under q, so KL punishes p for having little mass where q has a lot.",
        [],
        [4],
    ),
]
#: ``while``, ``whereas``, ``though``, a parenthetical ``however`` or "on the other hand" part
#: the sides of a contrast; a concession stays one point.
CLAUSES = [
    (
        "attention-transformers/explain-gqa",
        "GQA cuts the number of query heads, while K and V keep one head each.",
        [],
        [0],
    ),
    (
        "metrics/roc-auc-imbalance",
        "The AUC can look high even though the model is useless.",
        [3],
        [],
    ),
    (
        "inference-cost/explain-inference-regimes",
        "Prefill is compute-bound, whereas decode is memory-bound.",
        [0, 2],
        [],
    ),
    (
        "inference-cost/explain-inference-regimes",
        "Decode is memory-bound. Prefill, on the other hand, is compute-bound.",
        [0, 2],
        [],
    ),
    (
        "inference-cost/explain-inference-regimes",
        "Prefill, however, is memory-bound, and decode is compute-bound.",
        [],
        [0, 2],
    ),
    (
        "inference-cost/explain-inference-regimes",
        "Prefill is compute-bound. Decode, by contrast, is memory-bound.",
        [0, 2],
        [],
    ),
]
#: Negation scope: ``without``/``no`` govern their phrase only, ``rather than``/``instead of``
#: reject what follows, a ``nothing`` after a verb denies it, ``not just`` adds, and a
#: phrasing's ``not`` binds the words after it.
NEGATION = [
    (
        "diffusion-flow/v-prediction-why",
        "Without a tiny divisor the x0 estimate stays stable.",
        [3],
        [],
    ),
    (
        "alignment/grpo-explain",
        "If all answers in the group score the same, the policy learns nothing from that prompt.",
        [3],
        [],
    ),
    (
        "attention-transformers/explain-sqrt-dk",
        "Scaled logits keep the softmax's Jacobian healthy rather than vanishing.",
        [],
        [2],
    ),
    (
        "attention-transformers/explain-sqrt-dk",
        "With a saturated softmax the gradients vanish instead of flowing.",
        [2],
        [],
    ),
    (
        "inference-cost/explain-where-compute-goes",
        "Inference scales with the tokens, not the parameters.",
        [],
        [3],
    ),
    (
        "metrics/accuracy-imbalance-explain",
        "It isn't just at 99:1; any imbalance inflates it.",
        [2],
        [],
    ),
    (
        "diffusion-flow/simple-loss-explain",
        "The samples look better, though the objective is no longer a proper bound on the "
        "likelihood.",
        [3],
        [],
    ),
    (
        "retrieval-evaluation/pass-at-k-explain",
        "Multiply the ratios one at a time: a product instead of giant binomials.",
        [5],
        [],
    ),
    (
        "retrieval-evaluation/pass-at-k-explain",
        "Work with the huge binomial coefficients rather than a product of ratios.",
        [],
        [5],
    ),
    ("losses/why-cross-entropy", "Overconfident mistakes get punished without limit.", [3], []),
    ("alignment/ppo-clip-explain", "The clip stops mistakes from ever being corrected.", [], [3]),
    (
        "alignment/ppo-clip-explain",
        "Clipping keeps the new policy from drifting far from the old one.",
        [0],
        [],
    ),
    (
        "generative-models/explain-wgan",
        "With the Wasserstein critic the generator fails to get a useful gradient.",
        [],
        [3],
    ),
]
#: Subscripts, superscripts and the minus sign (U+2212) read as their plain spellings.
UNICODE = [
    ("retrieval-evaluation/bm25-explain", "Term frequency tops out at k₁ + 1.", [1], []),
    ("generative-models/explain-elbo", "ELBO = log p(x) − KL(q(z|x) ‖ p(z|x)).", [1], []),
    ("losses/why-cross-entropy", "The loss is −log prob of the correct label.", [0], []),
    (
        "attention-transformers/explain-sqrt-dk",
        "With unit-variance entries, q·k has variance dₖ.",
        [0],
        [],
    ),
]
#: Common abbreviations read as the words they stand for.
ABBREVIATIONS = [
    (
        "normalization/batchnorm-vs-layernorm",
        "BN needs decent batches; LN stats don't depend on the batch.",
        [1, 3],
        [],
    ),
    ("inference-cost/explain-where-compute-goes", "The bwd pass costs 2x the fwd pass.", [1], []),
    ("alignment/grpo-explain", "GRPO works w/o a critic.", [0], []),
    ("normalization/batchnorm-vs-layernorm", "BN normalises each feature over the batch.", [0], []),
]

#: Slips are forgiven except in a word's first letter and from "min" to "max": "minimizing" is
#: two keys from "maximizing" and says the opposite; "vraiance" is still "variance".
SLIPS = [
    ("losses/why-cross-entropy", "It works by minimizing the likelihood of the labels.", [], [0]),
    ("losses/why-cross-entropy", "Training maximizes the likelihod of the labels.", [0], []),
    (
        "information-theory/explain-mle-min-kl",
        "Minimizing the likelihood lowers the KL.",
        [],
        [2],
    ),
    ("losses/why-cross-entropy", "Minimising CE maximises the KL to the data.", [], [2]),
    ("attention-transformers/explain-sqrt-dk", "The vraiance of q·k grows with d_k.", [0], []),
]

#: A formula typed with Greek letters spelt out ("mu + sigma * eps") is read as a formula and
#: graded by the engine.
FORMULAS = [
    (
        "gaussians/explain-reparameterization",
        "Write z = mu + sigma * eps and the draw is an input.",
        [1],
        [],
    ),
    (
        "diffusion-flow/forward-variance-preserving",
        "The variances add up as 1 - beta + beta for every step.",
        [1],
        [],
    ),
]

#: Numbers written as words are compared with a point's values ("eightfold", "a thousand").
NUMBER_WORDS = [
    ("attention-transformers/explain-sqrt-dk", "At d_k = 64 the logits shrink eightfold.", [4], []),
    (
        "optimizers/explain-bias-correction",
        "Its effect fades only after about a thousand updates.",
        [5],
        [],
    ),
]

#: Terse notes: abbreviations spoken letter by letter ("C E", "K L"), the signs of notes ("@",
#: "!=", "<=>", "=="), clipped words ("avgs", "feat", "w/"), and a negation that ends where a
#: "when" or "if" clause starts ("does not change when the weights change").
NOTES = [
    ("losses/why-cross-entropy", "C E is H of p plus K L of p and q", [1], []),
    (
        "losses/why-cross-entropy",
        "the H of p part does not change when the weights change, so min C E <=> min K L",
        [2],
        [],
    ),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "C E = H of p + K L, and H of p is fixed by the data",
        [0, 1],
        [],
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        "BN @ test time uses running avgs, so train != test",
        [2],
        [],
    ),
    ("normalization/batchnorm-vs-layernorm", "B N normalises each feat over the batch", [0], []),
]

CASES = [
    *(("contrast", *case) for case in CONTRASTS),
    *(("opposite", *case) for case in OPPOSITES),
    *(("order", *case) for case in ORDER),
    *(("clauses", *case) for case in CLAUSES),
    *(("negation", *case) for case in NEGATION),
    *(("unicode", *case) for case in UNICODE),
    *(("abbreviation", *case) for case in ABBREVIATIONS),
    *(("slip", *case) for case in SLIPS),
    *(("formula", *case) for case in FORMULAS),
    *(("number word", *case) for case in NUMBER_WORDS),
    *(("notes", *case) for case in NOTES),
]


@cache
def builtin_explain_cards() -> dict[str, Card]:
    loaded = load_decks([builtin_decks_dir()])
    assert loaded.ok, loaded.failures
    return {card.key: card for card in loaded.cards if card.kind is CardKind.EXPLAIN}


@pytest.mark.parametrize(
    ("kind", "key", "text", "states", "denies"),
    CASES,
    ids=[f"{case[0]}:{case[2][:40]}" for case in CASES],
)
def test_each_class_of_paraphrase_is_read(
    kind: str, key: str, text: str, states: list[int], denies: list[int]
) -> None:
    card = builtin_explain_cards()[key]
    made = {i for i, outcome in enumerate(check_explanation(card, text).outcomes) if outcome.made}
    assert not [i for i in states if i not in made], f"{kind}: stated but not made"
    assert not [i for i in denies if i in made], f"{kind}: contradicted but made"


def test_every_class_spans_several_cards() -> None:
    for name, cases in [
        ("contrasts", CONTRASTS),
        ("opposites", OPPOSITES),
        ("order", ORDER),
        ("negation", NEGATION),
        ("unicode", UNICODE),
        ("abbreviations", ABBREVIATIONS),
        ("notes", NOTES),
    ]:
        assert len({case[0] for case in cases}) >= 3, name


CONTRAST_DECK = """\
[deck]
id = "talk"
name = "Talk"

[[card]]
id = "regimes"
kind = "explain"
prompt = "Prefill against decode?"
model_answer = "Prefill is compute-bound; decode is memory-bound."

[[card.points]]
say = "Decode is memory-bound."
subject = "decode"
versus = ["prefill"]
words = ["memory bound"]
opposites = ["decode compute>bound"]

[[card.points]]
say = "Prefill is compute-bound."
subject = "prefill"
versus = ["decode"]
words = ["compute bound"]
"""


def _deck(tmp_path: Path, text: str) -> tuple[object, list[object]]:
    path = tmp_path / "talk.toml"
    path.write_text(text, encoding="utf-8")
    return read_deck(path, check=check_deck)


def test_a_contrast_in_a_deck_of_ones_own_binds_words_to_their_side(tmp_path: Path) -> None:
    deck, errors = _deck(tmp_path, CONTRAST_DECK)
    assert deck is not None, errors
    card = deck.cards[0]  # type: ignore[attr-defined]

    def made(text: str) -> list[bool]:
        return [outcome.made for outcome in check_explanation(card, text).outcomes]

    assert made("Decode is memory bound and prefill compute bound.") == [True, True]
    assert made("Prefill is memory bound and decode compute bound.") == [False, False]
    # A foil after "unlike" is not what the words are said of.
    assert made("Decode, unlike prefill, is memory bound.") == [True, False]
    # The opposite drops its clause: the memory-bound words there count for nothing.
    assert made("Decode is compute bound, the memory bound part is elsewhere.") == [False, False]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ('versus = ["prefill"]\nwords = ["memory bound"]', 'words = ["memory bound"]'),
            "needs 'versus'",
        ),
        (('subject = "decode"', 'subject = "decode step"'), "must be one word"),
        (
            ('versus = ["prefill"]\nwords = ["memory', 'versus = ["pre fill"]\nwords = ["memory'),
            "must be one word",
        ),
    ],
)
def test_a_malformed_contrast_is_a_deck_error(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    broken = CONTRAST_DECK.replace(*change, 1)
    assert broken != CONTRAST_DECK
    deck, errors = _deck(tmp_path, broken)
    assert deck is None
    assert any(message in str(error) for error in errors), errors


@pytest.mark.parametrize(
    ("phrasing", "message"),
    [
        ("memory bound|not", "mixes a negation with words"),
        ("decode memory not", "no word after it to deny"),
    ],
)
def test_a_phrasing_that_can_never_be_made_is_a_deck_error(
    tmp_path: Path, phrasing: str, message: str
) -> None:
    for replacement in (
        f'words = ["{phrasing}"]',
        f'words = ["compute bound"]\nopposites = ["{phrasing}"]',
    ):
        broken = CONTRAST_DECK.replace('words = ["compute bound"]', replacement)
        assert broken != CONTRAST_DECK
        deck, errors = _deck(tmp_path, broken)
        assert deck is None, replacement
        assert any(message in str(error) for error in errors), errors


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("C E and K L", "crossentropy and kl"),
        ("M S E", "mse"),
        ("I A B", "i a b"),  # no abbreviation: the letters stay letters
        ("X ~ N(0, 1)", "x ~ n(0, 1)"),  # a distribution, not "about"
        ("grad ~ 0", "gradient  about 0"),
        ("train != test", "train  differs from  test"),
    ],
)
def test_notes_are_read_as_the_words_they_stand_for(text: str, expected: str) -> None:
    assert normalised(text) == expected
