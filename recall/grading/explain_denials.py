"""Claims a learner holds up only to deny them, read by the shape of the sentence.

:mod:`recall.grading.explain_retracted` blanks a reported claim when a verdict from its list
rejects it ("none of that is true", "that's a myth"). Learners deny in many more words than a
list can hold ("People say X; none of that actually happens", "Some claim X; in my experience
none of it holds", "You hear that X, but no, none of the recent models do", "X? I keep hearing
it, but no"), and they deny by the subject alone ("*Nothing about* the way accuracy counts
predictions lets the majority class set the score", "*None of* the practical claims holds").
Read by clause, each states the point in the card's words, the denial too far off for a
negation's reach. Here the shape is read instead of the words:

* **a reported claim and a negative reply**: a part of a sentence that reports ("people say",
  "some claim", "you hear that", "it's often said", "X is often quoted as", "supposedly",
  "there's a popular story that"), or a question, answered in its next part (after a
  semicolon, a colon, "but", a dash, or the next sentence) by a reply that opens, past a few
  hedges ("honestly", "in fact", "I'd say", "in my experience"), with a negation or a doubt
  ("none of ...", "not so", "no, ...", "I don't buy it", "I doubt", "that has nothing to do
  with it"). A reply that opens with an endorsement ("and that's true") or with no negation
  leaves the claim the learner's own;
* **a denying subject**: a clause that opens with "nothing about / in / of X" or "none of X"
  denies its whole predicate, however far it runs ("nothing about drawing z blocks a
  derivative"). "Nothing stops the logits from growing", "nothing is learned", "nothing caps
  the loss" state things and are left alone;
* **a thing denied any part**: a subject that is only a thing named, no clause of its own,
  whose predicate denies it a part ("*holding the other features fixed*, mind you, plays no
  part in that reading", "X has nothing whatsoever to do with Y", "X is not a property of
  it"). "The entropy is fixed and has nothing to do with the weights" states that it is fixed
  (a verb, an "and"), and stays.

The shapes above are blanked out of the text like a retracted claim (spaces, a semicolon at
the end, so nothing moves). And a point whose own phrasing (two words or more) a rejected claim
makes, read on its own, is denied by the learner: it is not made even where a neighbouring
clause says part of it ("The likelihood grows with n while the prior is fixed. Whether MAP
then ends up at the MLE, no, I doubt it"). A clause the learner merely negates in passing is
no such rejection; only the spans blanked here and by
:func:`~recall.grading.explain_retracted.without_retracted` are, and the claim after an
opening that denies it ("It is not the case that X", "it's a myth that X":
:func:`rejected_claims`), which the clause reader already reads as negated where it stands.
"""

from __future__ import annotations

import re

from recall.grading.explain_retracted import SENTENCE

