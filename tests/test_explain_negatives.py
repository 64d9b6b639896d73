"""Answers that do not state a point are not credited with it (issue 23, the must-not-credit
side), class by class, on sentences written for these tests (not any corpus's): a list of terms
that relates none of them, a claim said of the wrong thing, a claim turned round across the
parts of a clause, a formula written wrong beside the right words,
a negation in a relative clause read past its main verb.

Each case names the card, the text, the points it states (must be made) and the points it
does not state or contradicts (must not be). Where a class could be "fixed" by crediting less,
a case beside it states the point properly and must still be made.
"""

from __future__ import annotations

import re

import pytest

from recall.cards.model import Card
from recall.grading.explain import check_explanation
from recall.grading.explain_lexicon import another_word
from recall.grading.explain_markers import with_markers
from recall.grading.explain_words import NEGATORS, SMALL_WORDS, normalised, stem
from tests.explain_cases import assert_points, builtin_explain_cards, made_points

#: Terms named one after another, comma by comma, with nothing said of any of them: the signs
#: and prepositions inside a term ("one-hot", "sqrt(d_k)", "KL to reference") relate nothing.
#: A run of absences ("no X, no Y, ...") is a statement, and so is a sentence with a verb.
TERM_LISTS = [
    (
        "attention-transformers/explain-sqrt-dk",
        "dot-product variance, one-hot softmax, dead gradients, 1/sqrt(d_k), variance 1",
        [],
        [0, 1, 2, 3],
    ),
    (
        "losses/why-cross-entropy",
        "minus log-prob, max likelihood, H(p) + KL, weights, no ceiling, smoothing, clipping",
        [],
        [0, 1, 3, 4],
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        "batch-wise stats, per-example stats, small-batch noise, running averages at eval, "
        "transformers",
        [],
        [0, 1, 2, 3],
    ),
    (
        "inference-cost/explain-where-compute-goes",
        "6 FLOPs/param/token, forward 2, backward 4, 20 tokens per parameter, over-trained small "
        "models",
        [],
        [0, 2, 4],
    ),
    (
        "alignment/dpo-explain",
        "closed form optimum, log-ratio reward, partition function Z(x), Bradley-Terry model, "
        "classification loss",
        [],
        [0, 1, 2],
    ),
    # the same terms said as statements are still read, terse ones too (a verb states)
    (
        "attention-transformers/explain-sqrt-dk",
        "variance grows with d_k, softmax saturates, gradients vanish, sqrt fixes it",
        [0, 1, 2],
        [],
    ),
    # the same terms said as statements are still read
    (
        "attention-transformers/explain-sqrt-dk",
        "The dot product has variance d_k, so the softmax goes one-hot, the gradients vanish, "
        "and dividing by sqrt(d_k) brings the variance back to one.",
        [0, 1, 2, 3],
        [],
    ),
    (
        "alignment/dpo-explain",
        "So DPO needs no reward model, no sampling, no value network, no RL loop.",
        [4],
        [],
    ),
]

#: A claim said of another member of a family of things learners mix up than the one the
#: point names (the prior and the posterior, the entropy and the cross-entropy or the KL, the
#: norms): the point's words are there, the thing is wrong. Said of the right one, it is made.
ATTRIBUTION = [
    (
        "generative-models/explain-elbo",
        "the ELBO is a reconstruction term minus a KL divergence to the posterior",
        [],
        [4],
    ),
    (
        "generative-models/explain-elbo",
        "the ELBO is a reconstruction term minus a KL divergence to the prior",
        [4],
        [],
    ),
    (
        "information-theory/explain-mle-min-kl",
        "the average log-likelihood is an estimate of minus the data entropy",
        [],
        [0],
    ),
    (
        "information-theory/explain-mle-min-kl",
        "the average log-likelihood is an estimate of minus the cross-entropy",
        [0],
        [],
    ),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "each step that reduces the cross-entropy reduces the entropy by the same amount",
        [],
        [2],
    ),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "each step that reduces the cross-entropy reduces the KL by the same amount",
        [2],
        [],
    ),
    (
        "normalization/one-line-difference",
        "RMSNorm is GroupNorm without the centring: it only divides by the root mean square",
        [],
        [2],
    ),
    (
        "normalization/one-line-difference",
        "RMSNorm is LayerNorm without the centring: it only divides by the root mean square",
        [2],
        [],
    ),
    # a claim after ", and" is its own step: the member named in the first claim is not its subject
    (
        "information-theory/explain-min-ce-is-min-kl",
        "C E = H of p + K L, and H of p is fixed by the data",
        [1],
        [],
    ),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "the cross-entropy is what we minimise, and the entropy of the data is fixed",
        [1],
        [],
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        "LayerNorm normalises each example over its features, and BatchNorm swaps in running "
        "averages at inference, so train and test differ",
        [0, 2],
        [],
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        "BatchNorm normalises over the batch, and LayerNorm swaps in running averages at inference",
        [],
        [2],
    ),
    # more families: TRPO/PPO/GRPO, BM25/RRF, the prior/posterior with "and" between the claims
    (
        "alignment/ppo-clip-explain",
        "it is a cheap stand-in for GRPO's KL trust region",
        [],
        [4],
    ),
    (
        "alignment/ppo-clip-explain",
        "it is a cheap stand-in for TRPO's KL trust region",
        [4],
        [],
    ),
    (
        "retrieval-evaluation/rrf-explain",
        "RRF scores and cosine similarities live on unrelated scales, so adding them needs "
        "calibration",
        [],
        [0],
    ),
    (
        "generative-models/explain-elbo",
        "raising the ELBO pulls the encoder towards the prior and shrinks the gap",
        [],
        [3],
    ),
    # the other member named as the cause, a step before the point's claim, is no confusion
    (
        "regularization/explain-elastic-net",
        "the L2 term is strictly convex, so correlated features get picked as a group",
        [4],
        [],
    ),
    # what the KL penalty keeps close is the policy, not the reward model (a name of two words);
    # a point that speaks of reward may name the reward model
    (
        "alignment/rlhf-kl-explain",
        "The KL term keeps the reward model close to where it started, so it does not drift.",
        [],
        [2],
    ),
    ("alignment/rlhf-kl-explain", "The KL term keeps the policy near the SFT model.", [2], []),
    (
        "alignment/rlhf-kl-explain",
        "Chasing reward alone, the policy hacks the reward model with degenerate text.",
        [1],
        [],
    ),
    # a classifier's metrics are not one another: a point naming precision and recall is not
    # made by a step that says them of accuracy
    (
        "metrics/accuracy-imbalance-explain",
        "Accuracy is basically recall under another name.",
        [],
        [3],
    ),
    (
        "metrics/accuracy-imbalance-explain",
        "Report recall and precision per class instead of plain accuracy.",
        [3],
        [],
    ),
]

