"""The content model: decks and cards as loaded from deck files.

These are plain frozen dataclasses with no behaviour that needs SymPy or a database, so every
layer (validation, store sync, sessions, the TUI) can hold them. Scheduling state never lives
here: it belongs to the store.

A card is identified by ``(deck_id, card_id)``; :attr:`Card.key` joins them as ``deck/card``.
The id is written explicitly in the deck file, so rewording a card keeps its review history.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from recall.cards.rules import FormRule


class CardKind(StrEnum):
    """How a card is asked and graded."""

    FORMULA = "formula"  # type an expression; the engine grades equivalence
    NUMERIC = "numeric"  # a template with random parameters; type the number
    FACT = "fact"  # a reference value (or range) from the sheets; type the number
    REVERSE = "reverse"  # the formula is shown; name it
    CLOZE = "cloze"  # a statement with one blank; math blanks are graded by the engine
    EXPLAIN = "explain"  # say it out loud, reveal a model answer, rate yourself


@dataclass(frozen=True)
class SymbolSpec:
    """A variable a card uses: its domain (engine syntax, e.g. ``positive``, ``(0, 1)``) and
    what it means, shown to the learner under the prompt. ``equals`` defines it as an
    expression of other names (``beta_t = 1 - alpha_t``), so either spelling is graded right."""

    name: str
    domain: str = "real"
    meaning: str = ""
    equals: str = ""
    # Declared only so the card's identities can be checked (a one-feature w and x behind a
    # vector formula): never part of what the learner may type, nor of the legend.
    identities_only: bool = False


@dataclass(frozen=True)
class FunctionSpec:
    """A function name a card uses: ``builtin`` names an engine function it aliases
    (``sigma`` → ``sigmoid``), or ``unknown`` for an arbitrary function such as ``f``."""

    name: str
    means: str = "unknown"
    meaning: str = ""


@dataclass(frozen=True)
class ParamSpec:
    """A numeric-card parameter, drawn per review from a recorded seed.

    Either ``choices`` (one is picked) or a range ``low``..``high``; ``log`` draws uniformly in
    log space (for sizes that span decades); ``integer`` rounds; ``step`` snaps to a grid;
    ``sigfigs`` rounds the drawn value so it reads naturally in the prompt.
    """

    name: str
    low: float | None = None
    high: float | None = None
    choices: tuple[float, ...] = ()
    log: bool = False
    integer: bool = False
    step: float | None = None
    sigfigs: int | None = None
    meaning: str = ""


@dataclass(frozen=True)
class Tolerance:
    """How close a numeric answer must be: ``kind`` is ``relative``, ``absolute``, ``sigfigs`` or
    ``exact``; ``value`` is the bound (or the number of significant figures)."""

    kind: str = "relative"
    value: float = 0.01


@dataclass(frozen=True)
class Identity:
    """A claim a card makes that the deck tests verify with the engine: ``lhs == rhs`` for all
    values in the declared domains. With ``derivative_of`` set, ``rhs`` must equal the derivative
    of ``derivative_of`` with respect to ``wrt`` (checked symbolically in the tests)."""

    lhs: str
    rhs: str
    derivative_of: str | None = None
    wrt: str | None = None


@dataclass(frozen=True)
class PointValue:
    """A number that states a key point: ``value`` give or take ``within`` (absolute)."""

    value: float
    within: float = 0.0


@dataclass(frozen=True)
class KeyPoint:
    """One point an explanation must make (``[[card.points]]`` of an explain card).

    ``say`` is the model sentence shown when the point is missed. The point counts as made when
    the learner's text says any of ``words`` (each a phrasing: words that must all occur in one
    clause, ``a|b`` for either word; a ``not`` in the phrasing must be matched by a negation in
    the clause, and a negation the phrasing lacks unmakes it), writes a formula equivalent to one
    of ``formulas`` (typed syntax), or a number within one of ``values``.

    A point about one side of a contrast names it: ``subject`` is the term the point is about
    and ``versus`` the terms it is contrasted with (``"decode"`` versus ``("prefill",)``), each a
    word with ``|`` alternatives; a phrasing's words said of a ``versus`` term do not make the
    point ("prefill is memory-bound" does not make "decode is memory-bound"). ``opposites`` are
    phrasings of the point's contrary ("the loss is bounded"): a text that makes one of them
    does not make the point, whatever else it says.
    """

    say: str
    words: tuple[str, ...] = ()
    formulas: tuple[str, ...] = ()
    values: tuple[PointValue, ...] = ()
    subject: str = ""
    versus: tuple[str, ...] = ()
    opposites: tuple[str, ...] = ()


@dataclass(frozen=True)
class Card:
    """One card of a deck. Fields a kind does not use are left empty."""

    deck_id: str
    id: str
    kind: CardKind
    prompt: str
    # formula / cloze: the reference expression in typed syntax; numeric: the formula over params.
    answer: str = ""
    # fact: the value, or a (low, high) range the sheet quotes.
    value: float | None = None
    value_range: tuple[float, float] | None = None
    # reverse: accepted names; cloze with a text blank: accepted words.
    accept: tuple[str, ...] = ()
    # reverse: the formula shown (typed syntax or LaTeX); formula: context shown around the answer.
    shown: str = ""
    # cloze: the statement with ``{{}}`` where the blank is.
    text: str = ""
    # explain: the model answer, in our own words, and the numbers to have ready.
    model_answer: str = ""
    numbers: tuple[str, ...] = ()
    # explain: the key points a typed explanation is checked against (none: self-rated only).
    points: tuple[KeyPoint, ...] = ()
    symbols: tuple[SymbolSpec, ...] = ()
    functions: tuple[FunctionSpec, ...] = ()
    params: tuple[ParamSpec, ...] = ()
    tolerance: Tolerance | None = None
    unit: str = ""
    identities: tuple[Identity, ...] = ()
    # formula / math cloze: names the answer must use and must not use (recall.cards.rules).
    require: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    hint: str = ""
    source: str = ""
    note: str = ""  # where the sheet differs, and what this card says instead
    tags: tuple[str, ...] = ()
    topic: str = ""
    line: int = 0  # 1-based line of the card's ``[[card]]`` header in its file
    # Set by the loader: the cards of the deck that give this one's answer away, or that it gives
    # away, share a group (recall.cards.siblings); "" when it has none. Not content: not hashed.
    sibling_group: str = ""
    # Cards of the same deck this one is declared to give away or be given away by (ids): kept
    # apart like the siblings found from the text. Not content: not hashed.
    siblings: tuple[str, ...] = ()
    path: str = ""  # the deck file it came from
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    @property
    def form_rule(self) -> FormRule:
        """The card's ``require``/``forbid`` with its function aliases resolved."""
        from recall.cards.rules import resolve

        return resolve(self.require, self.forbid, {f.name: f.means for f in self.functions})

    @property
    def key(self) -> str:
        """``deck_id/card_id``: unique across all loaded decks."""
        return f"{self.deck_id}/{self.id}"

    def content_hash(self) -> str:
        """A digest of everything the learner sees and is graded on.

        The store keeps it to notice edits; an edit changes the hash but never the id, so the
        card's history is kept. Computed once per card object (it is frozen): the parse cache's
        check and the store sync both ask for every card's.
        """
        memo = self.__dict__.get("_content_hash")
        if memo is None:
            memo = self._hash_content()
            object.__setattr__(self, "_content_hash", memo)
        return memo

    def _hash_content(self) -> str:
        payload = {
            "kind": str(self.kind),
            "prompt": self.prompt,
            "answer": self.answer,
            "value": self.value,
            "value_range": self.value_range,
            "accept": self.accept,
            "shown": self.shown,
            "text": self.text,
            "model_answer": self.model_answer,
            "numbers": self.numbers,
            "symbols": [
                (s.name, s.domain, s.meaning, s.equals, *(("identities",) * s.identities_only))
                for s in self.symbols
            ],
            "functions": [(f.name, f.means, f.meaning) for f in self.functions],
            "params": [repr(p) for p in self.params],
            "tolerance": repr(self.tolerance),
            "unit": self.unit,
            "hint": self.hint,
            "note": self.note,
        }
        # Added only when declared, so cards without a rule keep the hash they always had.
        if self.require or self.forbid:
            payload["require"], payload["forbid"] = self.require, self.forbid
        if self.points:
            payload["points"] = [repr(point) for point in self.points]
        blob = json.dumps(payload, sort_keys=True, default=str).encode()
        return hashlib.sha256(blob).hexdigest()[:16]


