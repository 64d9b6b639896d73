"""Typed explanations checked point by point, without a language model.

An explain card may declare its key points (:class:`recall.cards.model.KeyPoint`): the model
sentence, and the phrasings that count as saying it. This module decides which points a typed
explanation makes, and the verdict and suggested rating that follow.

How a phrasing is matched, and why:

* **Words, not strings.** Text and phrasing are cut into words, lower-cased, with British
  spellings folded into American ones (``normalise`` and ``normalize``) and contractions opened
  (``doesn't`` is ``does not``), then reduced to their stems (Snowball's English stemmer), so
  ``depends``, ``depending`` and ``dependence`` are one word. Small words (``the``, ``of``, ``is``)
  carry no point and are left out of phrasings.
* **One clause.** Every word of a phrasing must occur in the same clause of the text (clauses end
  at ``.``, ``;``, ``!``, ``?``, a line break, and at ``but``/``whereas``/``although``), in any
  order: a learner who writes "the KL divergence is the only part that moves" says the same as
  "only the KL term changes".
* **Slips forgiven.** A word of six letters or more may be one key off (``preceeding``), ten or
  more two keys, the same as the deck format's spelling rule (:mod:`recall.spelling`).
* **Negation flips a point.** A ``not``/``no``/``never``/``without`` (or ``n't``) governs the
  words after it up to a comma or the clause's end (at most six words). A phrasing without a
  negation is not made by a clause whose matched words are negated ("does *not* depend on the
  parameters" does not say "depends on the parameters"), and a phrasing with one needs it.
* **Formulas and numbers are graded, not read.** Runs of the text that look like math are read
  with the engine's own grammar and compared with the point's formulas by the engine, an
  equation as an equation (:mod:`recall.grading.explain_formulas`); numbers are compared within
  the point's margin. A phrasing whose words were all read off a formula of the text that the
  engine grades wrong for the point (``√(p(1 + p)/n)`` for ``p 1 p n``) does not make it.

The verdict is correct when at least half the points are made; the rating it suggests is Good
when every point is made and Hard when some are missed (Hard still passes), Again below half.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from recall.cards.model import Card, KeyPoint
from recall.formula import Status, SymbolTable, Verdict
from recall.grading.explain_formulas import FormulaGrader
from recall.grading.explain_formulas import formula_spans as formula_spans
from recall.spelling import edit_distance
from recall.verdicts import PointOutcome

#: Longest explanation read (characters); the rest is ignored, said in the verdict.
MAX_TEXT = 4000
#: Share of the points that makes an explanation pass.
PASS_SHARE = 0.5

_NEGATORS = frozenset(
    {"not", "no", "never", "none", "nothing", "neither", "nor", "without", "nobody", "nowhere"}
)
#: Words that carry no point: never required by a phrasing.
_SMALL_WORDS = frozenset(
    """a an the of to in on at by for from with as and or is are was were be been being it its
    this that these those there here which who whom whose what so than then do does did has have
    had will would can could should may might must shall we you they he she i our your their
    his her them us my me just very really also""".split()
)
_CLAUSE_BREAK = re.compile(
    r"[.;!?\n]+(?:\s|$)|[.;!?\n]+(?=[^\w])|\b(?:but|whereas|although|though|however)\b"
)
_WORD = re.compile(r"[^\W_]+(?:[_'’][^\W_]+)*|,")
_CONTRACTION = re.compile(r"(\w+)n['’]t\b")
_IRREGULAR_NOT = {"can": "can", "won": "will", "shan": "shall", "ain": "is"}
_BRITISH_ISE = re.compile(r"(?<=\w{3})is(e|es|ed|ing|ation|ations|er|ers)\b")
_BRITISH_OUR = re.compile(r"(?<=\w{3})our(s?)\b")
_BRITISH_YSE = re.compile(r"(?<=\w{3})ys(e|es|ed|ing)\b")
_NEGATION_SCOPE = 6
#: Words that end a negation's reach ("does not depend on the data, *so* the KL is what moves").
_SCOPE_ENDS = frozenset(
    "so because since which that then therefore thus hence while whereas and".split()
)

_NUMBER = re.compile(r"(?<![\w.])[-−]?\d+(?:[.,]\d+)?(?:[eE][-+−]?\d+)?(%?)")


@dataclass(frozen=True)
class _Token:
    """A word of the text: its stem, the word as written (folded) and whether a negation
    governs it."""

    stem: str
    word: str
    negated: bool


@dataclass(frozen=True)
class _Slot:
    """A word a phrasing requires: any of its alternatives (``a|b``)."""

    stems: tuple[str, ...]
    words: tuple[str, ...]


@dataclass(frozen=True)
class Phrasing:
    """A phrasing read once: its required word slots and whether it is negated."""

    slots: tuple[_Slot, ...]
    negated: bool

    @classmethod
    def read(cls, text: str) -> Phrasing:
        """``"entropy not depend weights|parameters"`` → three slots, negated."""
        slots = []
        negated = False
        for raw in _normalised(text).split():
            # A phrasing word is cut as the text is ("one-hot", "0.2" and "h(p)" are several
            # words there), else it could never match; each piece is then a word of its own.
            # (Alternatives, "a|b", are taken whole.)
            if "|" not in raw and len(_WORD.findall(raw)) > 1:
                for word in _WORD.findall(raw):
                    if word != "," and word not in _SMALL_WORDS and word not in _NEGATORS:
                        folded = _folded(word)
                        slots.append(_Slot((_stem(folded),), (folded,)))
                continue
            options = [option for option in raw.split("|") if option]
            plain = [option for option in options if option not in _SMALL_WORDS]
            if plain and all(option in _NEGATORS for option in plain):
                negated = not negated
                continue
            if not plain:
                continue
            words = tuple(_folded(option) for option in plain)
            slots.append(_Slot(tuple(_stem(w) for w in words), words))
        return cls(tuple(slots), negated)


@dataclass(frozen=True)
class Explanation:
    """What a checked explanation made of the card's points."""

    outcomes: tuple[PointOutcome, ...]

    @property
    def made(self) -> int:
        return sum(outcome.made for outcome in self.outcomes)

    @property
    def total(self) -> int:
        return len(self.outcomes)

    @property
    def passed(self) -> bool:
        return self.total > 0 and self.made >= PASS_SHARE * self.total

    @property
    def complete(self) -> bool:
        return self.total > 0 and self.made == self.total


