"""Answers on screen before grading: every card's visible text graded against its own answer.

A learner sees, before answering a card, its prompt (with a cloze blank), its shown formula, the
legend of names it may type (with their meanings), its hint and unit on request, and the deck's
name and id above them; across a session, the visible text of the deck's other cards too. This
module grades what that text holds with the real graders (:func:`recall.grading.grade`):

* a math answer (formula, math cloze): every formula-like piece of the text (a run of math, each
  side of an ``=``, each bracket's content, each name) is graded; *Correct* is a leak, as
  ``exp(s_j)`` on the screen of a card whose answer is ``s_j`` is (its content is graded too);
* a word answer (reverse, word cloze): every run of up to a few words is graded, so ``the
  shift`` in a prompt answers a card that accepts ``shift``, and a forgiven typo counts too;
* a fact's value: every number of the text (a numeric card's answer is drawn anew for each
  review, so no fixed text can give it).

What the check reports for a card's *own* screen is a fault of the card (a test keeps the
built-in decks at zero). What another card shows is a giveaway between the two, which sibling
burying handles (:mod:`recall.cards.siblings`: after one is reviewed the other waits until the
next day). On another card only distinctive pieces count (:func:`distinctive`: ``α`` or ``8``
elsewhere in a deck is notation), a percent card's value only written as a percent, and a name
only as it is (no typos); an answer shown by more than :data:`~recall.cards.siblings.MAX_SPREAD`
other cards is the deck's vocabulary and only listed. ``recall decks check`` prints all of it
for deck authors.

The graders are the learner's: the check says what a learner who copies the screen would get.
It runs in the check command and the test suite, never at start-up (it needs the engine).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from recall.cards.matching import forms, is_symbolic, symbolic_form, typo_allowance
from recall.cards.model import Card, CardKind, Deck
from recall.cards.siblings import (
    MAX_SPREAD,
    MIN_MATH,
    MIN_WORDS,
    legend,
    math_key,
    spell_greek,
)
from recall.errors import RecallError
from recall.formula.compare import status_only
from recall.grading.dispatch import grade
from recall.grading.expressions import without_label
from recall.grading.question import asked_prompt
from recall.spelling import edit_distance
from recall.verdicts import Status

#: Longest piece of text graded as a formula (characters): longer runs are prose.
MAX_PIECE = 160
#: Longest run of words graded as a name, beyond the longest name the card accepts, and the most
#: in any run (a name of fifty words in a custom deck does not make every text cost fifty-fold).
EXTRA_WORDS = 1
MAX_RUN_WORDS = 8


@dataclass(frozen=True, order=True)
class ShownAnswer:
    """``card``'s answer can be read off ``field`` of ``by`` (``by == card`` for its own
    screen; ``by == ""`` for the deck's name), where ``matched`` grades as the answer."""

    card: str
    by: str
    field: str
    matched: str

    @property
    def own(self) -> bool:
        """Whether the card gives its own answer away (a fault of the card)."""
        return self.by in (self.card, "")


@dataclass(frozen=True)
class DeckLeaks:
    """What :func:`deck_leaks` found in one deck."""

    deck: str
    own: tuple[ShownAnswer, ...] = ()
    across: tuple[ShownAnswer, ...] = ()
    vocabulary: tuple[ShownAnswer, ...] = ()
    siblings: frozenset[tuple[str, str]] = field(default_factory=frozenset)

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """The cards whose texts answer each other, as sorted unordered pairs."""
        return sorted({_pair(leak.card, leak.by) for leak in self.across})

    @property
    def unburied(self) -> list[ShownAnswer]:
        """Giveaways between two cards that are not siblings (so may come up together)."""
        return [leak for leak in self.across if _pair(leak.card, leak.by) not in self.siblings]


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def visible_fields(card: Card) -> dict[str, str]:
    """What the drill screen shows of ``card`` before it is answered, by field (the deck's name
    and id are the deck's: :func:`deck_fields`). The legend is the names' meanings
    (:func:`recall.cards.siblings.legend`, which the loader's sibling finder reads too): the
    names themselves are what the learner may type."""
    fields = {
        "prompt": asked_prompt(card),
        "shown": card.shown,
        "legend": legend(card),
        "hint": card.hint,
        "unit": card.unit,
    }
    return {name: text for name, text in fields.items() if text.strip()}