#: A claim turned round across the parts of a clause: the point's word of a pair ("large
#: batches", "more data") stands apart from the rest of its words, and their part says the
#: other side ("happiest with *small* batches, big batches give it noisy statistics").
REVERSED_PAIRS = [
    (
        "normalization/batchnorm-vs-layernorm",
        "BatchNorm is happiest with small batches, big batches give it noisy statistics",
        [],
        [1],
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        "BatchNorm needs big batches, small ones give it noisy statistics",
        [1],
        [],
    ),
    (
        "probability-statistics/explain-bias-variance",
        "less data lowers the variance, more raises it",
        [],
        [5],
    ),
    (
        "probability-statistics/explain-map-mle",
        "with less data the prior is washed out, with more it dominates",
        [],
        [4],
    ),
    (
        "probability-statistics/explain-map-mle",
        "with more data the prior is washed out, with less it dominates",
        [4],
        [],
    ),
]

#: A formula the engine grades wrong for the point, beside the point's words: an equation
#: ("z = μ·σ + ε") states itself, and "by a factor of" states the factor's value, so the
#: words lose their credit. The right formula there keeps it.
WRONG_FORMULAS = [
    (
        "attention-transformers/explain-gqa",
        "so the cache shrinks, by a factor of h+g",
        [],
        [2],
    ),
    (
        "attention-transformers/explain-gqa",
        "the KV cache gets smaller by a factor h - g",
        [],
        [2],
    ),
    (
        "attention-transformers/explain-gqa",
        "the KV cache gets smaller by a factor of h/g",
        [2],
        [],
    ),
    (
        "gaussians/explain-reparameterization",
        "z = mu * sigma + eps moves the noise out of the graph",
        [],
        [1],
    ),
    (
        "gaussians/explain-reparameterization",
        "with z = mu - sigma*eps the noise moves outside the graph",
        [],
        [1],
    ),
    (
        "gaussians/explain-reparameterization",
        "z = mu + sigma * eps moves the noise out of the graph",
        [1],
        [],
    ),
]

#: A negation right after a relative pronoun ("a model *that never* predicts positive")
#: governs the relative clause's verb and object, not the main verb after it ("... gets 1%
#: accuracy"), so a contrary claim there is read as said; a "which" clause a comma closes
#: keeps its negation up to that comma.
RELATIVE_NEGATION = [
    (
        "metrics/accuracy-imbalance-explain",
        "a classifier that never outputs positive on 99% negatives gets 1% accuracy",
        [],
        [1],
    ),
    (
        "metrics/accuracy-imbalance-explain",
        "a model which never predicts positive catches all the cases you care about",
        [],
        [1],
    ),
    (
        "metrics/accuracy-imbalance-explain",
        "a model that never predicts positive is 99% accurate",
        [1],
        [],
    ),
    (
        "losses/why-cross-entropy",
        "one example that is not classified right still has a bounded loss",
        [],
        [3],
    ),
    (
        "losses/why-cross-entropy",
        "the entropy, which does not depend on the parameters, is fixed",
        [2],
        [],
    ),
    (
        "normalization/explain-pre-norm",
        "post-norm, which does not keep a clean residual path, trains stably without warmup",
        [],
        [3],
    ),
    # "no need for X" denies X, as "no need to do X" denies doing it
    (
        "inference-cost/explain-training-memory",
        "With bf16 there is no need for a 32-bit copy of the weights.",
        [],
        [2],
    ),
    (
        "inference-cost/explain-training-memory",
        "You keep a 32-bit copy of the weights since 16-bit numbers cannot absorb tiny updates.",
        [2],
        [],
    ),
]

#: "=" between two terms of a contrast names the first again, as "is" does: "RMSNorm =
#: LayerNorm minus the centring" says the centring of RMSNorm, not of LayerNorm; said of the
#: wrong norm it still makes nothing.
EQUALS_AS_IS = [
    (
        "normalization/one-line-difference",
        "RMSNorm = LayerNorm minus the centring, it just rescales by the RMS",
        [2],
        [],
    ),
    (
        "normalization/one-line-difference",
        "RMSNorm = LayerNorm with no mean subtraction",
        [2],
        [],
    ),
    (
        "normalization/one-line-difference",
        "RMSNorm = BatchNorm minus the centring",
        [],
        [2],
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        "LayerNorm = BatchNorm's formula over each example's own features",
        [0],
        [],
    ),
]

#: The other word of a pair the point leans on: "at *least* 0.25" for "at most 0.25" (said of a
#: number the point's value matches, too), a *tiny* loss for an enormous one, an inverse that is
#: *optional* for one every layer needs; and "impossible to" / "unable to" deny what follows as
#: "fails to" does.
ANTONYMS = [
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "sigma'(z) is at least 0.25 for every z",
        [],
        [2],
    ),
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "sigma'(z) is at most 0.25",
        [2],
        [],
    ),
    (
        "losses/why-cross-entropy",
        "on confident mistakes the loss stays tiny, they can never dominate the batch",
        [],
        [3],
    ),
    (
        "losses/why-cross-entropy",
        "confidently wrong predictions cost an enormous loss, they can dominate the batch",
        [3],
        [],
    ),
    (
        "generative-models/explain-flows",
        "the inverse is optional, only the log-determinant is needed",
        [],
        [1],
    ),
    (
        "retrieval-evaluation/fid-vs-is",
        "a higher FID is better, and it catches mode dropping",
        [],
        [4],
    ),
    (
        "retrieval-evaluation/fid-vs-is",
        "lower FID is better, and it catches mode dropping",
        [4],
        [],
    ),
    (
        "alignment/rlhf-kl-explain",
        "with the KL term it is impossible to get a closed-form optimum",
        [],
        [4],
    ),
    (
        "alignment/rlhf-kl-explain",
        "the KL term gives a closed-form optimum that DPO uses",
        [4],
        [],
    ),
]

#: The point's operation with another operand of the same names: "dividing by d_k^2" for
#: "dividing by √d_k", "by (1 − β)" for "by 1 − β^t", "scaling by √β_t" for "by √(1 − β_t)".
#: The right operand, however spelt (sqrt, v-hat), keeps the point.
WRONG_OPERANDS = [
    (
        "attention-transformers/explain-sqrt-dk",
        "dividing the scores by d_k^2 brings their variance back to one",
        [],
        [3],
    ),
    (
        "attention-transformers/explain-sqrt-dk",
        "dividing the scores by sqrt(d_k) brings their variance back to one",
        [3],
        [],
    ),
    (
        "optimizers/explain-bias-correction",
        "the fix divides by (1 - beta), which rescales each moment to an unbiased estimate",
        [],
        [2],
    ),
    (
        "optimizers/explain-bias-correction",
        "dividing by (1 - beta^t) rescales each moment to an unbiased estimate",
        [2],
        [],
    ),
    (
        "diffusion-flow/forward-variance-preserving",
        "scaling by sqrt(beta_t) makes the process variance-preserving",
        [],
        [0],
    ),
    (
        "diffusion-flow/forward-variance-preserving",
        "scaling by sqrt(1 - beta_t) makes the process variance-preserving",
        [0],
        [],
    ),
    (
        "regularization/explain-weight-decay-vs-l2",
        "with Adam the L2 gradient is averaged into m and divided by sqrt(v-hat) like the rest",
        [2],
        [],
    ),
]