def check_explanation(card: Card, text: str, table: SymbolTable | None = None) -> Explanation:
    """Which of ``card``'s key points ``text`` makes."""
    text = text[:MAX_TEXT]
    clauses = list(_clauses(text))
    formulas: FormulaGrader | None = None
    outcomes = []
    for point in card.points:
        evidence = _by_words(point, clauses)
        if evidence is None and point.values:
            evidence = _by_value(point, text)
        if point.formulas and (evidence is None or _read_from_math(evidence)):
            if formulas is None:
                formulas = FormulaGrader.of(text, table or SymbolTable.build(strict=False))
            if evidence is None:
                evidence = formulas.evidence(point.formulas)
            elif _within_any(evidence, formulas.miswritten(point.formulas)):
                # the phrasing's words were read off a formula the engine grades wrong
                evidence = None
        outcomes.append(PointOutcome(say=point.say, made=evidence is not None, said=evidence or ""))
    return Explanation(tuple(outcomes))


def _read_from_math(said: str) -> bool:
    """Whether a phrasing's matched words could have been read off a formula (a short word,
    a number or a Greek letter among them): only then is the formula path asked about them."""
    return any(len(word) <= 2 or not word.isascii() or word.isdigit() for word in said.split())


def _within_any(said: str, texts: Sequence[str]) -> bool:
    """Whether every word of ``said`` is a word of one of ``texts``, read as the text is."""
    wanted = set(said.split())
    for text in texts:
        words = {_folded(raw) for raw in _WORD.findall(_normalised(text)) if raw != ","}
        if wanted <= words:
            return True
    return False


def grade_explanation(card: Card, text: str, table: SymbolTable | None = None) -> Verdict:
    """The verdict on a typed explanation of an explain card with key points."""
    result = check_explanation(card, text, table)
    if result.complete:
        message = f"Every key point made ({result.total} of {result.total})."
    elif result.passed:
        message = f"{result.made} of {result.total} key points made: passed, with some left out."
    else:
        message = f"{result.made} of {result.total} key points made: fewer than half."
    if len(text) > MAX_TEXT:
        message += f" (only the first {MAX_TEXT:,} characters were read)"
    return Verdict(
        status=Status.CORRECT if result.passed else Status.INCORRECT,
        method="points",
        message=message,
        expected=card.model_answer,
        points=result.outcomes,
    )


