"""Claims a learner reports only to reject them, taken out of the text before it is matched.

Learners often state a point in order to deny it: "People say the KL keeps the policy near the
reference, but none of that is true", "You might expect log Z to cancel, but it doesn't", "The
claim that classifier gradients can be adversarial is false", "Calling DDPM variance-preserving
is wrong". Read clause by clause, the first half of each says the point in the card's own words
and the denial comes after it, too far for a negation's reach. These frames are recognised here
and the reported claim, with the verdict that rejects it, is blanked out, so it makes no point
(and its words are not quoted back). What the learner asserts around it is read as usual.

Two frames, each needing both a marker of reported speech and a negative verdict, so a claim
reported and then *endorsed* ("people say pre-norm trains reliably, and that's true") stays:

* **reported, then rejected**: a sentence that opens by reporting ("people say", "it's often
  claimed", "you might expect", "the usual story is") whose later part, after "but", a comma or
  a semicolon, or the next sentence's opening, rejects it ("none of that is true", "but it
  doesn't", "that is not the case", "Wrong.");
* **a claim as the subject of a verdict**: "the claim / idea / story (that) X", "calling /
  saying / claiming X", followed by "is false / wrong / a myth / misleading / irrelevant /
  purely cosmetic".

("It is a myth that X", "it is not the case that X" put the verdict first; the clause reader
negates what follows them: :data:`recall.grading.explain_words._DENY_REST`.)
"""

from __future__ import annotations

import re

#: Reported speech at a sentence's opening (within its first few words).
_REPORTING = (
    r"(?:(?:some|many|most|lots\s+of|a\s+lot\s+of)\s+)?"
    r"(?:people|folks|textbooks|books|blogs|tutorials|students|others|they|some|many|papers)"
    r"\s+(?:often\s+|usually\s+|sometimes\s+|will\s+|would\s+|might\s+|may\s+|like\s+to\s+)?"
    r"(?:say|said|says|claim|claims|claimed|think|thinks|believe|believes|argue|argues|assume"
    r"|assumes|tell\s+you|told\s+me|write|suggest)"
    r"|(?:it\s+is|it's|its|it\s+was)\s+(?:often\s+|commonly\s+|usually\s+|widely\s+|sometimes\s+"
    r"|frequently\s+)?(?:said|claimed|believed|argued|assumed|stated|suggested|thought|repeated)"
    r"|(?:you|one)\s+(?:might|may|could|would)\s+(?:expect|think|assume|guess|believe|imagine"
    r"|hear|read|say|argue)"
    r"|(?:the\s+)?(?:usual|common|standard|popular|naive|textbook|folk)\s+(?:story|claim|"
    r"explanation|view|intuition|line|answer|belief|wisdom)\s+(?:is|says|goes)"
    r"|(?:a\s+)?common\s+misconception\s+is"
)
_OPENING_REPORT = re.compile(r"^\W*(?:\w+\W+){0,4}?(?:" + _REPORTING + r")\b", re.IGNORECASE)

#: A verdict that rejects what was just said. Only a verdict's own words: "that is *not* a
#: problem you can ignore" and "it never recovers" state something else, and "which isn't
#: wrong" endorses (a negation before "wrong" is no rejection).
_VERDICT_WORDS = (
    r"none\s+of\s+(?:that|this|it|these|those)(?:\s+\w+){0,2}?\s+(?:is|are|was|were|holds?"
    r"|describes?|applies|true|right)\b"
    # "that's wrong", "this is simply false"
    r"|(?:that|this|it|which)(?:'s|\s+is|\s+was)\s+(?:(?:just|simply|plain|completely|totally"
    r"|actually|really)\s+)?(?:wrong|false|incorrect|a\s+myth|misleading|nonsense|untrue"
    r"|backwards|a\s+misconception|rubbish)\b"
    # "that isn't true", "it's not quite right", "this is not the case"
    r"|(?:that|this|it|which)(?:'s\s+not|\s+is\s+not|\s+isn't|\s+was\s+not|\s+wasn't)\s+"
    r"(?:quite\s+|really\s+|actually\s+|at\s+all\s+|entirely\s+)?(?:true|right|correct|the\s+case"
    r"|so|how|what"
    r"|why|accurate)\b"
    # an auxiliary alone, the claim's verb left out ("but it doesn't.", "but that isn't so")
    r"|(?:that|this|it|they)\s+(?:doesn't|does\s+not|don't|do\s+not|didn't|did\s+not|isn't"
    r"|is\s+not|aren't|are\s+not|won't|can't|cannot)(?:\s+(?:really|actually|at\s+all))?"
    r"(?=\s*(?:[.;:,!?)]|$))"
    r"|(?:that|this|it)\s+(?:doesn't|does\s+not|didn't|did\s+not|won't|can't)\s+(?:hold|happen"
    r"|apply|follow|work)\b"
    r"|they(?:'re|\s+are)\s+(?:wrong|mistaken)\b|i\s+(?:disagree|don't\s+agree|do\s+not\s+agree)\b"
    r"|not\s+(?:true|right|correct|the\s+case)\b"
    r"|(?:wrong|false|nope|not\s+so|rubbish|nonsense)(?=\s*(?:[.;:,!?)]|$))"
)
#: Words between the separator and the verdict ("but honestly none of that ..."): a few only,
#: so the search stays linear in the text's length.
_FILLERS = r"(?:(?:honestly|actually|really|in\s+fact|in\s+reality|sadly|alas|no)\W+){0,2}"
#: The rejection after the reported claim: after "but", a comma, a semicolon or a dash.
_LATER_REJECTION = re.compile(
    r"(?:,|;|:|\s[-–—]+\s|\bbut\b)\s*" + _FILLERS + r"(?:" + _VERDICT_WORDS + r")",
    re.IGNORECASE,
)
#: A next sentence that opens by rejecting the one before.
_OPENING_REJECTION = re.compile(
    r"^\W*(?:(?:but|actually|honestly|no|in\s+fact|sadly)\W+){0,2}(?:" + _VERDICT_WORDS + r")",
    re.IGNORECASE,
)
#: Reported speech set in the middle of the claim: "Large logits saturate it, *people say*, but
#: that's false."
_INSET_REPORT = re.compile(
    r",\s*(?:people|some|many|they|textbooks|folks|others)\s+(?:say|claim|think|believe"
    r"|argue)\s*,",
    re.IGNORECASE,
)