#: Misconceptions a point's ``opposites`` name (the deck's lever for what words alone cannot
#: tell): learned position vectors for YaRN, smoothing mass on one wrong class, a
#: decomposition exact for any loss, a v target whose scale grows, KL's p and q swapped, the
#: first moment blamed for warmup. The right statement beside each is still made.
DECK_OPPOSITES = [
    (
        "attention-transformers/explain-rope",
        "YaRN extends the context by training extra learned positional embeddings",
        [],
        [4],
    ),
    (
        "attention-transformers/explain-rope",
        "YaRN stretches the context by rescaling the base frequency",
        [4],
        [],
    ),
    (
        "regularization/explain-label-smoothing",
        "the target puts 1 - eps on the right class and the eps goes to one wrong class only",
        [],
        [0],
    ),
    (
        "regularization/explain-label-smoothing",
        "the target puts 1 - eps on the right class and spreads eps evenly over all classes",
        [0],
        [],
    ),
    (
        "probability-statistics/explain-bias-variance",
        "the decomposition adds up exactly whatever loss you use",
        [],
        [4],
    ),
    (
        "diffusion-flow/v-prediction-why",
        "v is a rotation of the inputs, so its scale grows as t increases",
        [],
        [2],
    ),
    (
        "information-theory/explain-kl",
        "the KL is the extra bits you pay for believing p when the truth is actually q",
        [],
        [1],
    ),
    (
        "information-theory/explain-kl",
        "the KL is the extra bits you pay for believing q when the truth is actually p",
        [1],
        [],
    ),
    (
        "optimizers/explain-warmup",
        "early on the first moment is unreliable, while v is accurate from the start",
        [],
        [0],
    ),
]

#: A figure of the point given wrongly beside its words: the same kind of figure (a multiple,
#: a percentage, a plain number) said of the same thing ("times smaller", "tokens per
#: parameter", "of the peak", "accuracy") with another value. The right figure, a rounded
#: one, or another figure the model sentence also has, keeps the point.
WRONG_FIGURES = [
    (
        "attention-transformers/explain-sqrt-dk",
        "at d_k = 64 the logits get 64 times smaller; QK-Norm normalises queries and keys directly",
        [],
        [4],
    ),
    (
        "attention-transformers/explain-sqrt-dk",
        "at d_k = 64 the logits get 8 times smaller; QK-Norm normalises queries and keys directly",
        [4],
        [],
    ),
    (
        "training-scaling/explain-overtraining",
        "grow both together, about 200 tokens per parameter",
        [],
        [1],
    ),
    (
        "training-scaling/explain-overtraining",
        "grow both together, roughly 20 tokens per parameter",
        [1],
        [],
    ),
    (
        "optimizers/explain-warmup",
        "after the peak a cosine brings the rate down to about half the peak",
        [],
        [4],
    ),
    (
        "optimizers/explain-warmup",
        "ramping the rate up linearly over the first 20-30% of steps lets the estimates settle",
        [],
        [3],
    ),
    (
        "optimizers/explain-warmup",
        "ramping the rate up linearly over the first 1% of steps lets the estimates settle",
        [3],
        [],
    ),
    (
        "metrics/accuracy-imbalance-explain",
        "with 99% negatives, always predicting negative gives 90% accuracy",
        [],
        [1],
    ),
    (
        "attention-transformers/explain-gqa",
        "Llama-2 70B pairs 64 query heads with 8 KV heads for a 16x smaller cache",
        [],
        [4],
    ),
    (
        "diffusion-flow/sde-vs-ode",
        "DPM-Solver++ needs about 150-250 steps instead of 1000",
        [],
        [4],
    ),
    (
        "probability-statistics/explain-clt",
        "accuracy 0.8 on 1,000 questions: the standard error is about 1.3 points",
        [3],
        [],
    ),
    # a right formula with the wrong figure beside it makes no point either
    (
        "probability-statistics/explain-clt",
        "with 1,000 questions at 80%, sqrt(p(1-p)/n) comes to about 13 points",
        [],
        [3],
    ),
    # an ordinal is no fraction, and "0.45/0.55" is a pair, not 0.82
    (
        "training-scaling/explain-compute-optimal-exponents",
        "the 0.45/0.55 split comes from the third method, the parametric fit of the loss",
        [3],
        [],
    ),
    # "by a factor of N" is a multiple, and "drops", "shrinks" and "smaller" one direction; a
    # number squared in words is no figure of its own
    (
        "attention-transformers/explain-sqrt-dk",
        "At d_k = 64 the logit scale drops by a factor of 64; QK-Norm, which normalises queries "
        "and keys, is the modern follow-up.",
        [],
        [4],
    ),
    (
        "attention-transformers/explain-sqrt-dk",
        "At d_k = 64 the logit scale drops by a factor of 8; QK-Norm, which normalises queries "
        "and keys, is the modern follow-up.",
        [4],
        [],
    ),
    # two figures paired with two terms the other way round from the model sentence
    (
        "inference-cost/explain-where-compute-goes",
        "The backward pass takes two FLOPs per parameter per token and the forward pass four.",
        [],
        [0],
    ),
    (
        "inference-cost/explain-where-compute-goes",
        "Per parameter per token the forward pass takes two FLOPs and the backward pass four.",
        [0],
        [],
    ),
]

#: Words of a synonym family or a stem in another sense than the phrasing's: "change" and
#: "move" are no "shift" (the bias β a norm adds), the verb "means" is no "mean" (a norm's
#: centring). The point said in its own words is still made.
WORD_SENSES = [
    ("normalization/one-line-difference", "it is fixed and does not change", [], [3]),
    ("normalization/one-line-difference", "with RMSNorm nothing moves", [], [3]),
    ("normalization/one-line-difference", "RMSNorm's gain does not move at inference", [], [3]),
    ("normalization/one-line-difference", "RMSNorm's scale never alters between batches", [], [3]),
    (
        "normalization/one-line-difference",
        "RMSNorm drops the bias, which means fewer parameters",
        [3],
        [2],
    ),
    (
        "normalization/one-line-difference",
        "RMSNorm omits beta, this means a smaller layer",
        [3],
        [2],
    ),
    (
        "normalization/one-line-difference",
        "RMSNorm skips the centring: it divides by the root mean square",
        [2],
        [],
    ),
    # the verb "corrects" (one stem with the adjective "correct") is no "right"
    (
        "optimizers/explain-bias-correction",
        "Early on the moments are biased toward zero; later each step is the right size for the "
        "bias.",
        [1],
        [2],
    ),
    ("optimizers/explain-bias-correction", "Dividing by 1 - beta^t corrects the bias.", [2], []),
]