#: Reporting, anywhere in a claim's part: who says it, or that it is said.
_REPORT = re.compile(
    r"\b(?:people|folks|textbooks|books|blogs|tutorials|students|others|some|many|papers"
    r"|everyone|everybody)\s+(?:\w+\s+){0,2}?"
    r"(?:say|says|said|claim|claims|claimed|think|thinks|believe|believes|argue|argues|assume"
    r"|assumes|write|writes|suggest|suggests|quote|quotes|cite|cites|worry|worries|blame"
    r"|blames|insist|insists|teach|teaches|repeat|repeats|sell|sells)\b"
    r"|\bthey\s+(?:say|claim|tell\s+you)\b"
    r"|\b(?:you|one)(?:'ll|'d|\s+(?:might|may|could|would|will|often|sometimes|keep))?\s+"
    r"(?:hear|hears|hearing|expect|think|assume|read)\b"
    r"|(?:\bis|\bare|\bwas|\bwere|'s)\s+(?:often|commonly|usually|widely|sometimes"
    r"|frequently)\s+(?:said|claimed|believed|quoted|called|described|cited|touted|sold"
    r"|presented|pitched|billed)\b"
    r"|(?:\bis|\bare|\bwas|\bwere|'s)\s+(?:said|claimed|believed|touted|alleged)\b"
    r"|\bgets?\s+(?:called|described|sold|billed|touted)\b"
    r"|\b(?:supposedly|allegedly|reportedly|purportedly)\b"
    r"|\bthere(?:'s|\s+is)\s+a\s+(?:\w+\s+){0,2}?(?:belief|story|claim|idea|myth|notion"
    r"|view|legend|saying)\s+that\b"
    r"|\bI\s+keep\s+hearing\b",
    re.IGNORECASE,
)
#: Where a claim's part ends and the reply may begin.
_PART_END = re.compile(r"[;:?]|\s[-–—]+\s|,?\s+but\b|,")
#: Hedges a reply may open with before its negation.
_HEDGES = (
    r"(?:(?:but|honestly|actually|really|frankly|well|sadly|alas|in\s+fact|in\s+reality"
    r"|in\s+practice|in\s+my\s+experience|to\s+be\s+honest|I(?:'d|\s+would)\s+say|I\s+think"
    r"|I\s+keep\s+hearing\s+it|that(?:'s|\s+is)\s+a\s+(?:\w+\s+){0,2}?claim|and)\W+){0,4}"
)
#: What a reply's denial is: a negation or doubt.
_DENIAL = (
    r"(?:none|nothing|no|not|never|nobody|neither|nope|doubt|doubtful|myth|false|wrong"
    r"|untrue|nonsense|rubbish|folklore|\w+n['’]t|cannot)\b"
)
#: A reply that opens by denying: a negation or doubt within its first few words ("; that
#: setup has nothing to do with it").
_DENYING_REPLY = re.compile(r"\W*" + _HEDGES + r"(?:\w+\W+){0,3}?" + _DENIAL, re.IGNORECASE)
#: After a bare comma only a reply that is itself the denial ("..., not so", "..., none of it
#: holds"): ", it never recovers" goes on with the claim.
_DENYING_AT_ONCE = re.compile(r"\W*" + _HEDGES + _DENIAL, re.IGNORECASE)
#: A reply that endorses what was reported, and it stays the learner's claim: "that's true",
#: "and they do", "which isn't wrong", "but it isn't just that".
_ENDORSING_REPLY = re.compile(
    r"\W*(?:and\s+|but\s+)?(?:(?:that|this|it|which)(?:'s|\s+is|\s+was)\s+(?:\w+\s+)?"
    r"(?:true|right|correct|fair)\b"
    r"|(?:they|it|that|this|which)\s+(?:do|does|did|is|are|was|were|holds?)\s*(?:[.;:,!?]|$)"
    r"|(?:they(?:'re|\s+are)|indeed)\b"
    r"|(?:(?:that|this|it|which)(?:\s+is|'s|\s+was)?\s+)?(?:not|n['’]t|isn['’]t|wasn['’]t)\s+"
    r"(?:wrong|false|a\s+myth|just|only|the\s+whole)\b)",
    re.IGNORECASE,
)
#: A clause opening with a subject that denies its predicate: "nothing about X ...", "none of
#: X ..."; after a sentence's start or a semicolon, colon or "but".
_DENYING_SUBJECT = re.compile(
    r"(?:^|[.;:!?]\s+|\bbut\s+|,\s+)(?P<subject>(?:nothing\s+(?:about|in|of)|none\s+of)\s)",
    re.IGNORECASE,
)
#: Where such a clause ends: the clause's end, or a comma before a new claim's opening.
_SUBJECT_END = re.compile(
    r"[.;:!?](?=\s|$)|,\s+(?=(?:and|so|but|while|whereas|because|since|which|the|it|its|they"
    r"|this|that|each|every|there|you|we|I)\b)",
    re.IGNORECASE,
)
#: A question's opening: an auxiliary or a question word.
_ASKING = re.compile(
    r"\W*(?:is|are|was|were|do|does|did|can|could|should|would|will|has|have|why|what|how"
    r"|when|where|which|who|whether)\b",
    re.IGNORECASE,
)
#: A predicate that denies its subject any part in what follows: "X has nothing to do with Y",
#: "X plays no role in Y", "X has no bearing on Y", "X is not a property of it".
_NO_PART = re.compile(
    r"\s(?:has|have)\s+nothing(?:\s+whatsoever)?\s+to\s+do\s+with\b"
    r"|\s(?:plays?|played)\s+no\s+(?:\w+\s+)?(?:part|role)\b"
    r"|\s(?:has|have)\s+no\s+(?:\w+\s+)?(?:bearing|influence|connection)\b"
    r"|\s(?:is|are)\s+not\s+a\s+property\b",
    re.IGNORECASE,
)
#: What makes a subject a clause of its own rather than a thing named: a finite verb, or a
#: second predicate joined to the denial ("the entropy *is* fixed *and* has nothing to do with
#: the weights" states that it is fixed).
_CLAUSAL = re.compile(
    r"\b(?:is|are|was|were|has|have|had|does|do|did|can|could|will|would|should|must|may"
    r"|might|and|it|this|that|which|so|because|since)\b|'s\b",
    re.IGNORECASE,
)
#: Where a sentence's clause opens: its start, or after a semicolon or colon.
_CLAUSE_OPEN = re.compile(r"[.;:!?]\s+|^\s*")
#: An opening that denies the claim after it ("It is not true that X", "it's a myth that X",
#: "I don't believe that X"); the clause reader negates X, and X is a claim the learner rejects.
_DENIED_THAT = re.compile(
    r"(?:^|[.;:!?]\s+)(?:but\s+)?(?:it\s+is|it's|it\s+was)\s+(?:not\s+(?:true|the\s+case)"
    r"|a\s+myth|false|untrue|wrong\s+to\s+say)\s+that\s"
    r"|(?:^|[.;:!?]\s+)I\s+(?:don't|do\s+not)\s+(?:think|believe|buy)\s+that\s"
    # "there's no sense in which X": X denied, whatever comes before it in the sentence
    r"|\bthere(?:'s|\s+is)\s+no\s+sense\s+in\s+which\s",
    re.IGNORECASE,
)
#: The longest reported claim read (characters): a reply is to what was just said.
_MAX_CLAIM = 400


