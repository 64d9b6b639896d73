"""A card's names as the formula engine sees them, and numeric templates filled with values.

This is where a card's ``symbols``, ``functions`` and ``params`` become the engine's
:class:`~recall.formula.SymbolTable`: the deck checks, the claims, grading and the TUI's
rendering all build their table here, so a name means the same thing everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from recall.cards.model import Card, CardKind, ParamSpec, legend_names
from recall.formula import Expression, SymbolTable
from recall.formula.names import canonical_name
from recall.formula.nodes import Node, Number, replace_symbols


def param_domain(spec: ParamSpec) -> str:
    """The engine domain a parameter's values live in (for parsing and numeric checks)."""
    values = list(spec.choices) or [v for v in (spec.low, spec.high) if v is not None]
    integer = spec.integer or (
        bool(spec.choices) and all(float(c).is_integer() for c in spec.choices)
    )
    if values and min(values) > 0:
        return "positive integer" if integer else "positive"
    if values and min(values) >= 0:
        return "nonnegative integer" if integer else "nonnegative"
    return "integer" if integer else "real"


def variables_of(card: Card, *, identities: bool = False) -> dict[str, str]:
    """Declared variables (deck and card symbols, and a numeric card's parameters) → domain.

    Symbols declared ``identities_only`` are left out unless ``identities`` (checking the
    card's stated identities): a learner's answer may not use them."""
    variables = {
        symbol.name: symbol.domain
        for symbol in card.symbols
        if identities or not symbol.identities_only
    }
    if card.kind is CardKind.NUMERIC:
        for spec in card.params:
            variables[spec.name] = param_domain(spec)
    return variables


def functions_of(card: Card) -> dict[str, str]:
    """Declared function names → the builtin they alias, or ``"unknown"``."""
    return {spec.name: spec.means for spec in card.functions}


def symbol_table(card: Card, *, strict: bool = True, identities: bool = False) -> SymbolTable:
    """The engine's symbol table for ``card``.

    Strict by default: a learner who types a name the card does not declare gets an *invalid*
    answer with a suggestion, not a silently different variable. ``identities`` adds the symbols
    declared only for the card's identities (the claims and deck checks need them; a learner's
    answer may not use them). Raises :class:`~recall.errors.FormulaError` for a bad domain or
    function alias.
    """
    variables = variables_of(card, identities=identities)
    definitions = {s.name: s.equals for s in card.symbols if s.equals and s.name in variables}
    return SymbolTable.build(
        variables,
        functions_of(card),
        strict=strict,
        definitions=definitions,
        shown=[name for name in legend_names(card) if name in variables],
    )


def substitute(expr: Expression, values: Mapping[str, float | int]) -> Expression:
    """``expr`` with each named variable replaced by its exact value (a constant expression).

    Values become exact rationals (``0.1`` is ``1/10``, as the engine reads a typed decimal), so
    the engine computes the answer from exactly the numbers shown to the learner.
    """
    numbers: dict[str, Node] = {}
    for name, value in values.items():
        number = _exact(value)
        numbers[canonical_name(name)] = Number(number, _number_text(number))
    return Expression(replace_symbols(expr.tree, numbers), expr.text, expr.table, expr.numeric)


def _exact(value: float | int) -> Fraction:
    if isinstance(value, int):
        return Fraction(value)
    return Fraction(repr(float(value)))


def _number_text(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    return repr(float(value))
