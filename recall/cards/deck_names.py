"""The name a learner sees for each deck: its own, unless another loaded deck has the same one.

A deck's name is free text and two deck files may share it: an Anki package whose deck is called
"Activations" imports beside the built-in "Activations" (its id is ``anki-activations``), and
two packages' "Default" decks both import as "Default". Listed side by side (the home screen,
the deck browser, ``recall decks list``) the two could not be told apart, so wherever decks are
named together a shared name is followed by the deck's id, which is unique: "Activations
(anki-activations)". Names count as the same when they differ only in case or spacing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from recall.cards.model import Deck


def _same_name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def shown_deck_names(decks: Iterable[Deck]) -> Mapping[str, str]:
    """Each deck's shown name by deck id: ``name``, or ``"name (id)"`` when another of
    ``decks`` has the same name."""
    listed = list(decks)
    shared = Counter(_same_name_key(deck.name) for deck in listed)
    return {
        deck.id: f"{deck.name} ({deck.id})" if shared[_same_name_key(deck.name)] > 1 else deck.name
        for deck in listed
    }
