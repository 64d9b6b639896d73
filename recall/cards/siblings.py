"""Cards that give each other's answers away, found from their text, and the sibling groups they
make.

Drilled back to back, ``sigmoid-derivative-max`` ("the largest value σ'(x) takes", 0.25) answers
``sigmoid-derivative-argmax`` ("σ'(x) reaches its maximum of 0.25 at x = ▢"), and the name card
of a formula answers the card that shows it. A card whose prompt, shown formula, cloze text or
hint contains another card's answer is that card's *sibling*: after one is reviewed the other is
buried until the next day (the store buries by sibling group).

Answers are looked for as the learner would see them, after a light normalisation that needs no
formula engine (this module is stdlib-only): case, spacing, ``*`` and ``·``, Greek letters by
name (``σ`` is ``sigma``), LaTeX commands without their backslash. What is looked for:

* a math answer (formula, numeric template, math cloze) of at least :data:`MIN_MATH` characters,
  once normalised (``0``, ``d`` or ``h`` would match everywhere);
* a fact's value when it is distinctive: at least two significant digits, or a decimal point
  (``0.25``, ``0.044715``, ``406.4``; not ``8`` or ``1000``);
* a name or word a reverse or word-cloze card accepts, at least :data:`MIN_WORDS` letters, as
  whole words (``dead ReLU`` in another prompt gives away ``leaky-relu-dead-units``).

The texts read are the prompt, shown formula, cloze text and hint, and the legend of the names'
meanings (:func:`legend`, as the drill screen shows it; a single word counts there only as
part of a longer name).

Groups are the connected components of these pairs, of the pairs a deck declares (a card's
``siblings = ["other-id"]``: giveaways the text scan cannot see, which ``recall decks check``
finds with the graders), and of the id-prefix groups of
:func:`recall.scheduling.queue.sibling_group` (``attention.formula`` and ``attention.scale``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import NamedTuple

from recall.cards.model import Card, CardKind, Deck

MIN_MATH = 6
MIN_WORDS = 4
#: An answer found in more other cards than this is the deck's vocabulary ("softmax" in the
#: softmax deck, ``beta_t`` in every diffusion card), not a giveaway: every card of the topic
#: would otherwise bury every other.
MAX_SPREAD = 2

#: Texts of a card a learner reads before answering (and its :func:`legend`).
SHOWN_FIELDS = ("prompt", "shown", "text", "hint")


@dataclass(frozen=True, order=True)
class Leak:
    """``answered``'s answer appears in ``field`` of ``by``, as ``fragment``."""

    answered: str
    by: str
    field: str
    fragment: str


@lru_cache(maxsize=512)
def _greek_name(char: str) -> str:
    name = unicodedata.name(char, "")
    if name.startswith(("GREEK SMALL LETTER ", "GREEK CAPITAL LETTER ")):
        word = name.rsplit(" ", 1)[-1].lower()
        return word if "SMALL" in name else word.capitalize()
    return char


#: Greek and Coptic letters, spelled by name in the keys (``σ`` is ``sigma``).
_GREEK = re.compile("[\u0370-\u03ff]")


def spell_greek(text: str) -> str:
    """``text`` with each Greek letter spelled by name (``σ`` as ``sigma``, ``Σ`` as ``Sigma``)."""
    return _GREEK.sub(lambda match: _greek_name(match.group()), text)


_LATEX_NOISE = re.compile(
    r"\\(?:left|right|[bB]igg?[lr]?|mathrm|text|operatorname|mathcal|mathbb|,|;|!|quad|qquad)"
)


_LATEX_COMMAND = re.compile(r"\\([A-Za-z]+)")
_MATH_SPACING = re.compile(r"[\s*·⋅×{}]")
#: Signs written in plain ASCII in the keys.
_PLAIN_SIGNS = (("−", "-"), ("–", "-"), ("²", "^2"), ("³", "^3"), ("½", "1/2"))


def math_key(text: str) -> str:
    """``text`` normalised for finding a formula in another card's text: no spaces, no ``*`` or
    ``·``, ``σ`` as ``sigma``, LaTeX commands without backslashes or braces, Unicode minus as
    ``-``, superscript digits as ``^n``.

    (Each step that only changes a backslash or a non-ASCII character is skipped when the text
    has none: a first start keys every shown field of every custom card.)"""
    out = text
    if "\\" in out:
        out = _LATEX_COMMAND.sub(r"\1", _LATEX_NOISE.sub("", out))
    if not out.isascii():
        out = spell_greek(out)
        for sign, plain in _PLAIN_SIGNS:
            out = out.replace(sign, plain)
    out = _MATH_SPACING.sub("", out)
    return out.replace("sigmoid", "sigma")