def deck_fields(deck: Deck) -> dict[str, str]:
    """The deck's name and id, shown above every card of it."""
    return {"deck": f"{deck.id}\n{deck.name}"}


# ----------------------------------------------------------------------------- pieces of text

#: Characters that make a word a piece of math.
_MATHY = set("()[]{}^_/*+=−–-√·⋅‖|²³ᵀ'<>≤≥∑Σ∏∫∇∂≈∝→⊙ᵢⱼₜ₀₁₂")
#: Short English words that are not names.
_SMALL_WORDS = frozenset(
    "a an as at be by do go if in is it no of on or so to up we an vs per the and for are its "
    "not one two all any how why was has had can may use out off our own but".split()
)
#: Where a run of math splits into the formulas it relates.
_SPLITTERS = "=,;:≈∝→←⇒≡≤≥<>"
_OPEN, _CLOSE = "([{", ")]}"
_IDENTIFIER = re.compile(r"[^\W\d][\w']*(?:_(?:\([^()]*\)|\{[^{}]*\}|[^\W_]+))?")
_NUMBER = re.compile(r"(?<![\w.])[−-]?\d[\d,]*(?:\.\d+)?(?:e[−-]?\d+)?%?(?![\w])")
#: A word (with its inner hyphens and apostrophes), or one sign on its own (``−``, ``∞``).
_SIGN = re.compile(r"(?:^|\s)[^\w\s'’-](?:\s|$)")
_WORD = re.compile(r"[\w'’]+(?:[-–][\w'’]+)*|[^\s\w.,;:!?\"“”]")


def _is_mathy(word: str) -> bool:
    word = word.strip(".,;:!?")
    if not word or word in ("{{}}", "▢"):  # the blank
        return False
    if any(char in _MATHY or char.isdigit() for char in word):
        return True
    if any("\u0370" <= char <= "\u03ff" or "\u1f00" <= char <= "\u1fff" for char in word):
        return True
    return len(word) <= 2 and word.isalpha() and word.lower() not in _SMALL_WORDS


def _top_level_split(text: str, separators: str) -> list[str]:
    """``text`` split at ``separators`` outside every bracket."""
    pieces, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth = max(0, depth - 1)
        elif char in separators and depth == 0:
            pieces.append(text[start:index])
            start = index + 1
    pieces.append(text[start:])
    return pieces


def _bracket_contents(text: str) -> list[str]:
    """The content of every bracket pair of ``text`` (nested ones too)."""
    out, stack = [], []
    for index, char in enumerate(text):
        if char in _OPEN:
            stack.append(index)
        elif char in _CLOSE and stack:
            start = stack.pop()
            out.append(text[start + 1 : index])
    return out


def _plain(text: str) -> str:
    """LaTeX as typed text when the engine can read it, else the text as it is."""
    from recall.formula.latex import latex_to_plain, looks_like_latex

    if not looks_like_latex(text):
        return text
    try:
        return latex_to_plain(text)
    except RecallError:
        return text


def math_pieces(text: str) -> list[str]:
    """The formula-like pieces of ``text``, each once: runs of math words, their parts either
    side of ``=`` (and ``,``, ``:``), every bracket's content, and every name."""
    runs: list[str] = []
    for line in re.split(r"\\qquad|\\quad|\n", text):
        plain = _plain(line)
        for source in dict.fromkeys((line, plain)):
            current: list[str] = []
            for word in source.split():
                if _is_mathy(word):
                    current.append(word)
                    continue
                if current:
                    runs.append(" ".join(current))
                current = []
            if current:
                runs.append(" ".join(current))
    pieces: list[str] = []
    for run in runs:
        run = run.strip(" .,;:")
        for piece in [run, *_top_level_split(run, _SPLITTERS)]:
            pieces.append(piece)
            for inner in _bracket_contents(piece):
                pieces += _top_level_split(inner, ",;")
        pieces += _IDENTIFIER.findall(run)
    cleaned = (piece.strip(" .,;:") for piece in pieces)
    return [p for p in dict.fromkeys(cleaned) if p and len(p) <= MAX_PIECE and p.strip("{}▢")]


def word_runs(text: str, longest: int) -> list[str]:
    """Every run of 1 to ``longest`` consecutive words of ``text``, each once."""
    words = _WORD.findall(text)
    out = []
    for start in range(len(words)):
        for size in range(1, longest + 1):
            if start + size <= len(words):
                out.append(" ".join(words[start : start + size]))
    return list(dict.fromkeys(out))


