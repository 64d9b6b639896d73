"""A card's tolerance (deck format) as the engine's :class:`~recall.formula.Tolerance`."""

from __future__ import annotations

from recall.cards.model import Tolerance as CardTolerance
from recall.errors import GradingError
from recall.formula import Tolerance

#: The tolerance of a numeric or fact card that names none (docs/decks.md).
DEFAULT_TOLERANCE = CardTolerance("relative", 0.01)


def engine_tolerance(tolerance: CardTolerance | None) -> Tolerance:
    """A card's tolerance as the engine's (the card default is 1% relative)."""
    tolerance = tolerance or DEFAULT_TOLERANCE
    if tolerance.kind == "exact":
        return Tolerance.exact()
    if tolerance.kind == "relative":
        return Tolerance.relative(tolerance.value)
    if tolerance.kind == "absolute":
        return Tolerance.absolute(tolerance.value)
    if tolerance.kind == "sigfigs":
        return Tolerance.sigfigs(int(tolerance.value))
    raise GradingError(f"unknown tolerance kind '{tolerance.kind}'")
