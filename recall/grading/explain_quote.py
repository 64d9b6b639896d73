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

from recall.grading.explain_words import NEGATORS, WORD, folded, normalised

#: The longest stretch of the learner's text quoted back; a longer one would restate the
#: whole answer, so the matched words are quoted instead.
MAX_QUOTE = 120
#: A negation this many words before the stretch is part of what it says.
_NEGATION_REACH = 3
#: The negations a quote keeps before its stretch: the reader's own, and "cannot".
_NEGATIONS = NEGATORS | {"cannot"}
_CONTRACTED_NOT = re.compile(r"n['’]?t$", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[.;:?!]")
_TEXT_WORD = re.compile(r"[^\W_]+(?:[_'’][^\W_]+)*")


def learner_words(text: str, evidence: str) -> str:
    """The stretch of ``text`` that holds every word of ``evidence`` (the matcher's words for
    a point), or ``evidence`` itself when no short stretch does."""
    wanted = Counter(word for word in WORD.findall(evidence) if word != ",")
    if not wanted:
        return evidence
    words = _text_words(text)
    best = _shortest_cover(words, wanted)
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


def _shortest_cover(
    words: list[tuple[int, int, frozenset[str]]], wanted: Counter[str]
) -> tuple[int, int] | None:
    """The character span of the shortest run of ``words`` that holds every wanted word as
    often as wanted, or ``None``: one pass with two ends (each typed word counts as the first
    of its forms that is wanted), so a long text costs time in proportion to its length."""
    labels = [next((r for r in sorted(w[2]) if r in wanted), None) for w in words]
    have: Counter[str] = Counter()
    short = len(wanted)  # wanted words not yet held often enough
    best: tuple[int, int] | None = None
    first = 0
    for last, label in enumerate(labels):
        if label is None:
            continue
        have[label] += 1
        short -= have[label] == wanted[label]
        while short == 0:
            head = labels[first]
            if head is not None:
                span = (words[first][0], words[last][1])
                if best is None or span[1] - span[0] < best[1] - best[0]:
                    best = span
                have[head] -= 1
                short += have[head] == wanted[head] - 1
            first += 1
    return best


def _with_negation_before(
    text: str, words: list[tuple[int, int, frozenset[str]]], start: int
) -> int:
    """``start``, moved back to a negation among the few words before it in its own clause
    (never across a full stop, colon, semicolon or question mark: "Bounded? No. Label
    smoothing ..." quotes no "No")."""
    before = [w for w in words if w[1] <= start][-_NEGATION_REACH:]
    for begin, end, _ in before:
        if _CLAUSE_END.search(text, begin, start):
            continue
        raw = text[begin:end]
        if raw.lower() in _NEGATIONS or _CONTRACTED_NOT.search(raw):
            return begin
    return start
