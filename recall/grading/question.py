"""One asking of a card: the card, the seed, the values drawn from it, and the prompt as shown.

A numeric card's values are drawn exactly once per review, here, by :meth:`Question.draw`; the
prompt, the grading (:func:`recall.grading.grade`) and the worked answer all read them from the
question, so they can never disagree. The seed and the values are stored with the review
(``Session.record(seed=question.seed, params=question.params)``), and :meth:`Question.replay`
rebuilds the same question from a review-log entry: same prompt, same values, same reference.

Importing this module does not import the formula engine: a session or a screen can hold a
question before SymPy is loaded; only :attr:`Question.expected` and :attr:`Question.worked`
(numeric cards) ask the engine, the first time they are read.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from recall.cards import params as param_values
from recall.cards.model import Card, CardKind
from recall.errors import GradingError

if TYPE_CHECKING:
    from recall.formula import Expression

Number = int | float

#: Seeds are drawn below this bound (they fit the review log's integer column everywhere).
SEED_BOUND = 2**31

#: How a cloze blank is shown in the prompt.
BLANK = "▢"


class LoggedQuestion(Protocol):
    """What replaying needs from a review-log entry (the store's ``ReviewEntry`` has both)."""

    @property
    def seed(self) -> int | None: ...

    @property
    def params(self) -> Mapping[str, Any] | None: ...


def fresh_seed() -> int:
    """A seed from the operating system's random source (never the global ``random``, which
    FSRS's fuzzing and tests seed)."""
    return secrets.randbelow(SEED_BOUND)


@dataclass(frozen=True)
class Question:
    """A card as asked once: ``seed`` and ``values`` are ``None`` and empty for a card without
    parameters; ``prompt`` is the text shown (a numeric card's ``{name}`` filled with its
    value, a cloze card's statement with its blank)."""

    card: Card
    seed: int | None
    values: Mapping[str, Number] = field(default_factory=dict)
    prompt: str = ""

    @classmethod
    def draw(cls, card: Card, seed: int | None = None) -> Question:
        """Ask ``card``: its parameters are drawn from ``seed`` (a fresh one when ``None``).

        The same card and seed always give the same question. A card without parameters
        draws nothing and keeps no seed.
        """
        if not card.params:
            return cls._asking(card, None, {})
        if seed is None:
            seed = fresh_seed()
        return cls._asking(card, seed, param_values.draw(card.params, seed))

    @classmethod
    def replay(cls, card: Card, logged: LoggedQuestion) -> Question:
        """The question a review-log entry recorded for ``card``.

        The values stored with the review are what the learner saw, so they win; they are put
        back in the card's declaration order (the log stores them sorted). A review logged with
        a seed but no values (older rows) is drawn again from its seed.
        """
        if not card.params:
            return cls._asking(card, None, {})
        if logged.params:
            order = [spec.name for spec in card.params if spec.name in logged.params]
            order += [name for name in logged.params if name not in order]
            values = {name: _number(logged.params[name]) for name in order}
            return cls._asking(card, logged.seed, values)
        if logged.seed is None:
            raise GradingError(
                f"card '{card.key}' has parameters but its review recorded neither a seed nor "
                "values: that question cannot be replayed"
            )
        return cls.draw(card, logged.seed)

    @classmethod
    def _asking(cls, card: Card, seed: int | None, values: dict[str, Number]) -> Question:
        return cls(card, seed, MappingProxyType(values), asked_prompt(card, values))

    @property
    def params(self) -> dict[str, Number] | None:
        """The values as the review log stores them (``None`` when there are none)."""
        return dict(self.values) if self.values else None

    @property
    def reference(self) -> str:
        """The reference answer as a learner would type it (the card's formula, for a numeric
        card: :attr:`worked` shows it computed at these values)."""
        from recall.grading.reference import reference_answer

        return reference_answer(self.card)

    @cached_property
    def template(self) -> Expression:
        """The card's answer formula, parsed with its symbol table (numeric and formula cards).
        Raises :class:`~recall.errors.GradingError` for an answer that does not parse."""
        from recall.grading.worked import answer_template

        return answer_template(self.card)

    @cached_property
    def expected(self) -> Expression:
        """The answer at this question's values: a constant expression (numeric cards)."""
        from recall.grading.tables import substitute

        self._require_numeric()
        return substitute(self.template, self.values)

    @cached_property
    def worked(self) -> str:
        """Formula, values, substitution and result, line by line (numeric cards; ``""`` for
        the others)."""
        if self.card.kind is not CardKind.NUMERIC:
            return ""
        from recall.grading.worked import worked_answer

        return worked_answer(self.card, self.template, self.values, self.expected)

    @cached_property
    def expected_text(self) -> str:
        """The number asked for, with its unit, as :attr:`worked` ends (numeric cards; ``""``
        for the others)."""
        if self.card.kind is not CardKind.NUMERIC:
            return ""
        from recall.grading.worked import expected_text

        return expected_text(self.card, self.expected)

    def _require_numeric(self) -> None:
        if self.card.kind is not CardKind.NUMERIC:
            raise GradingError(f"card '{self.card.key}' is not numeric: it has no expected value")


def asked_prompt(card: Card, values: Mapping[str, Number] | None = None) -> str:
    """The prompt as asked: ``{name}`` placeholders filled from ``values`` (left as they are
    without values, as a deck listing shows them), a cloze statement with its blank."""
    if card.kind is CardKind.NUMERIC and values:
        return param_values.fill_prompt(card.prompt, dict(values))
    if card.kind is CardKind.CLOZE:
        return (card.prompt + "\n" if card.prompt else "") + card.text.replace("{{}}", BLANK)
    return card.prompt


def _number(value: Any) -> Number:
    """A logged value as the drawer would have made it (JSON keeps ints and floats apart)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise GradingError(f"a logged parameter value is not a number: {value!r}")
    return value