def word_key(text: str) -> str:
    """``text`` for finding a name: lowercase, hyphens and punctuation as spaces, one space."""
    folded = text.lower()
    if not folded.isascii():
        folded = spell_greek(folded)
    return " " + " ".join(_NOT_WORD.sub(" ", folded).split()) + " "


_NOT_WORD = re.compile(r"[^\w]+")


def _math_answers(card: Card) -> list[str]:
    if card.kind in (CardKind.FORMULA, CardKind.NUMERIC) or (
        card.kind is CardKind.CLOZE and card.answer
    ):
        key = math_key(card.answer)
        return [key] if len(key) >= MIN_MATH else []
    return []


def _numbers(card: Card) -> list[str]:
    if card.kind is not CardKind.FACT:
        return []
    values = [card.value] if card.value is not None else list(card.value_range or ())
    out = []
    for value in values:
        text = f"{value:.10g}"
        digits = text.replace("-", "").replace(".", "").strip("0")
        if "." in text or len(digits) >= 2 and not re.fullmatch(r"[1-9]0*", text):
            out.append(text)
    return out


def _words(card: Card) -> list[str]:
    if card.kind is CardKind.REVERSE or (card.kind is CardKind.CLOZE and not card.answer):
        keys = (word_key(word) for word in card.accept)
        return [k for k in dict.fromkeys(keys) if sum(c.isalpha() for c in k) >= MIN_WORDS]
    return []


def _texts(card: Card) -> dict[str, str]:
    texts = {field: getattr(card, field) for field in SHOWN_FIELDS if getattr(card, field)}
    shown_legend = legend(card)
    if shown_legend:
        texts["legend"] = shown_legend
    return texts


_NAME = re.compile(r"[^\W\d][\w']*")


def legend(card: Card) -> str:
    """The legend the drill screen shows under ``card``'s prompt before it is answered: the
    meanings of the names its answer and texts use, each without its own name (the names are
    what the learner may type, answers included, so a name restated is no more of a giveaway
    than the name itself), and its parameters' meanings; one per line."""
    if not any(symbol.meaning for symbol in card.symbols) and not any(
        param.meaning for param in card.params
    ):
        return ""  # nothing to explain (most custom cards): no need to read the texts
    mentioned = set(_NAME.findall(" ".join((card.answer, card.prompt, card.shown, card.text))))
    lines = [
        _without_name(symbol.meaning, symbol.name)
        for symbol in card.symbols
        if symbol.meaning and symbol.name in mentioned and not symbol.identities_only
    ]
    lines += [param.meaning for param in card.params if param.meaning]
    return "\n".join(lines)


def _without_name(meaning: str, name: str) -> str:
    """``meaning`` without the words that restate ``name`` (``β_t: noise variance`` for
    ``beta_t``)."""
    words = [
        word
        for word in meaning.split()
        if math_key(word.strip(":,;()")).replace("_", "") != math_key(name).replace("_", "")
    ]
    return " ".join(words)


_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]|\.\d)")


class _Seen(NamedTuple):
    """One field of a card as the matchers read it, computed once per card (a named tuple:
    a deck's every field makes one, and a frozen dataclass's ``__init__`` was a tenth of
    reading them)."""

    card: str
    field: str
    maths: str
    words: str
    numbers: frozenset[str]


def _seen(card: Card) -> list[_Seen]:
    return _read(card.id, _texts(card))


def _read(card_id: str, texts: dict[str, str]) -> list[_Seen]:
    return [
        _Seen(
            card_id,
            field,
            math_key(text),
            word_key(text),
            frozenset(f"{float(n):.10g}" for n in _NUMBER.findall(text.replace(",", ""))),
        )
        for field, text in texts.items()
        if text
    ]


def _fragments(card: Card) -> tuple[list[str], list[str], list[str]]:
    """What of ``card``'s answer is looked for: math keys, distinctive numbers, names."""
    return _math_answers(card), _numbers(card), _words(card)


def _found_in(fragments: tuple[list[str], list[str], list[str]], seen: _Seen) -> str | None:
    """The fragment of an answer that ``seen`` shows, if any. In a legend only a name of two
    words or more counts (``kv cache``): one word there (``batch``, ``shift``) is the topic's
    vocabulary, and read as a giveaway it joined half the normalisation deck in one group."""
    maths, numbers, words = fragments
    for fragment in maths:
        if fragment in seen.maths:
            return fragment
    for number in numbers:
        if number in seen.numbers:
            return number
    for word in words:
        if word in seen.words and (seen.field != "legend" or word.count(" ") > 2):
            return word.strip()
    return None


