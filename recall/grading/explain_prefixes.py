"""A word's negative-prefixed twin said where the model sentence says the word.

English makes most opposites of a property by a prefix: *in*tractable and tractable, *un*biased
and biased, *in*dependent and dependent, *im*possible and possible, *non*linear and linear. A
point that says "log p(x) is *intractable*" is contradicted by "log p(x) is a perfectly
*tractable* integral over the latents", which still holds the point's other words ("integral
over the latents"). The hand-made pairs of :mod:`recall.grading.explain_polarity` cannot list
every such word of every deck; the prefix itself says it.

For each word of the model sentence that no negation governs and that carries a negative
prefix before a property of five letters or more ("*in*tractable", "*in*dependent",
"*un*reliable", "*non*linear"), its twin is the word with the prefix taken off; a participle
("unscaled") names a thing as it is and has none, and a word the sentence also says bare has
none either ("the conditional prediction, away from the unconditional one"). Only the prefix
taken off is read, not put on: a learner's "unconditional" often paraphrases a model sentence's
"without the condition", "insensitive" its "far less sensitive". A clause that makes a phrasing
and says a twin, with no negation on it and never the model sentence's own word, says the point
the other way ("its per-coordinate scaling is *reliable*" for "... is unreliable"). "dis" is
left out: "disjoint" and "joint" are not opposites as the decks use them.

The same twins read the other way give credit: a learner who writes "the estimates are *not
reliable*" says "unreliable", and "is*n't* stable" says "unstable". Where a card's phrasings use
a prefixed word, its base negated in the text ("not", "never", "isn't" and the like right
before it) is written as that word before the text is read (:func:`with_prefixed_twins`), so the
phrasing finds it and no negation is left to flip it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from recall.grading.explain_words import Token, read_clauses, stem

#: Negative prefixes ("dis" left out, see above).
_PREFIXES = ("un", "in", "im", "ir", "il", "non")


#: Endings of the adjectives a prefix negates ("tractable", "dependent", "linear", "finite"):
#: a participle ("unscaled") names a thing as it is, not a property its twin denies.
_PROPERTY = re.compile(r"(?:able|ible|ent|ant|ar|al|ive|ic|ite)$")


def _base(word: str) -> str | None:
    """The word with its negative prefix taken off, when the rest is a property of at least
    five letters ("intractable" → "tractable"), or ``None``."""
    for prefix in _PREFIXES:
        rest = word[len(prefix) :]
        if word.startswith(prefix) and rest.isalpha() and len(rest) >= 5 and _PROPERTY.search(rest):
            return rest
    return None


@lru_cache(maxsize=1 << 12)
def _twins(say: str) -> dict[str, str]:
    """The stems of the prefixed twins of the model sentence's words (those it does not say
    itself), each with the stem of its word."""
    own: set[str] = set()
    twins: dict[str, str] = {}
    for clause in read_clauses(say):
        for token in clause:
            own.add(token.stem)
            if token.negated or not token.word.isalpha():
                continue
            base = _base(token.word)
            if base is not None:
                twins[stem(base)] = token.stem
    return {twin: word for twin, word in twins.items() if twin not in own}


def says_twin(say: str, own: frozenset[str], clause: tuple[Token, ...]) -> bool:
    """Whether ``clause`` says the prefixed twin of a word of ``say`` (not negated, not one of
    the phrasing's stems ``own``) and never the word itself."""
    twins = _twins(say)
    if not twins:
        return False
    said = {token.stem for token in clause}
    return any(
        t.stem in twins and not t.negated and t.stem not in own and twins[t.stem] not in said
        for t in clause
    )


#: A negation right before a property: "not reliable", "never finite", "isn't stable".
_NEGATED_PROPERTY = re.compile(
    r"\b(?:not|never|(?:is|are|was|were)n['’]t)\s+([A-Za-z]{5,})\b", re.IGNORECASE
)


def with_prefixed_twins(text: str, phrasings: Iterable[str]) -> str:
    """``text`` with each negated base of a prefixed word of ``phrasings`` written as that word
    ("the estimates are not reliable" → "the estimates are unreliable" where a phrasing says
    "unreliable"); an auxiliary before a contracted negation is kept ("isn't stable" → "is
    unstable")."""
    twins = _prefixed(tuple(phrasings))
    if not twins or _NEGATED_PROPERTY.search(text) is None:
        return text

    def swap(match: re.Match[str]) -> str:
        twin = twins.get(match.group(1).lower())
        if twin is None:
            return match.group()
        negation = match.group()[: match.start(1) - match.start()].strip()
        auxiliary = negation[:-3] + " " if negation[-2:] in ("'t", "’t") else ""
        return auxiliary + twin

    return _NEGATED_PROPERTY.sub(swap, text)


@lru_cache(maxsize=1 << 10)
def _prefixed(phrasings: tuple[str, ...]) -> dict[str, str]:
    """The prefixed words of ``phrasings`` by their bases ("reliable" → "unreliable")."""
    twins: dict[str, str] = {}
    for phrasing in phrasings:
        for word in re.findall(r"[a-z]+", phrasing.lower()):
            base = _base(word)
            if base is not None:
                twins.setdefault(base, word)
    return twins
