"""A thing the learner dismisses makes no point with its own words.

"Per-class numbers are *not needed*", "rescaling the base *does nothing*", "cross-entropy is
*unrelated to* maximum likelihood", "the KL term *makes* a closed-form optimum *impossible*":
each names the point's thing (the words a phrasing
asks for) in order to dismiss it, with no "not" before those words for the clause reader to
see. Here such a dismissal is found in the text and the words it dismisses are read off:

* the subject of "is not needed / necessary / required", "does nothing", "was abandoned",
  "is unnecessary", and of a bare "is not." closing a sentence (the second side of a contrast
  denied by ellipsis: "JS is a metric, while its square root is not."): the words of its
  comma-parted part before the verb;
* the object of "unrelated to", "abandoned", "no longer uses", and what "makes" or "renders"
  something "impossible / unnecessary / pointless". ("Got rid of" reads as "removes", which
  correct explanations use all the time: "dividing by 1 − β^t removes that bias".)

A point is not made by words the text dismisses: when the words that made a phrasing include
one a dismissal covers, the point goes unmade. A model sentence that takes something away itself
(a negation, "drops", "skips", "without": "GRPO drops PPO's learned value network") is left
alone, since the learner's dismissal may be its own claim ("a value network is not needed"),
and so is one that names a harm ("steps that are far too big"), which a learner rightly says a
step makes impossible.
"""

from __future__ import annotations

import re
from functools import lru_cache

from recall.grading.explain_words import SMALL_WORDS, WORD, folded, normalised, read_clauses, stem

#: Predicates that dismiss what stands before them in their part: "X is not needed".
_DISMISSING_SUBJECT = re.compile(
    r"\s(?:is|are|was|were|be)\s+(?:not|never|no\s+longer)\s+"
    r"(?:needed|necessary|required|used|useful)\b"
    # "does nothing" closing its sentence: "does nothing here: it cancels" goes on to say what
    r"|\s(?:does|do|did)\s+(?:nothing|not\s+help)(?:\s+at\s+all)?\s*(?:[.;!?]|$)"
    r"|\s(?:is|are|was|were)\s+(?:unnecessary|(?:tried\s+and\s+)?abandoned)\b"
    # a contrast's second side denied by ellipsis: "JS is a metric, while its square root is
    # not." says nothing of the square root but that it is not what the first side is
    r"|(?P<ellipsis>\s(?:is|are|does|do|can|has|have)\s+not\s*(?:[.;!?]|$))"
)
#: The contrast an elliptic "is not." must close: "..., *while* its square root is not", not
#: "blows up where p is not".
_CONTRAST_SIDE = re.compile(r"^\s*(?:while|whereas|but)\s+(?P<side>.+)$")
#: Where the subject of such a predicate starts: after the last mark before it.
_PART_START = re.compile(r"[,;:.!?]")
#: Predicates that dismiss what follows them: "got rid of X", "unrelated to X".
_DISMISSING_OBJECT = re.compile(
    r"\bunrelated\s+to\s+([^,;:.!?]{3,60})"
    r"|\b(?:abandoned|abandons|abandon)\s+([^,;:.!?]{3,60})"
    r"|\bno\s+longer\s+(?:uses|use|needs|need)\s+([^,;:.!?]{3,60})"
    r"|\b(?:makes|make|made|renders|render)\s+([^,;:.!?]{3,60}?)\s+"
    r"(?:impossible|unnecessary|pointless|useless)\b"
)
#: Words by which a model sentence takes something away.
_PRIVATIVE = frozenset(
    "drops drop dropped removes remove removed skips skip without no discards discard".split()
)
#: A model sentence that names a harm ("steps that are far *too* big", "the loss *spikes*"):
#: what it names is to be prevented, so "warmup makes huge early updates impossible" is the
#: point said from the other end, not dismissed.
_PROBLEM = re.compile(
    r"(?i)\btoo\b|\bbad\b|spike|diverg|blow|explod|vanish|unstable|instabil|fail|wrong|worse"
    r"|saturat|hack|degenerat|noisy|unreliable|collapse|dominat|error"
)
#: How many of the words a dismissal covers count (from its verb outwards).
_REACH = 5


def _stems(words: str) -> list[str]:
    found = [folded(w) for w in WORD.findall(words) if w != ","]
    return [stem(w) for w in found if w not in SMALL_WORDS]


#: A word every dismissal holds: a text with none of them is not read further.
_CUE = re.compile(
    r"(?i)need|necessar|requir|\bused\b|useful|nothing|help|abandon|unrelated|impossible"
    r"|pointless|useless|no longer|\bnot\s*(?:[.;!?]|$)|n[’']t\s*(?:[.;!?]|$)"
)


@lru_cache(maxsize=1 << 12)
def dismissed(text: str) -> frozenset[str]:
    """The stems of the words the text dismisses."""
    if not _CUE.search(text):
        return frozenset()
    written = normalised(text)
    found: set[str] = set()
    for match in _DISMISSING_SUBJECT.finditer(written):
        before = written[max(0, match.start() - 80) : match.start()]
        subject = _PART_START.split(before)[-1]
        if match.group("ellipsis"):
            side = _CONTRAST_SIDE.match(subject)
            if side is None:
                continue
            subject = side.group("side")
        found.update(_stems(subject)[-_REACH:])
    for match in _DISMISSING_OBJECT.finditer(written):
        thing = next(g for g in match.groups() if g is not None)
        found.update(_stems(thing)[:_REACH])
    return frozenset(found)


def dismisses(say: str, text: str, evidence: str) -> bool:
    """Whether the words that made a point (``evidence``) include one the text dismisses and
    the point's model sentence ``say`` asserts. A model sentence that takes anything away
    itself (a negation, "drops", "without") is left alone: "RMSNorm skips the centring" is
    made by "RMSNorm removes the mean subtraction"."""
    gone = dismissed(text)
    if not gone or _takes_away(say) or names_harm(say):
        return False
    return any(s in gone for s in _stems(evidence))


def names_harm(say: str) -> bool:
    """Whether the model sentence names a harm (:data:`_PROBLEM`): what it names is to be
    prevented, and a learner may rightly deny or dismiss it."""
    return _PROBLEM.search(say) is not None


@lru_cache(maxsize=1 << 12)
def _takes_away(say: str) -> bool:
    tokens = (token for clause in read_clauses(say) for token in clause)
    return any(token.negated or token.word in _PRIVATIVE for token in tokens)