#: A claim named as the subject of the sentence ("the claim that ...", "calling X Y").
_CLAIM_SUBJECT = re.compile(
    r"^\W*(?:but\s+|so\s+|and\s+)?(?:(?:the|this|that|any|a)\s+)?(?:(?:whole|usual|common|"
    r"popular|old|standard)\s+)?(?:(?:[\w-]+\s+){0,3})?(?:claim|idea|story|notion|belief|"
    r"argument|intuition|picture|narrative|explanation|assumption|myth|statement)s?\b"
    r"|^\W*(?:calling|saying|claiming|thinking|believing|assuming|describing)\b",
    re.IGNORECASE,
)
#: The verdict such a subject takes.
_SUBJECT_VERDICT = re.compile(
    r"\b(?:is|are|was|were)\s+(?:(?:just|simply|plain|completely|totally|purely|entirely|"
    r"actually|really)\s+)?(?:wrong|false|incorrect|a\s+myth|misleading|nonsense|untrue|"
    r"backwards|a\s+misconception|irrelevant|cosmetic|a\s+red\s+herring|overblown|overrated|"
    r"not\s+(?:true|right|correct|accurate))\b"
    r"|\b(?:is|are|was|were)(?:n't|\s+not)\s+(?:really\s+|quite\s+|entirely\s+|at\s+all\s+)?"
    r"(?:true|right|correct|accurate|the\s+case)\b"
    r"|\b(?:doesn't|does\s+not|don't|do\s+not)\s+hold\b",
    re.IGNORECASE,
)
#: A claim put first as the sentence's topic, to be judged by a verdict after it: "*That* it
#: is unbiased ...", or a topic set apart by "though"/"however" ("Deep stacks starting
#: well-conditioned, *though*, ..."). "That is why", "that way" are no such topic. Topics opened
#: with "as for", "regarding" or "whether" are answered right after their comma
#: (:data:`_TOPIC_OPENERS`).
_TOPIC = re.compile(
    r"^\W*that\b(?!['’]s|\s+(?:is|was|are|means|"
    r"gives|makes|keeps|way|does|did|holds|explains|leaves|helps|said|also|alone|part|term)\b)"
    r"|,\s*(?:though|however|mind\s+you|then)\s*,",
    re.IGNORECASE,
)
#: What rejects a topic put first ("That X is simply false", "X, though, is a claim I'd
#: reject"): a verdict on the claim itself, not any negation later in the sentence.
_TOPIC_VERDICT = re.compile(
    _SUBJECT_VERDICT.pattern
    + r"|,\s*no\b|\bnot\s+at\s+all\b|\b(?:is|are)\s+not\s+(?:a\s+property|what\s+happen)"
    r"|\b(?:is|are)\s+not\s+something\s+(?:I|we|anyone)(?:'d|\s+would|\s+should|\s+could)?\s+"
    r"(?:accept|agree|buy|believe|attribute)"
    r"|\bI(?:'d|\s+would)\s+reject\b|\bI\s+(?:don't|do\s+not|can't)\s+(?:buy|agree|believe|accept)"
    r"|\b(?:is|are)\s+not\s+something\b[^.;:!?]{0,40}?\b(?:has|have)\s+anything\s+to\s+do\s+with"
    r"|\b(?:never|not)\s+seen\b|\bnot\s+what\s+happen|\b(?:doesn't|does\s+not)\s+follow"
    r"|\bI\s+(?:really\s+)?doubt\b|\bnothing\s+(?:you|I|we)\b",
    re.IGNORECASE,
)
#: The answer to a topic opened with "as for", "regarding" or "whether": right after its
#: comma, a "no" or an auxiliary alone ("As for catching mode dropping, *it can't*").
_TOPIC_OPENERS = re.compile(r"^\W*(?:whether|as\s+for|as\s+to|regarding)\b", re.IGNORECASE)
_TOPIC_ANSWER = re.compile(
    r",\s*(?:(?:though|however|then|honestly)\s*,\s*)?(?:no\b|nope\b|not\s+at\s+all\b"
    r"|not\s+really\b|(?:it|they|this|that)\s+(?:can't|cannot|doesn't|does\s+not|won't|don't"
    r"|do\s+not)(?=\s*(?:[.;:,!?)]|$))|(?:it|that|this)(?:\s+isn't|\s+is\s+not|'s\s+not)\s+"
    r"(?:what|how|why|true|right|the\s+case)\b)",
    re.IGNORECASE,
)
#: A sentence: up to a full stop, "!" or "?" before a space or the end (not "0.5", "e.g.x").
SENTENCE = re.compile(r"(?:[^.!?\n]|[.!?](?=\S))+[.!?\n]*")
#: "The idea is that ...", "the usual story is: ...": the subject introduces what is said.
_STATES_IT = re.compile(r"\s*(?:is|was|goes)\s*(?:that\b|to\b|:)", re.IGNORECASE)


