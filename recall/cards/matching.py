"""Matching a typed name against a card's accepted names (reverse cards, word blanks).

Forgiving about form, strict about meaning. Case, accents, spacing, hyphens, punctuation, a
leading article and a generic trailing word (``loss``, ``function``, ...) never matter:
``Mean-Squared Error`` is ``mean squared error loss``. A small typo is forgiven only in longer
names (one edit from 5 characters, two from 10) and only when no *other* listed term is as close:
``MAE`` is never accepted for ``MSE``, and ``LayerNorm`` never for ``RMSNorm``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

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


def is_symbolic(text: str) -> bool:
    """A short answer whose punctuation is its meaning (``-inf``, ``(0, 1)``): matched exactly,
    up to spacing, case and Unicode spellings, never by dropping symbols or forgiving typos."""
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


def typo_allowance(form: str) -> int:
    """Edits forgiven in a name of this length: none below 5 characters (acronyms), one up to 9,
    two from 10."""
    if len(form) < 5:
        return 0
    if len(form) < 10:
        return 1
    return 2


def match_name(answer: str, accepted: Iterable[str], others: Iterable[str] = ()) -> NameMatch:
    """Whether ``answer`` names one of ``accepted``; ``others`` are the other terms a learner
    might confuse it with (the deck's other names), which a typo must not be closer to."""
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
    typed = forms(answer)
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
            allowance = min(typo_allowance(form), max(typo_allowance(t) for t in typed))
            if allowance == 0:
                continue
            distance = min(edit_distance(t, form, allowance) for t in typed)
            if distance <= allowance and (best is None or distance < best[0]):
                best = (distance, term)
    if best is None:
        return NameMatch(False)
    for term in rivals:
        closest = min(edit_distance(t, f, best[0]) for t in typed for f in forms(term))
        if closest <= best[0]:
            return NameMatch(False, clash=term)
    return NameMatch(True, best[1], "typo")
