"""Double negations read as the plain statement they make.

A learner who denies a negative says the positive: "the critic's value is *not uninformative*"
(informative), "the generator is *never starved of* a useful gradient" (it always gets one),
"*nothing stops* the projections *from* growing" (they grow), "x_T *can't be told apart from*
pure noise" (it is the same as noise). Read word by word, the negation governs the words that
carry the point ("useful gradient", "growing", "N(0, I)") and the point is denied instead of
made. Each of these frames is rewritten as the plain words before the text is read:

* "is not"/"isn't"/"is never" before an adjective with the negative prefix "un" drops both
  ("is not unbiased" is "is biased"; a verb's "doesn't unfreeze" is left alone); words where
  "un" is no prefix ("uniform", "unit", "unique", "universal") are left alone;
* "not/never starved (deprived, short) of X" is "gets X" ("always gets X" after "never");
* "nothing stops (prevents, keeps) X from Y" is "X Y";
* "can't be told apart from", "cannot be distinguished from", "indistinguishable from", "no
  different from" is "the same as", and "no difference (at all) between" "the same between".
"""

from __future__ import annotations

import re

#: A "be" denied: "is not", "isn't", "it's never" (not "doesn't unfreeze", a verb).
_BE_NOT = r"(?:\b(?:is|are|was|were|be|been)|['’]s|['’]re)(?:\s+(?:not|never)|n['’]t)"
#: "is not un-X": an "un" that is a prefix (not "uniform", "unit", "unique", "universal",
#: "union", "unify", "unimodal", "univariate", "unigram", "unless", "until", "under").
_NOT_UN = re.compile(
    _BE_NOT + r"(\s+(?:(?:really|entirely|at\s+all|quite|so|that)\s+)?)un-?"
    r"(?!i(?:form|t|que|vers|on|f[iy]|son|modal|variate|gram|lateral|directional|code)|der|til"
    r"|less)([a-z]{4,})\b",
    re.IGNORECASE,
)
#: "never starved of", "isn't short of", "not deprived of".
_NOT_STARVED = re.compile(
    r"\b(?:(?:(?:is|are|was|were)\s+)?(?P<never>never)|(?:is|are|was|were|be)(?:\s+not|n't|n’t)|not)\s+"
    r"(?:(?:really|at\s+all)\s+)?(?:starved|deprived|short)\s+of\b",
    re.IGNORECASE,
)
#: "nothing stops X from Y": a subject of at most five words between.
_NOTHING_STOPS = re.compile(
    r"\bnothing\s+(?:stops|stopped|prevents|prevented|keeps|kept|blocks)\s+"
    r"((?:[\w'’-]+\s+){0,4}?[\w'’-]+)\s+from\s+",
    re.IGNORECASE,
)
#: "can't be told apart from", "cannot be distinguished from", "indistinguishable from".
_NOT_TOLD_APART = re.compile(
    r"\b(?:can(?:'t|’t|not|\s+not)|could(?:n't|n’t|\s+not))\s+be\s+(?:told\s+apart|distinguished)"
    r"\s+from\b|\bindistinguishable\s+from\b|\b(?:is|are|be)\s+(?:no|not)\s+different\s+from\b",
    re.IGNORECASE,
)

#: "there's no difference at all between the two": they are the same.
_NO_DIFFERENCE = re.compile(r"\bno\s+difference\s+(?:at\s+all\s+)?(?=between\b)", re.IGNORECASE)


def plain_litotes(text: str) -> str:
    """``text`` with each double negation of these frames written as the plain statement."""
    text = _NOT_UN.sub(_plain_adjective, text)
    text = _NOT_STARVED.sub(lambda m: "always gets" if m.group("never") else "gets", text)
    text = _NOTHING_STOPS.sub(r"\1 ", text)
    text = _NO_DIFFERENCE.sub("the same ", text)
    return _NOT_TOLD_APART.sub("is the same as", text)


def _plain_adjective(match: re.Match[str]) -> str:
    """ "it's not uninformative" → "it's informative": the "be" kept, both negatives gone."""
    denied = match.group()[: match.start(1) - match.start()]
    be = re.sub(r"(?:\s+(?:not|never)|n['’]t)$", "", denied)
    return f"{be} {match.group(2)}"
