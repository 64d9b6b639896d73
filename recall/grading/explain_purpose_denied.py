"""A purpose denied in any of its words, not only its head.

:mod:`recall.grading.explain_purpose` reads a denied purpose by its head, the first word past
the negation's auxiliaries, and only against what the model sentence says its step leads to.
Learners deny a purpose with the point's words further on ("so that it does NOT *act as a*
baseline" for "... so the group mean is the baseline", "so that the estimates do NOT get
*time to settle*"), deny a necessity the point asserts as a fact ("so that the big model does
NOT *have to check* the proposed tokens" where the big model checks them), or deny a purpose of
a model sentence that has no "so"/"to" to split it ("so that it does NOT act as a regulariser"
for "the MLE objective plus a regulariser").

Here every content word a purpose's negation governs (up to five, past auxiliaries and "have
to") is set against the words the model sentence asserts: those after its "so", "to", "which"
when it has one, else all of them, with no negation or "stop" before them. A clause that holds
such a word denies the point. What guards the head-only reading guards this one too: a model
sentence naming a harm ("gradients vanish") is left alone, since a purpose that keeps the harm
away is its point; and a word the model sentence itself denies ("no calibration") is no
assertion, so "so that raw scores never need calibrating" still agrees with it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from recall.grading.explain_dismissed import names_harm
from recall.grading.explain_purpose import DENIED_PURPOSE, asserted_result
from recall.grading.explain_words import (
    SMALL_WORDS,
    Token,
    folded,
    normalised,
    stem,
)

#: Whether the text holds a purpose clause at all, read on the raw text.
_PURPOSE = re.compile(r"\b(?:so|order)\s+that\b", re.IGNORECASE)
#: Words a purpose's negation passes over to reach what it denies.
_PASSED = frozenset(
    """be is are was were been being become becomes became get gets got end ends ended up to
    going really actually even always just a an the have has had need needs needed at all""".split()
)


@lru_cache(maxsize=1 << 12)
def _denied_words(text: str) -> frozenset[str]:
    """The stems of the words the text's purposes deny."""
    denied = set()
    for match in DENIED_PURPOSE.finditer(normalised(text)):
        for word in (folded(w) for w in match.group(1).split()):
            if word not in _PASSED and word not in SMALL_WORDS:
                denied.add(stem(word))
    return frozenset(denied)


def denies_purpose_words(say: str, text: str, clause: tuple[Token, ...]) -> bool:
    """Whether ``clause`` of ``text`` holds a word a denied purpose governs that the model
    sentence ``say`` asserts."""
    if _PURPOSE.search(text) is None or names_harm(say):
        return False  # no purpose clause: the common case, read without normalising
    denied = _denied_words(text) & asserted_result(say, whole_without_turn=True)
    return any(token.stem in denied and token.negated for token in clause)