def numbers_in(text: str) -> list[str]:
    """The numbers of ``text`` as written (``0.25``, ``1,024``, ``45%``), each once."""
    return list(dict.fromkeys(match.group() for match in _NUMBER.finditer(text)))


# ----------------------------------------------------------------------------- grading them


def _kind_of_answer(card: Card) -> str:
    if card.kind in (CardKind.FORMULA,) or (card.kind is CardKind.CLOZE and card.answer):
        return "math"
    if card.kind in (CardKind.REVERSE, CardKind.CLOZE):
        return "words"
    if card.kind is CardKind.FACT:
        return "number"
    return ""  # explain: self-rated; numeric: its answer is drawn anew for every review


class _Grader:
    """One card's answer, graded against pieces of text (each piece once)."""

    def __init__(self, card: Card, others: Sequence[str], *, diagnose: bool = False) -> None:
        """``diagnose``: grade as the drill screen does, saying why a piece is wrong (the
        status is the same either way; without it a wrong formula is not diagnosed)."""
        self.card = card
        self.diagnose = diagnose
        self.kind = _kind_of_answer(card)
        self.others = tuple(others)
        self.seen: dict[str, bool] = {}
        self.accepted = frozenset(form for name in card.accept for form in _forms(name))
        self.symbolic = {_symbolic(name) for name in card.accept if is_symbolic(name)}
        longest = max((len(name.split()) for name in card.accept), default=1) + EXTRA_WORDS
        self.longest = min(longest, MAX_RUN_WORDS)
        self.names = _declared_names(card)
        self.legend_names = frozenset(symbol.name for symbol in card.symbols)
        self.key = math_key(card.answer) if self.kind == "math" else ""

    def correct(self, piece: str) -> bool:
        known = self.seen.get(piece)
        if known is None:
            try:
                if self.diagnose:
                    verdict = grade(self.card, piece, others=self.others)
                else:
                    with status_only():
                        verdict = grade(self.card, piece, others=self.others)
            except (RecallError, RecursionError, ValueError, ArithmeticError):
                known = False
            else:
                known = verdict.status is Status.CORRECT
            self.seen[piece] = known
        return known

    def pieces(self, text: str, own: bool) -> list[str]:
        """The pieces of ``text`` worth grading against this card's answer: on the card's own
        screen every piece; on another card's, only a distinctive one (see
        :func:`distinctive`)."""
        found = [piece for piece in self._pieces(text, own) if not self._legend_name(piece)]
        # A label's equation (``h̃ = h``) is graded by its right side, so it is as distinctive
        # as that side is.
        return found if own else [p for p in found if distinctive(without_label(p)[1])]

    def _legend_name(self, piece: str) -> bool:
        """``s`` beside a card whose legend names ``s_j``: the grader reads a name typed without
        its index as the card's indexed name, so a bare letter is that legend name in another
        spelling, and the legend's names are not searched."""
        return bool(_IDENTIFIER.fullmatch(piece)) and any(
            name.startswith(piece + "_") for name in self.legend_names
        )

    def _pieces(self, text: str, own: bool) -> list[str]:
        if self.kind == "math":
            pieces = list(_cached_math_pieces(text))
            if own:
                return pieces
            if not self.names:  # a number: only a number shows it
                return [p for p in pieces if _NUMBER.fullmatch(p)]
            return [p for p in pieces if self.names <= set(_IDENTIFIER.findall(_spelled(p)))]
        if self.kind == "words":  # words as the screen draws them: LaTeX is rendered
            shown = " ".join(_plain(line) for line in text.splitlines())
            runs = word_runs(shown, self.longest)
            if not self.symbolic:  # a sign in a run is math, not part of a name
                runs = [run for run in runs if not _SIGN.search(run)]
            return [run for run in runs if self._may_name(run, typos=own)]
        if self.kind == "number":
            numbers = numbers_in(text)
            if not own and self.card.unit.startswith("%"):
                # a bare fraction on another card (a weight decay of 0.1) is another quantity,
                # even where this card would read it as a percentage typed as a fraction
                numbers = [number for number in numbers if number.endswith("%")]
            return numbers
        return []

    def _may_name(self, run: str, *, typos: bool) -> bool:
        """Whether ``run`` is one of the card's names, in a form the name matcher accepts or,
        with ``typos`` (the card's own screen), with a typo it forgives; the grader, which also
        weighs the deck's other names, decides. Another card's text is searched for the names
        as they are: a near miss there is not a giveaway worth burying a card for."""
        if self.symbolic and _symbolic(run) in self.symbolic:
            return True
        typed = _forms(run)
        if typed & self.accepted:
            return True
        if not typos:
            return False
        for form in self.accepted:
            for candidate in typed:
                if abs(len(form) - len(candidate)) > 2:
                    continue
                allowance = min(typo_allowance(form), typo_allowance(candidate))
                if allowance and abs(len(form) - len(candidate)) <= allowance:
                    if edit_distance(form, candidate, allowance) <= allowance:
                        return True
        return False

    def found(self, text: str, own: bool) -> str | None:
        """The first piece of ``text`` that grades as the answer, if any; for a math answer,
        also the answer itself written in the text (``12Ld² + Vd`` holds ``V*d``), which the
        engine cannot read when names are run together."""
        if self.kind == "math" and self.key and len(self.key) >= (2 if own else MIN_MATH):
            for piece in _cached_math_pieces(text):
                if _holds(math_key(piece), self.key):
                    return self.card.answer
        if self.kind == "words" and self.symbolic:  # ``(−1, 1)`` written anywhere in the text
            written = _symbolic(text)
            for name in self.symbolic:
                if _holds(written, name):
                    return name
        for piece in self.pieces(text, own):
            if self.correct(piece):
                return piece
        return None


