"""The only bridge between cards and the formula engine.

:mod:`recall.cards` reads and validates deck files with the standard library alone; everything
that needs the engine to understand a card lives here:

* :mod:`.tables`: a card's symbols, functions and parameters as the engine's symbol table;
* :mod:`.checks`: the deck checks the loader runs when given ``check=check_deck``;
* :mod:`.claims`: proving the identities a card states;
* :mod:`.dispatch`, :mod:`.expressions`, :mod:`.numeric`, :mod:`.facts`, :mod:`.names`:
  grading a typed answer, by card kind;
* :mod:`.reference`: the reference answer and the live preview;
* :mod:`.tolerances`: a card's tolerance as the engine's.

Importing this package imports the engine (and SymPy): the TUI imports it inside functions, off
the first frame.
"""

from recall.grading.checks import check_card, check_deck
from recall.grading.claims import ClaimResult, check_card_claims, check_derivative, check_identity
from recall.grading.dispatch import expected_value, grade, rating_verdict
from recall.grading.reference import preview, reference_answer
from recall.grading.tables import substitute, symbol_table
from recall.grading.tolerances import DEFAULT_TOLERANCE, engine_tolerance

__all__ = [
    "DEFAULT_TOLERANCE",
    "ClaimResult",
    "check_card",
    "check_card_claims",
    "check_deck",
    "check_derivative",
    "check_identity",
    "engine_tolerance",
    "expected_value",
    "grade",
    "preview",
    "rating_verdict",
    "reference_answer",
    "substitute",
    "symbol_table",
]
