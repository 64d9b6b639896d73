"""A sentence that only names terms states nothing, whatever signs stand inside its terms.

The clause reader's list rule (:func:`recall.grading.explain_words.read_clauses`) reads a run
of short comma-parted items with no verb or relating sign as a list of terms. A sign inside one
item ("k = 60", "1/(k + rank)", "q = p") lets the run through, so a list such as "RRF, k = 60,
ranks, 1/(k + rank), hybrid, BM25." makes the points its formula or its "=" happens to match.
Read as a whole sentence the shape is plain: five or more comma-parted items, most of them bare
terms of three words or fewer, none with a verb, a subject pronoun ("..., it loses its
fluency"), a negation or an arrow. What the matcher found only inside such a sentence is no
statement of the learner's. A terse note of claims ("CE = H(p) + KL, H(p) const, min CE = min
KL, q = p") has few bare terms and stays a statement.
"""

from __future__ import annotations

import re
from functools import lru_cache

from recall.grading.explain_words import (
    NEGATORS,
    STATING_WORDS,
    SUBJECT_PRONOUNS,
    VERB_FORMS,
    folded,
    normalised,
)

#: Fewest items in a sentence of terms.
_ITEMS = 5
#: A sentence: up to a full stop, "!" or "?" before a space or the end, a semicolon or a line.
_SENTENCE = re.compile(r"(?:[^.!?;\n]|[.!?](?=\S))+")
#: Commas that part items: not inside brackets ("C(n, k)").
_ITEM_COMMA = re.compile(r",(?![^()]*\))")
#: Letters of a word.
_LETTERS = re.compile(r"[^\W\d_]+")
#: What relates inside an item: an arrow or a comparison.
_RELATING = re.compile(r"->|=>|→|⇒|<|>|≤|≥")
#: What makes an item more than a bare term: a sign or a bracket.
_SIGNED = re.compile(r"[=+/^()−*·]|\s-\s")


@lru_cache(maxsize=1 << 12)
def term_sentences(text: str) -> tuple[str, ...]:
    """The sentences of ``text`` that only name terms, as written."""
    return tuple(s for s in (m.group() for m in _SENTENCE.finditer(text)) if _names_terms(s))


def _names_terms(sentence: str) -> bool:
    body = sentence.split(":", 1)[-1] if sentence.count(":") == 1 else sentence
    items = [i.strip() for i in _ITEM_COMMA.split(body) if i.strip()]
    if len(items) < _ITEMS:
        return False
    bare = 0
    for item in items:
        words = [folded(w) for w in _LETTERS.findall(item)]
        if _RELATING.search(item) or any(
            w in VERB_FORMS or w in STATING_WORDS or w in NEGATORS or w in SUBJECT_PRONOUNS
            for w in words
        ):
            return False
        bare += len(words) <= 3 and _SIGNED.search(item) is None
    return 2 * bare > len(items)


def only_in_terms(text: str, evidence: str) -> bool:
    """Whether the words of ``evidence`` stand together only in sentences of ``text`` that
    name terms: in one of them, and in no other sentence."""
    listed = term_sentences(text)
    if not listed:
        return False
    wanted = set(_words(evidence))
    if not any(wanted <= set(_words(s)) for s in listed):
        return False
    rest = text
    for sentence in listed:
        rest = rest.replace(sentence, " ")
    return not wanted <= set(_words(rest))


def _words(text: str) -> list[str]:
    return [folded(w) for w in re.findall(r"[^\W_]+", normalised(text))]
