"""The only bridge between cards and the formula engine.

:mod:`recall.cards` reads and validates deck files with the standard library alone; everything
that needs the engine to understand a card lives here:

* :mod:`.question`: :class:`Question`, a card as asked once (seed, drawn values, prompt), and
  its replay from the review log;
* :mod:`.dispatch`, :mod:`.expressions`, :mod:`.numeric`, :mod:`.facts`, :mod:`.names`:
  grading a typed answer, by card kind;
* :mod:`.reference`: the reference answer and the live preview;
* :mod:`.tables`: a card's symbols, functions and parameters as the engine's symbol table;
* :mod:`.checks`: the deck checks the loader runs when given ``check=check_deck``;
* :mod:`.claims`: proving the identities a card states;
* :mod:`.tolerances`: a card's tolerance as the engine's.

Importing the package is cheap: :class:`Question` is loaded at once (a session may hold one
before SymPy is imported); every other name imports the engine on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from recall.grading.question import LoggedQuestion, Question, asked_prompt, fresh_seed

if TYPE_CHECKING:
    from recall.cards.build import BuiltDeck
    from recall.cards.problems import Problems
    from recall.grading.checks import check_card
    from recall.grading.claims import (
        ClaimResult,
        check_card_claims,
        check_derivative,
        check_identity,
    )
    from recall.grading.dispatch import grade
    from recall.grading.reference import preview, reference_answer
    from recall.grading.tables import substitute, symbol_table
    from recall.grading.tolerances import DEFAULT_TOLERANCE, engine_tolerance

#: Name → the submodule that defines it, imported on first use (each imports the engine).
_ENGINE_NAMES = {
    "check_card": "checks",
    "ClaimResult": "claims",
    "check_card_claims": "claims",
    "check_derivative": "claims",
    "check_identity": "claims",
    "grade": "dispatch",
    "preview": "reference",
    "reference_answer": "reference",
    "substitute": "tables",
    "symbol_table": "tables",
    "DEFAULT_TOLERANCE": "tolerances",
    "engine_tolerance": "tolerances",
}

__all__ = [
    "DEFAULT_TOLERANCE",
    "ClaimResult",
    "LoggedQuestion",
    "Question",
    "asked_prompt",
    "check_card",
    "check_card_claims",
    "check_deck",
    "check_derivative",
    "check_identity",
    "engine_tolerance",
    "fresh_seed",
    "grade",
    "preview",
    "reference_answer",
    "substitute",
    "symbol_table",
]


def check_deck(built: BuiltDeck, problems: Problems) -> None:
    """The engine checks of a deck (:func:`recall.grading.checks.check_deck`), imported only
    when a deck is really checked.

    Loaders are handed this name as their ``check``; a deck read back from the parse cache
    (:mod:`recall.cards.parse_cache`) is not checked again, so a start whose custom decks are
    all cached never imports SymPy for them (it would cost a third of a second before the home
    screen's counts). A module-level function, so the cache can name it in its key.
    """
    from recall.grading.checks import check_deck as run_engine_checks

    run_engine_checks(built, problems)


def __getattr__(name: str) -> object:
    """Load an engine-backed name from its submodule the first time it is asked for."""
    module = _ENGINE_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'recall.grading' has no attribute '{name}'")
    value = getattr(importlib.import_module(f"recall.grading.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