# --- words ------------------------------------------------------------------------------------


def _by_words(point: KeyPoint, clauses: Sequence[tuple[_Token, ...]]) -> str | None:
    for phrase_text in point.words:
        phrasing = _phrasing(phrase_text)
        if not phrasing.slots:
            continue
        for clause in clauses:
            matched = _match(phrasing, clause)
            if matched is not None:
                return matched
    return None


def _match(phrasing: Phrasing, clause: tuple[_Token, ...]) -> str | None:
    """The clause's words that say the phrasing, or ``None``."""
    found: list[_Token] = []
    for slot in phrasing.slots:
        # A word may occur twice in a clause, once negated ("does not depend on the data, so
        # only the KL depends on it"): take the occurrence whose negation suits the phrasing.
        takers = [t for t in clause if _slot_takes(slot, t)]
        if not takers:
            return None
        suited = [t for t in takers if t.negated == phrasing.negated]
        found.append((suited or takers)[0])
    if any(token.negated for token in found) != phrasing.negated:
        return None
    return " ".join(dict.fromkeys(token.word for token in found))


def _slot_takes(slot: _Slot, token: _Token) -> bool:
    if token.stem in slot.stems:
        return True
    for word in slot.words:
        allowance = 2 if len(word) >= 10 else 1 if len(word) >= 6 else 0
        if allowance and word[0] == token.word[:1]:
            if edit_distance(word, token.word, allowance) <= allowance:
                return True
    return False


def _clauses(text: str) -> Iterator[tuple[_Token, ...]]:
    """The text's clauses as tokens, each marked when a negation governs it."""
    for piece in _CLAUSE_BREAK.split(_normalised(text)):
        tokens: list[_Token] = []
        scope = 0
        for raw in _WORD.findall(piece):
            if raw == ",":
                scope = 0
                continue
            word = _folded(raw)
            if word in _NEGATORS and not _only_intensifier(piece, raw):
                scope = _NEGATION_SCOPE
                continue
            if word in _SCOPE_ENDS:
                scope = 0
            if word in _SMALL_WORDS:
                continue
            tokens.append(_Token(_stem(word), word, negated=scope > 0))
            scope = max(scope - 1, 0)
        if tokens:
            yield tuple(tokens)


def _only_intensifier(piece: str, raw: str) -> bool:
    """``not only`` (and ``no doubt``) add, they do not negate."""
    return bool(re.search(rf"\b{re.escape(raw)}\s+(only|just|doubt)\b", piece))


def _normalised(text: str) -> str:
    text = text.lower().replace("’", "'").replace("+", " plus ")
    text = _CONTRACTION.sub(lambda m: f"{_IRREGULAR_NOT.get(m.group(1), m.group(1))} not", text)
    text = text.replace("cannot", "can not")
    text = _BRITISH_ISE.sub(r"iz\1", text)
    text = _BRITISH_YSE.sub(r"yz\1", text)
    return _BRITISH_OUR.sub(r"or\1", text)


def _folded(word: str) -> str:
    return word.replace("'", "").replace("_", "")


@lru_cache(maxsize=4096)
def _stem(word: str) -> str:
    return _stemmer().stemWord(word)


@lru_cache(maxsize=1)
def _stemmer():  # type: ignore[no-untyped-def]
    import snowballstemmer

    return snowballstemmer.stemmer("english")


@lru_cache(maxsize=2048)
def _phrasing(text: str) -> Phrasing:
    return Phrasing.read(text)


# --- numbers and formulas --------------------------------------------------------------------


def _by_value(point: KeyPoint, text: str) -> str | None:
    for match in _NUMBER.finditer(text):
        raw = match.group().replace("−", "-").replace(",", ".")
        percent = raw.endswith("%")
        try:
            number = float(raw.rstrip("%"))
        except ValueError:
            continue
        candidates = (number / 100, number) if percent else (number,)
        for value in point.values:
            margin = value.within + 1e-12 * max(1.0, abs(value.value))
            if any(abs(candidate - value.value) <= margin for candidate in candidates):
                return match.group()
    return None
