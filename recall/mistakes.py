"""The kinds of mistake the graders tell apart, in the words a learner reads them.

A diagnosis carries a stable ``kind`` (``partial-domain``, ``confused``, ``missing-term``, see
:class:`recall.formula.Diagnosis` and :class:`recall.formula.Part`) because the review log and
the statistics count by it; that key is for the program. Wherever mistakes are *shown* (the
session summary, the stats screen, ``recall stats``), they are said with :func:`mistake_words`.
JSON output keeps the keys, for scripts.

Standard library only: the screens import it before the engine is loaded.
"""

from __future__ import annotations

__all__ = ["MISSED_POINT", "MISTAKE_WORDS", "counts_as_mistake", "mistake_words"]

#: The kind recorded when a checked explanation leaves a key point out (even one that passed).
MISSED_POINT = "missed-point"

#: Every kind a grader can record, and how the learner reads it.
MISTAKE_WORDS: dict[str, str] = {
    "sign": "wrong sign",
    "factor": "off by a factor",
    "additive": "off by an added constant",
    "reciprocal": "upside down (the reciprocal)",
    "missing-term": "a term left out",
    "extra-term": "an extra term",
    "term": "a wrong term",
    "missing-factor": "a factor left out",
    "extra-factor": "an extra factor",
    "swapped": "two names swapped",
    "complement": "one minus the answer",
    "exponent": "a wrong power",
    "parentheses": "brackets in the wrong place",
    "log-base": "the wrong base of log",
    "square-root": "a square root missing or extra",
    "function": "the wrong function",
    "constant": "a wrong constant",
    "rounded-constant": "a rounded constant",
    "partial-domain": "right for some values only",
    "approximation": "close but not exact",
    "tolerance": "a number outside the accepted margin",
    "magnitude": "off by a power of ten",
    "confused": "another card's answer",
    MISSED_POINT: "a key point left out",
}


def counts_as_mistake(kind: str | None, verdict: str) -> bool:
    """Whether a review's diagnosis counts among the learner's mistakes: any diagnosis of a wrong
    answer, and a key point left out of an explanation even when the rest passed."""
    return bool(kind) and (verdict == "incorrect" or kind == MISSED_POINT)


def mistake_words(kind: str) -> str:
    """``partial-domain`` → ``right for some values only``. A kind this version does not know
    (a review log written by a newer one) is still said without its hyphens."""
    return MISTAKE_WORDS.get(kind, kind.replace("-", " ").replace("_", " "))