#: The card's prompt or hint typed back, whole or in pieces, in another order: it says nothing
#: the card did not. An answer with words of its own beside them is read as usual; and one
#: stretch of words makes one point, not two ("uniform over k").
ECHOES = [
    (
        "information-theory/explain-perplexity",
        "loss exponentiated, choices uniform over k",
        [],
        [0, 1, 2],
    ),
    (
        "information-theory/explain-kl",
        "why can KL never be negative, and why does the order matter?",
        [],
        [2, 5],
    ),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "minimizing cross-entropy over q is the same as minimizing the KL",
        [],
        [2, 3],
    ),
    (
        "gradients/why-they-coincide",
        "exponential family: the derivative of the log-partition is the mean",
        [],
        [1, 3],
    ),
    (
        "gaussians/explain-thin-shell",
        "sum of d squares, with mean d and a spread that stays constant",
        [],
        [0, 1],
    ),
    ("losses/explain-infonce", "classification among N candidates, at chance level", [], [0, 1]),
    (
        "information-theory/explain-perplexity",
        "perplexity is the exponentiated loss, so a uniform guess over k choices has perplexity k",
        [0, 1],
        [],
    ),
    (
        "gaussians/explain-thin-shell",
        "the squared norm is a sum of d independent squares, so its mean is d and its spread "
        "stays constant",
        [0, 1],
        [],
    ),
    ("information-theory/explain-perplexity", "a model that is uniform over k tokens", [1], [2]),
]

#: A phrasing of one word (or one list of alternatives) states nothing by itself: the clause
#: that makes it must say another word of the point, or any text holding the word would make
#: it. The point said with such a word beside its own is still made.
ONE_WORD = [
    ("information-theory/explain-js", "GANs do not use it", [], [4]),
    ("information-theory/explain-js", "GANs were never about it", [], [4]),
    ("attention-transformers/explain-gqa", "Llama does not use it", [], [4]),
    ("attention-transformers/explain-gqa", "Llama is a model", [], [4]),
    ("generative-models/explain-ebm-langevin", "EBMs are unrelated to diffusion", [], [5]),
    (
        "information-theory/explain-js",
        "in the original GAN the generator minimises the JS divergence",
        [4],
        [],
    ),
    ("attention-transformers/explain-gqa", "GQA is now the default, Llama-2 70B uses it", [4], []),
    (
        "generative-models/explain-ebm-langevin",
        "Langevin sampling is just like diffusion sampling with noise",
        [5],
        [],
    ),
    # the other word of a pair the point leans on, said of what the one word stands for
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "the sigmoid derivative is at least a quarter",
        [],
        [2],
    ),
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "its derivative is at the least a quarter everywhere",
        [],
        [2],
    ),
    (
        "gradients/why-mse-sigmoid-trains-badly",
        "the slope of the sigmoid is at most a quarter",
        [2],
        [],
    ),
]

#: A figure is read whole: a phrasing's "6" or "0" is no piece of "6.6", "0.0013" or "1/d_k"
#: (unless the phrasing goes on with the figure's other pieces), and a figure the text denies
#: ("never ... a thousand steps") states no value. The figure said whole is still made.
GLUED_FIGURES = [
    (
        "inference-cost/explain-where-compute-goes",
        "Training takes 6.6 FLOPs per parameter per token.",
        [],
        [0],
    ),
    (
        "inference-cost/explain-where-compute-goes",
        "Training takes 6 FLOPs per parameter per token.",
        [0],
        [],
    ),
    (
        "attention-transformers/explain-sqrt-dk",
        "Dividing by sqrt(d_k) leaves the logits with a variance of 1/d_k.",
        [],
        [3],
    ),
    (
        "attention-transformers/explain-sqrt-dk",
        "Dividing by sqrt(d_k) leaves the logits with a variance of 1.0.",
        [3],
        [],
    ),
    (
        "gaussians/explain-random-cosine",
        "In 768 dimensions two random vectors have a cosine of around 0.0013.",
        [],
        [1],
    ),
    (
        "optimizers/explain-bias-correction",
        "The distortion fades within a few steps; it never lingers for anything near a thousand "
        "steps.",
        [],
        [5],
    ),
    (
        "optimizers/explain-bias-correction",
        "The distortion lingers for about a thousand steps.",
        [5],
        [],
    ),
]

#: A claim the learner explicitly rejects ("it's not that ...", "it's a myth that ...", "I don't
#: believe that ...", "..., not because ...", or a next clause "but that never happens") makes no
#: point, nor does the rest of a clause whose reason for the point is rejected. A denial that
#: the learner's own claim follows ("it's not that X, it's that Y") leaves Y to be read.
DENIED_CLAIMS = [
    (
        "attention-transformers/explain-sqrt-dk",
        "It's not that the softmax saturates; the scaling only keeps the numbers from overflowing.",
        [],
        [1],
    ),
    (
        "inference-cost/explain-where-compute-goes",
        "The backward pass is twice the forward because it runs the layers in reverse order, not "
        "because it computes gradients for activations and weights.",
        [],
        [1],
    ),
    (
        "normalization/one-line-difference",
        "It's a myth that RMSNorm drops the centring; it subtracts the mean as LayerNorm does.",
        [],
        [2],
    ),
    (
        "losses/why-cross-entropy",
        "I don't believe that the entropy term is constant while training.",
        [],
        [2],
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        "Some say BatchNorm in train mode overwrites its running statistics during fine-tuning, "
        "but that never happens.",
        [],
        [4],
    ),
    (
        "inference-cost/explain-where-compute-goes",
        "The backward pass is twice the forward, not because of the layer order but because it "
        "computes gradients for both activations and weights.",
        [1],
        [],
    ),
    (
        "attention-transformers/explain-sqrt-dk",
        "It's not that the model is too small, it's that large logits push the softmax to "
        "one-hot, where it saturates.",
        [1],
        [],
    ),
    (
        "attention-transformers/explain-sqrt-dk",
        "It's not that the softmax is slow: large logits push it to one-hot, where it saturates.",
        [1],
        [],
    ),
    # what the model sentence asserts, set aside by "instead of" or "rather than", is rejected;
    # what the sentence itself does without ("avoids the sequential update") is not
    (
        "attention-transformers/explain-sqrt-dk",
        "At d_k = 64 the logits are 8x smaller; QK-Norm, the modern follow-up, normalises the "
        "attention output instead of the queries and keys.",
        [],
        [4],
    ),
    (
        "attention-transformers/explain-sqrt-dk",
        "At d_k = 64 the logits are 8x smaller; QK-Norm, the modern follow-up, normalises the "
        "queries and keys instead of the values.",
        [4],
        [],
    ),
    (
        "retrieval-evaluation/elo-explain",
        "Leaderboards fit all votes at once instead of running the sequential Elo update, which "
        "depends on the order of games.",
        [5],
        [],
    ),
    # a next clause that qualifies ("that doesn't happen with LayerNorm") takes nothing back
    (
        "normalization/batchnorm-vs-layernorm",
        "Fine-tuning with BatchNorm in train mode overwrites its running statistics. That "
        "doesn't happen with LayerNorm.",
        [4],
        [],
    ),
]