def _holds(written: str, key: str) -> bool:
    """Whether ``key`` occurs in ``written`` as a whole: not as the middle of a longer name or
    number (``Vd`` is in ``12Ld^2+Vd`` but not in ``Vdx``)."""
    for match in re.finditer(re.escape(key), written):
        before = written[match.start() - 1 : match.start()]
        after = written[match.end() : match.end() + 1]
        if (key[0].isalnum() and before.isalnum()) or (key[-1].isalnum() and after.isalnum()):
            continue
        return True
    return False


def distinctive(piece: str) -> bool:
    """Whether ``piece``, shown on another card, singles out an answer (as
    :mod:`recall.cards.siblings` counts them): a formula of at least two names or signs
    (``2N``, ``1/√d``, not ``α`` or ``h``), a number with two significant digits or a decimal
    point (``0.25``, ``20%``, not ``8``), a name of at least
    :data:`~recall.cards.siblings.MIN_WORDS` letters."""
    text = piece.strip(" ={}")
    if re.fullmatch(r"[−-]?[\d,]+(?:\.\d+)?(?:e[−-]?\d+)?%?", text):
        digits = re.sub(r"[^\d]", "", text.split("e")[0]).strip("0")
        return "." in text or len(digits) >= 2
    letters = sum(char.isalpha() for char in text)
    if letters and all(char.isalpha() or char.isspace() or char in "-'’" for char in text):
        return letters >= MIN_WORDS
    return len(re.sub(r"[\s{}]", "", text)) >= 2 and not _IDENTIFIER.fullmatch(text)


@lru_cache(maxsize=65536)
def _symbolic(text: str) -> str:
    return symbolic_form(text)


@lru_cache(maxsize=65536)
def _forms(text: str) -> frozenset[str]:
    return forms(text)


def _spelled(text: str) -> str:
    return spell_greek(text)


def _declared_names(card: Card) -> set[str]:
    """The card's own names its answer uses: a formula showing another card's answer must name
    them (a cheap filter before the engine grades it)."""
    declared = {symbol.name for symbol in card.symbols}
    return {name for name in _IDENTIFIER.findall(card.answer) if name in declared}


def card_leaks(
    card: Card, deck: Deck | None = None, *, others: Sequence[str] | None = None
) -> list[ShownAnswer]:
    """Where ``card``'s own screen (and its deck's name) shows its answer (``others``: the
    names of the deck's other cards, when the caller has them)."""
    if card.kind is CardKind.EXPLAIN:
        return []
    if others is None:
        others = _other_names(card, deck.cards if deck else ())
    grader = _Grader(card, others)
    texts = dict(visible_fields(card))
    out = []
    for name, text in texts.items():
        matched = grader.found(text, own=True)
        if matched is not None:
            out.append(ShownAnswer(card.id, card.id, name, matched))
    if deck is not None:
        matched = grader.found(deck_fields(deck)["deck"], own=True)
        if matched is not None:
            out.append(ShownAnswer(card.id, "", "deck", matched))
    return out


