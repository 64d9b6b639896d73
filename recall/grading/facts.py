"""Fact cards: a number, or a range (``0.6-1.3``, ``0.6 to 1.3``), against the value or range.

A typed number is read with the engine's numeric reader (``3e-4``, ``3×10^-4``, ``7 billion``,
``40%``); a wrong value that is the right one times a power of ten is diagnosed as a slipped
exponent or unit.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from fractions import Fraction

from recall.cards import params as param_values
from recall.cards.model import Card
from recall.cards.units import Quantity, card_unit, fraction_hint, read_quantity, with_unit
from recall.errors import GradingError
from recall.formula import Diagnosis, Tolerance, Verdict
from recall.grading.quantities import in_card_unit, read_number
from recall.grading.reference import reference_answer
from recall.grading.tolerances import engine_tolerance
from recall.verdicts import Status

# "0.6-1.3", "0.6 - 1.3", "0.6–1.3", "0.6 to 1.3", "0.6..1.3"; never the "-" of "1e-8".
_RANGE_SPLIT = re.compile(
    r"\s+to\s+|\s*(?:–|—|\.\.)\s*|(?<=[\d%a-zA-Z.])(?<![\d.][eE])\s*-\s*(?=[\d.+])"
)


def _read_answer(text: str, unit: str) -> tuple[float, float] | float | None:
    """A number or a ``low-high`` range typed for a fact card.

    A range is tried first: the number reader would take ``0.6-1.3`` for a subtraction.
    """
    for match in _RANGE_SPLIT.finditer(text):
        left, right = text[: match.start()].strip(), text[match.end() :].strip()
        typed = read_quantity(right, unit)
        if (
            isinstance(typed, Quantity)
            and typed.unit
            and read_quantity(left, unit) == Quantity(left)
        ):
            left = f"{left} {typed.unit}"  # "15-25 steps", "40-50%": the unit is written once
        low, high = read_number(left, unit), read_number(right, unit)
        if low is not None and high is not None and float(low) <= float(high):
            return float(low), float(high)
    single = read_number(text, unit)
    return None if single is None else float(single)


def grade_fact(card: Card, answer_text: str) -> Verdict:
    """Grade a typed number or range against the fact card's value or range."""
    tolerance = engine_tolerance(card.tolerance)
    expected = reference_answer(card)
    quantity = in_card_unit(card, answer_text)
    if isinstance(quantity, Verdict):
        return replace(quantity, expected=expected)
    typed = _read_answer(answer_text, card.unit)
    accepted = [v for v in (card.value, *(card.value_range or ())) if v is not None]
    single = typed if isinstance(typed, float) else None
    as_fraction = _fraction_meant(card, quantity, single, tolerance)
    if as_fraction is not None:
        return replace(as_fraction, expected=expected)
    hint = fraction_hint(quantity, single, card.unit, accepted)
    if hint is not None:
        return Verdict(Status.INVALID, "unit", hint, interpreted=quantity.number, expected=expected)
    if typed is None:
        return Verdict(
            Status.INVALID,
            "parse",
            "Type a number (3e-4, 7 billion, 40%) or a range (0.6-1.3, 0.6 to 1.3).",
            expected=expected,
        )
    shown = with_unit(expected, card.unit)  # "16 bytes", "1 byte", "0.6 to 1.3 bits/char"
    if isinstance(typed, tuple):
        interpreted = (
            f"{param_values.format_number(typed[0])} to {param_values.format_number(typed[1])}"
        )
        if card.value_range is None:
            return Verdict(
                Status.INCORRECT,
                "tolerance",
                f"The sheet gives one value here: {shown}.",
                interpreted=interpreted,
                diagnosis=Diagnosis("tolerance", "A range was typed where one value is expected."),
                expected=expected,
            )
        low, high = card.value_range
        ok = tolerance.accepts(low, typed[0]) and tolerance.accepts(high, typed[1])
        same = (low, high) == typed
        right = "the sheet's range exactly"
        if not same:
            right = f"{tolerance.describe()} of the sheet's {shown}"
        return _fact_verdict(ok, interpreted, expected, shown, tolerance, right=right)
    interpreted = param_values.format_number(typed)
    if card.value_range is not None:
        low, high = card.value_range
        ok = low - tolerance.bound(low) <= typed <= high + tolerance.bound(high)
        middle = (low + high) / 2
        right = f"in the sheet's range, {shown}"
        if not low <= typed <= high:
            right = f"{tolerance.describe()} of the sheet's range, {shown}"
        diagnosis = _magnitude(typed, middle)
        return _fact_verdict(ok, interpreted, expected, shown, tolerance, diagnosis, right=right)
    if card.value is None:
        raise GradingError(f"fact card '{card.key}' has neither a value nor a range")
    ok = tolerance.accepts(_exact(card.value), _exact(typed))
    right = "the sheet's value exactly"
    if _exact(card.value) != _exact(typed):
        right = f"{tolerance.describe()} of the sheet's {shown}"
    diagnosis = _magnitude(typed, card.value)
    return _fact_verdict(ok, interpreted, expected, shown, tolerance, diagnosis, right=right)


