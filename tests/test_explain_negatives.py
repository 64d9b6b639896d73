"""Answers that do not state a point are not credited with it (issue 23, the must-not-credit
side), class by class, on sentences written for these tests (not any corpus's): a list of terms
that relates none of them, ...

Each case names the card, the text, the points it states (must be made) and the points it
does not state or contradicts (must not be). Where a class could be "fixed" by crediting less,
a case beside it states the point properly and must still be made.
"""

from __future__ import annotations

from functools import cache

import pytest

from recall.cards.loader import load_decks
from recall.cards.model import Card, CardKind
from recall.grading.explain import check_explanation
from recall.paths import builtin_decks_dir

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
        "closed form optimum, log-ratio reward, Z(x) cancels out, Bradley-Terry model, "
        "classification loss",
        [],
        [0, 1, 2],
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
    # the other member named as the cause, a step before the point's claim, is no confusion
    (
        "regularization/explain-elastic-net",
        "the L2 term is strictly convex, so correlated features get picked as a group",
        [4],
        [],
    ),
]

CASES = [
    *(("term list", *case) for case in TERM_LISTS),
    *(("attribution", *case) for case in ATTRIBUTION),
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
def test_each_class_of_non_statement_is_not_credited(
    kind: str, key: str, text: str, states: list[int], denies: list[int]
) -> None:
    card = builtin_explain_cards()[key]
    made = {i for i, outcome in enumerate(check_explanation(card, text).outcomes) if outcome.made}
    assert not [i for i in states if i not in made], f"{kind}: stated but not made"
    assert not [i for i in denies if i in made], f"{kind}: not stated but made {made}"
