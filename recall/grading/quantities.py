"""A typed number and its unit, read against the card's unit (:mod:`recall.cards.units`).

The units module is pure: it splits ``17600 MB`` into the number and a conversion factor. Here
that becomes what grading needs: an *invalid* verdict for a unit of another kind, the number's
value in the card's unit, and the live preview of a quantity (``17.6 GB``, not ``17.6⋅GB``).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from recall.cards.model import Card
from recall.cards.units import Quantity, UnitMismatch, read_quantity
from recall.errors import FormulaError, ParseError
from recall.formula import Preview, Status, Verdict, evaluate_constant, parse
from recall.formula import preview as engine_preview


def in_card_unit(card: Card, answer_text: str) -> Quantity | Verdict:
    """The typed number with its unit read against the card's (``17600 MB`` on a GB card is
    17.6 GB), or an *invalid* verdict for a unit of another kind, with the reason."""
    quantity = read_quantity(answer_text, card.unit)
    if isinstance(quantity, UnitMismatch):
        return Verdict(Status.INVALID, "unit", quantity.message, column=quantity.column)
    return quantity


def read_number(text: str, unit: str) -> Fraction | float | None:
    """A typed number (``3e-4``, ``3×10^-4``, ``7 billion``, ``40%``, ``17600 MB``) in the unit
    ``unit``, or ``None`` (a unit of another kind is ``None`` too: the caller reports it)."""
    quantity = read_quantity(text, unit)
    if isinstance(quantity, UnitMismatch):
        return None
    try:
        expr = parse(quantity.engine_text(), numeric=True)
    except ParseError:
        return None
    if not expr.is_constant:
        return None
    try:
        return evaluate_constant(expr)
    except FormulaError:
        return None


def quantity_preview(text: str, unit: str) -> Preview:
    """``17.6 GB`` previews as the number and its unit, not as the product ``17.6⋅GB``; a unit
    of another kind previews as the reason, with a caret under it."""
    quantity = read_quantity(text, unit)
    if isinstance(quantity, UnitMismatch):
        line = text.replace("\n", " ")
        caret = f"{line}\n{' ' * quantity.column}^"
        return Preview(False, message=quantity.message, column=quantity.column, caret=caret)
    shown = engine_preview(quantity.number, None, numeric=True)
    if not quantity.unit or not shown.ok:
        return shown
    lines = shown.rendered.split("\n")
    lines[-1] = f"{lines[-1].rstrip()} {quantity.unit}"
    return replace(
        shown, rendered="\n".join(lines), interpreted=f"{shown.interpreted} {quantity.unit}"
    )
