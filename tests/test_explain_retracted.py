"""A claim a learner reports only to reject it makes no point (issue 23): "people say X, but that
is not true", "the claim that X is false", "that X is simply false", "as for X, no". Each frame
is tried with sentences written for these tests, beside the same claim reported and *endorsed*,
which must still count, and beside a rejection that carries the learner's own point."""

from __future__ import annotations

from functools import cache

import pytest

from recall.cards.loader import load_decks
from recall.cards.model import Card
from recall.grading.explain import check_explanation
from recall.grading.explain_retracted import without_retracted
from recall.paths import builtin_decks_dir

CROSS_ENTROPY = "losses/why-cross-entropy"
MLE, SPLIT, KL, UNBOUNDED, GUARDS = range(5)


@cache
def card(key: str) -> Card:
    return {c.key: c for c in load_decks([builtin_decks_dir()]).cards}[key]


def made(key: str, text: str) -> set[int]:
    return {i for i, o in enumerate(check_explanation(card(key), text).outcomes) if o.made}


@pytest.mark.parametrize(
    ("text", "point"),
    [
        # reported, then rejected in the same sentence or the next
        ("People say minimising it is maximum likelihood, but that is not true.", MLE),
        ("Many think it is plain maximum likelihood; none of that holds here.", MLE),
        ("It's often claimed the loss has no upper bound, but it isn't so.", UNBOUNDED),
        ("You might expect label smoothing to guard against it. Not true.", GUARDS),
        ("Textbooks say minimising it is maximum likelihood. That's wrong.", MLE),
        # a claim as the subject of a verdict
        ("The claim that minimising it is maximum likelihood is false.", MLE),
        ("The usual story about label smoothing guarding against it is a myth.", GUARDS),
        ("Calling its minimum the maximum likelihood is misleading.", MLE),
        # a claim put first as the topic, judged after it
        ("That the loss has no upper bound is simply false.", UNBOUNDED),
        ("Whether label smoothing and clipping guard against it, no, they do nothing.", GUARDS),
        ("As for maximum likelihood, it isn't what minimising it does.", MLE),
        ("The loss being unbounded above, though, is not something I'd accept.", UNBOUNDED),
    ],
)
def test_a_claim_reported_to_be_rejected_makes_no_point(text: str, point: int) -> None:
    assert point not in made(CROSS_ENTROPY, text)


@pytest.mark.parametrize(
    ("text", "point"),
    [
        ("People say minimising it is maximum likelihood, and that is right.", MLE),
        ("Textbooks say minimising it is maximum likelihood. That's exactly it.", MLE),
        ("The idea is that minimising it is maximum likelihood.", MLE),
        ("That is why minimising it is maximum likelihood.", MLE),
        (
            "People say minimising it is maximum likelihood, but it isn't just that: the "
            "entropy term is fixed too.",
            MLE,
        ),
        # the rejection is the learner's own point: it stays and counts
        (
            "You might think H(p) moves in training, but it does not depend on the parameters, "
            "so minimising CE minimises KL(p||q).",
            KL,
        ),
        # a claim of an upper bound rejected: the learner says there is none
        (
            "The claim that it has an upper bound is false: one confident mistake can cost an "
            "unbounded loss and dominate.",
            UNBOUNDED,
        ),
    ],
)
def test_an_endorsed_claim_or_the_learners_own_rejection_still_counts(
    text: str, point: int
) -> None:
    assert point in made(CROSS_ENTROPY, text)


def test_the_blanked_claim_keeps_every_later_offset() -> None:
    text = "People say X is 0.5, but none of that is true. It is 6.9 nats."
    out = without_retracted(text)
    assert len(out) == len(text)
    assert out.endswith("but none of that is true. It is 6.9 nats.")
    assert "X is 0.5" not in out
    assert without_retracted("It is 6.9 nats. Then e.g. 0.5 of it.") == (
        "It is 6.9 nats. Then e.g. 0.5 of it."
    )


@pytest.mark.parametrize(
    ("text", "point", "made_it"),
    [
        # a relation denied says nothing of the relation...
        (
            "Label smoothing and gradient clipping play no part in guarding against it.",
            GUARDS,
            False,
        ),
        (
            "None of the guarding has anything to do with label smoothing or clipping.",
            GUARDS,
            False,
        ),
        ("Label smoothing has no effect on guarding against it, nor does clipping.", GUARDS, False),
        # ...and says independence where that is the point
        (
            "The entropy term has nothing to do with the weights, so minimising cross-entropy "
            "minimises the KL to the data.",
            KL,
            True,
        ),
        (
            "H(p) is unrelated to the parameters, so minimising cross-entropy minimises the KL.",
            KL,
            True,
        ),
    ],
)
def test_a_denied_relation_is_read_as_a_negation(text: str, point: int, made_it: bool) -> None:
    assert (point in made(CROSS_ENTROPY, text)) is made_it


SQRT_DK = "attention-transformers/explain-sqrt-dk"


@pytest.mark.parametrize(
    ("text", "credited"),
    [
        # a negation later in the sentence that is no verdict on the reported claim
        (
            "Many say dividing by sqrt(d_k) brings the logit variance back to one, which isn't "
            "wrong.",
            True,
        ),
        (
            "You might expect large logits to saturate the softmax, and they do: that is not a "
            "problem you can ignore.",
            True,
        ),
        (
            "They say a saturated softmax has near zero Jacobian so gradients vanish, it never "
            "recovers on its own.",
            True,
        ),
        ("As for large logits, they push the softmax towards one-hot, and it can't recover.", True),
        ("Regarding saturation, large logits push the softmax to one-hot; it isn't subtle.", True),
        (
            "That dividing by sqrt(d_k) brings the logit variance back to one is not something "
            "anyone disputes.",
            True,
        ),
        # rejections in other words
        ("The claim that large logits push softmax to one-hot is not really true.", False),
        ("The claim that large logits push softmax to one-hot doesn't hold.", False),
        ("People say large logits push the softmax to one-hot. They're wrong.", False),
        ("People say large logits push the softmax to one-hot. I disagree.", False),
        ("Large logits push the softmax to one-hot, people say, but that's false.", False),
    ],
)
def test_only_a_verdict_on_the_reported_claim_rejects_it(text: str, credited: bool) -> None:
    assert bool(made(SQRT_DK, text)) is credited
