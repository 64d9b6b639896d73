"""Slips in the small words that steer a sentence, read as those words.

The matcher forgives a slip in a point's own words ("positon" is "position"), but the words that
decide how the rest is read are matched exactly: "*instaed* of adding a position vector" lost
its "instead of", so the rejected alternative read as the claim ("adds a position vector",
the point's opposite). A typed word that is no word of the decks nor an everyday word
(:func:`recall.grading.explain_lexicon.known_word`) and one slip from one of these markers
(a key off, one left out or doubled, two neighbours swapped; the first letter kept) is read as
the marker before anything else reads the text.
"""

from __future__ import annotations

import re
from functools import lru_cache

from recall.grading.explain_lexicon import known_word
from recall.spelling import edit_distance

#: Words that steer how the words around them are read: rejection, negation, contrast, cause.
MARKERS = (
    "instead",
    "without",
    "because",
    "regardless",
    "although",
    "however",
    "neither",
    "nothing",
    "unless",
    "whereas",
    "irrespective",
    "independent",
    "between",
    "therefore",
)
#: A word that may be a slip of a marker: five letters or more.
_LONG_WORD = re.compile(r"\b[A-Za-z]{5,}\b")


def with_markers(text: str) -> str:
    """``text`` with each slip of a marker written as the marker ("instaed" is "instead")."""
    return _LONG_WORD.sub(lambda m: _marker(m.group()), text)


@lru_cache(maxsize=1 << 14)
def _marker(word: str) -> str:
    """The marker ``word`` is a slip of, or ``word`` itself."""
    low = word.lower()
    if low in MARKERS or known_word(low):
        return word
    for marker in MARKERS:
        if marker[0] == low[0] and edit_distance(marker, low, 1) == 1:
            return marker
    return word
