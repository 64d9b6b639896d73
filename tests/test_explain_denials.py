"""Claims a learner holds up only to deny them make no point (issue 23, the must-not-credit
side; :mod:`recall.grading.explain_denials`), on sentences written for these tests: a claim
reported ("folks claim", "it's often said", "is commonly described as", a statement asked
back) and answered by a reply that opens with a negation or a doubt, however it is worded;
a clause whose subject denies its predicate ("nothing in X lets Y", "none of X keeps Y"); and
a point whose second half the learner rejects after stating its first. Beside each, the claim
endorsed or stated plainly is still credited.
"""

from __future__ import annotations

import pytest

from tests.explain_cases import assert_points

RLHF = "alignment/rlhf-kl-explain"
CE = "losses/why-cross-entropy"
NORMS = "normalization/batchnorm-vs-layernorm"
ACCURACY = "metrics/accuracy-imbalance-explain"
MAP = "probability-statistics/explain-map-mle"

CASES = [
    # reported, then denied in the reply's own words
    (
        RLHF,
        "Folks often claim the KL penalty keeps the policy close to the SFT model; in my "
        "experience none of that really happens.",
        [],
        [2],
    ),
    (
        CE,
        "It's often said that minimising cross-entropy is maximum likelihood; honestly I doubt it.",
        [],
        [0],
    ),
    (
        NORMS,
        "BatchNorm is commonly described as coupling the examples of a batch; I don't buy it.",
        [],
        [1],
    ),
    (NORMS, "BatchNorm couples the examples in a batch? Not in my experience.", [], [1]),
    # endorsed, or said plainly: still the learner's claim
    (
        RLHF,
        "People say the KL penalty keeps the policy close to the SFT model, and that's right.",
        [2],
        [],
    ),
    (CE, "Some say minimising cross-entropy is maximum likelihood, and they are right.", [0], []),
    (
        RLHF,
        "You might think the KL term is just regularisation, but it actually keeps the policy "
        "close to the SFT model.",
        [2],
        [],
    ),
    (
        NORMS,
        "People say BatchNorm couples the examples of a batch, and it does, so it needs a decent "
        "batch size.",
        [1],
        [],
    ),
    (
        CE,
        "As people say, the loss has no upper bound, so one confidently wrong prediction can "
        "dominate.",
        [3],
        [],
    ),
    (
        "alignment/grpo-explain",
        "Many people think dividing by the group's std is harmless; it isn't: it up-weights "
        "prompts that are almost always solved or almost always failed.",
        [4],
        [],
    ),
    # a subject that denies its predicate, however long the clause
    (
        ACCURACY,
        "Nothing in the way accuracy tallies its correct predictions lets the majority class "
        "set the score.",
        [],
        [0],
    ),
    (
        RLHF,
        "None of the pull that the KL penalty exerts keeps the policy close to the SFT model.",
        [],
        [2],
    ),
    # ... but "nothing" stating a point is left alone
    (
        CE,
        "Nothing bounds the loss from above, so a single confidently wrong answer can swamp "
        "the batch.",
        [3],
        [],
    ),
    # the first half stated, the conclusion rejected: the point is not made
    (
        MAP,
        "The log-likelihood keeps growing with n while the prior term stays put. People say "
        "this makes MAP converge to the MLE; I doubt that.",
        [],
        [4],
    ),
    (
        MAP,
        "The log-likelihood keeps growing with n while the prior term stays put, so MAP "
        "converges to the MLE.",
        [4],
        [],
    ),
    # a misconception rejected in the point's own words, then the point: still made
    (
        MAP,
        "Some claim the prior dominates however much data you have; not so: the likelihood sum "
        "grows with n while the prior stays fixed, so MAP converges to the MLE.",
        [4],
        [],
    ),
    (
        "generative-models/explain-elbo",
        "Some say raising the ELBO leaves the likelihood alone; no, it pushes up log p(x) and "
        "shrinks the gap to the true posterior.",
        [3],
        [],
    ),
]


@pytest.mark.parametrize(("key", "text", "states", "denies"), CASES)
def test_a_claim_held_up_to_be_denied_makes_no_point(
    key: str, text: str, states: list[int], denies: list[int]
) -> None:
    assert_points("denial", key, text, states, denies)


#: A purpose denied further on than its head ("so that it never *acts as a* regulariser"), or
#: a necessity denied that the point states as a fact ("does not *have to* check them"): the
#: point is not made. The same step with its purpose stated, or a need the point itself denies
#: ("never need calibrating" beside ranks that are comparable), still is.
PURPOSES = [
    (
        "alignment/grpo-explain",
        "Each reward is standardised within its group, so that the group mean does not serve as "
        "a baseline at all.",
        [],
        [1],
    ),
    (
        "alignment/grpo-explain",
        "Each reward is standardised within its group, and the group mean serves as the baseline.",
        [1],
        [],
    ),
    (
        MAP,
        "The negative log-prior is added to the loss so that it never acts as a regulariser.",
        [],
        [1],
    ),
    (
        MAP,
        "The negative log-prior is added to the loss, where it acts as a regulariser on the MLE "
        "objective.",
        [1],
        [],
    ),
    (
        "optimizers/explain-warmup",
        "The learning rate is ramped up linearly so that the moment estimates never get time to "
        "settle.",
        [],
        [3],
    ),
    (
        "optimizers/explain-warmup",
        "The learning rate is ramped up linearly so that the moment estimates get time to settle.",
        [3],
        [],
    ),
    (
        "inference-cost/explain-inference-regimes",
        "With speculative decoding a small draft proposes tokens so that the big model does not "
        "have to check them.",
        [],
        [5],
    ),
    (
        "inference-cost/explain-inference-regimes",
        "With speculative decoding a small draft proposes tokens and the big model checks them all "
        "in one pass.",
        [5],
        [],
    ),
    (
        "retrieval-evaluation/rrf-explain",
        "RRF keeps only ranks, which are comparable across retrievers, so that raw scores never "
        "need calibrating.",
        [1],
        [],
    ),
]