def _fraction_meant(
    card: Card, quantity: Quantity, typed: float | None, tolerance: Tolerance
) -> Verdict | None:
    """A bare fraction on a percent card that is right only when read as a fraction (``0.01``
    for warmup's 0.5-2%, ``0.45`` for MFU's 40-50%): the learner's meaning, graded right and
    shown as read. ``None`` when a unit was typed, the card is not a percent card, the number
    is not between 0 and 1, or it is right (or wrong) as a percentage already."""
    if (
        quantity.unit
        or typed is None
        or not card_unit(card.unit).is_percent
        or not 0 < abs(typed) < 1
        or _single_ok(card, typed, tolerance)
        or not _single_ok(card, typed * 100, tolerance)
    ):
        return None
    percent = param_values.format_number(typed * 100)
    shown = with_unit(reference_answer(card), card.unit)
    return Verdict(
        Status.CORRECT,
        "tolerance",
        f"Right: {param_values.format_number(typed)} read as a fraction is {percent}%, "
        f"and the sheet says {shown}.",
        interpreted=f"{percent}%",
    )


def _single_ok(card: Card, typed: float, tolerance: Tolerance) -> bool:
    """Whether one typed number (in the card's unit) is right: in the range, or the value."""
    if card.value_range is not None:
        low, high = card.value_range
        return low - tolerance.bound(low) <= typed <= high + tolerance.bound(high)
    if card.value is None:
        return False
    return tolerance.accepts(_exact(card.value), _exact(typed))


def _exact(value: float) -> Fraction:
    return Fraction(repr(float(value)))


def _fact_verdict(
    ok: bool,
    interpreted: str,
    expected: str,
    shown: str,
    tolerance: Tolerance,
    diagnosis: Diagnosis | None = None,
    *,
    right: str,
) -> Verdict:
    """``shown`` is the expected answer with its unit; ``right`` says how a right answer relates
    to the sheet ("within 1% of the sheet's 16 bytes"), so the message tells the learner more
    than their own number back."""
    if ok:
        return Verdict(
            Status.CORRECT,
            "tolerance",
            f"Right: {right}.",
            interpreted=interpreted,
            expected=expected,
        )
    return Verdict(
        Status.INCORRECT,
        "tolerance",
        f"The sheet says {shown} (accepted {tolerance.describe()}).",
        interpreted=interpreted,
        diagnosis=diagnosis,
        expected=expected,
    )


def _magnitude(typed: float, reference: float) -> Diagnosis | None:
    """A wrong value that is the right one times a power of ten (a slipped exponent or unit)."""
    if typed == 0 or reference == 0 or (typed < 0) != (reference < 0):
        return None
    exponent = math.log10(abs(typed) / abs(reference))
    power = round(exponent)
    if power == 0 or abs(exponent - power) > 0.02:
        return None
    return Diagnosis("magnitude", f"Off by a factor of 10^{power}: check the exponent or the unit.")