#: Words that say a thing is of no use ("no better", "has no effect", "matters for nothing"),
#: pairs the decks lean on ("forward"/"reverse" KL, "train"/"eval" mode, "noisy"/"clean"
#: inputs, "together"/"apart"), "X-free" as "without X", and the "B" of a model sentence's "A
#: instead of B" said outright: each says the point the other way. The point said rightly, and
#: "no better than" (a comparison), are still read.
CONTRARY_WORDS = [
    (
        "metrics/accuracy-imbalance-explain",
        "Switching to precision and recall is no better, since they mislead just as much.",
        [],
        [3],
    ),
    ("retrieval-evaluation/fid-vs-is", "Resizing the images has no effect on FID.", [], [5]),
    (
        "metrics/accuracy-imbalance-explain",
        "Accuracy is no better than chance here, so report precision and recall per class.",
        [3],
        [],
    ),
    (
        "information-theory/explain-mle-min-kl",
        "Maximum likelihood minimises the reverse KL, with the model distribution first.",
        [],
        [3],
    ),
    (
        "information-theory/explain-mle-min-kl",
        "Maximum likelihood minimises the forward KL, with the data distribution first.",
        [3],
        [],
    ),
    (
        "normalization/batchnorm-vs-layernorm",
        "The bug is fine-tuning with BatchNorm left in eval mode, which silently overwrites its "
        "running statistics.",
        [],
        [4],
    ),
    (
        "diffusion-flow/classifier-guidance-explain",
        "Any classifier trained on clean images works at every noise level.",
        [],
        [4],
    ),
    (
        "diffusion-flow/classifier-guidance-explain",
        "It needs its own classifier, trained on noisy x_t at every noise level.",
        [4],
        [],
    ),
    (
        "regularization/explain-elastic-net",
        "Elastic net splits correlated features apart so just one from each group survives.",
        [],
        [4],
    ),
    (
        "regularization/explain-elastic-net",
        "Under elastic net correlated features enter or leave the model together.",
        [4],
        [],
    ),
    (
        "diffusion-flow/sde-vs-ode",
        "The ODE injects fresh noise at each step; the SDE is noise-free.",
        [],
        [1],
    ),
    (
        "diffusion-flow/sde-vs-ode",
        "The ODE is noise-free; the SDE injects fresh noise at each step.",
        [1],
        [],
    ),
    (
        "attention-transformers/explain-rope",
        "RoPE adds a position vector to each query and key, then rotates it.",
        [],
        [0],
    ),
    (
        "attention-transformers/explain-rope",
        "RoPE rotates each query and key by an angle growing with position, instead of adding a "
        "position vector.",
        [0],
        [],
    ),
]

#: A short clause of the card's keywords and nothing else, no verb, small word or preposition
#: among them, is a bag of keywords, however few (five or more); so is a run of nine inside a
#: clause. A terse note with a verb or a word of the learner's own is read.
KEYWORD_BAGS = [
    ("metrics/rmse-mae-mape", "MAE median outliers robust RMSE", [], [1]),
    ("alignment/grpo-explain", "GRPO critic group z-score baseline mean", [], [1]),
    (
        "optimizers/explain-bias-correction",
        "bias close corrects initialized square step toward unbiased v moments",
        [],
        [1, 2],
    ),
    ("metrics/rmse-mae-mape", "MAE is robust to outliers and its minimiser is the median", [1], []),
    (
        "probability-statistics/explain-correlation-independence",
        "correlation only detects linear dependence",
        [0],
        [],
    ),
]

#: A point whose model sentence says one thing of one member of a family learners mix up and
#: another of another (the generator and the critic, PPO and TRPO) is read for who does what:
#: the words said of the other member make no point. The roles as the sentence has them do.
ROLE_SWAPS = [
    (
        "generative-models/explain-wgan",
        "With a Wasserstein critic the critic always receives a useful gradient, and the "
        "generator's value follows sample quality.",
        [],
        [3],
    ),
    (
        "generative-models/explain-wgan",
        "With a Wasserstein critic the generator always receives a useful gradient, and the "
        "critic's value follows sample quality.",
        [3],
        [],
    ),
    (
        "alignment/ppo-clip-explain",
        "Clipping is a cheap substitute for PPO's KL trust region and lets TRPO reuse a batch for "
        "several epochs.",
        [],
        [4],
    ),
    (
        "alignment/ppo-clip-explain",
        "Clipping is a cheap substitute for TRPO's KL trust region and lets PPO reuse a batch for "
        "several epochs.",
        [4],
        [],
    ),
]

#: A divergence written the other way round from the point's model sentence (or the card's
#: model answer) is another quantity: KL(q||p) for KL(p‖q). The meant direction still credits.
SWAPPED_DIVERGENCES = [
    # a reverse divergence named only to be set aside states no direction
    (
        "losses/why-cross-entropy",
        "Cross-entropy is the entropy of the true distribution plus the KL divergence from it to "
        "the model, not KL(q||p).",
        [1],
        [],
    ),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "Cross-entropy is the data entropy plus the KL from data to model, never KL(q‖p).",
        [0],
        [],
    ),
    (
        "losses/why-cross-entropy",
        "Cross-entropy is H(p) + KL(q||p), so it splits into the entropy of the data plus a KL "
        "term.",
        [],
        [1],
    ),
    (
        "losses/why-cross-entropy",
        "Cross-entropy is H(p) + KL(p||q), so it splits into the entropy of the data plus a KL "
        "term.",
        [1],
        [],
    ),
    (
        "information-theory/explain-mle-min-kl",
        "Maximising likelihood minimises KL(p_theta || p_data), the divergence with the data "
        "first.",
        [],
        [3],
    ),
]