@pytest.mark.parametrize(("key", "text", "states", "denies"), PURPOSES)
def test_a_purpose_denied_in_the_points_words_makes_no_point(
    key: str, text: str, states: list[int], denies: list[int]
) -> None:
    assert_points("denied purpose", key, text, states, denies)


#: A point about one side of a contrast whose words the text gives mostly to the other side,
#: one fragment of it true by accident ("the SDE ... adds fresh noise"): not made. The sides
#: the right way round still are, and so is the other side's own point beside it.
SIDES = [
    (
        "diffusion-flow/sde-vs-ode",
        "In the probability-flow ODE the full g² score term is subtracted at every step, whereas "
        "the SDE subtracts half of it and adds fresh noise.",
        [],
        [1],
    ),
    (
        "diffusion-flow/sde-vs-ode",
        "In the reverse SDE the whole g² score term is subtracted and fresh noise is added, "
        "whereas the ODE subtracts just half of it.",
        [1, 2],
        [],
    ),
    (
        "alignment/moe-aux-explain",
        "The routing probabilities P_i come from an argmax count, so they carry no gradient, "
        "while f_i is a smooth average.",
        [],
        [1],
    ),
    (
        "alignment/moe-aux-explain",
        "The fractions f_i come from an argmax count, so they carry no gradient, while P_i is a "
        "smooth softmax average.",
        [1],
        [],
    ),
]


@pytest.mark.parametrize(("key", "text", "states", "denies"), SIDES)
def test_a_point_said_of_the_other_side_makes_no_point(
    key: str, text: str, states: list[int], denies: list[int]
) -> None:
    assert_points("other side", key, text, states, denies)


#: A thing named as a clause's subject only to be denied any part ("X plays no part in Y"):
#: a point its words make is not made. A subject that is a clause of its own ("the entropy is
#: fixed and has nothing to do with the weights") states what it says.
NO_PART = [
    (
        "optimizers/explain-warmup",
        "Warmup ramps the rate up linearly at the start. The unreliable second-moment estimate "
        "of the first steps, honestly, plays no part at all in why we warm up.",
        [3],
        [0],
    ),
    (
        "optimizers/explain-warmup",
        "Early on Adam's second-moment estimate rests on very few gradients, so its scaling is "
        "unreliable; warmup waits for it.",
        [0],
        [],
    ),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "Cross-entropy is the entropy plus the KL, and since the entropy of the data is fixed and "
        "has nothing to do with the weights, minimising one minimises the other.",
        [0, 1, 2],
        [],
    ),
]


@pytest.mark.parametrize(("key", "text", "states", "denies"), NO_PART)
def test_a_thing_denied_any_part_makes_no_point(
    key: str, text: str, states: list[int], denies: list[int]
) -> None:
    assert_points("no part", key, text, states, denies)


#: A claim after an opening that denies it ("It is not the case that X"): a point X makes is
#: rejected, even where the next clause says part of it ("GQA cuts ... the KV heads"). The
#: misconception denied and then the point stated still makes it.
REJECTED_THAT = [
    (
        "attention-transformers/explain-gqa",
        "It is not the case that the query heads stay as they are: GQA cuts them along with the "
        "number of distinct KV heads.",
        [],
        [0],
    ),
    (
        "diffusion-flow/flow-matching-explain",
        "Regressing on one pair at a time is convenient, but there is no sense in which that "
        "per-pair loss has the same gradients in expectation as the marginal one.",
        [],
        [2],
    ),
    (
        "diffusion-flow/flow-matching-explain",
        "Regressing on one pair at a time is convenient, and that per-pair loss has the same "
        "gradients in expectation as the marginal one.",
        [2],
        [],
    ),
    (
        "attention-transformers/explain-gqa",
        "It's a myth that GQA trims the query heads; the query heads stay as they are and only "
        "the number of distinct key/value heads is cut.",
        [0],
        [],
    ),
]


@pytest.mark.parametrize(("key", "text", "states", "denies"), REJECTED_THAT)
def test_a_claim_denied_by_its_opening_makes_no_point(
    key: str, text: str, states: list[int], denies: list[int]
) -> None:
    assert_points("rejected that", key, text, states, denies)


#: A sentence that only names terms, one of them a formula or an "=" ("k = 60", "q = p"),
#: states none of them; a terse note of claims with the same formulas still does.
TERM_SENTENCES = [
    (
        "retrieval-evaluation/rrf-explain",
        "fusion, ranks only, 1/(k + rank), k = 60, BM25, dense, hybrid.",
        [],
        [2],
    ),
    (
        "retrieval-evaluation/rrf-explain",
        "Each list adds 1/(k + rank), so a document several lists rank fairly high beats one a "
        "single list puts first.",
        [2],
        [],
    ),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "entropy, KL divergence, q = p, H(p) floor, minimiser, zero loss.",
        [],
        [3, 4],
    ),
    (
        "information-theory/explain-min-ce-is-min-kl",
        "CE = H(p) + KL, H(p) fixed by the data, min CE = min KL, both minimised at q = p, floor "
        "H(p) not 0.",
        [0, 1, 2, 3, 4],
        [],
    ),
]


@pytest.mark.parametrize(("key", "text", "states", "denies"), TERM_SENTENCES)
def test_a_sentence_of_terms_states_none_of_them(
    key: str, text: str, states: list[int], denies: list[int]
) -> None:
    assert_points("terms", key, text, states, denies)
