"""Slips in the small words that carry a sentence's structure, mended before the text is read.

A point's own words forgive a slip (explain.py reads "rotats" as "rotates"), but the words that
say how a sentence hangs together are read by their exact spelling: "instead of", "without",
"because", "whereas". Typed with a slip they are unknown words, and the structure they carry is
lost: "rope rotats q and k ..., *insted* of adding a positon vector" then reads as a text that
says RoPE *adds* a position vector, the opposite of the point. So a word one slip away from one
of these (a letter dropped, added or changed, or two neighbours swapped, never the first
letter) is read as it. The slips are listed once (a few thousand spellings), so mending a text
is one look-up a word.
"""

from __future__ import annotations

import re
import string
from functools import cache

#: The structure words mended: each long enough that no other English word is one slip away.
STRUCTURE_WORDS = (
    "instead",
    "without",
    "because",
    "between",
    "whereas",
    "although",
    "regardless",
    "therefore",
)
_WORD = re.compile(r"\b[A-Za-z]{6,11}\b")


def mended_structure_words(text: str) -> str:
    """``text`` with each slip of a :data:`STRUCTURE_WORDS` word written as the word."""
    slips = _slips()
    return _WORD.sub(lambda m: slips.get(m.group().lower(), m.group()), text)


@cache
def _slips() -> dict[str, str]:
    """Every spelling one slip from a structure word, keeping its first letter."""
    slips: dict[str, str] = {}
    for word in STRUCTURE_WORDS:
        for slip in _one_slip(word):
            if slip != word and slip[0] == word[0]:
                slips[slip] = word
    return slips


def _one_slip(word: str) -> set[str]:
    letters = string.ascii_lowercase
    cuts = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    dropped = {a + b[1:] for a, b in cuts if b}
    swapped = {a + b[1] + b[0] + b[2:] for a, b in cuts if len(b) > 1}
    changed = {a + c + b[1:] for a, b in cuts if b for c in letters}
    added = {a + c + b for a, b in cuts for c in letters}
    return dropped | swapped | changed | added