#: A purpose denied: the step is named and what the model sentence says it is for is negated
#: ("so that ... not unbiased"). A purpose that keeps a harm away ("not shrunk towards zero",
#: "not grow forever") or a necessity denied ("need not be calibrated") still states the point.
DENIED_PURPOSES = [
    (
        "optimizers/explain-bias-correction",
        "Adam rescales m by 1 − β^t so that its estimate does not end up unbiased.",
        [],
        [2],
    ),
    (
        "optimizers/explain-bias-correction",
        "Adam rescales m by 1 − β^t so that the early estimates are not shrunk towards zero; "
        "each becomes unbiased.",
        [2],
        [],
    ),
    (
        "retrieval-evaluation/rrf-explain",
        "RRF keeps only each document's rank so that scores from different retrievers never "
        "become comparable.",
        [],
        [1],
    ),
    (
        "retrieval-evaluation/rrf-explain",
        "RRF keeps only ranks, which are comparable across retrievers, so that raw scores never "
        "need calibrating.",
        [1],
        [],
    ),
    (
        "training-scaling/explain-overtraining",
        "Small models are trained on many more tokens in order that they are not cheaper to serve.",
        [],
        [3],
    ),
    (
        "regularization/explain-label-smoothing",
        "Soft targets are used so that the logits never stop growing.",
        [],
        [1],
    ),
    (
        "regularization/explain-label-smoothing",
        "Soft targets are used so that the logits do not grow forever: the best gap is finite.",
        [1],
        [],
    ),
]

#: Roles handed round: a model sentence that says one thing of each of two named things (GQA
#: groups, MQA has a single K/V head), said with the two exchanged.
SWAPPED_ROLES = [
    (
        "attention-transformers/explain-gqa",
        "MQA keeps several grouped K/V heads, while GQA gets by with one single K/V head for every "
        "query.",
        [],
        [1],
    ),
    (
        "attention-transformers/explain-gqa",
        "GQA keeps several grouped K/V heads, while MQA gets by with one single K/V head for every "
        "query.",
        [1],
        [],
    ),
    (
        "alignment/grpo-explain",
        "GRPO drops the critic that PPO needs, using the group mean reward as the baseline.",
        [0],
        [],
    ),
]

#: A prefix taken off: the model sentence's "intractable", "unreliable", "independent" said
#: bare ("tractable", "reliable", "dependent") beside the point's other words.
PREFIX_TWINS = [
    (
        "generative-models/explain-elbo",
        "Computing log p(x) is tractable, a plain integral over all the latents, so the VAE could "
        "maximise it directly.",
        [],
        [0],
    ),
    (
        "generative-models/explain-elbo",
        "log p(x) needs an integral over every latent, which is intractable, so the VAE maximises "
        "the ELBO.",
        [0],
        [],
    ),
    (
        "optimizers/explain-warmup",
        "In the first few steps the second-moment estimate of Adam rests on a handful of "
        "gradients, so its per-coordinate scaling is reliable.",
        [],
        [0],
    ),
    (
        "optimizers/explain-warmup",
        "In the first few steps Adam's second moment rests on a handful of gradients, so the "
        "per-coordinate scaling it gives is unreliable.",
        [0],
        [],
    ),
    (
        "probability-statistics/explain-correlation-independence",
        "The exception is a jointly Gaussian pair: zero covariance there makes the two dependent.",
        [],
        [5],
    ),
    (
        "probability-statistics/explain-correlation-independence",
        "The exception is a jointly Gaussian pair, where zero covariance means they no longer "
        "depend on each other.",
        [5],
        [],
    ),
]

#: Two figures each said of the other's thing: the phrasing "2 forward 4 backward" has all its
#: words in the clause, but each figure stands by the other pass.
CROSSED_FIGURES = [
    (
        "inference-cost/explain-where-compute-goes",
        "Each token costs 4 FLOPs per parameter in the forward pass and 2 in the backward one, "
        "since the backward merely reuses the forward's work.",
        [],
        [0],
    ),
    (
        "inference-cost/explain-where-compute-goes",
        "Each token costs 2 FLOPs per parameter in the forward pass and 4 in the backward one, "
        "since the backward needs two sets of gradients.",
        [0],
        [],
    ),
    (
        "inference-cost/explain-where-compute-goes",
        "Training is about 6 FLOPs per parameter per token: forward is 2 and backward is 4.",
        [0],
        [],
    ),
]

#: The point's thing named only to be dismissed: "does nothing", "unrelated to", "makes ...
#: impossible", "are not needed". A "does nothing" that goes on to say what it does instead
#: ("does nothing here: it cancels") still states the point.
DISMISSED = [
    (
        "attention-transformers/explain-rope",
        "Longer contexts need retraining from scratch; rescaling the base frequency does nothing.",
        [],
        [4],
    ),
    (
        "losses/why-cross-entropy",
        "Minimising cross-entropy is unrelated to maximum likelihood; it just shrinks a distance "
        "between vectors.",
        [],
        [0],
    ),
    (
        "alignment/rlhf-kl-explain",
        "The KL penalty makes a closed-form optimum impossible, so DPO has nothing to build on.",
        [],
        [4],
    ),
    (
        "alignment/rlhf-kl-explain",
        "The KL term also gives the objective a closed-form optimum, and DPO builds on it.",
        [4],
        [],
    ),
    (
        "metrics/accuracy-imbalance-explain",
        "Per-class precision and recall are not needed once the test set is big.",
        [],
        [3],
    ),
    (
        "alignment/dpo-explain",
        "The intractable β log Z(x) does nothing here: it cancels in the Bradley–Terry difference.",
        [2],
        [],
    ),
    # a harm the model sentence names ("steps that are far too big") is rightly made impossible
    (
        "optimizers/explain-warmup",
        "Warmup makes huge early updates impossible: the rate ramps up linearly over the first "
        "1-2% of steps.",
        [1],
        [],
    ),
    # the second side of a contrast denied by ellipsis: "..., while the square root is not."
    (
        "information-theory/explain-js",
        "On its own JS is a proper metric distance, while the square root of it is not.",
        [],
        [3],
    ),
    (
        "information-theory/explain-js",
        "The square root of JS is a proper metric distance, while JS on its own is not.",
        [3],
        [],
    ),
]

#: A KL written the other way round from the model sentence's ("the KL from the encoder's
#: q(z|x) to the true posterior", "D_KL(p‖q)"), every other word kept.
REVERSED_KL = [
    (
        "generative-models/explain-elbo",
        "log p(x) minus the ELBO, the gap, is exactly KL(p(z|x) ‖ q(z|x)): the true posterior "
        "measured against what the encoder outputs.",
        [],
        [1],
    ),
    (
        "generative-models/explain-elbo",
        "log p(x) minus the ELBO, the gap, is exactly KL(q(z|x) ‖ p(z|x)): what the encoder "
        "outputs measured against the true posterior.",
        [1],
        [],
    ),
    (
        "information-theory/explain-kl",
        "Because the expectation is under p, D_KL(q‖p) punishes q for little mass where p has a "
        "lot, and blows up if q is zero there.",
        [],
        [4],
    ),
    (
        "information-theory/explain-kl",
        "Because the expectation is under p, D_KL(p‖q) punishes q for little mass where p has a "
        "lot, and blows up if q is zero there.",
        [4],
        [],
    ),
]

