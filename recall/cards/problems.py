"""Collecting every problem in a deck file, each located by line and card id.

A learner fixing a deck wants all of its errors at once, not one per run, so validation never
raises on the first problem: it records a :class:`~recall.errors.DeckError` here and carries on.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from recall.cards.positions import Path, Positions
from recall.errors import DeckError


class DeckFileError(DeckError):
    """A deck file that failed to load, with every problem found in it (``errors``)."""

    def __init__(self, path: str, errors: Iterable[DeckError]) -> None:
        self.errors: tuple[DeckError, ...] = tuple(errors)
        first = self.errors[0] if self.errors else None
        count = len(self.errors)
        summary = f"{count} error{'s' if count != 1 else ''} in the deck file"
        super().__init__(
            summary,
            path=path,
            line=first.line if first else None,
            card_id=None,
            suggestion=None,
        )

    def __str__(self) -> str:
        return "\n".join(str(error) for error in self.errors) or super().__str__()


class Problems:
    """The errors found so far in one file; ``add`` locates each with :class:`Positions`."""

    def __init__(self, path: str, positions: Positions | None = None) -> None:
        self.path = path
        self.positions = positions or Positions()
        self.errors: list[DeckError] = []

    def add(
        self,
        message: str,
        where: Path = (),
        *,
        card_id: str | None = None,
        suggestion: str | None = None,
        line: int | None = None,
    ) -> None:
        """Record one error at ``where`` (a :mod:`recall.cards.positions` path)."""
        if line is None:
            line = self.positions.line(*where)
        self.errors.append(
            DeckError(message, path=self.path, line=line, card_id=card_id, suggestion=suggestion)
        )

    def __bool__(self) -> bool:
        return bool(self.errors)

    def sorted(self) -> list[DeckError]:
        """The errors in file order (those without a line first)."""
        return sorted(self.errors, key=lambda e: e.line or 0)


def did_you_mean(word: str, candidates: Iterable[str], *, cutoff: float = 0.6) -> str | None:
    """``"did you mean 'x'?"`` for the closest candidate, or ``None`` if none is close."""
    matches = difflib.get_close_matches(word, list(candidates), n=1, cutoff=cutoff)
    if not matches:
        return None
    return f"did you mean '{matches[0]}'?"