def denied_spans(text: str) -> list[tuple[int, int]]:
    """The spans of ``text`` holding a claim the learner reports or names only to deny."""
    spans = []
    sentences = [(m.start(), m.end()) for m in SENTENCE.finditer(text)]
    for index, (start, end) in enumerate(sentences):
        following = (
            text[sentences[index + 1][0] : sentences[index + 1][1]]
            if (index + 1 < len(sentences))
            else ""
        )
        reported = _reported_claim(text[start:end], following)
        if reported is not None:
            spans.append((start + reported[0], start + reported[1]))
    spans.extend(_denied_parts(text))
    for match in _DENYING_SUBJECT.finditer(text):
        begin = match.start("subject")
        close = _SUBJECT_END.search(text, match.end())
        spans.append((begin, close.start() if close else len(text)))
    return spans


def rejected_claims(text: str) -> list[tuple[int, int]]:
    """The claims after an opening that denies them ("It is not true that *the query heads
    stay as they are*"), to the clause's end: read as negated where they stand, and a point
    they would make is one the learner rejects."""
    spans = []
    for match in _DENIED_THAT.finditer(text):
        close = re.compile(r"[.;:!?](?=\s|$)").search(text, match.end())
        spans.append((match.end(), close.start() if close else len(text)))
    return spans


def _denied_parts(text: str) -> list[tuple[int, int]]:
    """The things named as a clause's subject only to be denied any part ("*Holding the other
    features fixed*, mind you, plays no part in that reading")."""
    spans = []
    for match in _NO_PART.finditer(text):
        opening = max((m.end() for m in _CLAUSE_OPEN.finditer(text, 0, match.start())), default=0)
        subject = text[opening : match.start()]
        if subject.strip() and len(subject) <= _MAX_CLAIM and not _CLAUSAL.search(subject):
            spans.append((opening, match.start()))
    return spans


def _reported_claim(sentence: str, following: str) -> tuple[int, int] | None:
    """The reported claim of ``sentence`` (offsets) when a reply denies it, in the sentence
    itself or at the opening of the ``following`` one."""
    if "?" not in sentence and _REPORT.search(sentence[:_MAX_CLAIM]) is None:
        return None  # neither reported nor asked: the common case
    for part in _PART_END.finditer(sentence[:_MAX_CLAIM]):
        claim = sentence[: part.start()]
        # a statement asked back ("Only differences matter?"), not a question ("Is it an
        # accident? No, ..." answers with the learner's own claim)
        question = part.group() == "?" and not _ASKING.match(claim)
        if not (question or _REPORT.search(claim)):
            continue
        reply = sentence[part.end() :]
        if not reply.strip():
            reply = following
        if _ENDORSING_REPLY.match(reply):
            return None
        denying = _DENYING_AT_ONCE if part.group() == "," else _DENYING_REPLY
        if denying.match(reply):
            return (0, part.start())
        if question:
            return None
    return None


def blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each span replaced by spaces and a closing semicolon: what follows is read
    as a clause of its own and nothing moves."""
    chars = list(text)
    for start, end in spans:
        if end - start >= 2:
            chars[start:end] = " " * (end - start - 2) + "; "
    return "".join(chars)


def blanked_spans(before: str, after: str) -> list[tuple[int, int]]:
    """The stretches of ``after`` blanked out of ``before`` (a text of the same length): where
    a reader that blanks, such as
    :func:`~recall.grading.explain_retracted.without_retracted`, took a claim out."""
    return [
        (m.start(), m.end())
        for m in _BLANK.finditer(after)
        if before[m.start() : m.end()] != after[m.start() : m.end()]
    ]


#: A stretch of spaces and semicolons: what blanking leaves.
_BLANK = re.compile(r"[ ;]{4,}")