CASES = [
    *(("reversed kl", *case) for case in REVERSED_KL),
    *(("dismissed", *case) for case in DISMISSED),
    *(("crossed figures", *case) for case in CROSSED_FIGURES),
    *(("prefix twin", *case) for case in PREFIX_TWINS),
    *(("denied purpose", *case) for case in DENIED_PURPOSES),
    *(("swapped roles", *case) for case in SWAPPED_ROLES),
    *(("glued figure", *case) for case in GLUED_FIGURES),
    *(("swapped divergence", *case) for case in SWAPPED_DIVERGENCES),
    *(("role swap", *case) for case in ROLE_SWAPS),
    *(("keyword bag", *case) for case in KEYWORD_BAGS),
    *(("contrary word", *case) for case in CONTRARY_WORDS),
    *(("denied claim", *case) for case in DENIED_CLAIMS),
    *(("term list", *case) for case in TERM_LISTS),
    *(("attribution", *case) for case in ATTRIBUTION),
    *(("reversed pair", *case) for case in REVERSED_PAIRS),
    *(("wrong formula", *case) for case in WRONG_FORMULAS),
    *(("relative negation", *case) for case in RELATIVE_NEGATION),
    *(("equals as is", *case) for case in EQUALS_AS_IS),
    *(("antonym", *case) for case in ANTONYMS),
    *(("wrong operand", *case) for case in WRONG_OPERANDS),
    *(("deck opposite", *case) for case in DECK_OPPOSITES),
    *(("wrong figure", *case) for case in WRONG_FIGURES),
    *(("word sense", *case) for case in WORD_SENSES),
    *(("echo", *case) for case in ECHOES),
    *(("one word", *case) for case in ONE_WORD),
]


@pytest.mark.parametrize(
    ("kind", "key", "text", "states", "denies"),
    CASES,
    ids=[f"{case[0]}:{case[2][:40]}" for case in CASES],
)
def test_each_class_of_non_statement_is_not_credited(
    kind: str, key: str, text: str, states: list[int], denies: list[int]
) -> None:
    assert_points(kind, key, text, states, denies)


@pytest.mark.parametrize(
    "text",
    [
        "RMSNorm drops the bias, which means fewer parameters",
        "this means the total is Gaussian",
        "it means nothing",
        "no bias, meaning one vector fewer",
    ],
)
def test_the_verb_means_is_not_the_noun_mean(text: str) -> None:
    words = {stem(word) for word in normalised(text).replace(",", " ").split()}
    assert "mean" not in words


def test_a_correction_is_no_correct_answer() -> None:
    assert stem("correction") != stem("correct")
    assert stem("corrections") == stem("correction")
    assert stem("corrected") == stem("correct")


def test_no_card_is_answered_by_its_own_prompt_or_hint() -> None:
    """Every built-in explain card's prompt, hint, and the two together, typed back as the
    answer: no point is made (so none passes)."""
    making = []
    for key, card in builtin_explain_cards().items():
        for text in (card.prompt, card.hint, f"{card.prompt} {card.hint}"):
            if text.strip() and (made := made_points(key, text)):
                making.append((key, text[:50], sorted(made)))
    assert len(builtin_explain_cards()) >= 60
    assert not making


def _keyword_bag(card: Card) -> list[str]:
    """The card's keywords: the first alternative of every word of every phrasing."""
    words: set[str] = set()
    for point in card.points:
        for phrasing in point.words:
            for word in re.split(r"[\s>]+", phrasing):
                first = word.split("|")[0]
                if first and first not in SMALL_WORDS | NEGATORS:
                    words.add(first)
    return sorted(words)


@pytest.mark.parametrize("order", ["sorted", "reversed"])
def test_a_bag_of_the_cards_keywords_passes_no_card(order: str) -> None:
    """The card's keywords separated by spaces, with no stating word or relating sign among
    them, state nothing: no built-in explain card passes on them."""
    passing = []
    for key, card in builtin_explain_cards().items():
        bag = _keyword_bag(card)
        text = " ".join(bag if order == "sorted" else bag[::-1])
        if check_explanation(card, text).passed:
            passing.append(key)
    assert len(builtin_explain_cards()) >= 60
    assert not passing


@pytest.mark.parametrize(
    ("key", "text"),
    [
        (
            "inference-cost/explain-where-compute-goes",
            "20 activations flops gradients inference over-train parameter parameters per "
            "scales six size tokens weights",
        ),
        (
            "attention-transformers/explain-sqrt-dk",
            "variance d_k dot product softmax one-hot saturation gradients vanishing sqrt scaling",
        ),
        (
            "normalization/batchnorm-vs-layernorm",
            "batchnorm batch statistics per feature layernorm per example running averages "
            "inference transformers",
        ),
    ],
)
def test_a_run_of_terms_with_nothing_stated_makes_no_point(key: str, text: str) -> None:
    assert not made_points(key, text)


#: A typed word that is itself a word (of the decks, or an everyday one) is no slip of a point's
#: word a key or two away: "exploration" is not "exploitation", "situation" not "saturation",
#: "chance" not "change". A misspelling that is no word is still forgiven.
REAL_WORDS = [
    (
        "alignment/rlhf-kl-explain",
        "Left alone, the policy drifts into exploration of the reward model's odd corners.",
        [],
        [1],
    ),
    (
        "alignment/rlhf-kl-explain",
        "Left alone, the policy goes in for exploitaton of the reward model's odd corners.",
        [1],
        [],
    ),
    (
        "retrieval-evaluation/bm25-explain",
        "BM25: each occurrence adds a fixed amount, in every situation.",
        [],
        [1],
    ),
    (
        "retrieval-evaluation/bm25-explain",
        "BM25 makes the count saturete, so a word's first few hits count most.",
        [1],
        [],
    ),
    (
        "alignment/ppo-clip-explain",
        "Old-policy data is trusted as long as we limit the policy chance.",
        [],
        [0],
    ),
    (
        "alignment/ppo-clip-explain",
        "Old-policy data is trusted as long as we limit the policy chnage.",
        [0],
        [],
    ),
]

#: A KL's direction said in words ("the forward KL", "mode-seeking", "zero-forcing") against a
#: point that writes its KL with the truth or the model first: the named direction is read,
#: and only the other one is refused.
NAMED_KL = [
    (
        "generative-models/explain-elbo",
        "The ELBO sits below log p(x); the shortfall is exactly the reverse KL between the "
        "encoder's q(z|x) and the true posterior.",
        [1],
        [],
    ),
    (
        "generative-models/explain-elbo",
        "The ELBO sits below log p(x); the shortfall is exactly the forward KL between the "
        "encoder's q(z|x) and the true posterior.",
        [],
        [1],
    ),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "Cross-entropy is the entropy of p plus the reverse KL divergence.",
        [],
        [0],
    ),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "Cross-entropy is the entropy of p plus the KL divergence, the mass-covering one.",
        [0],
        [],
    ),
    (
        "losses/why-cross-entropy",
        "Cross-entropy is the entropy of the true labels plus the zero-forcing KL from the model.",
        [],
        [1],
    ),
    (
        "losses/why-cross-entropy",
        "Minimising cross-entropy is minimising the forward KL, since the entropy term is fixed.",
        [2],
        [],
    ),
    (
        "information-theory/explain-kl",
        "Not the reverse KL but the forward one: under p it punishes q for little mass where p "
        "has a lot, blowing up if q is zero there.",
        [4],
        [],
    ),
    (
        "information-theory/explain-kl",
        "The expectation is under p, so the reverse KL punishes q for little mass where p has a "
        "lot and blows up if q is zero there.",
        [],
        [4],
    ),
]