def without_retracted(text: str) -> str:
    """``text`` with every claim reported only to be rejected blanked out (replaced by spaces,
    a semicolon at its end, so nothing after it moves and what follows is read as a clause of
    its own). The rejection itself stays: "but it doesn't depend on the weights" still says
    what the learner holds."""
    sentences = [(m.start(), m.end()) for m in SENTENCE.finditer(text)]
    spans: list[tuple[int, int]] = []
    for index, (start, end) in enumerate(sentences):
        sentence = text[start:end]
        span = (
            _reported_and_rejected(text, sentences, index)
            or _claim_judged(sentence)
            or _topic_rejected(sentence)
        )
        if span is not None:
            spans.append((start + span[0], start + span[1]))
    if not spans:
        return text
    chars = list(text)
    for start, end in spans:
        if end - start >= 2:
            chars[start:end] = " " * (end - start - 2) + "; "
    return "".join(chars)


def _reported_and_rejected(
    text: str, sentences: list[tuple[int, int]], index: int
) -> tuple[int, int] | None:
    """The reported claim of sentence ``index`` (offsets within it) when the sentence reports
    and then rejects it, or the next sentence opens by rejecting it."""
    start, end = sentences[index]
    sentence = text[start:end]
    if not (_OPENING_REPORT.search(sentence) or _INSET_REPORT.search(sentence)):
        return None
    rejection = _LATER_REJECTION.search(sentence)
    if rejection is not None:
        return (0, rejection.start())
    if index + 1 < len(sentences):
        following = text[sentences[index + 1][0] : sentences[index + 1][1]]
        if _OPENING_REJECTION.search(following):
            return (0, len(sentence))
    return None


def _claim_judged(sentence: str) -> tuple[int, int] | None:
    """The claim named as the sentence's subject (offsets) when a rejecting verdict is said of
    it: "the claim that X is false", "calling X Y is wrong". Not "the idea is that ...", which
    states the idea."""
    subject = _CLAIM_SUBJECT.search(sentence)
    if subject is None or _STATES_IT.match(sentence, subject.end()):
        return None
    verdict = _SUBJECT_VERDICT.search(sentence, subject.end())
    return None if verdict is None else (0, verdict.start())


def _topic_rejected(sentence: str) -> tuple[int, int] | None:
    """A claim put first as the sentence's topic (offsets) when it is rejected: "That it is
    unbiased, though, is a claim I'd reject", "As for catching mode dropping, it can't"."""
    if _TOPIC_OPENERS.search(sentence):
        comma = sentence.find(",")
        answer = _TOPIC_ANSWER.match(sentence, comma) if comma >= 0 else None
        return None if answer is None else (0, comma)
    topic = _TOPIC.search(sentence)
    if topic is None:
        return None
    verdict = _TOPIC_VERDICT.search(sentence, topic.end())
    return None if verdict is None else (0, verdict.start())