def _other_names(card: Card, cards: Iterable[Card]) -> list[str]:
    return [name for other in cards if other.id != card.id for name in other.accept]


def deck_leaks(
    deck: Deck, sibling_pairs: Iterable[tuple[str, str]] = (), *, exhaustive: bool = False
) -> DeckLeaks:
    """Every answer of ``deck`` its cards show: on their own screens, and on one another's.

    ``sibling_pairs`` are the pairs already kept apart (see :func:`sibling_pairs_of`).

    Each card's answer is looked for only in the other cards' fields that :class:`_FieldIndex`
    names as able to show it (a superset of those that do, read by the same
    :meth:`_Grader.found`), so the cost grows about linearly with the cards: compared with
    every field of the deck, a deck of 2,000 cards took minutes; and a wrong piece is not
    diagnosed (:func:`~recall.formula.compare.status_only`). ``exhaustive`` compares with every
    field and grades as the drill screen does (the check as it was, which a test holds the
    fast one to)."""
    fields = [
        (card.id, name, text) for card in deck.cards for name, text in visible_fields(card).items()
    ]
    index = None if exhaustive else _FieldIndex(fields)
    names = [(card.id, name) for card in deck.cards for name in card.accept]
    own: list[ShownAnswer] = []
    across: list[ShownAnswer] = []
    vocabulary: list[ShownAnswer] = []
    for card in deck.cards:
        if card.kind is CardKind.EXPLAIN:
            continue
        others = [name for by, name in names if by != card.id]
        own += card_leaks(card, deck, others=others)
        grader = _Grader(card, others, diagnose=exhaustive)
        found = []
        candidates = fields if index is None else index.candidates(grader)
        for by, name, text in candidates:
            if by == card.id:
                continue
            matched = grader.found(text, own=False)
            if matched is not None:
                found.append(ShownAnswer(card.id, by, name, matched))
        showing = {leak.by for leak in found}
        if len(showing) > MAX_SPREAD:
            vocabulary += found
        else:
            across += found
    return DeckLeaks(
        deck.id,
        tuple(sorted(own)),
        tuple(sorted(across)),
        tuple(sorted(vocabulary)),
        frozenset(_pair(a, b) for a, b in sibling_pairs),
    )


#: A run of letters, digits and ``_`` in a math key: a name or a number.
_RUN = re.compile(r"\w+")
#: The scales a number typed for a fact may be read at (a percentage as a fraction, a unit's
#: multiple): a number is a candidate for a fact when one of them brings it near the value.
_SCALES = tuple(10.0**power for power in range(-12, 13)) + tuple(
    1024.0**power for power in (-4, -3, -2, -1, 1, 2, 3, 4)
)


