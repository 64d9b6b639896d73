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
)


def _stems(words: str) -> frozenset[str]:
    return frozenset(stem(folded(w)) for w in normalised(words).split())


_FAMILIES: tuple[tuple[frozenset[str], ...], ...] = tuple(
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
        stems = {t.stem for t, allowed in zip(clause, among, strict=True) if allowed}
        named = {
            t.stem
            for t, allowed in zip(clause, among, strict=True)
            if allowed and not t.negated and not t.foil
        }
        return any(
            named & others and any(not stems & member for member in own)
            for own, others in self.families
        )


@lru_cache(maxsize=1 << 12)
def attribution(say: str) -> Attribution:
    """The families the model sentence ``say`` names some members of, and which ("H(p)" names
    the entropy)."""
    stems = {token.stem for clause in read_clauses(entropy_named(say)) for token in clause}
    families = []
    for family in _FAMILIES:
        own = [member for member in family if member & stems]
        if own and len(own) < len(family):
            others = frozenset().union(*(m for m in family if m not in own))
            families.append((tuple(own), others - frozenset().union(*own)))
    return Attribution(tuple(families))