@dataclass(frozen=True)
class Deck:
    """A deck file's content: its header and its cards, in file order."""

    id: str
    name: str
    description: str = ""
    tags: tuple[str, ...] = ()
    topic: str = ""
    path: str = ""
    builtin: bool = False
    cards: tuple[Card, ...] = ()
    #: What the deck was read from, set by the loader: the parse cache's key for its file (the
    #: file's bytes, the code that read it, the load flags), so two decks with one digest hold
    #: the same cards; ``""`` when unknown (the cache is off). The store skips syncing a deck
    #: whose digest it synced last. Not content: not compared, not cached.
    digest: str = field(default="", compare=False)

    def card(self, card_id: str) -> Card:
        """The card with this id (``KeyError`` if there is none)."""
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)


#: A name as a card's texts write it (``S_xy``, ``beta_1``, ``x'``).
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_']*")


def mentioned_names(card: Card) -> set[str]:
    """Names the card's own texts use. A deck declares its symbols once for all its cards; each
    card's legend lists only those it mentions, so the legend under the prompt is not a wall of
    names."""
    texts = (card.answer, card.prompt, card.shown, card.text)
    return {name for text in texts for name in _NAME.findall(text)}


def legend_names(card: Card) -> list[str]:
    """The names the drill screen's legend shows for ``card``: its symbols its texts mention
    (not those declared only for identity checks), then its parameters."""
    mentioned = mentioned_names(card)
    names = [s.name for s in card.symbols if s.name in mentioned and not s.identities_only]
    return names + [param.name for param in card.params]