def leaks_between(answered: Card, by: Card) -> list[Leak]:
    """Where ``by`` shows ``answered``'s answer before it is asked (one match per field)."""
    return _leaks(answered, _seen(by))


def _leaks(answered: Card, seen: Iterable[_Seen]) -> list[Leak]:
    fragments = _fragments(answered)
    if not any(fragments):
        return []
    out = []
    for field in seen:
        fragment = _found_in(fragments, field)
        if fragment is not None:
            out.append(Leak(answered.id, field.card, field.field, fragment))
    return out


def answer_leaks(cards: Sequence[Card]) -> list[Leak]:
    """Every (card, other card) where the other shows the card's answer, in a stable order.

    An answer fragment shown by more than :data:`MAX_SPREAD` other cards is left out (it is the
    topic's vocabulary, known to anyone drilling the deck).

    The cost grows with the cards, not with their square: every field shown is indexed once
    (:class:`_ShownIndex`), and each answer is compared only with the fields the index names as
    able to hold it (a deck of 2,000 cards took four million comparisons before)."""
    asked = [
        (answered, fragments)
        for answered in cards
        if answered.kind is not CardKind.EXPLAIN and any(fragments := _fragments(answered))
    ]
    index = _ShownIndex(
        [field for card in cards for field in _seen(card)], [f for _card, f in asked]
    )
    out: list[Leak] = []
    for answered, fragments in asked:
        found = []
        for field in index.candidates(fragments):
            if field.card == answered.id:
                continue
            fragment = _found_in(fragments, field)
            if fragment is not None:
                found.append(Leak(answered.id, field.card, field.field, fragment))
        # Counted apart for the legends: a meaning repeated in every legend of a topic is its
        # vocabulary there, and never makes the same text in a prompt vocabulary too.
        spread: dict[tuple[str, bool], set[str]] = {}
        for leak in found:
            spread.setdefault((leak.fragment, leak.field == "legend"), set()).add(leak.by)
        out.extend(
            leak
            for leak in found
            if len(spread[leak.fragment, leak.field == "legend"]) <= MAX_SPREAD
        )
    return sorted(out)


#: A run of letters, digits and ``_`` in a math key: a name or a number.
_RUN = re.compile(r"\w+")


class _ShownIndex:
    """The shown fields of a deck, indexed by what an answer needs to be found in them.

    * numbers: the distinctive numbers a field shows;
    * words: the words of a field (a name is looked for in the fields holding its rarest word);
    * maths: the *whole* runs of a field's math key (a run of letters, digits and ``_`` with
      something else on both sides). A math answer found in a field shows there every run it
      holds whole (``(y_hat-y)^2`` holds ``y_hat`` and ``y`` whole), so the fields holding its
      rarest whole run are the only candidates. An answer with no whole run (``x_t+x_0``: both
      runs touch its ends, and may continue in the field) is compared with every field.

    Candidates are then read by :func:`_found_in`, so the index narrows the search and never
    changes what is found."""

    def __init__(
        self,
        fields: Sequence[_Seen],
        asked: Iterable[tuple[list[str], list[str], list[str]]],
    ) -> None:
        """Index ``fields`` by the keys :meth:`candidates` will ask for the answers ``asked``
        (the fragments of every answer looked for): a key no answer asks for is never looked
        up, and leaving it out made indexing a deck's every word a fifth of the time it takes."""
        self.fields = fields
        self.numbers: dict[str, list[int]] = {}
        self.words: dict[str, list[int]] = {}
        self.runs: dict[str, list[int]] = {}
        wanted_numbers: set[str] = set()
        wanted_words: set[str] = set()
        wanted_runs: set[str] = set()
        for maths, numbers, words in asked:
            for fragment in maths:
                wanted_runs.update(_whole_runs(fragment, bounded=True))
            wanted_numbers.update(numbers)
            for word in words:
                wanted_words.update(word.split())
        for position, seen in enumerate(fields):
            for number in seen.numbers & wanted_numbers:
                self.numbers.setdefault(number, []).append(position)
            for word in wanted_words.intersection(seen.words.split()):
                self.words.setdefault(word, []).append(position)
            # A field is the whole text: every run of it is whole (``_whole_runs`` unbounded).
            for run in wanted_runs.intersection(_RUN.findall(seen.maths)):
                self.runs.setdefault(run, []).append(position)

    def _rarest(self, postings: dict[str, list[int]], keys: Iterable[str]) -> list[int] | None:
        """The shortest posting list among ``keys`` (empty when one of them is nowhere), or
        ``None`` when there are no keys to narrow by."""
        best: list[int] | None = None
        for key in keys:
            found = postings.get(key, [])
            if best is None or len(found) < len(best):
                best = found
        return best

    def candidates(self, fragments: tuple[list[str], list[str], list[str]]) -> list[_Seen]:
        """The fields that may show one of ``fragments`` (a superset of those that do), in
        index order."""
        maths, numbers, words = fragments
        positions: set[int] = set()
        for fragment in maths:
            found = self._rarest(self.runs, _whole_runs(fragment, bounded=True))
            if found is None:  # nothing to narrow by: every field is a candidate
                return list(self.fields)
            positions.update(found)
        for number in numbers:
            positions.update(self.numbers.get(number, ()))
        for word in words:
            found = self._rarest(self.words, word.split())
            positions.update(found or ())
        return [self.fields[position] for position in sorted(positions)]