class _FieldIndex:
    """The visible fields of a deck, each read once, indexed by what an answer needs to be
    found in them (what :meth:`_Grader.found` needs, on another card's field):

    * a math answer: its key written in a piece (the pieces' keys, joined, hold it; a whole run
      of the key is a whole run of a piece's key), or a piece naming all its declared names
      (each field's names over its pieces), or for an answer without names a number piece;
    * a word answer: a run of words one of whose forms the card accepts (every run of up to
      :data:`MAX_RUN_WORDS` words, by form); a symbolic answer (``(−1, 1)``) is looked for in
      every field;
    * a fact's value: a number of the field that some reading scale brings within twice the
      card's tolerance of the value (a tolerance other than relative or absolute: any number).

    Each test is implied by a finding, so the candidates are a superset of the fields that show
    the answer, and :meth:`_Grader.found` decides on them as it would on every field."""

    def __init__(self, fields: Sequence[tuple[str, str, str]]) -> None:
        self.fields = list(fields)
        self.keys: list[str] = []
        self.runs: dict[str, set[int]] = {}
        self.names: dict[str, set[int]] = {}
        self.name_sets: list[frozenset[str]] = []
        self.with_number_piece: list[int] = []
        self.forms: dict[str, set[int]] = {}
        self.numbers: dict[str, set[int]] = {}
        for position, (_by, _name, text) in enumerate(self.fields):
            pieces = _cached_math_pieces(text)
            keys = [math_key(piece) for piece in pieces]
            self.keys.append("\n".join(keys))
            for run in {run for key in keys for run in _RUN.findall(key)}:
                self.runs.setdefault(run, set()).add(position)
            named = frozenset(
                name for piece in pieces for name in _IDENTIFIER.findall(_spelled(piece))
            )
            self.name_sets.append(named)
            for name in named:
                self.names.setdefault(name, set()).add(position)
            if any(_NUMBER.fullmatch(piece) for piece in pieces):
                self.with_number_piece.append(position)
            shown = " ".join(_plain(line) for line in text.splitlines())
            for run in word_runs(shown, MAX_RUN_WORDS):
                for form in _forms(run):
                    self.forms.setdefault(form, set()).add(position)
            for number in numbers_in(text):
                self.numbers.setdefault(number, set()).add(position)
        self.values: list[tuple[float, str]] = []
        self.unread: list[str] = []
        for number in self.numbers:
            try:
                self.values.append(
                    (float(number.replace("−", "-").replace(",", "").rstrip("%")), number)
                )
            except ValueError:
                self.unread.append(number)
        self.values.sort()

    def candidates(self, grader: _Grader) -> list[tuple[str, str, str]]:
        """The fields that may show ``grader``'s answer, in deck order."""
        positions: set[int] = set()
        if grader.kind == "math":
            if grader.key and len(grader.key) >= MIN_MATH:
                positions |= self._holding(grader.key)
            if grader.names:
                rarest = min((self.names.get(name, set()) for name in grader.names), key=len)
                positions |= {p for p in rarest if grader.names <= self.name_sets[p]}
            else:
                positions.update(self.with_number_piece)
        elif grader.kind == "words":
            if grader.symbolic:
                return self.fields
            for form in grader.accepted:
                positions |= self.forms.get(form, set())
        elif grader.kind == "number":
            for number in self._near(grader.card):
                positions |= self.numbers[number]
        return [self.fields[position] for position in sorted(positions)]

    def _near(self, card: Card) -> set[str]:
        """The numbers of the deck that may grade as the fact ``card``'s value."""
        window = _window(card)
        if window is None:
            return set(self.numbers)
        low, high = window
        near = set(self.unread)
        for scale in _SCALES:  # typed * scale in [low, high]
            start = bisect_left(self.values, (low / scale, ""))
            for value, number in self.values[start:]:
                if value > high / scale:
                    break
                near.add(number)
        return near

    def _holding(self, key: str) -> set[int]:
        runs = [
            match.group()
            for match in _RUN.finditer(key)
            if match.start() > 0 and match.end() < len(key)
        ]
        if runs:  # bounded by other signs in the key, so whole in any text holding it
            rarest = min((self.runs.get(run, set()) for run in runs), key=len)
            return {p for p in rarest if key in self.keys[p]}
        return {p for p, keys in enumerate(self.keys) if key in keys}


def _window(card: Card) -> tuple[float, float] | None:
    """Where a number typed for the fact ``card`` must land, at some scale of :data:`_SCALES`,
    to grade as its value: within twice the tolerance of its value or range (``None``: a
    tolerance other than relative or absolute, anywhere)."""
    from recall.grading.tolerances import engine_tolerance

    try:
        tolerance = engine_tolerance(card.tolerance)
    except RecallError:
        return None
    values = [v for v in (card.value, *(card.value_range or ())) if v is not None]
    if not values or tolerance.kind not in ("relative", "absolute"):
        return None
    low, high = min(values), max(values)
    slack = 2 * max(tolerance.bound(low), tolerance.bound(high))
    slack += 1e-9 * max(abs(low), abs(high), 1.0)
    return low - slack, high + slack


@lru_cache(maxsize=16384)
def _cached_math_pieces(text: str) -> tuple[str, ...]:
    return tuple(math_pieces(text))


def sibling_pairs_of(deck: Deck) -> set[tuple[str, str]]:
    """The pairs of ``deck``'s cards that are siblings (the same sibling group)."""
    groups: dict[str, list[str]] = {}
    for card in deck.cards:
        head, dot, _rest = card.id.partition(".")  # as the store groups ``name.part`` ids
        group = card.sibling_group or (head if dot and head else "")
        if group:
            groups.setdefault(group, []).append(card.id)
    return {_pair(a, b) for ids in groups.values() for a in ids for b in ids if a < b}
