"""Numbers a learner spells out, read as the digits they stand for (for
:mod:`recall.grading.explain`).

A learner who says an explanation rather than types it writes "seven hundred sixty-eight
dimensions", "a spread of about seven tenths", "point zero one three", "one point three
points", "half a percent". The key points of the decks write their numbers with digits
(values, formulas, phrasings such as ``"0 013"`` or ``"2>minus>2>cos"``), so a spelt-out number
of several words is rewritten as digits before the text is read: ``768``, ``0.7``, ``0.013``,
``1.3``, ``0.5 percent``.

A lone number word stays a word ("two features", "one-hot", "zero gradient"): it is mostly no
quantity ("one key gets all the weight"), and where a phrasing wants it, the phrasing's digit and
the word are one (:func:`twins`). The exceptions are a lone word before a fraction's name
("seven tenths") or "percent" ("ninety percent"), and "a hundred"/"a thousand", which are
always quantities, as is a fraction's name after "a" and before "of" ("a tenth of a nat").

(A library such as text2num converts cardinals, but reads neither "point zero one three" nor
"four hundredths", which learners write; this reader is small and linear.)
"""

from __future__ import annotations

import re

_UNITS = {
    word: n for n, word in enumerate("zero one two three four five six seven eight nine".split())
} | {"nought": 0, "oh": 0}
_TEENS = {
    word: n + 10
    for n, word in enumerate(
        "ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
    )
}
_TENS = {
    word: 10 * (n + 2)
    for n, word in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split())
}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_FRACTIONS = {
    "half": 2,
    "halves": 2,
    "third": 3,
    "thirds": 3,
    "quarter": 4,
    "quarters": 4,
    "tenth": 10,
    "tenths": 10,
    "hundredth": 100,
    "hundredths": 100,
    "thousandth": 1000,
    "thousandths": 1000,
}
_CARDINAL = _UNITS | _TEENS | _TENS | _SCALES
#: Words before "point" that make it a noun ("at this point two things happen"), not a decimal
#: point.
_POINT_NOUN = frozenset(
    "a the this that each every some any which what no one's its key main whole data my your "
    "starting end".split()
)

#: "one" is left out: mostly no number ("variance one, d_k of them" is no "variance 1/d_k").
_TWINS: dict[str, str] = {
    word: str(n)
    for word, n in (_UNITS | _TEENS | _TENS | _SCALES).items()
    if word not in ("oh", "one")
}


def twins(word: str) -> tuple[str, ...]:
    """The other spellings of a small number: ``"2"`` is also ``"two"`` and ``"two"`` is
    ``"2"`` (a phrasing's number matches the learner's either way); ``()`` for other words."""
    if word in _TWINS:
        return (_TWINS[word],)
    return tuple(w for w, digits in _TWINS.items() if digits == word and w != "nought")


def spelt_numbers(text: str) -> str:
    """``text`` with each spelt-out number of several words written in digits
    (:mod:`recall.grading.explain_numbers`)."""
    text = _HALF_PERCENT.sub("0.5 ", text)
    if not _WORD_RUN.search(text):
        return text
    out: list[str] = []
    last = 0
    for run in _WORD_RUN.finditer(text):
        tokens = [
            (m.group().lower(), run.start() + m.start(), run.start() + m.end())
            for m in re.finditer(r"[A-Za-z]+", run.group())
        ]
        k = 0
        while k < len(tokens):
            found = _number_at(text, tokens, k)
            if found is None:
                k += 1
                continue
            k, begin, end, digits = found
            out.append(text[last:begin])
            out.append(digits)
            last = end
    out.append(text[last:])
    return "".join(out)


_HALF_PERCENT = re.compile(r"\bhalf (?:of )?(?:a )?(?=per ?cent\b)", re.IGNORECASE)
_Found = tuple[int, int, int, str]
_PERCENT = re.compile(r"[\s-]*per\s?cent\b", re.IGNORECASE)
_NEXT_WORD = re.compile(r"[\s-]+([A-Za-z]+)\b")


def _number_at(text: str, tokens: list[tuple[str, int, int]], i: int) -> _Found | None:
    """The number spelt from ``tokens[i]`` on: the index of the token after it, its span in
    the text and its digits; ``None`` where none starts, or only a lone word."""
    word = tokens[i][0]
    if word == "a":
        if i + 1 < len(tokens) and tokens[i + 1][0] in _SCALES:
            # "a hundred and twelve": the number goes on after its scale
            longer = _cardinal(text, tokens, i + 1)
            if longer is not None:
                return longer[0], tokens[i][1], longer[2], longer[3]
            return _finish(text, tokens, i, [tokens[i + 1][0]], i + 2)
        return _a_fraction(text, tokens, i)
    if word == "point":
        if not _decimal_at(tokens, i) or _point_is_noun(text, tokens[i][1]):
            return None
        return _decimal(tokens, i, i, integer="0")
    if word not in _CARDINAL or word == "oh":
        return None
    return _cardinal(text, tokens, i)


