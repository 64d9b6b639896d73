"""Yes/no questions a learner asks and answers at once, read as the statement the answer makes.

Learners set up a point as a question and answer it straight away: "Is the loss for a confident
mistake capped somewhere? No, never: −log p keeps growing", "Does the spread of the norm grow
with d? No, it doesn't: it stays at about 0.7". Read as typed, the question's words are a
statement of their own ("the loss ... capped" says the point's opposite), and the answer's "no"
governs nothing after its comma. So a question that opens with an auxiliary and is answered at
once with a bare "no" (or "nope", "not at all", "not really", "never") or "yes" is rewritten as
the statement that answer makes: its subject, the auxiliary, a "not" for a no, and the rest
("the loss for a confident mistake is not capped somewhere."); a no denies the question's first
claim only, up to its first comma. The answer after it stays.

Where the subject ends is read from the words' shapes, no parser: after "is"/"are"/"was"/"were"
the predicate opens at the first word, not straight after an article or a preposition, that
looks like an adjective or a participle ("capped", "useless", "negligible", "healthy") or is
an article itself ("an accident"); after "does", "can" and the other auxiliaries, at the first
verb (:data:`~recall.grading.explain_words.VERB_FORMS`, a base form or a third person).
A question whose predicate cannot be found, or that is itself negative ("Isn't it ...?"), is
left as typed.
"""

from __future__ import annotations

import re

from recall.grading.explain_words import VERB_FORMS

#: A question opening a sentence with an auxiliary, and the answer right after its "?".
_ANSWERED = re.compile(
    r"(?:^|(?<=[.!?;:]\s)|(?<=\n))(?P<aux>is|are|was|were|does|do|did|can|could|will|would"
    r"|should|has|have)\s+(?P<body>(?:[^.!?\n]|\.(?=\S)){3,240})\?\s*"
    r"(?=(?P<no>no|nope|not\s+at\s+all|not\s+really|not\s+quite|never)\b"
    r"|(?P<yes>yes|yep|yeah|indeed|absolutely|definitely)\b)",
    re.IGNORECASE,
)
_WORD = re.compile(r"[\w'’-]+")
#: Words after which the next word still belongs to the subject ("the *loss*", "for *a*").
_OPENS_PHRASE = frozenset(
    """a an the this that these those its their his her our your my each every any some no
    of for in on at with from to by about between under over into across through per""".split()
)
_ARTICLES = frozenset("a an the".split())
#: Words that open a predicate after "is" whatever their shape ("still healthy").
_PREDICATE_WORDS = frozenset(
    """still really actually also just always ever bounded capped large small big huge tiny
    same different fixed constant zero true wrong right necessary needed free worth equal
    unbounded infinite finite""".split()
)
_ADJECTIVE_ENDINGS = ("ed", "less", "ful", "able", "ible", "ive", "ous", "y", "ent", "ant", "al")
_BE = frozenset("is are was were".split())
#: A question asked in the negative ("Is it not bounded?"), whose "no" is ambiguous.
_NEGATIVE = re.compile(r"\s*(?:\w+\s+)?not\b", re.IGNORECASE)


def answered_questions(text: str) -> str:
    """``text`` with each yes/no question that the learner answers at once written as the
    statement the answer makes (a "no" negates it)."""
    if "?" not in text:
        return text
    return _ANSWERED.sub(_statement, text)


def _statement(match: re.Match[str]) -> str:
    aux, body = match.group("aux"), match.group("body")
    if _NEGATIVE.match(body):
        return match.group()
    words = list(_WORD.finditer(body))
    split = _predicate_start(aux.lower(), [w.group().lower() for w in words])
    if split is None:
        return match.group()
    at = words[split].start()
    subject, predicate = body[:at].strip(), body[at:].strip()
    if not match.group("yes"):
        # a "no" denies the question's first claim, not what it goes on to draw from it ("Is
        # it bounded, so one bad example can't hurt much? No"): the rest is left out
        predicate = predicate.split(",")[0]
        return f"{subject} {aux.lower()} not {predicate}. "
    return f"{subject} {aux.lower()} {predicate}. "


def _predicate_start(aux: str, words: list[str]) -> int | None:
    """The index of the word that opens the question's predicate, or ``None``."""
    for i in range(1, len(words)):
        word, before = words[i], words[i - 1]
        if before in _OPENS_PHRASE:
            continue
        if aux in _BE:
            if word in _ARTICLES or word in _PREDICATE_WORDS or _adjective_shaped(word):
                return i
        elif word in VERB_FORMS:
            return i
    return None


def _adjective_shaped(word: str) -> bool:
    return len(word) > 4 and word.endswith(_ADJECTIVE_ENDINGS)
