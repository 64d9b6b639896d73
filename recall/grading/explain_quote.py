"""The learner's own words that made a key point, as the verdict quotes them back.

The matcher finds a point's words after normalising the text (British spellings, opened
abbreviations and contractions) and keeps only the content words it matched, so its evidence
for "It is not bounded above" is the single word "bounded", and for "the entropy of the labels
does not depend on the weights" it is "entropy depend weights". Quoted as they are, those read
as the opposite of what the learner wrote. A learner checks a verdict against what they typed,
so the quote is the shortest stretch of their text that holds every matched word, with a
negation just before it kept in ("not bounded"); a stretch too long to quote, or words that no
longer map back onto the text, fall back to the matched words.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from recall.grading.explain_words import WORD, folded, normalised

#: The longest stretch of the learner's text quoted back; a longer one would restate the
#: whole answer, so the matched words are quoted instead.
MAX_QUOTE = 120
#: A negation this many words before the stretch is part of what it says.
_NEGATION_REACH = 3
_NEGATIONS = frozenset(
    {"not", "no", "never", "nothing", "without", "none", "neither", "nor", "cannot"}
)
_CONTRACTED_NOT = re.compile(r"n['’]?t$", re.IGNORECASE)
_TEXT_WORD = re.compile(r"[^\W_]+(?:[_'’][^\W_]+)*")


def learner_words(text: str, evidence: str) -> str:
    """The stretch of ``text`` that holds every word of ``evidence`` (the matcher's words for
    a point), or ``evidence`` itself when no short stretch does."""
    wanted = Counter(word for word in WORD.findall(evidence) if word != ",")
    if not wanted:
        return evidence
    words = _text_words(text)
    best: tuple[int, int] | None = None
    for first in range(len(words)):
        if not words[first][2] & wanted.keys():
            continue
        end = _cover_from(words, first, wanted)
        if end is None:
            break  # no later start can cover what this one could not
        span = (words[first][0], words[end][1])
        if best is None or span[1] - span[0] < best[1] - best[0]:
            best = span
    if best is None:
        return evidence
    start = _with_negation_before(text, words, best[0])
    quoted = " ".join(text[start : best[1]].split())
    return quoted if len(quoted) <= MAX_QUOTE else evidence


@lru_cache(maxsize=16)
def _text_words(text: str) -> list[tuple[int, int, frozenset[str]]]:
    """Each typed word of ``text``: where it stands and its forms (computed once per text: a
    verdict quotes several points of one text)."""
    return [(m.start(), m.end(), _readings(m.group())) for m in _TEXT_WORD.finditer(text)]


@lru_cache(maxsize=1 << 12)
def _readings(raw: str) -> frozenset[str]:
    """The forms one typed word takes in the matcher's evidence ("colour" is "color", "L2's"
    is "l2", "doesn't" is "does" and "not")."""
    return frozenset(folded(word) for word in WORD.findall(normalised(raw)) if word != ",")


def _cover_from(
    words: list[tuple[int, int, frozenset[str]]], first: int, wanted: Counter[str]
) -> int | None:
    """The index of the first word at or after ``first`` by which every wanted word has been
    seen, or ``None``."""
    missing = Counter(wanted)
    for index in range(first, len(words)):
        for reading in words[index][2]:
            if missing[reading] > 0:
                missing[reading] -= 1
                break
        if not +missing:
            return index
    return None


def _with_negation_before(
    text: str, words: list[tuple[int, int, frozenset[str]]], start: int
) -> int:
    """``start``, moved back to a negation among the few words before it."""
    before = [w for w in words if w[1] <= start][-_NEGATION_REACH:]
    for begin, end, _ in before:
        raw = text[begin:end]
        if raw.lower() in _NEGATIONS or _CONTRACTED_NOT.search(raw):
            return begin
    return start
