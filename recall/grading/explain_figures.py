"""Whether a learner's sentence gives one of a point's figures wrongly.

A point's model sentence often carries figures: "an *8x* smaller logit scale", "about *20*
tokens per parameter", "the first *0.5–2%* of steps", "a spread of about *0.7*", "down to about
a *tenth* of the peak". A learner who writes the point's words with another figure in the same
place ("the logits get *64 times* smaller", "*200* tokens per parameter", "down to *half* the
peak") states something false that the words alone would credit.

A figure is read with its kind (a multiple, "8x", "twice", "by a factor of 8"; a percentage; a
plain number) and what it counts: the content words right after it and right before it,
numbers and filler ("about", "roughly") aside, compared by its first letters so that
"accurate" and "accuracy" meet, and words of one direction as one ("smaller", "shrinks",
"drops"). A number with a power said after it ("8 squared") is no figure of its own. A
sentence contradicts the point when one of its figures shares kind and a word
with a figure of the model sentence, no figure of the sentence with that kind and word equals
it, and it lies within none of the point's ``values``. Equal means within a tenth (learners
round: "0.04" for 0.036 is no contradiction), or a percentage point for percentages; ranges
("0.5–2%") agree with what lies in them. Linear in the text: one regular-expression pass.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from recall.grading.explain_words import LINKS, NEGATORS, SMALL_WORDS, folded, normalised, stem

#: Relative difference under which two figures are the same (rounding).
SAME = 0.1
#: Percentage points under which two percentages are the same.
PERCENT_POINTS = 1.0
#: Letters of a stem compared ("accurate" and "accuracy" share "accur").
PREFIX = 5

_FRACTION_WORDS = {"half": 0.5, "third": 1 / 3, "quarter": 0.25, "tenth": 0.1, "hundredth": 0.01}
_MULTIPLE_WORDS = {"twice": 2.0, "double": 2.0, "triple": 3.0, "thrice": 3.0}
_FIGURE = re.compile(
    r"(?<![\d.])(?P<number>\d+(?:,\d{3}(?!\d))*(?:[.,]\d+)?(?:[eE][-+]?\d+)?(?:/\d+(?:\.\d+)?)?)"
    r"(?:\s*[–-]\s*(?P<high>\d+(?:\.\d+)?))?\s*(?P<unit>%|x\b|×|-?fold\b)?"
    r"|\b(?P<word>" + "|".join([*_FRACTION_WORDS, *_MULTIPLE_WORDS]) + r")\b",
    re.IGNORECASE,
)
#: What makes "third", "tenth" a fraction rather than an ordinal: "a tenth", "one third".
_ARTICLE = re.compile(r"\b(?:a|one)\s+$", re.IGNORECASE)
_TIMES = re.compile(r"\s*times\b", re.IGNORECASE)
_FACTOR = re.compile(r"\bfactor\s+(?:of\s+)?(?:about\s+|roughly\s+|~\s*)?$", re.IGNORECASE)
_PERCENT = re.compile(r"\s*per\s?cent\b", re.IGNORECASE)
_WORDISH = re.compile(r"[^\W\d_]+")
#: Words around a figure that say nothing of what it is of.
_FILLER = frozenset(
    """about roughly around approximately nearly almost only just some over under up down
    times fold x percent per cent that then gives give get gets factor""".split()
)
#: The words right after a figure, up to the next figure or sign.
_NEXT = re.compile(r"[^\d%=+*/<>()\[\],;:.!?\n]{0,40}")
#: What parts a figure from the words before it ("per token: 2 in the forward").
_PIECE_END = re.compile(r"[,;:()\[\]=]")
_SENTENCE = re.compile(r"(?<!\d)[.;!?\n]|[.;!?\n](?!\d)")


@dataclass(frozen=True)
class Figure:
    """A figure of a text: its value, its kind and the word beginnings around it."""

    value: float
    kind: str
    around: frozenset[str]
    #: the top of a range ("0.5–2%"), where the figure is one
    high: float | None = None

    def meets(self, other: Figure) -> bool:
        """Whether the two figures agree: equal within :data:`SAME`, or overlapping ranges."""
        if self.high is None and other.high is None:
            return _same(self.value, other.value, self.kind)
        low_a, high_a = self.value, self.high if self.high is not None else self.value
        low_b, high_b = other.value, other.high if other.high is not None else other.value
        if _same(low_a, low_b, self.kind) or _same(high_a, high_b, self.kind):
            return True
        return low_a <= high_b and low_b <= high_a


def _value(number: str) -> float | None:
    # "1,000" is a thousand; "0,5" a half
    number = re.sub(r"(?<=\d),(?=\d{3}\b)", "", number).replace(",", ".").replace(" ", "")
    try:
        if "/" in number:
            top, bottom = number.split("/")
            return float(top) / float(bottom) if float(bottom) else None
        return float(number)
    except ValueError:
        return None


#: Words of one direction, read as one key: a figure "8x smaller" and "shrinks by a factor of
#: 64" are of the same thing.
_DIRECTIONS = {
    **{
        stem(w): "down"
        for w in """smaller shrink shrinks shrunk reduce reduces reduced lower lowers less drop
        drops dropped fall falls fell cut cuts""".split()
    },
    **{
        stem(w): "up"
        for w in "larger bigger grow grows grew increase increases increased more".split()
    },
}


def _keys(text: str) -> list[str]:
    words = [folded(w) for w in _WORDISH.findall(normalised(text))]
    return [
        _DIRECTIONS.get(stem(w), stem(w)[:PREFIX])
        for w in words
        if w not in SMALL_WORDS | NEGATORS | LINKS | _FILLER and len(w) > 1
    ]


#: A number glued to a name or an operator is part of a formula or a name ("fp32", "2L",
#: "1/√d", "x^2"), no figure of its own.
_GLUED_BEFORE = re.compile(r"[^\W\d_]|[/(^*_√]")
_GLUED_AFTER = re.compile(r"[/(^*_√]|[^\W\d_xX]|[xX]\w")


#: A power said in words after a number ("8 squared" is 64, no figure 8 of its own).
_POWER_AFTER = re.compile(r"\s*(?:squared|cubed)\b", re.IGNORECASE)
#: What makes a number an operand of a formula, spaced or not ("− 2 log 2", "log 4", "x + 1").
_OPERAND_OF = re.compile(
    r"(?:[-+*/^·×−]|\b(?:log|ln|exp|sqrt|sin|cos|tanh|minus|plus|times))\s*$", re.IGNORECASE
)


def _glued(text: str, match: re.Match[str]) -> bool:
    if match.group("word"):
        return False
    start, end = match.start(), match.end("high") if match.group("high") else match.end("number")
    before = text[start - 1 : start] if start else ""
    return bool(
        (before and _GLUED_BEFORE.match(before))
        or _GLUED_AFTER.match(text, end) is not None
        or _POWER_AFTER.match(text, end) is not None
        or _OPERAND_OF.search(text, max(0, start - 12), start) is not None
    )


def figures(text: str, *, glued: bool = False) -> tuple[Figure, ...]:
    """The figures of ``text`` with their kind and the words around them; with ``glued``,
    numbers glued to a name or operator too (what they count left empty)."""
    found = []
    for match in _FIGURE.finditer(text):
        high = None
        # a fraction is of whole numbers ("1/61"); "0.45/0.55" is a pair, read as a formula
        is_glued = _glued(text, match) or bool(
            match.group("number") and "/" in match.group("number") and "." in match.group("number")
        )
        if is_glued and not glued:
            continue
        if match.group("word"):
            word = match.group("word").lower()
            if (
                word in _FRACTION_WORDS
                and word != "half"
                and not _ARTICLE.search(text, 0, match.start())
            ):
                continue  # "the third method" is no fraction; "a third of it" is
            value = _FRACTION_WORDS.get(word) or _MULTIPLE_WORDS[word]
            kind = "multiple" if word in _MULTIPLE_WORDS else "plain"
        else:
            number = _value(match.group("number"))
            if number is None:
                continue
            value = number
            high = _value(match.group("high")) if match.group("high") else None
            unit = (match.group("unit") or "").lower()
            if not unit and (
                _TIMES.match(text, match.end()) or _FACTOR.search(text, 0, match.start())
            ):
                unit = "x"  # "64 times", "by a factor of 64"
            if not unit and _PERCENT.match(text, match.end()):
                unit = "%"  # "sixty-four percent" is 64%
            kind = "percent" if unit == "%" else "multiple" if unit else "plain"
        # what the figure counts: the word right after it ("20 *tokens*", "8x *smaller*")
        # and the one right before ("a spread of about *0.7*")
        next_words = _NEXT.match(text, match.end())
        after = _keys(next_words.group() if next_words else "")[:1]
        head = text[max(0, match.start() - 40) : match.start()]
        before = _keys(_PIECE_END.split(head)[-1])[-1:]
        around = frozenset() if is_glued else frozenset(after + before)
        found.append(Figure(value, kind, around, high))
    return tuple(found)


@lru_cache(maxsize=1 << 10)
def _say_figures(say: str) -> tuple[Figure, ...]:
    return figures(say, glued=True)


@lru_cache(maxsize=256)
def _text_figures(sentence: str) -> tuple[Figure, ...]:
    return figures(sentence)  # once per sentence, however many points ask


def _same(a: float, b: float, kind: str = "plain") -> bool:
    if kind == "percent":  # "90%" is no rounding of "99%"
        return abs(a - b) <= PERCENT_POINTS
    return abs(a - b) <= SAME * max(abs(a), abs(b), 1e-12)


def contradicted(say: str, sentence: str, values: Sequence[float] = ()) -> bool:
    """Whether ``sentence`` gives a figure of the model sentence ``say`` wrongly: a figure of
    the same kind said of a word the say's figure is said of, equal to no figure of the
    sentence there, equal to no figure of the say of its kind, and within none of ``values``
    (the point's)."""
    said = _say_figures(say)
    if not said:
        return False
    written = _text_figures(sentence)
    for own in said:
        rivals = [f for f in written if f.kind == own.kind and f.around & own.around]
        if not rivals or any(f.meets(own) for f in rivals):
            continue
        # the sentence writes the say's figure elsewhere ("chance cosines are ~0.04, a 0.2 is
        # a real signal"), unless that is the say's other figure of the same value ("99%
        # negatives ... 90% accuracy" against "99% negatives ... 99% accurate")
        if any(
            f.kind == own.kind
            and f.meets(own)
            and not any(o is not own and o.around & f.around and o.meets(f) for o in said)
            for f in written
        ):
            continue
        # a rival that is another figure of the say's ("fp32" beside "16-bit") or one of the
        # point's values says nothing wrong
        if all(
            any(f.meets(other) for other in said if other.kind == f.kind)
            or any(_same(f.value, v) for v in values)
            for f in rivals
        ):
            continue
        return True
    return False


def sentences(text: str) -> list[str]:
    """The text cut into sentences (a full stop between digits is a decimal point)."""
    return [part for part in _SENTENCE.split(text) if part.strip()]