def _whole_runs(key: str, *, bounded: bool) -> list[str]:
    """The runs of ``key`` with something else on both sides. With ``bounded`` (an answer that
    may sit inside a longer text), a run touching either end of ``key`` is not whole; without it
    (a field, which is the whole text), the ends count as boundaries."""
    runs = []
    for match in _RUN.finditer(key):
        if bounded and (match.start() == 0 or match.end() == len(key)):
            continue
        runs.append(match.group())
    return runs


def sibling_pairs(cards: Sequence[Card]) -> list[tuple[str, str]]:
    """The leaks as unordered pairs of card ids, each once, sorted."""
    pairs = {
        (min(leak.answered, leak.by), max(leak.answered, leak.by)) for leak in answer_leaks(cards)
    }
    return sorted(pairs)


def sibling_groups(
    cards: Sequence[Card], prefix_group: Iterable[tuple[str, str]] = ()
) -> dict[str, str]:
    """Card id → sibling group, for the cards that have siblings.

    ``prefix_group`` gives the groups already known (card id, group), such as id prefixes;
    they are joined with the leak pairs. A group is named by its first card in deck order
    (or by the known group it contains), so names are stable while the deck does not change.
    """
    order = {card.id: index for index, card in enumerate(cards)}
    parent = {card.id: card.id for card in cards}

    def root(card_id: str) -> str:
        while parent[card_id] != card_id:
            parent[card_id] = parent[parent[card_id]]
            card_id = parent[card_id]
        return card_id

    def join(a: str, b: str) -> None:
        ra, rb = root(a), root(b)
        if ra != rb:
            first, second = sorted((ra, rb), key=order.__getitem__)
            parent[second] = first

    named: dict[str, str] = {}
    by_group: dict[str, str] = {}
    for card_id, group in prefix_group:
        if card_id not in parent:
            continue
        if group in by_group:
            join(by_group[group], card_id)
        else:
            by_group[group] = card_id
        named[card_id] = group
    for a, b in sibling_pairs(cards):
        join(a, b)
    for card in cards:  # declared by the deck's author (``siblings = ["other-id"]``)
        for other in card.siblings:
            if other in parent and other != card.id:
                join(card.id, other)
    members: dict[str, list[str]] = {}
    for card_id in parent:
        members.setdefault(root(card_id), []).append(card_id)
    out: dict[str, str] = {}
    for head, ids in members.items():
        if len(ids) < 2 and head not in named:
            continue
        name = next((named[i] for i in sorted(ids, key=order.__getitem__) if i in named), head)
        for card_id in ids:
            out[card_id] = name
    return out


def with_sibling_groups(deck: Deck) -> Deck:
    """``deck`` with each card's :attr:`~recall.cards.model.Card.sibling_group` set from the
    answers its cards give away (cards without a sibling keep ``""``)."""
    groups = sibling_groups(deck.cards)
    if not groups:
        return deck
    cards = tuple(
        replace(card, sibling_group=groups[card.id]) if card.id in groups else card
        for card in deck.cards
    )
    return replace(deck, cards=cards)


#: What the drill screen may show about a card before it is answered, besides its question.
LABEL_FIELDS = ("source", "tags")


def own_answer_shown(card: Card) -> list[Leak]:
    """Where the card's own labels (its source, its tags) name its answer, as ``source``
    "(small τ = harder on near-negatives)" did for the card asking what small τ concentrates
    on. A deck author rewrites those; the id is never shown before grading, since it cannot
    change (the review history is keyed by it)."""
    return _leaks(card, _read(card.id, {"source": card.source, "tags": " ".join(card.tags)}))
