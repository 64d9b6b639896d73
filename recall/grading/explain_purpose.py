"""A purpose the learner denies: "X is done *so that* the result is *not* Y".

A point often says what a step is for ("dividing by 1 − β^t rescales each to an *unbiased*
estimate", "RRF uses only ranks, which are *comparable* across retrievers"). A learner who names
the step and then denies its purpose ("you divide by 1 − β^t so that the estimates do *not*
become unbiased", "it uses only ranks so that the outputs do *not* become comparable") says the
point's words and its opposite: the step alone (the phrasing "divide by 1 − β^t") would still
make the point, the negation reaching only the purpose.

A purpose clause ("so that", "in order that") whose negation governs a word the point's model
sentence asserts (said there with no negation before it) denies the point: the clause that
holds it makes none of the point's phrasings. Only the purpose's head is read, the first word
after the negation past "be", "become", "have to", "end up" and the like: a purpose that keeps
something from going wrong ("so that the softmax does not *saturate*", "so that tiny updates
are not *lost*") names the harm it avoids, which a model sentence asserts only as the harm
("a saturated softmax has a near-zero Jacobian") and which no phrasing of a point about the
step claims, so it is read as the point says it, a step and what it prevents.
"""

from __future__ import annotations

import re
from functools import lru_cache

from recall.grading.explain_dismissed import names_harm
from recall.grading.explain_words import Token, folded, normalised, read_clauses, stem

#: A purpose clause, then up to six words (no comma, full stop or "but") before its negation,
#: and the words after it: "so that the estimates do NOT become unbiased".
DENIED_PURPOSE = re.compile(
    r"\b(?:so\s+that|in\s+order\s+that)\s+"
    r"(?:(?!but\b)[^\s,.;:!?]+\s+){1,6}?"
    r"(?:not|never)\s+((?:[^\s,.;:!?]+\s*){1,5})"
)

#: Words between a purpose's negation and its head: "are not *going to* be", "do NOT *end up*
#: cheaper", "do not *become* unbiased".
_AUXILIARIES = frozenset(
    """be is are was were been being become becomes became get gets got end ends ended up
    to going really actually even always just a an the""".split()
)

#: A denied necessity is no denied purpose: "so that the scores do not *have to* be comparable"
#: says they need not be, which a correct explanation may well say.
_NECESSITY = frozenset("have has had need needs needed necessarily".split())


@lru_cache(maxsize=1 << 12)
def _denied_heads(text: str) -> frozenset[str]:
    """The stems of the heads of the text's denied purposes."""
    heads = set()
    for match in DENIED_PURPOSE.finditer(normalised(text)):
        words = [folded(w) for w in match.group(1).split()]
        head = next((w for w in words if w not in _AUXILIARIES), None)
        if head is not None and head not in _NECESSITY:
            heads.add(stem(head))
    return frozenset(heads)


#: Where a model sentence turns from the step to what it is for or leads to: "rescales each
#: *to* an unbiased estimate", "ranks, *which* are comparable", "*so* logits stop growing".
#: Not "to [1 − ε, 1 + ε]" (a range) nor "that far" (a degree).
_RESULT = re.compile(
    r"\b(?:so|which|hence|thus|therefore|to(?!\s*[\[(\d−-])"
    r"|that(?!\s+(?:far|much|many|big|large|small|long|high|low)\b))\b"
)

#: Words that deny the word after them: "logits *stop* growing" does not assert growing.
_PRIVATIVE = frozenset("stop stops stopped cannot prevent prevents avoid avoids".split())


@lru_cache(maxsize=1 << 12)
def asserted_result(say: str, *, whole_without_turn: bool = False) -> frozenset[str]:
    """The stems the model sentence asserts as what its step is for or leads to: said after
    its first "to", "so", "which" and the like, with no negation or "stop" before them. A
    word said before that ("the original paper *clipped* weights to enforce it") is the step
    itself, or a condition ("once it has *moved* that far"), which a learner may well say is
    not needed. A sentence with no such turn asserts nothing, or with ``whole_without_turn``
    all it says."""
    written = normalised(say)
    found = _RESULT.search(written)
    if found is None and not whole_without_turn:
        return frozenset()
    asserted = set()
    for clause in read_clauses(written[found.end() :] if found else written):
        for before, token in zip((None, *clause), clause, strict=False):
            if not token.negated and (before is None or before.word not in _PRIVATIVE):
                asserted.add(token.stem)
    return frozenset(asserted)


def denies_purpose(say: str, text: str, clause: tuple[Token, ...]) -> bool:
    """Whether ``clause`` of ``text`` holds the head of a denied purpose ("so that the
    estimates do not become *unbiased*") that the model sentence ``say`` asserts."""
    if "that" not in text or names_harm(say):
        # no purpose clause (the common case, read without normalising), or a model sentence
        # naming a harm: "so that the gradients do not vanish" is its point, from the other end
        return False
    heads = _denied_heads(text) & asserted_result(say)
    return any(token.stem in heads for token in clause)
