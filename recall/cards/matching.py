"""Matching a typed name against a card's accepted names (reverse cards, word blanks).

Forgiving about form, strict about meaning. Case, accents, spacing, hyphens, punctuation, a
leading article and a generic trailing word (``loss``, ``function``, ...) never matter:
``Mean-Squared Error`` is ``mean squared error loss``. A small typo is forgiven only in longer
names (one edit from 5 characters, two from 10) and only when no *other* listed term is as close:
``MAE`` is never accepted for ``MSE``, and ``LayerNorm`` never for ``RMSNorm``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from recall.spelling import edit_distance

#: Characters that carry meaning in a symbolic answer (``-inf``, ``(0, 1]``, ``p - y``).
_SIGNIFICANT = frozenset("-+−–<>=()[]^/*∞≤≥|'")
_SYMBOL_SPELLINGS = {"−": "-", "–": "-", "∞": "inf", "≤": "<=", "≥": ">=", "×": "*", "·": "*"}

#: Words that name the genre rather than the thing ("Huber" and "Huber loss" are one answer).
GENERIC_WORDS = frozenset(
    {
        "loss",
        "function",
        "formula",
        "equation",
        "rule",
        "law",
        "score",
        "metric",
        "method",
        "divergence",
    }
)
#: Word spellings that mean the same thing (after British -isation became -ization).
_WORD_SPELLINGS = {"normalization": "norm", "normalizing": "norm", "normalized": "norm"}
_ARTICLES = ("the ", "a ", "an ")
#: What a head noun of a prompt is also called: "a ▢ prior" is answered "the Laplace
#: distribution" as naturally as "a Laplace prior".
_HEAD_KINDS = {
    "prior": ("distribution",),
    "density": ("distribution",),
    "distribution": ("density",),
    "activation": ("function",),
    "normalisation": ("layer", "normalization"),
    "normalization": ("layer",),
}
#: Where a prompt's noun phrase ends: punctuation, a bracket, a dash between words.
_PHRASE_END = re.compile(r"[.,;:!?()\[\]{}=≈]|\s[—–-]\s")
#: The words that introduce a reverse card's head noun: "Name *this* loss", "which activation".
_DETERMINERS = ("this", "these", "which", "the")
#: Words that end a named phrase: "what does this fraction *measure*", "the method *whose* ...".
_PHRASE_STOPS = frozenset(
    {
        "is",
        "are",
        "was",
        "does",
        "do",
        "measure",
        "estimate",
        "approximates",
        "belong",
        "whose",
        "on",
        "in",
        "for",
        "with",
    }
)


@dataclass(frozen=True)
class NameMatch:
    """The outcome of matching: ``accepted``, which listed term matched, and how
    (``exact`` or ``typo``); ``clash`` names the other listed term that blocked a match."""

    accepted: bool
    matched: str | None = None
    how: str | None = None
    clash: str | None = None


def normalise(text: str) -> str:
    """Lower case, no accents, punctuation and hyphens as spaces, single spaces, no article."""
    decomposed = unicodedata.normalize("NFKD", text)
    chars = []
    for char in decomposed:
        if unicodedata.combining(char):
            continue
        if char == "&":
            chars.append(" and ")
        elif char.isalnum():
            chars.append(char.casefold())
        else:
            chars.append(" ")
    words = " ".join("".join(chars).split())
    for article in _ARTICLES:
        if words.startswith(article) and len(words) > len(article):
            words = words[len(article) :]
            break
    return words


@lru_cache(maxsize=65536)
def is_symbolic(text: str) -> bool:
    """A short answer whose punctuation is its meaning (``-inf``, ``(0, 1)``): matched exactly,
    up to spacing, case and Unicode spellings, never by dropping symbols or forgiving typos.

    (Cached: a name is graded with the deck's every other name, and ``recall decks check``
    grades thousands of names.)"""
    letters = sum(1 for char in text if char.isalnum())
    return letters <= 4 and any(char in _SIGNIFICANT for char in text)


def symbolic_form(text: str) -> str:
    """``−∞`` → ``-inf``; ``( 0 , 1 )`` → ``(0,1)``."""
    text = unicodedata.normalize("NFKC", text)
    for char, spelling in _SYMBOL_SPELLINGS.items():
        text = text.replace(char, spelling)
    return "".join(text.split()).casefold()


def forms(text: str) -> frozenset[str]:
    """Every spelling of ``text`` that counts as the same answer (all without spaces)."""
    words = [_spelling(word) for word in normalise(text).split()]
    if not words:
        return frozenset()
    out = {"".join(words)}
    core = [w for w in words if w not in GENERIC_WORDS]
    if core and core != words:
        out.add("".join(core))
    return frozenset(out)


def _spelling(word: str) -> str:
    word = word.replace("isation", "ization").replace("ising", "izing").replace("ised", "ized")
    word = word.replace("iser", "izer")
    return _WORD_SPELLINGS.get(word, word)


def head_phrases(text: str, *, blank: str = "{{}}") -> tuple[str, ...]:
    """The words a learner may type after the answer because the prompt puts them there.

    A cloze ``text`` with a ``blank``: the phrase right after the blank, and each of its
    beginnings ("a ▢ prior on the weights" gives "prior", "prior on", ... ). Any other prompt
    (a reverse card's): the noun phrase after "this", "these" or "which", and each of its
    endings ("Name this regularised objective." gives "objective" and "regularised objective").
    Each head noun's other names (:data:`_HEAD_KINDS`) count too.
    """
    if blank in text:
        after = _PHRASE_END.split(text.split(blank, 1)[1], maxsplit=1)[0]
        words = normalise_words(after)
        phrases = [words[:end] for end in range(1, len(words) + 1)]
    else:
        words = []
        for sentence in _PHRASE_END.split(text):  # the first sentence that names a thing
            words = words or _named_phrase(normalise_words(sentence))
        phrases = [words[start:] for start in range(len(words))]
    out = {" ".join(phrase) for phrase in phrases if phrase}
    for phrase in list(out):
        for other in _HEAD_KINDS.get(phrase, ()):
            out.add(other)
    return tuple(sorted(out, key=lambda phrase: (len(phrase), phrase)))


def _named_phrase(words: list[str]) -> list[str]:
    """The noun phrase the prompt names: the last one "this", "these" or "which" opens ("this
    is the derivative of which activation" gives "activation"), else the first after "the"
    ("name the quantity on the right-hand side" gives "quantity"); cut at the next
    determiner, verb or preposition."""
    pointed: list[str] = []
    first_the: list[str] = []
    for index, word in enumerate(words):
        if word not in _DETERMINERS:
            continue
        phrase = []
        for following in words[index + 1 :]:
            if following in _DETERMINERS or following in _PHRASE_STOPS:
                break
            phrase.append(following)
        while phrase and phrase[-1] == "of":  # "what is this the size of"
            phrase.pop()
        if phrase and word != "the":
            pointed = phrase
        elif phrase and not first_the:
            first_the = phrase
    return pointed or first_the


def normalise_words(text: str) -> list[str]:
    """:func:`normalise`'s words, keeping a leading article (it is a phrase, not an answer)."""
    decomposed = unicodedata.normalize("NFKD", text)
    chars = [
        char.casefold() if char.isalnum() else " "
        for char in decomposed
        if not unicodedata.combining(char)
    ]
    return "".join(chars).split()


def without_head(answer: str, heads: Iterable[str]) -> list[str]:
    """``answer`` and, for each head phrase it ends with, the answer without it ("a Laplace
    prior" with the head "prior" is also "Laplace"); never an empty answer."""
    words = normalise(answer).split()
    out = [answer]
    for head in heads:
        tail = head.split()
        if len(words) > len(tail) and words[-len(tail) :] == tail:
            out.append(" ".join(words[: -len(tail)]))
    return out


def typo_allowance(form: str) -> int:
    """Edits forgiven in a name of this length: none below 5 characters (acronyms), one up to 9,
    two from 10."""
    if len(form) < 5:
        return 0
    if len(form) < 10:
        return 1
    return 2


def match_name(
    answer: str,
    accepted: Iterable[str],
    others: Iterable[str] = (),
    heads: Iterable[str] = (),
) -> NameMatch:
    """Whether ``answer`` names one of ``accepted``; ``others`` are the other terms a learner
    might confuse it with (the deck's other names), which a typo must not be closer to.
    ``heads`` are words the prompt puts after the answer (:func:`head_phrases`): "a Laplace
    prior" names "Laplace" when the prompt asks for "a ▢ prior"."""
    accepted = list(accepted)
    others = list(others)
    typed_symbolic = symbolic_form(answer)
    for term in accepted:
        if is_symbolic(term) and typed_symbolic == symbolic_form(term):
            return NameMatch(True, term, "exact")
    for term in others:
        if is_symbolic(term) and typed_symbolic == symbolic_form(term) and term not in accepted:
            return NameMatch(False, clash=term)
    accepted = [a for a in accepted if not is_symbolic(a)]
    others = [o for o in others if not is_symbolic(o)]
    variants = without_head(answer, heads)
    typed = frozenset().union(*(forms(text) for text in variants))
    # A typo is judged on the name alone: "the PPO loss" is not one letter off "DPO loss" when
    # "loss" is the prompt's word; only the exact match may use the whole phrase.
    spelled = frozenset().union(*(forms(text) for text in variants[1:])) or typed
    if not typed or is_symbolic(answer) and not accepted:
        return NameMatch(False)
    accepted = [a for a in accepted if forms(a)]
    for term in accepted:
        if typed & forms(term):
            return NameMatch(True, term, "exact")
    accepted_forms = set().union(*(forms(a) for a in accepted)) if accepted else set()
    rivals = [o for o in others if forms(o) and not (forms(o) & accepted_forms)]
    for term in rivals:
        if typed & forms(term):
            return NameMatch(False, clash=term)

    best: tuple[int, str] | None = None
    for term in accepted:
        for form in forms(term):
            allowance = min(typo_allowance(form), max(typo_allowance(t) for t in spelled))
            if allowance == 0:
                continue
            distance = min(edit_distance(t, form, allowance) for t in spelled)
            if distance <= allowance and (best is None or distance < best[0]):
                best = (distance, term)
    if best is None:
        return NameMatch(False)
    for term in rivals:
        closest = min(edit_distance(t, f, best[0]) for t in spelled for f in forms(term))
        if closest <= best[0]:
            return NameMatch(False, clash=term)
    return NameMatch(True, best[1], "typo")
