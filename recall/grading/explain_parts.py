"""Whether a claim is said of a member that the model sentence names only beside another claim.

:mod:`recall.grading.explain_attribution` reads which members of a family of confusable things
(lasso and ridge, prior and posterior, ...) a point's model sentence names, and refuses the
point's words said of another member. It reads the sentence whole, though, and a sentence often
makes two claims on the two sides of a contrast, each of its own subject: "Correlated features
then enter or leave together (grouping), *while the L1 term* still zeroes irrelevant ones" says
the grouping of the elastic net and only the zeroing of L1. A learner who writes "the lasso
keeps correlated features together" names a member the sentence names, and says of it the
other side's claim, which is false: the lasso picks one of them. So is "the prior grows with n"
for "the likelihood grows with n *while the prior* stays fixed".

A phrasing's claim (its last word) is placed on its side of the model sentence (the text parted
at "while", "whereas", "but", ...). Where no member of a family is named on that side or
before it (a subject named before carries on to a claim after it: "RMSNorm does what LayerNorm
does *but* skips the centring") and a later side names one, the part of a learner's clause that
makes the phrasing, with a short opening piece before it ("with the lasso, ..."), must not name
that member without another of its family: "L1 plus L2 keeps them together" names the
combination, and "ridge keeps them together" a member the sentence does not tie to another
claim; both are left to the words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from recall.grading.explain_attribution import FAMILY_STEMS
from recall.grading.explain_words import (
    VERB_FORMS,
    Token,
    entropy_named,
    read_clauses,
)

#: The most words of an opening piece read as the topic of the piece after it ("with the
#: lasso, ...").
_TOPIC_WORDS = 3

#: Words that open the other side of a contrast, which has its subject of its own: "...
#: together, *while* the L1 term still zeroes irrelevant ones".
_CONTRAST = re.compile(r"\b(?:while|whilst|whereas|but|yet|though|although)\b", re.IGNORECASE)

#: A side of a model sentence: the stems of its words.
Side = frozenset[str]


@lru_cache(maxsize=1 << 12)
def _sides(say: str) -> tuple[Side, ...]:
    """The model sentence's sides, in order: its text parted at the words opening a contrast."""
    return tuple(
        frozenset(t.stem for clause in read_clauses(entropy_named(side)) for t in clause)
        for side in _CONTRAST.split(say)
    )


@lru_cache(maxsize=1 << 12)
def _foreign(say: str, claim: frozenset[str]) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """Per family: the stems of the members named only in sides of the model sentence after
    the side holding the claim (that side and those before it name no member: a subject named
    before carries on to a claim after it, "RMSNorm ... but skips the centring"), and the stems
    of the family's other members."""
    sides = _sides(say)
    first = next((k for k, side in enumerate(sides) if side & claim), None)
    if first is None or first == len(sides) - 1:
        return ()
    found = []
    for family in FAMILY_STEMS:
        if any(side & member for side in sides[: first + 1] for member in family):
            continue  # the claim's subject is named before it, or with it
        foreign = [m for m in family if any(side & m for side in sides[first + 1 :])]
        if foreign:
            named = frozenset().union(*foreign)
            found.append((named, frozenset().union(*family) - named))
    return tuple(found)


def said_of_other_part(say: str, claim: Iterable[str], clause: tuple[Token, ...]) -> bool:
    """Whether the part of ``clause`` holding ``claim`` (a phrasing's last stems) names a member
    the model sentence names only beside another claim, and no other member of its family."""
    claim = frozenset(claim)
    families = _foreign(say, claim)
    if not families:
        return False
    pieces = {t.piece for t in clause if t.stem in claim}
    stems = {t.stem for t in clause if t.piece in pieces and not (t.negated or t.foil)}
    for foreign, rest in families:
        topic = _topic(clause, pieces, foreign | rest)
        if (stems | topic) & foreign and not (stems | topic) & rest:
            return True
    return False


def _topic(clause: tuple[Token, ...], pieces: set[int], names: frozenset[str]) -> set[str]:
    """The names in a short opening piece with no verb just before a piece of ``pieces``: the
    topic the claim after it is said of ("with the lasso, correlated features ...", "under L1
    alone, ...")."""
    topic: set[str] = set()
    for piece in pieces:
        words = [t for t in clause if t.piece == piece - 1]
        if len(words) > _TOPIC_WORDS or any(t.word in VERB_FORMS or t.negated for t in words):
            continue
        topic.update(t.stem for t in words if t.stem in names and not t.foil)
    return topic
