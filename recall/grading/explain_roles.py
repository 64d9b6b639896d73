"""Who does what in a point's own model sentence, and a clause that hands the roles round.

Many points say something of two things that learners swap: "GQA makes groups of query heads
share one key/value pair; *MQA* is the extreme with a *single* K/V head", "the original paper
*clipped weights*; WGAN-GP *penalises the gradient norm*". A learner who writes the same words
with the things exchanged ("MQA is the grouped version, while GQA uses a single K/V head") uses
every word of the point and says something false. The card-level roles of
:mod:`recall.grading.explain` only read points on cards that declare contrast terms; this module
reads the terms a model sentence itself names (the members of the families of
:mod:`recall.grading.explain_attribution`, and pairs a sentence sets against each other such as
the forward and backward pass, the hard and the smoothed target), and which of them each other
word of the sentence is said of: the doer that opens its comma-parted part of the clause. A word
said in a part no term opens, or of both terms, tells nothing and is left out; so is a sentence
with one doer ("GRPO drops *PPO's* value network", "the backward costs *twice the forward*"):
a term only measured against or possessed hands out no role.

A clause of the learner's text that says a phrasing's words only of another of those terms than
the model sentence does (each word of the term named nearest before it in its part), and none of
them of the same one, swaps the roles: it makes no point. A phrasing that names one of the terms
("mqa single kv") is said of that one. Figures and formula symbols are no roles ("Bradley–Terry
σ(s_A − s_B) with s = R·ln10/400" restates Elo's scale); a single named thing said of the wrong
member is :mod:`recall.grading.explain_attribution`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from recall.grading.explain_attribution import FAMILIES
from recall.grading.explain_words import Token, folded, normalised, read_clauses, stem

#: Pairs of roles a model sentence sets against each other besides the families of confusable
#: things: the two passes, the two models of speculative decoding, encoder and decoder.
PAIRS: tuple[tuple[str, ...], ...] = (
    ("forward", "backward"),
    ("draft", "target"),
    ("encoder", "decoder"),
    ("hard onehot", "smoothed soft"),
    ("elo", "bradley"),
    ("bias", "variance"),
    ("teacher", "student"),
    ("precision", "recall"),
    ("numerator", "denominator"),
)


#: The families of confusable things, less those whose members are parts of one whole: the
#: cross-entropy *is* the entropy plus the KL, so a sentence naming two of them composes, it
#: hands out no roles.
_ROLE_FAMILIES = tuple(family for family in FAMILIES if "entropy" not in family)


def _stems(words: str) -> frozenset[str]:
    return frozenset(stem(folded(w)) for w in normalised(words).split())


_GROUPS: tuple[tuple[frozenset[str], ...], ...] = tuple(
    tuple(_stems(member) for member in group) for group in _ROLE_FAMILIES + PAIRS
)


def _mention(token: Token, terms: Sequence[frozenset[str]]) -> int | None:
    if token.bracketed:
        return None  # a formula's argument, "(x_0, ε)", is no mention
    return next((k for k, term in enumerate(terms) if token.stem in term), None)


#: Words after which a term is what another is measured against, not a doer: "the backward
#: costs *twice the* forward because it computes ...", "does *what* LayerNorm does".
_MEASURED_AGAINST = frozenset("twice times double half like unlike than what as versus".split())


def _owners(
    clause: tuple[Token, ...], terms: Sequence[frozenset[str]], *, subjects: bool = False
) -> list[int | None]:
    """Which term each word of the clause is said of: the doer named nearest before it in its
    comma-parted piece, else none (a term named in another piece, or in the sentence before,
    may be the subject or only a term compared with). A term named right after another and
    "is" names the first again ("MQA is GQA with one group"); a term measured against ("twice
    the forward", "unlike MQA") is no doer. With ``subjects`` (a model sentence, read
    strictly), only a term opening its piece is a doer: "GRPO drops *PPO's* value network"
    says nothing of PPO's own."""
    owned: list[int | None] = []
    doer: int | None = None
    previous: int | None = None
    for i, token in enumerate(clause):
        if i and token.piece != clause[i - 1].piece:
            doer = None
        named = _mention(token, terms)
        if named is not None and token.copula and previous is not None:
            named = None
        previous = named
        opens = not i or clause[i - 1].piece != token.piece
        if named is not None and not token.foil and not _measured(clause, i):
            if opens or not subjects:
                doer = named
        owned.append(doer)
    return owned


def _measured(clause: tuple[Token, ...], i: int) -> bool:
    """Whether the term at ``i`` follows a word it is measured against, within two words."""
    return any(t.word in _MEASURED_AGAINST for t in clause[max(0, i - 2) : i])


def _worded(token: Token) -> bool:
    """Whether the token is a word, not a figure or a symbol of a formula ("400", "s_A"): a
    formula written after a term ("Bradley–Terry σ(s_A − s_B) with s = R·ln10/400") may
    restate the other's, so its symbols hand out no roles."""
    return len(token.word) > 2 and token.word.isalpha()


@dataclass(frozen=True)
class SaidOf:
    """The terms a model sentence names (two or more) and which of them it says each of its
    other words of."""

    terms: tuple[frozenset[str], ...]
    said_of: dict[str, int]

    def swapped(self, own: frozenset[str], clause: tuple[Token, ...]) -> bool:
        """Whether the clause says words of ``own`` (a phrasing's stems) only of other terms
        than the model sentence does: some clash and none agree."""
        owned = _owners(clause, self.terms)
        found: dict[str, set[int]] = {}
        for token, owner in zip(clause, owned, strict=True):
            if token.stem in own and token.stem in self.said_of and owner is not None:
                if _mention(token, self.terms) is None and _worded(token):
                    found.setdefault(token.stem, set()).add(owner)
        # a word said of both terms ("K/V" in "several K/V heads, while GQA uses a single K/V
        # head") tells nothing of who does what
        told = {s: owners.pop() for s, owners in found.items() if len(owners) == 1}
        # a phrasing that names one of the terms is said of that one ("mqa all share")
        bound = {k for k, term in enumerate(self.terms) if term & own}
        if len(bound) == 1:
            (which,) = bound
            owed = dict.fromkeys(told, which)
        else:
            owed = self.said_of
        agree = any(owed[s] == owner for s, owner in told.items())
        clash = any(owed[s] != owner for s, owner in told.items())
        return clash and not agree


@lru_cache(maxsize=1 << 12)
def said_of(say: str) -> SaidOf | None:
    """Who does what in the model sentence ``say``, or ``None`` when it names fewer than two
    terms of one family or pair (nothing to swap)."""
    clauses = list(read_clauses(say))
    stems = {token.stem for clause in clauses for token in clause}
    terms: tuple[frozenset[str], ...] = ()
    for group in _GROUPS:
        named = tuple(member for member in group if member & stems)
        if len(named) >= 2:
            terms = named
            break
    if not terms:
        return None
    said: dict[str, int] = {}
    mixed: set[str] = set()
    for clause in clauses:
        owned = _owners(clause, terms, subjects=True)
        for token, owner in zip(clause, owned, strict=True):
            if _mention(token, terms) is not None:
                continue
            if owner is None or said.get(token.stem, owner) != owner:
                mixed.add(token.stem)  # said of no term, or of both: it tells nothing
            else:
                said[token.stem] = owner
    said = {s: o for s, o in said.items() if s not in mixed}
    if len(set(said.values())) < 2:
        return None  # one doer, the other only named: nothing handed round
    return SaidOf(terms, said)
