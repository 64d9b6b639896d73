"""What the drill screen shows of a card before and after it is graded.

A card's id and source were written by deck authors to find the card, and they often name the
answer (``activations/tanh-zero-centred``, "(small τ = harder on near-negatives)"). So before
grading the screen shows only what the question needs: the deck, the prompt, the shown formula,
the symbols the learner may type, and the unit. The id and the source join the header once the
answer is graded or revealed, when they help the learner find the card again.

Pure functions over :class:`recall.tui.views.CardView` returning plain strings, so a test can
check every built-in card without a screen; nothing here imports Textual or the engine.
"""

from __future__ import annotations

from recall.tui.views import CardView


def asking_header(card: CardView) -> str:
    """The line above the prompt before grading: the deck only (deck ids name topics)."""
    return card.deck_id


def graded_header(card: CardView) -> str:
    """The line above the prompt once the answer is graded or revealed: the key and source."""
    return f"{card.key} · {card.source}" if card.source else card.key


def asking_text(card: CardView) -> str:
    """Every word the drill screen shows for ``card`` before it is graded, in screen order.

    The drill screen fills its widgets from the functions above; this joins the same pieces so a
    test can read what a learner sees before answering (the hint is left out: asking for it is the
    learner's choice, and it is counted against the rating)."""
    parts = [asking_header(card), card.prompt, card.shown]
    parts += [f"{name}  {meaning}" for name, meaning in card.symbols]
    parts.append(card.unit)
    return "\n".join(part for part in parts if part)