#: "a tenth of a nat", "a quarter of the memory": a fraction's name after "a" and before "of"
#: is the fraction ("a third term" is an ordinal, and "half" is left to its own words).
_A_FRACTION = {"third": 3, "quarter": 4, "tenth": 10, "hundredth": 100, "thousandth": 1000}
_OF = re.compile(r"\s+of\b", re.IGNORECASE)


_WORD_RUN = re.compile(
    r"\b(?:(?:a|" + "|".join([*_CARDINAL, *_A_FRACTION]) + r"|point|and)(?:[\s-]+|\b))+",
    re.IGNORECASE,
)


def _a_fraction(text: str, tokens: list[tuple[str, int, int]], i: int) -> _Found | None:
    if i + 1 >= len(tokens) or tokens[i + 1][0] not in _A_FRACTION:
        return None
    end = tokens[i + 1][2]
    if not _OF.match(text, end):
        return None
    return i + 2, tokens[i][1], end, _plain(1 / _A_FRACTION[tokens[i + 1][0]])


def _decimal_at(tokens: list[tuple[str, int, int]], i: int) -> bool:
    return tokens[i][0] == "point" and i + 1 < len(tokens) and tokens[i + 1][0] in _UNITS


def _point_is_noun(text: str, at: int) -> bool:
    before = [w.lower() for w in re.findall(r"[A-Za-z']+", text[max(0, at - 30) : at])]
    if before[-2:] == ["to", "the"]:
        return False  # "e to the point seven": a power
    return bool(before) and before[-1] in _POINT_NOUN


def _cardinal(text: str, tokens: list[tuple[str, int, int]], first: int) -> _Found | None:
    """A whole number from ``tokens[first]`` on (``thirty-one``, ``seven hundred and
    sixty-eight``), then a decimal part or a fraction's name if one follows."""
    parts: list[str] = []
    k = first
    previous = ""
    while k < len(tokens):
        word = tokens[k][0]
        if word == "and" and previous in _SCALES and k + 1 < len(tokens):
            following = tokens[k + 1][0]
            if following in _UNITS or following in _TEENS or following in _TENS:
                k += 1
                continue
            break
        if word not in _CARDINAL or word == "oh" or not _follows(previous, word):
            break
        parts.append(word)
        previous = word
        k += 1
    if not parts:
        return None
    return _finish(text, tokens, first, parts, k)


def _follows(previous: str, word: str) -> bool:
    """Whether ``word`` continues a number ending in ``previous`` ("thirty" "one", "seven"
    "hundred"); two units or two tens in a row are two numbers ("one two", "fifty-fifty")."""
    if not previous:
        return True
    if word in _SCALES:
        return previous not in _SCALES or _SCALES[previous] < _SCALES[word]
    if previous in _TENS:
        return word in _UNITS and word not in ("zero", "nought")
    return previous in _SCALES


def _finish(
    text: str, tokens: list[tuple[str, int, int]], first: int, parts: list[str], k: int
) -> _Found | None:
    value = _value(parts)
    if k < len(tokens) and _decimal_at(tokens, k):
        return _decimal(tokens, first, k, integer=str(value))
    span_end = tokens[k - 1][2]
    fraction = _NEXT_WORD.match(text, span_end)
    if fraction and fraction.group(1).lower() in _FRACTIONS and value:
        denominator = _FRACTIONS[fraction.group(1).lower()]
        after = fraction.end()
        while k < len(tokens) and tokens[k][1] < after:
            k += 1
        return k, tokens[first][1], after, _plain(value / denominator)
    if len(parts) == 1 and tokens[first][0] != "a" and not _PERCENT.match(text, span_end):
        return None  # a lone word stays a word, but for a percentage ("ninety percent")
    return k, tokens[first][1], span_end, str(value)


def _decimal(
    tokens: list[tuple[str, int, int]], first: int, point: int, *, integer: str
) -> _Found | None:
    digits = []
    k = point + 1
    while k < len(tokens) and tokens[k][0] in _UNITS and tokens[k][0] != "oh":
        digits.append(str(_UNITS[tokens[k][0]]))
        k += 1
    if not digits:
        return None
    return k, tokens[first][1], tokens[k - 1][2], f"{integer}.{''.join(digits)}"


def _value(words: list[str]) -> int:
    total = current = 0
    for word in words:
        if word in _SCALES:
            scale = _SCALES[word]
            if scale >= 1000:
                total += max(current, 1) * scale
                current = 0
            else:
                current = max(current, 1) * scale
        else:
            current += _CARDINAL[word]
    return total + current


def _plain(number: float) -> str:
    return f"{number:.6f}".rstrip("0").rstrip(".")
