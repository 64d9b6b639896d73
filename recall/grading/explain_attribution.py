"""Whether a clause of a learner's text says a point of the wrong thing.

Some things the decks speak of come in families that learners mix up: BatchNorm and LayerNorm,
prefill and decode, the prior and the posterior, the entropy, the cross-entropy and the KL. A
point's model sentence (``say``) names the member its claim is about ("*BatchNorm* behaves
differently at train and test time"); a learner who writes the same claim of another member
("*LayerNorm* is the one that swaps in running averages") uses the point's words and says
something false. This module knows those families (:data:`FAMILIES`), reads once which members a
point names, and tells :mod:`recall.grading.explain` when the part of a clause that made a
phrasing names another member of a family and not all of the point's own.

A family counts only when the model sentence names some of its members and not all of them
(a point about the contrast itself, "BatchNorm over the batch, LayerNorm over the features",
is left to its ``subject``/``versus``). A member a negation governs, or named as the foil of a
comparison ("unlike LayerNorm"), is no attribution.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from recall.grading.explain_words import (
    Token,
    entropy_named,
    folded,
    normalised,
    read_clauses,
    stem,
)

#: Families of things learners confuse, one member a string of the words that name it. Words
#: that are also everyday words ("key", "value", "simple", "first") are left out: they would
#: read an attribution into a sentence that makes none.
FAMILIES: tuple[tuple[str, ...], ...] = (
    ("batchnorm", "layernorm", "rmsnorm", "groupnorm"),
    ("prefill", "decode decoding"),
    ("prior", "posterior"),
    ("generator", "discriminator critic"),
    # the cross-entropy is the entropy plus the KL: naming the KL beside it is no confusion
    ("entropy", "crossentropy"),
    ("entropy", "kl"),
    ("mqa", "gqa", "mha", "mla"),
    ("ppo", "trpo", "grpo", "dpo"),
    ("gaussian", "laplace laplacian"),
    ("bm25", "rrf"),
    ("lasso l1", "ridge l2"),
    ("ode", "sde"),
    ("mse", "mae"),
    ("roc", "pr"),
    ("fid", "inceptionscore"),
    ("queries query", "values"),
    # "accuracy is the same as recall": metrics of a classifier that are not one another
    ("accuracy", "precision", "recall"),
    # what the KL penalty keeps close and what is exploited: a name of two words is written as
    # one ("reward model" is read as the pair of words in a row, :func:`_names`)
    ("policy", "rewardmodel"),
)
#: Names of two words, read where the two stand in a row ("the *reward model* drifts").
_PAIRED_NAMES = frozenset({("reward", "model")})


def _stems(words: str) -> frozenset[str]:
    return frozenset(stem(folded(w)) for w in normalised(words).split())


#: Each family as its members, each member the stems of the words that name it.
FAMILY_STEMS: tuple[tuple[frozenset[str], ...], ...] = tuple(
    tuple(_stems(member) for member in family) for family in FAMILIES
)


@dataclass(frozen=True)
class Attribution:
    """The members a point's model sentence names, per family it names some of: the stems of
    its own members and of the others."""

    families: tuple[tuple[tuple[frozenset[str], ...], frozenset[str]], ...]

    def misattributes(self, clause: Sequence[Token], among: Sequence[bool]) -> bool:
        """Whether the words of ``clause`` that ``among`` allows name another member of a
        family the point names and not every one of the point's own members of it ("RMSNorm
        is *BatchNorm* without the centring" for "RMSNorm is LayerNorm without the
        centring")."""
        stems = _names(clause, among)
        named = _names(clause, among, said=True)
        return any(
            named & others and any(not stems & member for member in own)
            for own, others in self.families
        )


def _names(clause: Sequence[Token], among: Sequence[bool], *, said: bool = False) -> set[str]:
    """The stems of the words of ``clause`` that ``among`` allows, and the names of two words
    standing in a row among them (:data:`_PAIRED_NAMES`, as one word: "rewardmodel"); with
    ``said``, only words no negation governs and no foil marker precedes."""
    names = set()
    for i, (token, allowed) in enumerate(zip(clause, among, strict=True)):
        if not allowed or (said and (token.negated or token.foil)):
            continue
        names.add(token.stem)
        if i + 1 < len(clause) and (token.word, clause[i + 1].word) in _PAIRED_NAMES:
            names.add(token.word + clause[i + 1].word)
    return names


@lru_cache(maxsize=1 << 12)
def attribution(say: str) -> Attribution:
    """The families the model sentence ``say`` names some members of, and which ("H(p)" names
    the entropy)."""
    said = entropy_named(say)
    stems = {name for clause in read_clauses(said) for name in _names(clause, [True] * len(clause))}
    # a name of two words shares a word with a sentence that speaks of "reward": naming the
    # reward model there is no confusion ("maximising reward lets the policy exploit it")
    spoken = {pair[0] + pair[1] for pair in _PAIRED_NAMES if stem(pair[0]) in stems}
    families = []
    for family in FAMILY_STEMS:
        own = [member for member in family if member & stems]
        if own and len(own) < len(family):
            others = frozenset().union(*(m for m in family if m not in own))
            others -= frozenset().union(*own) | spoken
            if others:
                families.append((tuple(own), others))
    return Attribution(tuple(families))


@lru_cache(maxsize=1 << 12)
def named_members(say: str) -> tuple[str, ...]:
    """The members of one family that the model sentence ``say`` names in parts of their own,
    two or more (each as its words joined by ``|``), or ``()``: "GQA makes groups of query
    heads share one key/value pair; MQA is the extreme with a single K/V head" says one thing of
    GQA and another of MQA. Members named in one part ("GRPO drops PPO's value network", "the
    entropy plus the KL") are not said to do different things."""
    parts: list[set[str]] = []
    for clause in read_clauses(say):
        for piece in sorted({t.piece for t in clause}):
            parts.append(_names(clause, [t.piece == piece for t in clause]))
    for family, words in zip(FAMILY_STEMS, FAMILIES, strict=True):
        if "entropy" in words:
            continue  # parts of one sum ("the entropy ..., so ... the KL"), not rivals
        owners = [[k for k, member in enumerate(family) if member & part] for part in parts]
        alone = {found[0] for found in owners if len(found) == 1}
        if len(alone) >= 2 and all(len(found) <= 1 for found in owners):
            return tuple("|".join(words[k].split()) for k in sorted(alone))
    return ()
