"""Whether a text says a point's quantity does not matter where the point says it does.

"Regardless of X" is no denial of X in general: "serving costs 2N FLOPs per token *regardless
of* how many tokens you trained on" states that inference cost scales with the parameters, not
the tokens, and "AUC is 0.5 regardless of balance" is the point itself. It contradicts a point
only when X is the very quantity the point says something goes with: "6 FLOPs per token
regardless of the parameters" for "6 FLOPs *per parameter* per token", "rotated by the same
angle regardless of position" for "an angle that *grows with* its position".

So the model sentence's dependencies are read once: the word after "per", "grows with",
"scales with", "proportional to", "depends on" and the like. A sentence of the text that holds
the point's evidence and says "regardless of", "irrespective of", "independent of", "whatever"
or "does not depend on" one of them contradicts the point, unless it also says something goes
with that quantity ("2N FLOPs per token, regardless of the tokens trained on").
"""

from __future__ import annotations

import re
from functools import lru_cache

from recall.grading.explain_figures import sentences
from recall.grading.explain_words import folded, normalised, stem

#: Words that may stand between a relation and the quantity it names ("grows with *the number
#: of* tokens", "regardless of *how many* parameters").
_FILLER = (
    r"(?:(?:the|its|their|a|an|each|every|how|many|much|large|big|number|size|amount|count"
    r"|of|model|s)\s+)*"
)
#: A quantity something goes with in a model sentence: "per parameter", "grows with position".
_DEPENDS = re.compile(
    r"\b(?:per|(?:scales?|scaling|grows?|growing|increases?|varies|rises?)\s+with|proportional\s+to"
    r"|in\s+proportion\s+to|depends?\s+on|linear\s+in)\s+" + _FILLER + r"([a-z][a-z_0-9]*)"
)
#: A negation just before a relation: the model sentence says the quantity does not matter.
_NEGATED = re.compile(r"\b(?:not|never|no)\s+(?:\w+\s+)?$")
#: A quantity the text says does not matter: "regardless of the parameters", "whatever N".
_IGNORED = re.compile(
    r"\b(?:regardless(?:\s+of)?|irrespective\s+of|independent(?:ly)?\s+of|whatever"
    r"|(?:does|do|did)\s+not\s+depend\s+on)\s+" + _FILLER + r"([a-z][a-z_0-9]*)"
)


def _stem(word: str) -> str:
    return stem(folded(word))


@lru_cache(maxsize=1 << 10)
def _dependencies(say: str) -> frozenset[str]:
    """The stems of the quantities the model sentence says something goes with, not those it
    says something does not go with ("does not depend on x", "does not grow with d")."""
    said = normalised(say)
    return frozenset(
        _stem(m.group(1))
        for m in _DEPENDS.finditer(said)
        if not _NEGATED.search(said, max(0, m.start() - 16), m.start())
    )


#: A word of a normalised text.
_WORD = re.compile(r"[a-z][a-z_0-9]*")


def ignores_dependency(say: str, text: str, evidence: str) -> bool:
    """Whether a sentence of ``text`` holding every word of ``evidence`` (what made the point)
    says a quantity the point depends on does not matter."""
    if not _dependencies(say):
        return False
    wanted = set(_WORD.findall(normalised(evidence)))
    for sentence in sentences(text):
        if wanted <= set(_WORD.findall(normalised(sentence))) and _ignores(say, sentence):
            return True
    return False


def _ignores(say: str, sentence: str) -> bool:
    """Whether ``sentence`` says a quantity the point depends on does not matter, and does not
    also say something goes with it ("per token ..., regardless of the tokens trained on")."""
    text = normalised(sentence)
    ignored = {_stem(m.group(1)) for m in _IGNORED.finditer(text)} & _dependencies(say)
    return bool(ignored - _dependencies(sentence))
