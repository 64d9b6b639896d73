"""``recall decks show DECK --rendered``: every card as the drill screen shows it.

A deck author reads the whole deck as the learner will: before grading (the prompt with a
numeric card's values drawn from a fixed seed, the shown formula, the legend of symbols, the
unit) and after grading (the reference answer rendered, the worked computation, an explain
card's model answer). Each piece comes from the very function the drill screen builds its
views with (:func:`recall.tui.presenting.card_view` over :meth:`recall.grading.Question.draw`,
:func:`recall.tui.presenting.reference_rendered`, :attr:`recall.grading.Question.worked`), so
what is printed here cannot drift from what is on screen. Those functions are pure: no Textual.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from recall.wording import count_of

if TYPE_CHECKING:
    from recall.cards.model import Card, Deck

#: The seed a rendered deck draws numeric cards' values from, unless ``--seed`` says otherwise.
DEFAULT_SEED = 0


def rendered_deck(deck: Deck, seed: int = DEFAULT_SEED) -> Iterator[str]:
    """The lines of ``deck`` rendered card by card."""
    cards = count_of(len(deck.cards), "card")
    yield f"{deck.name} ({deck.id}) — {cards} — rendered with seed {seed}"
    for card in deck.cards:
        yield ""
        yield from rendered_card(card, seed)


def rendered_card(card: Card, seed: int = DEFAULT_SEED) -> Iterator[str]:
    """One card, before and after grading, as the drill screen draws it."""
    from recall.grading import Question
    from recall.tui.presenting import card_view, reference_rendered

    question = Question.draw(card, seed)
    view = card_view(card, question=question)
    yield f"━━ {card.key} [{card.kind}]  (line {card.line})"
    yield "  ── before grading"
    yield from _indented(view.prompt)
    if view.shown:
        yield from _indented(view.shown)
    for name, meaning in view.symbols:
        yield f"    {name}  {meaning}"
    if view.unit:
        yield f"    answer in: {view.unit}"
    yield "  ── after grading"
    if view.self_rated or view.key_points:
        yield "    model answer"
        yield from _indented(view.model_answer, depth=6)
        for number in view.numbers:
            yield f"      • {number}"
        if card.points:
            yield "    key points (a typed explanation is checked against them)"
            for point in card.points:
                yield from _indented(f"• {point.say}", depth=6)
        return
    reference = reference_rendered(card)
    if reference:
        yield "    reference answer"
        yield from _indented(reference, depth=6)
    if question.worked:
        yield "    worked"
        yield from _indented(question.worked, depth=6)


def _indented(text: str, depth: int = 4) -> Iterator[str]:
    pad = " " * depth
    for line in text.splitlines() or [""]:
        yield (pad + line).rstrip()
