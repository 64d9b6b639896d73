"""The explain matcher's classes of paraphrase (issue 23), each tried on sentences written for
these tests (not the corpus's), over several built-in cards: contrasts bound to their side,
declared opposites, word order, clause sides, negation scope, Unicode folding, abbreviations,
slips that would turn a word into its opposite.

Each case names the card, the text, the points it states (must be made) and the points it
contradicts (must not be). Several cases are the right statement beside the wrong one, so a fix
that simply stopped crediting the words would fail too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from recall.cards.loader import read_deck
from recall.grading import check_deck
from recall.grading.explain import check_explanation, short_slip
from recall.grading.explain_words import normalised
from tests.explain_cases import assert_points

#: Points bound to one side of a contrast (``subject``/``versus``): the same words said of the
#: other side do not make them, and said of the right side they do.
CONTRASTS = [
    # a model sentence that writes H(p) names the entropy: "the entropy of the labels" is its own
    (
        "information-theory/explain-min-ce-is-min-kl",
        "The floor is the entropy of the labels, which is why the loss never gets to zero.",
        [4],
        [],
    ),
    # a term inside brackets (a formula's argument) speaks for its own piece only
    (
        "diffusion-flow/v-prediction-why",
        "v is a rotation of the pair (x_0, ε): getting x_0 back from it never needs dividing by a "
        "tiny number.",
        [3],
        [],
    ),
    # a pair's other word said of the other side is no contrary of the point's own side
    (
        "normalization/batchnorm-vs-layernorm",
        "Unlike BatchNorm, which relies on running averages at test time, LayerNorm gives "
        "identical outputs in training and at test.",
        [2, 3],
        [],
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        "BatchNorm, which keeps running averages, gives identical outputs in training and at test.",
        [],
        [2],
    ),
    # a term named in brackets owns the words inside them, not those after: an aside
    (
        "information-theory/explain-kl",
        "KL is never negative (a consequence of Jensen's inequality), and it is asymmetric.",
        [2, 5],
        [],
    ),
    ("information-theory/explain-kl", "JS (a smoothed KL) is asymmetric.", [], [5]),
    # a term after "like" is what the term named before is compared with: the words are that
    # first term's
    (
        "normalization/one-line-difference",
        "RMSNorm: like LayerNorm with no mean subtraction, dividing only by the root mean square.",
        [2],
        [],
    ),
    (
        "normalization/one-line-difference",
        "LayerNorm: like RMSNorm with no mean subtraction, dividing only by the root mean square.",
        [],
        [2],
    ),
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
    # an ordered phrasing's words stand in one comma-parted part: "under p, so q" is no "under q"
    (
        "information-theory/explain-kl",
        "The expectation is taken under p, so q gets punished for being thin where p is heavy.",
        [4],
        [],
    ),
    (
        "retrieval-evaluation/pass-at-k-explain",
        "C(n-c, k)/C(n, k) is the chance that all k picks are failures, so 1 minus it is pass@k.",
        [2],
        [],
    ),
    (
        "attention-transformers/explain-sqrt-dk",
        "Each logit sums d_k products, so its variance adds up to d_k, and the square root of "
        "d_k is the typical size.",
        [0],
        [],
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
    # "full precision" is fp32, "half precision" fp16
    (
        "inference-cost/explain-training-memory",
        "The optimizer steps a full-precision copy of the weights.",
        [2],
        [],
    ),
    (
        "inference-cost/explain-training-memory",
        "The master copy of the weights is kept in half precision.",
        [],
        [2],
    ),
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
    # a word the card itself uses is itself, no slip of another ("straying" is no "staying")
    (
        "alignment/rlhf-kl-explain",
        "The KL penalty charges the policy for straying from the SFT model, so it stays close "
        "to it.",
        [2],
        [],
    ),
    (
        "alignment/rlhf-kl-explain",
        "The KL penalty charges the policy for drifting from the refrence model, so it stays close "
        "to it.",
        [2],
        [],
    ),
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
    # short words: two neighbouring letters swapped, or a doubled letter typed once
    ("losses/why-cross-entropy", "lable smoothing is the usual guard", [4], []),
    ("normalization/batchnorm-vs-layernorm", "BatchNorm needs a big bacth", [1], []),
    ("alignment/rlhf-kl-explain", "the reward model is only a porxy", [0], []),
]


@pytest.mark.parametrize(
    ("word", "typed", "taken"),
    [
        ("class", "clas", True),
        ("label", "lable", True),
        ("steps", "stops", False),  # another word one key away: not a slip
        ("token", "taken", False),
        ("layer", "later", False),
        ("noise", "noize", False),
    ],
)
def test_a_short_word_forgives_only_the_slips_that_make_no_other_word(
    word: str, typed: str, taken: bool
) -> None:
    assert short_slip(word, typed) is taken


#: A formula typed with Greek letters spelt out ("mu + sigma * eps") is read as a formula and
#: graded by the engine.
FORMULAS = [
    # a formula said as a sum in words is read whole, not as a wrong formula of its first term
    (
        "generative-models/explain-gan-jsd",
        "plugging D* back gives 2 JS minus 2 log 2, so the generator is minimising Jensen-Shannon",
        [1],
        [],
    ),
    (
        "generative-models/explain-gan-jsd",
        "the best value is minus log 4, reached when the generator equals the data",
        [2],
        [],
    ),
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
    # a formula read as words is judged where the text writes it, not at an earlier "log N"
    (
        "losses/explain-infonce",
        "guessing: loss = log N. the shared information ≥ log N − L.",
        [2],
        [],
    ),
    # "0" is "zero" wherever it stands, but a piece of "0.5" is none
    (
        "regularization/explain-l1-zeros",
        "If the data's pull at the origin is weaker than λ, L1 leaves the weight at exactly 0.",
        [3],
        [],
    ),
    (
        "information-theory/explain-kl",
        "It hits 0 only if the two distributions are identical.",
        [3],
        [],
    ),
    (
        "information-theory/explain-kl",
        "It hits 0.5 only if the two distributions are identical.",
        [],
        [3],
    ),
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
    # a bound typed as a sign: "<=" is "at most", ">=" "at least"
    (
        "losses/explain-infonce",
        "the certified MI is always <= log N, as the loss is never negative",
        [3],
        [],
    ),
    ("losses/explain-infonce", "the certified MI is always >= log N", [], [3]),
    # a prime after a one-letter or Greek name is the word "prime" (a derivative)
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "MSE: the weight update is (p - y)·σ'(z)·x",
        [1],
        [],
    ),
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "BCE: the weight update is (p - y)·σ'(z)·x",
        [],
        [1],
    ),
    # big-O of one power is its growth in words; "100s"/"1000s" are hundreds and thousands
    (
        "inference-cost/explain-inference-regimes",
        "prefill: self-attention is O(n^2) over the prompt",
        [1],
        [],
    ),
    (
        "training-scaling/explain-overtraining",
        "today's open models: 1000s of tokens/param",
        [4],
        [],
    ),
    ("generative-models/explain-flows", "a dense Jacobian's determinant is O(d^2)", [], [2]),
    # a comma parts a word of a pair from a term before it: "q = p, asymmetric" says nothing
    # asymmetric of q
    (
        "information-theory/explain-kl",
        "KL(p‖q) ≥ 0, zero iff q = p, asymmetric in general",
        [3],
        [],
    ),
    ("information-theory/explain-kl", "it is zero only when q and p are different", [], [3]),
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
    ("alignment/grpo-explain", "if a group's rewards are all equal, every adv is 0", [3], []),
    # "Dr." and "et al." do not end a sentence
    (
        "alignment/grpo-explain",
        "Dr. GRPO gets rid of both the std and the length division",
        [5],
        [],
    ),
    (
        "inference-cost/explain-inference-regimes",
        "decode is mem bw bound, it streams all weights per token",
        [2],
        [],
    ),
]

#: A word's family stands for it ("overwhelm" for "dominate", "relies" for "depends",
#: "static" for "fixed", "discards" for "drops"); the families never cross a pair of opposites
#: ("tiny" is not "big").
SYNONYMS = [
    # "blow up" with an object makes it large; it is no "blows up" (unbounded) of the point's own
    (
        "attention-transformers/explain-sqrt-dk",
        "Blow up the logits and the softmax collapses onto one key.",
        [1],
        [],
    ),
    # a motion verb parted from its particle: "pulls the variance down" decreases it
    (
        "probability-statistics/explain-bias-variance",
        "Bigger models swap bias for variance, and more data pulls the variance down.",
        [5],
        [],
    ),
    ("probability-statistics/explain-bias-variance", "More data drives the variance up.", [], [5]),
    (
        "losses/why-cross-entropy",
        "a single confidently incorrect prediction can overwhelm the whole batch",
        [3],
        [],
    ),
    ("normalization/batchnorm-vs-layernorm", "BatchNorm relies on the other examples", [1], []),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "the entropy of the data is static, no model can alter it",
        [1],
        [],
    ),
    ("alignment/grpo-explain", "GRPO discards the critic that PPO learns", [0], []),
    ("gaussians/explain-thin-shell", "the spread of the norm is static as d grows", [1], []),
    (
        "regularization/explain-l1-zeros",
        "so any nonzero data gradient keeps an L2 weight a tiny bit away from zero",
        [1],
        [],
    ),
    ("normalization/batchnorm-vs-layernorm", "BatchNorm works with a tiny batch", [], [1]),
]

#: A point said over two sentences, the second opening with a pronoun that carries the first's
#: subject ("It does not depend on the weights", "This is what GRPO drops", "That is why
#: transformers use it"); a pronoun does not carry the opposite of what the sentence before
#: said into a point.
PRONOUNS = [
    # "it" as the object of a verb ("more data reduces it") speaks of what the clause before named
    (
        "probability-statistics/explain-bias-variance",
        "Variance is how much fits vary between training sets; more data reduces it.",
        [5],
        [],
    ),
    (
        "probability-statistics/explain-bias-variance",
        "Bias is the systematic offset of the average fit; more data reduces it.",
        [],
        [5],
    ),
    # a clause that opens with its verb has the subject of the clause before
    (
        "metrics/rmse-mae-mape",
        "MAPE gives a unit-free percentage but explodes whenever a true value is close to zero.",
        [2],
        [],
    ),
    (
        "metrics/rmse-mae-mape",
        "MAE is robust to outliers but explodes whenever a true value is close to zero.",
        [],
        [2],
    ),
    (
        "losses/why-cross-entropy",
        "The entropy of the labels is set by the data. It does not depend on the weights.",
        [2],
        [],
    ),
    ("alignment/grpo-explain", "PPO learns a critic. This is what GRPO drops.", [0], []),
    (
        "gaussians/explain-thin-shell",
        "Look at the spread of the norm. It does not grow with d.",
        [1],
        [],
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        "LayerNorm only looks inside one example. That is why transformers use it.",
        [3],
        [],
    ),
    (
        "metrics/ranking-vs-calibration",
        "Temperature scaling is a single division of the logits. It fixes calibration and does "
        "not change the ranking.",
        [5],
        [],
    ),
    (
        "losses/why-cross-entropy",
        "The entropy of the labels moves with the weights. It is not fixed.",
        [],
        [2],
    ),
    # a pronoun speaks of the clause before's subject, not of the last term it named
    (
        "inference-cost/explain-inference-regimes",
        "Decode works very differently from prefill. It is memory-bound, since it streams every "
        "weight for each token.",
        [2],
        [],
    ),
    (
        "inference-cost/explain-inference-regimes",
        "Prefill works very differently from decode. It is memory-bound, since it streams every "
        "weight for each token.",
        [],
        [2],
    ),
    (
        "normalization/one-line-difference",
        "RMSNorm is essentially LayerNorm. It skips the mean subtraction and has no beta.",
        [2, 3],
        [],
    ),
    (
        "normalization/one-line-difference",
        "LayerNorm is essentially RMSNorm. It skips the mean subtraction and has no beta.",
        [],
        [2, 3],
    ),
]

#: Far paraphrases: a point said with other vocabulary than its model sentence's ("all the
#: learning goes into the KL", "finds loopholes in the reward model", "leaves the order
#: untouched", "guessing gets you log N"); the same words said the other way make nothing.
FAR = [
    # general ways of saying a point that its phrasings now list (session 8)
    (
        "regularization/explain-l1-zeros",
        "Under ridge the weight ends up barely off zero whenever the data pulls on it at all.",
        [1],
        [],
    ),
    (
        "regularization/explain-weight-decay-vs-l2",
        "With plain SGD the decay coefficient is bound to the learning rate.",
        [1],
        [],
    ),
    (
        "normalization/explain-qk-norm",
        "The √d_k scaling is a one-off fix for the start of training.",
        [0],
        [],
    ),
    ("information-theory/explain-kl", "The gap disappears only when q is p.", [3], []),
    (
        "optimizers/explain-warmup",
        "Full-size steps at that point can send the weights somewhere bad.",
        [2],
        [],
    ),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "Cross-entropy can only fall to a floor, the entropy of the labels.",
        [4],
        [],
    ),
    (
        "attention-transformers/explain-sqrt-dk",
        "With big logits the attention weights collapse onto one token.",
        [1],
        [],
    ),
    (
        "generative-models/explain-wgan",
        "W1 is the cheapest way to shovel the generated dirt onto the data.",
        [1],
        [],
    ),
    (
        "diffusion-flow/classifier-guidance-explain",
        "The conditional log-density is the unconditional one plus the classifier's "
        "log-likelihood, minus log p(c).",
        [0],
        [],
    ),
    ("losses/explain-infonce", "Without shared information the best loss is just chance.", [1], []),
    (
        "alignment/moe-aux-explain",
        "The gradient pushes probability down on experts that are already overloaded.",
        [3],
        [],
    ),
    (
        "alignment/rlhf-kl-explain",
        "Its scores are only meaningful near the kind of answers it was trained on.",
        [0],
        [],
    ),
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "BCE shouts about confident mistakes while MSE whispers.",
        [4],
        [],
    ),
    (
        "diffusion-flow/forward-variance-preserving",
        "Every step the noise refills what was lost, so the total stays at one, step after step.",
        [1],
        [],
    ),
    (
        "inference-cost/explain-where-compute-goes",
        "Once deployed, the cost of a token is proportional to the model size.",
        [3],
        [],
    ),
    (
        "diffusion-flow/classifier-guidance-explain",
        "By Bayes the unconditional log-density is the conditional one plus the classifier's "
        "log-likelihood.",
        [],
        [0],
    ),
    (
        "losses/explain-infonce",
        "With no shared information the best loss is far below chance.",
        [],
        [1],
    ),
    ("information-theory/explain-kl", "The KL vanishes only when q and p differ.", [], [3]),
    (
        "losses/why-cross-entropy",
        "the entropy part is not affected by training; all the learning goes into the KL",
        [2],
        [],
    ),
    (
        "alignment/rlhf-kl-explain",
        "beta low lets it exploit the reward, beta high keeps it anchored to SFT",
        [3],
        [],
    ),
    ("alignment/rlhf-kl-explain", "the policy finds loopholes in the reward model", [1], []),
    (
        "diffusion-flow/simple-loss-explain",
        "samples look nicer but it stops being a bound on the likelihood",
        [3],
        [],
    ),
    ("metrics/ranking-vs-calibration", "temperature scaling leaves the order untouched", [5], []),
    (
        "losses/explain-infonce",
        "when the query says nothing about its key, guessing gets you log N",
        [1],
        [],
    ),
    (
        "generative-models/explain-ebm-langevin",
        "the partition function cancels from the score since log Z has no x in it",
        [3],
        [],
    ),
    ("inference-cost/explain-training-memory", "bf16 weights 2B and bf16 grads 2B", [0], []),
    (
        "probability-statistics/explain-log-odds",
        "ln of p over 1 minus p equals w dot x plus b",
        [0],
        [],
    ),
    (
        "regularization/explain-l1-zeros",
        "the data gradient holds an L2 weight a hair off zero",
        [1],
        [],
    ),
    ("diffusion-flow/v-prediction-why", "v keeps unit norm at every noise level", [2], []),
    (
        "metrics/rmse-mae-mape",
        "MAPE penalises overprediction and underprediction differently",
        [3],
        [],
    ),
    (
        "regularization/explain-elastic-net",
        "for near-duplicate features the L1 cost is the same however you divide the weight",
        [1],
        [],
    ),
    (
        "retrieval-evaluation/l2-cosine-explain",
        "for unit vectors the three rankings coincide",
        [2],
        [],
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        "BatchNorm pools statistics across the samples, so a batch of two gives noise",
        [1],
        [],
    ),
    (
        "attention-transformers/explain-sqrt-dk",
        "with a saturated softmax nothing flows back through the attention",
        [2],
        [],
    ),
    ("retrieval-evaluation/elo-explain", "Elo and BT are different models", [], [0]),
    (
        "alignment/dpo-explain",
        "DPO does away with the reward model, the sampling and the critic",
        [4],
        [],
    ),
    ("alignment/grpo-explain", "GRPO threw out PPO's value model", [0], []),
    (
        "normalization/batchnorm-vs-layernorm",
        "BN statistics come from the other samples in the batch, so tiny batches make them garbage",
        [1],
        [],
    ),
    (
        "attention-transformers/explain-sqrt-dk",
        "when the scores are huge softmax collapses onto a single key",
        [1],
        [],
    ),
    (
        "gaussians/explain-random-cosine",
        "at 768 dims a random pair basically never goes past 0.1",
        [2],
        [],
    ),
    (
        "generative-models/explain-elbo",
        "pushing the ELBO up tightens the gap, dragging q towards the true posterior",
        [3],
        [],
    ),
    ("gradients/why-mse-sigmoid-trains-badly", "MSE multiplies that by sigma prime of z", [1], []),
    (
        "losses/why-cross-entropy",
        "people soften the one-hot targets and cap the gradient norm to protect against that",
        [4],
        [],
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        "at inference BatchNorm plugs in the averages it tracked during training",
        [2],
        [],
    ),
    ("alignment/lora-explain", "the fine-tuning change lives in a small subspace", [0], []),
    (
        "diffusion-flow/cfg-explain",
        "the caption is blanked out some of the time during training, so one net learns both",
        [0],
        [],
    ),
    (
        "diffusion-flow/classifier-guidance-explain",
        "the class prior has no dependence on x, so it drops out of the gradient",
        [1],
        [],
    ),
    (
        "retrieval-evaluation/speculative-decoding-explain",
        "the speedup grows with how often the big model accepts the draft's guesses",
        [4],
        [],
    ),
    (
        "alignment/ppo-clip-explain",
        "beyond the clip range the objective is flat, so the sample stops pushing the policy",
        [1],
        [],
    ),
    (
        "diffusion-flow/v-prediction-why",
        "at the extremes of the schedule epsilon prediction is numerically badly behaved",
        [0],
        [],
    ),
    (
        "metrics/pr-vs-roc",
        "AP is a recall-weighted average of precision along the ranking",
        [2],
        [],
    ),
    (
        "metrics/dcg-conventions",
        "with 0/1 labels linear and exponential gain give the same DCG",
        [4],
        [],
    ),
    (
        "attention-transformers/explain-rope",
        "the score of a rotated query and a rotated key only depends on how far apart they are",
        [2],
        [],
    ),
    (
        "training-scaling/explain-overtraining",
        "the extra training pays off because the model is cheaper to serve for its whole lifetime",
        [3],
        [],
    ),
    (
        "retrieval-evaluation/pass-at-k-explain",
        "the combinatorial estimator is unbiased but with far lower variance",
        [3],
        [],
    ),
    (
        "retrieval-evaluation/bm25-explain",
        "uncommon words still weigh more because of IDF",
        [4],
        [],
    ),
    (
        "probability-statistics/explain-log-odds",
        "e to the 0.7 is about two, so that coefficient doubles the odds",
        [2],
        [],
    ),
    # "however you split it" is "regardless of how", not a contrast nor "however small"
    (
        "regularization/explain-elastic-net",
        "for two copies of a feature the L1 penalty does not change however you split the weight",
        [1],
        [],
    ),
    # "where", "wherever" link a clause: it is a statement, not a list of terms
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "CE keeps mistakes loud exactly where MSE mutes them",
        [4],
        [],
    ),
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "BCE stays loud wherever squared error goes quiet",
        [4],
        [],
    ),
    # a Greek letter's name is its symbol
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "with MSE there is an extra factor of sigma prime",
        [1],
        [],
    ),
    ("losses/why-cross-entropy", "The H term isn't fixed: it changes with the weights.", [], [2]),
    (
        "alignment/rlhf-kl-explain",
        "beta high lets it exploit the reward, beta low keeps it anchored to SFT",
        [],
        [3],
    ),
]

#: A negation's reach pauses inside an aside in brackets ("never below zero (Gibbs' inequality)"
#: names the reason, it does not deny it); "never below zero", "at least 0" and "≥ 0" say
#: non-negative; a function said unequal to itself with its arguments swapped is asymmetric,
#: equal, symmetric.
ASIDES = [
    ("information-theory/explain-kl", "It does not go below zero (Gibbs' inequality)", [2], []),
    ("information-theory/explain-kl", "It can't dip under zero (by Jensen)", [2], []),
    (
        "information-theory/explain-kl",
        "KL is never below zero, and KL(p||q) != KL(q||p)",
        [2, 5],
        [],
    ),
    ("information-theory/explain-kl", "KL is at least 0, and D_KL(p‖q) ≠ D_KL(q‖p)", [2, 5], []),
    ("information-theory/explain-kl", "KL(p||q) = KL(q||p), it is a distance", [], [5]),
    ("information-theory/explain-kl", "KL is not below 0.5 nats", [], [2]),
    (
        "regularization/explain-elastic-net",
        "the lasso alone does not group (it picks one feature of a correlated set)",
        [0],
        [],
    ),
    ("information-theory/explain-js", "JS(p, q) = JS(q, p)", [3], []),
]

#: A point whose model sentence holds its own contrast ("unbiased *but* very noisy", "maximally
#: wrong *yet* a tiny gradient") said with a learner's "but", which otherwise ends the clause;
#: a wrong example over the two halves still makes nothing ("Y = 2X + 1").
BUT = [
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "the unit is confidently wrong but the gradient is tiny",
        [3],
        [],
    ),
    (
        "retrieval-evaluation/pass-at-k-explain",
        "k samples per problem give the right answer on average but with huge variance",
        [0],
        [],
    ),
    (
        "probability-statistics/explain-correlation-independence",
        "take Y = 3X - 2: Y depends on X but the correlation is zero",
        [],
        [1],
    ),
]

#: What follows a colon is a part of its own: harm said there ("if an update hurts") is not
#: said of the point's words before it.
COLON = [
    (
        "alignment/ppo-clip-explain",
        "Using the min of the clipped and unclipped objectives gives a pessimistic estimate: if "
        "an update hurts, the unclipped term is the smaller one.",
        [2],
        [],
    ),
]
#: "difference" names a quantity (a rating difference), not the claim that things differ:
#: "equal ratings" is no contrary of it.
QUANTITY_NOUNS = [
    (
        "retrieval-evaluation/elo-explain",
        "Equal ratings give a fifty percent chance, and a lead of 100 points gives about 64%.",
        [2],
        [],
    ),
]
#: "just" and "really" are words a phrasing may ask for ("Elo is just Bradley-Terry"), and "not
#: just" stays no negation.
INTENSIFIERS = [
    (
        "retrieval-evaluation/elo-explain",
        "Under the hood Elo is really just Bradley–Terry.",
        [0],
        [],
    ),
    (
        "retrieval-evaluation/elo-explain",
        "Elo is not just Bradley–Terry; it is a different model.",
        [],
        [0],
    ),
]

#: A phrasing that names both sides of a pair itself ("tpr>positives fpr>negatives") places
#: them by its own order: the other side in another part is no reversal of it.
BOTH_SIDES = [
    (
        "metrics/roc-auc-imbalance",
        "Prevalence never moves the ROC curve: TPR uses the positives, FPR the negatives, and "
        "rare positives are where it misleads.",
        [0],
        [],
    ),
    (
        "metrics/roc-auc-imbalance",
        "FPR is computed over the positives and TPR over the negatives.",
        [],
        [0],
    ),
]

#: A point that names a fault ("the classic bug") is no good thing: harm said beside its words
#: agrees with it.
FAULTS = [
    (
        "normalization/batchnorm-vs-layernorm",
        "Fine-tune with BatchNorm still in train mode and the running stats are overwritten by "
        "the new batches, which makes the model worse without any warning.",
        [4],
        [],
    ),
]

#: The shorthand of study notes read as the words it stands for
#: (:mod:`recall.grading.explain_shorthand`): "<<" is "much smaller than", "≤" "at most", "∞"
#: "infinite", a prime the derivative, "==" "the same as", "100s" hundreds, "/tok" "per
#: token", clipped words whole, and an arrow after a note's head term a colon.
SHORTHAND = [
    (
        "gaussians/explain-reparameterization",
        "reparam grads: variance << the score-function estimator",
        [4],
        [],
    ),
    ("gaussians/explain-reparameterization", "reparam grads: variance >> REINFORCE", [], [4]),
    ("generative-models/explain-wgan", "drop the Lipschitz constraint -> critic gap -> ∞", [4], []),
    ("losses/explain-infonce", "loss ≥ 0 so the bound ≤ log N", [3], []),
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "MSE grad picks up σ'(z) as an extra factor",
        [1],
        [],
    ),
    ("gradients/why-mse-sigmoid-trains-badly", "σ' ≤ 0.25 everywhere", [2], []),
    ("gradients/why-mse-sigmoid-trains-badly", "σ' ≥ 0.25 everywhere", [], [2]),
    ("retrieval-evaluation/elo-explain", "Elo == the BT model, nothing more", [0], []),
    ("training-scaling/explain-overtraining", "today's open models: 1000s of tok/param", [4], []),
    ("diffusion-flow/cfg-explain", "one net, cond dropped ~10% of steps", [0], []),
    (
        "normalization/one-line-difference",
        "RMSNorm -> LayerNorm w/o the mean subtraction, no beta",
        [2, 3],
        [],
    ),
    (
        "probability-statistics/explain-correlation-independence",
        "Y = X² with X symmetric: Y is a fn of X yet Cov(X, Y) = 0",
        [1],
        [],
    ),
    # a formula sheet's notation names what it writes: H(p) an entropy, N(μ, σ²) a normal,
    # x̄ a mean, (1/N) Σ an average
    ("information-theory/explain-mle-min-kl", "H(data) stays constant whatever θ is", [2], []),
    (
        "probability-statistics/explain-clt",
        "for large n the sample mean x̄ is roughly N(μ, σ²/n)",
        [0],
        [],
    ),
    (
        "metrics/ranking-vs-calibration",
        "Brier score = (1/N) Σ_i (p_i − y_i)², a calibration-and-sharpness mix",
        [3],
        [],
    ),
    ("retrieval-evaluation/elo-explain", "only the rating Δ matters, not the level", [3], []),
    ("probability-statistics/explain-log-odds", "w_j: Δlog-odds for +1 unit of x_j", [1], []),
    (
        "metrics/dcg-conventions",
        "either way rank i is weighted by 1/log2(i+1)",
        [1],
        [],
    ),
    (
        "generative-models/explain-elbo",
        "the gap between log p(x) and the ELBO is exactly KL(q(z|x) ‖ p(z|x))",
        [1],
        [],
    ),
    (
        "generative-models/explain-elbo",
        "the gap between log p(x) and the ELBO is exactly KL(q(z|x) ‖ p(z))",
        [],
        [1],
    ),
    ("probability-statistics/explain-log-odds", "w = 0.7 -> x2 odds", [4], []),
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "MSE: dL/dz picks up sigma'(z) on top of (p - y)",
        [1],
        [],
    ),
    # bounds said in words, percentages in words, a terse note's verb
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "the sigmoid's slope is never more than 0.25",
        [2],
        [],
    ),
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "the sigmoid's slope is never less than 0.25",
        [],
        [2],
    ),
    (
        "inference-cost/explain-where-compute-goes",
        "Training takes about six floating-point operations per parameter per token.",
        [0],
        [],
    ),
    (
        "retrieval-evaluation/elo-explain",
        "Equal ratings are a coin flip, a hundred points up is sixty-four percent, four "
        "hundred is ninety-one percent.",
        [2],
        [],
    ),
    (
        "retrieval-evaluation/elo-explain",
        "Equal ratings are a coin flip, a hundred points up is eighty percent, four hundred "
        "is ninety-nine percent.",
        [],
        [2],
    ),
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
    *(("synonyms", *case) for case in SYNONYMS),
    *(("pronouns", *case) for case in PRONOUNS),
    *(("far", *case) for case in FAR),
    *(("aside", *case) for case in ASIDES),
    *(("but", *case) for case in BUT),
    *(("colon", *case) for case in COLON),
    *(("quantity noun", *case) for case in QUANTITY_NOUNS),
    *(("intensifier", *case) for case in INTENSIFIERS),
    *(("both sides", *case) for case in BOTH_SIDES),
    *(("fault", *case) for case in FAULTS),
    *(("shorthand", *case) for case in SHORTHAND),
]


@pytest.mark.parametrize(
    ("kind", "key", "text", "states", "denies"),
    CASES,
    ids=[f"{case[0]}:{case[2][:40]}" for case in CASES],
)
def test_each_class_of_paraphrase_is_read(
    kind: str, key: str, text: str, states: list[int], denies: list[int]
) -> None:
    assert_points(kind, key, text, states, denies)


def test_every_class_spans_several_cards() -> None:
    for name, cases in [
        ("contrasts", CONTRASTS),
        ("opposites", OPPOSITES),
        ("order", ORDER),
        ("negation", NEGATION),
        ("unicode", UNICODE),
        ("abbreviations", ABBREVIATIONS),
        ("notes", NOTES),
        ("synonyms", SYNONYMS),
        ("pronouns", PRONOUNS),
        ("far", FAR),
        ("asides", ASIDES),
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


@pytest.mark.parametrize("phrasing", ["prefill", "decode|prefill", "Prefill"])
def test_one_word_of_the_prompt_as_a_phrasing_is_a_deck_error(
    tmp_path: Path, phrasing: str
) -> None:
    """A phrasing of one word the card's prompt already says ("Prefill against decode?") would
    be made by the question typed back beside one other word: the loader refuses it, naming
    the file, line and card; the same word with what is said of it is fine."""
    broken = CONTRAST_DECK.replace('words = ["compute bound"]', f'words = ["{phrasing}"]')
    assert broken != CONTRAST_DECK
    deck, errors = _deck(tmp_path, broken)
    assert deck is None
    (error,) = [e for e in errors if "prompt or hint already says" in str(e)]
    assert error.card_id == "regimes" and error.line is not None
    assert "talk.toml" in str(error.path)
    fine = CONTRAST_DECK.replace('words = ["compute bound"]', f'words = ["{phrasing} compute"]')
    deck, errors = _deck(tmp_path, fine)
    assert deck is not None, errors


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
        ("variance << REINFORCE", "variance  much smaller than  reinforce"),
        ("bound ≤ log N, L ≥ 1", "bound  at most  log n, l  at least  1"),
        ("decay coef ∝ η", "decay coefficient  proportional to  η"),
        ("Σ_t w_t", " sum _t w_t"),
        ("w small, != 0", "w small,  nonzero "),
        ("100s of tok/param", "hundreds of token per parameter"),
        ("A′(θ)", "a prime(θ)"),
        ("sigma'(z), grad_x log p", "sigma prime(z), gradient x log p score"),
        ("memory ×2 overall", "memory  doubles  overall"),
        ("x2 is the input", "x2 is the input"),  # a name, no multiplier
        ("it's L2's", "it's l2's"),  # an apostrophe after a word is no prime
        ("grad ~ 0", "gradient  about 0"),
        ("train != test", "train  differs from  test"),
        ("non-negative, non negative", "nonnegative, nonnegative"),
        ("it throws away the critic", "it discards the critic"),
        ("GRPO got rid of it", "grpo removes it"),
        ("the same however you split it", "the same regardless you split it"),
        ("fine, however the batch is small", "fine, however the batch is small"),
    ],
)
def test_notes_are_read_as_the_words_they_stand_for(text: str, expected: str) -> None:
    assert normalised(text) == expected


#: A yes/no question the learner answers at once is the statement its answer makes: a "no"
#: denies the question's claim, a "yes" asserts it (:mod:`recall.grading.explain_questions`).
ANSWERED_QUESTIONS = [
    (
        "losses/why-cross-entropy",
        "Is a single badly wrong prediction's loss limited somehow? No: as p goes to zero, minus "
        "log p just climbs forever.",
        [3],
        [],
    ),
    (
        "losses/why-cross-entropy",
        "Is the loss for a confident mistake capped somewhere? Yes, it tops out at a fixed "
        "ceiling.",
        [],
        [3],
    ),
    (
        "losses/why-cross-entropy",
        "Does the entropy of the labels depend on the weights? No, so minimising cross-entropy is "
        "minimising the KL.",
        [2],
        [],
    ),
    (
        "losses/why-cross-entropy",
        "Does the entropy of the labels depend on the weights? Yes, it moves with every step.",
        [],
        [2],
    ),
]

#: A double negation is the plain statement: "nothing keeps X from growing" says X grows,
#: "never starved of a gradient" that there always is one (:mod:`recall.grading.explain_litotes`).
LITOTES = [
    (
        "normalization/explain-qk-norm",
        "Nothing keeps the query and key weights from growing during training, so the logits grow "
        "without limit.",
        [1],
        [],
    ),
    (
        "normalization/explain-qk-norm",
        "Weight decay keeps the query and key weights from growing during training.",
        [],
        [1],
    ),
    (
        "generative-models/explain-wgan",
        "Is the critic's value meaningless as a gauge of sample quality? No, it is not "
        "uninformative, and the generator is never starved of a useful gradient.",
        [3],
        [],
    ),
    (
        "regularization/explain-weight-decay-vs-l2",
        "Under plain SGD there is no difference at all between an L2 penalty and weight decay.",
        [0],
        [],
    ),
    (
        "regularization/explain-weight-decay-vs-l2",
        "Under plain SGD there is a big difference between an L2 penalty and weight decay.",
        [],
        [0],
    ),
]


@pytest.mark.parametrize(
    ("kind", "key", "text", "states", "denies"),
    [("answered", *case) for case in ANSWERED_QUESTIONS] + [("litotes", *case) for case in LITOTES],
)
def test_answered_questions_and_double_negations_state_the_plain_claim(
    kind: str, key: str, text: str, states: list[int], denies: list[int]
) -> None:
    assert_points(kind, key, text, states, denies)


#: A slip in a word that carries a sentence's structure is read through: "insted of adding" is
#: still "instead of" (:mod:`recall.grading.explain_markers`), not a text that says "adding".
STRUCTURE_SLIPS = [
    (
        "attention-transformers/explain-rope",
        "RoPE spins each query and key vector by a position-dependent angle, insted of adding a "
        "positional vector to the embedding.",
        [0],
        [],
    ),
    (
        "attention-transformers/explain-rope",
        "It adds a position vector to each token, instaed of rotating the queries and keys.",
        [],
        [0],
    ),
]


@pytest.mark.parametrize(("key", "text", "states", "denies"), STRUCTURE_SLIPS)
def test_a_slip_in_a_structure_word_keeps_the_structure(
    key: str, text: str, states: list[int], denies: list[int]
) -> None:
    assert_points("structure slip", key, text, states, denies)


def test_only_slips_of_structure_words_are_mended() -> None:
    from recall.grading.explain_markers import with_markers

    assert with_markers("insted, Becuase, betwen") == "instead, because, between"
    # the word itself, a word of another first letter and short words stay as typed
    assert with_markers("Because either neither") == "Because either neither"


@pytest.mark.parametrize(
    ("text", "states", "denies"),
    [
        (
            "Shave a tenth of a nat off the loss and perplexity shrinks by a factor of about 0.9.",
            [3],
            [],
        ),
        (
            "Shave a third of a nat off the loss and perplexity shrinks by a factor of about 0.9.",
            [],
            [3],
        ),
    ],
)
def test_a_fraction_after_a_is_its_number(text: str, states: list[int], denies: list[int]) -> None:
    from recall.grading.explain_numbers import spelt_numbers

    assert (
        spelt_numbers("a quarter of the memory, a third term") == "0.25 of the memory, a third term"
    )
    assert_points("a fraction", "information-theory/explain-perplexity", text, states, denies)


#: General families of words a learner says for a phrasing's word ("refreshes" the running
#: statistics for "overwrites", "wandered" for "drifted", "pinned" for "stuck").
MORE_SYNONYMS = [
    (
        "normalization/batchnorm-vs-layernorm",
        "Fine-tuning with the BN layers still in train mode quietly refreshes the running "
        "statistics with the new batches.",
        [4],
        [],
    ),
    (
        "alignment/ppo-clip-explain",
        "The surrogate is only reliable as long as the new policy has not wandered far from the "
        "old one.",
        [0],
        [],
    ),
    (
        "information-theory/explain-mle-min-kl",
        "Every real sample is scored, so the fitted model would rather smear its probability too "
        "widely than leave data uncovered.",
        [4],
        [],
    ),
    (
        "inference-cost/explain-where-compute-goes",
        "It pays to train a slimmer network for far longer than Chinchilla says.",
        [4],
        [],
    ),
    (
        "inference-cost/explain-where-compute-goes",
        "It pays to train a bigger network for a shorter time.",
        [],
        [4],
    ),
]

#: A density named by its notation: p(θ) is the prior, p(D|θ) the likelihood, p(y|x) a
#: classifier, ∇log p(x) the score (:mod:`recall.grading.explain_notation`).
NOTATION = [
    (
        "probability-statistics/explain-map-mle",
        "MAP maximises log p(D|θ) + log p(θ), since the evidence is a constant.",
        [0],
        [],
    ),
    ("probability-statistics/explain-map-mle", "MAP maximises log p(D|θ) alone.", [], [0]),
    # a curve named by its shape
    (
        "probability-statistics/explain-log-odds",
        "The S-curve is flat at its ends, so equal log-odds shifts do different things to p.",
        [3],
        [],
    ),
    (
        "probability-statistics/explain-log-odds",
        "The curve is flat at its ends, so equal log-odds shifts do different things to p.",
        [],
        [3],
    ),
    (
        "diffusion-flow/classifier-guidance-explain",
        "So ∇log p(x|y) = ∇log p(x) + ∇log p(y|x).",
        [2],
        [],
    ),
    (
        "diffusion-flow/classifier-guidance-explain",
        "So ∇log p(x|y) = ∇log p(x), the classifier term drops.",
        [],
        [2],
    ),
]


@pytest.mark.parametrize(
    ("kind", "key", "text", "states", "denies"),
    [("synonym", *case) for case in MORE_SYNONYMS] + [("notation", *case) for case in NOTATION],
)
def test_synonyms_and_named_densities_make_the_point(
    kind: str, key: str, text: str, states: list[int], denies: list[int]
) -> None:
    assert_points(kind, key, text, states, denies)


def test_a_density_is_named_after_it_and_a_gradient_in_theta_is_no_score() -> None:
    from recall.grading.explain_notation import named_densities

    assert named_densities("log p(θ) + log p(x|w)") == "log p(θ) prior + log p(x|w) likelihood"
    assert named_densities("∇_θ log p(x)") == "∇_θ log p(x)"
    assert named_densities("∇_x log p_t(x_t)") == "∇_x log p_t(x_t) score"


def test_a_short_clause_with_a_verb_is_a_statement_not_a_list() -> None:
    from recall.grading.explain_words import read_clauses

    key = "retrieval-evaluation/bm25-explain"
    assert_points("verb", key, "IDF still makes uncommon query terms count more.", [4], [])
    assert_points("list", key, "IDF, rare terms, count, more weight, saturation.", [], [4])
    # a run of keywords stays a list whatever verbs stand in it
    (clause,) = read_clauses("bce mse sigmoid log cancels slope extra factor saturates")
    assert all(token.listed for token in clause)


#: A derivative set to zero, or "constant in x", says what does not depend on what
#: (:mod:`recall.grading.explain_notation`).
ZERO_DERIVATIVES = [
    ("generative-models/explain-ebm-langevin", "The score is free: ∇_x log Z = 0.", [3], []),
    (
        "generative-models/explain-ebm-langevin",
        "The score is free: the normaliser Z is constant w.r.t. x, so only −∇E remains.",
        [3],
        [],
    ),
    ("generative-models/explain-ebm-langevin", "The score is free.", [], [3]),
    (
        "losses/why-cross-entropy",
        "Since ∂H(p)/∂θ = 0, cross-entropy and KL share their minimiser.",
        [2],
        [],
    ),
    # two derivatives set equal are the same gradient; a multiple of one is not
    (
        "information-theory/explain-min-ce-is-min-kl",
        "With H(p) fixed, ∇_θ H(p, q_θ) = ∇_θ KL(p‖q_θ).",
        [2],
        [],
    ),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "With H(p) fixed, ∇_θ H(p, q_θ) = 2·∇_θ KL(p‖q_θ).",
        [],
        [2],
    ),
]


@pytest.mark.parametrize(("key", "text", "states", "denies"), ZERO_DERIVATIVES)
def test_a_zero_derivative_says_what_does_not_depend_on_what(
    key: str, text: str, states: list[int], denies: list[int]
) -> None:
    assert_points("zero derivative", key, text, states, denies)


def test_an_item_with_a_subject_pronoun_is_a_clause_not_a_listed_term() -> None:
    key = "alignment/rlhf-kl-explain"
    text = (
        "Left alone, the optimiser finds the scorer's holes, reward hacking, repetitive junk "
        "text, it loses its fluency."
    )
    assert_points("pronoun item", key, text, [1], [])
    assert_points(
        "terms", key, "reward hacking, degenerate text, fluency, diversity, KL, beta.", [], [1]
    )