#: A claim that the model sentence makes on one side of a contrast, said of the member it names
#: on the other side ("... together, *while the L1 term* still zeroes irrelevant ones"): the
#: right subject, or the combination, is still credited.
OTHER_SIDE = [
    (
        "regularization/explain-elastic-net",
        "Under the lasso, correlated features are grouped and enter the model together.",
        [],
        [4],
    ),
    (
        "regularization/explain-elastic-net",
        "With L1 alone, correlated features stay grouped.",
        [],
        [4],
    ),
    (
        "regularization/explain-elastic-net",
        "Ridge and L1 together make correlated features enter or leave as a group.",
        [4],
        [],
    ),
    (
        "regularization/explain-elastic-net",
        "The L1 penalty makes correlated features enter or leave the model as one group.",
        [],
        [4],
    ),
    (
        "probability-statistics/explain-map-mle",
        "The prior is a sum over the examples that grows with n.",
        [],
        [4],
    ),
    (
        "probability-statistics/explain-map-mle",
        "With more data the likelihood grows and dominates the fixed prior, so MAP converges to "
        "the MLE.",
        [4],
        [],
    ),
]

#: "Regardless of X" (also "no matter", "whatever", "independent of") where X is the very
#: quantity the point says something goes with ("per parameter", "grows with its position")
#: contradicts it; of another quantity it is a statement like any other.
REGARDLESS = [
    (
        "inference-cost/explain-where-compute-goes",
        "Each training token costs six FLOPs no matter how many parameters the model has.",
        [],
        [0],
    ),
    (
        "inference-cost/explain-where-compute-goes",
        "Training costs about 6 FLOPs per parameter per token regardless of the batch size.",
        [0],
        [],
    ),
    (
        "inference-cost/explain-where-compute-goes",
        "Serving costs 2N FLOPs per token regardless of how many tokens it saw in training.",
        [3],
        [],
    ),
    (
        "attention-transformers/explain-rope",
        "RoPE rotates each query and key by an angle, whatever the position.",
        [],
        [0],
    ),
    (
        "attention-transformers/explain-rope",
        "RoPE rotates each query and key by an angle that grows with position, regardless of the "
        "head.",
        [0],
        [],
    ),
    (
        "attention-transformers/explain-gqa",
        "The KV cache is the same size regardless of how many KV heads there are, so it shrinks "
        "by h/g.",
        [],
        [2],
    ),
    (
        "attention-transformers/explain-gqa",
        "The KV cache scales with the number of KV heads, so it shrinks by h/g.",
        [2],
        [],
    ),
]

#: A sentence that names its direction alone ("it is the reverse direction that ..."), beside
#: a KL written the point's way in another sentence: the point's words said there are said of
#: the other direction.
DIRECTION_ALONE = [
    (
        "information-theory/explain-kl",
        "D_KL(p||q) is an average under p of log p/q. It is the reverse direction that punishes "
        "q for little mass where p has a lot and blows up where q is zero.",
        [],
        [4],
    ),
    (
        "information-theory/explain-kl",
        "D_KL(p||q) is an average under p of log p/q. It is this direction that punishes q for "
        "little mass where p has a lot and blows up where q is zero.",
        [4],
        [],
    ),
]

#: The subject's claim given to the versus term in a piece of its own, while the subject gets
#: another claim: the two swapped. Said the right way round, the point is made.
SWAPPED_SUBJECTS = [
    (
        "diffusion-flow/sde-vs-ode",
        "The probability-flow ODE removes the full score term, while the SDE takes off half and "
        "adds new noise.",
        [],
        [1],
    ),
    (
        "diffusion-flow/sde-vs-ode",
        "The SDE removes the full score term and adds new noise, while the ODE takes off half.",
        [1],
        [],
    ),
    (
        "alignment/moe-aux-explain",
        "The fractions f_i come from a top-k and have no gradient, while P_i is a smooth softmax "
        "average.",
        [1],
        [],
    ),
]

#: A slip in a word that steers the reading ("insted of", "withuot") is read as that word, so
#: the alternative it rejects is not read as the claim.
MARKER_SLIPS = [
    (
        "attention-transformers/explain-rope",
        "Insted of adding a position embedding, RoPE rotates the query and key by an angle that "
        "grows with position.",
        [0],
        [],
    ),
]

LATER_CASES = [
    *(("real word", *case) for case in REAL_WORDS),
    *(("marker slip", *case) for case in MARKER_SLIPS),
    *(("swapped subjects", *case) for case in SWAPPED_SUBJECTS),
    *(("direction alone", *case) for case in DIRECTION_ALONE),
    *(("regardless", *case) for case in REGARDLESS),
    *(("other side", *case) for case in OTHER_SIDE),
    *(("named kl", *case) for case in NAMED_KL),
]


@pytest.mark.parametrize(
    ("kind", "key", "text", "states", "denies"),
    LATER_CASES,
    ids=[f"{case[0]}:{case[2][:40]}" for case in LATER_CASES],
)
def test_each_later_class_of_non_statement_is_not_credited(
    kind: str, key: str, text: str, states: list[int], denies: list[int]
) -> None:
    assert_points(kind, key, text, states, denies)


@pytest.mark.parametrize(
    ("typed", "meant", "other"),
    [
        ("sample", "simple", True),
        ("situation", "saturation", True),
        ("entrophy", "entropy", False),  # no word: a slip
        ("varience", "variance", False),
        ("gradiant", "gradient", False),
        ("infinity", "infinite", False),  # the same word inflected
        ("centred", "centered", False),  # the same word spelt the British way
    ],
)
def test_a_real_word_is_no_slip_of_another(typed: str, meant: str, other: bool) -> None:
    assert another_word(typed, meant) is other


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("insted of", "instead of"),
        ("withuot noise", "without noise"),
        ("becuase the", "because the"),
        ("regardles of", "regardless of"),
        ("the raters", "the raters"),  # no marker a slip away
        ("however", "however"),
    ],
)
def test_a_slip_of_a_steering_word_is_read_as_it(typed: str, read: str) -> None:
    assert with_markers(typed) == read
