"""Card + typed answer → :class:`~recall.formula.Verdict`: the bridge between decks and the engine.

Each kind is graded the way it deserves:

* ``formula`` and math ``cloze``: the engine decides equivalence with the card's symbol table
  (strict: an undeclared name makes the answer *invalid*, with a suggestion, at no cost);
* ``numeric``: the parameters are drawn again from the review's recorded seed, substituted into
  the card's formula, and the typed number is compared with the card's tolerance; the verdict's
  ``worked`` field shows formula, values and result;
* ``fact``: a number, or a range (``0.6-1.3``, ``0.6 to 1.3``), against the card's value or range;
* ``reverse`` and word ``cloze``: forgiving name matching (:mod:`recall.cards.matching`);
* ``explain``: self-rated; the verdict says so (``method == "self"``) and suggests nothing.

Use :func:`rating_verdict` to turn a verdict into the string the scheduler's rating rules take.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction

from recall.cards import params as param_values
from recall.cards.matching import match_name
from recall.cards.model import Card, CardKind
from recall.cards.model import Tolerance as CardTolerance
from recall.cards.rules import breach
from recall.cards.tables import substitute, symbol_table
from recall.cards.units import Quantity, UnitMismatch, fraction_hint, read_quantity, with_unit
from recall.errors import FormulaError, GradingError, ParseError
from recall.formula import (
    Diagnosis,
    Expression,
    Preview,
    Status,
    SymbolTable,
    Tolerance,
    Verdict,
    check,
    evaluate_constant,
    grade_number,
    parse,
)
from recall.formula import preview as engine_preview
from recall.formula.printer import to_text

__all__ = [
    "DEFAULT_TOLERANCE",
    "engine_tolerance",
    "expected_value",
    "grade",
    "preview",
    "rating_verdict",
    "reference_answer",
    "symbol_table",
]

#: The tolerance of a numeric or fact card that names none (docs/decks.md).
DEFAULT_TOLERANCE = CardTolerance("relative", 0.01)

# "0.6-1.3", "0.6 - 1.3", "0.6–1.3", "0.6 to 1.3", "0.6..1.3"; never the "-" of "1e-8".
_RANGE_SPLIT = re.compile(
    r"\s+to\s+|\s*(?:–|—|\.\.)\s*|(?<=[\d%a-zA-Z.])(?<![\d.][eE])\s*-\s*(?=[\d.+])"
)


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


def grade(
    card: Card, answer_text: str, *, seed: int | None = None, others: Iterable[str] = ()
) -> Verdict:
    """Grade ``answer_text`` for ``card``.

    ``seed`` is required for numeric cards (the one recorded when the question was shown).
    ``others`` are names from the card's neighbours (for reverse and word-cloze cards): a typo is
    never forgiven toward an answer that is closer to one of them. Raises
    :class:`~recall.errors.GradingError` for a card that cannot be graded (a broken card, not a
    wrong answer).
    """
    kind = card.kind
    if kind is CardKind.EXPLAIN:
        return Verdict(
            status=Status.INVALID,
            method="self",
            message="Self-rated: compare what you said with the model answer, then rate yourself.",
            expected=card.model_answer,
        )
    if not answer_text.strip():
        return Verdict(Status.INVALID, "parse", "Type an answer first.")
    if kind is CardKind.FORMULA or (kind is CardKind.CLOZE and card.answer):
        return _grade_expression(card, answer_text)
    if kind is CardKind.NUMERIC:
        if seed is None:
            raise GradingError(f"card '{card.key}' is numeric: grading needs the question's seed")
        return _grade_numeric(card, answer_text, seed)
    if kind is CardKind.FACT:
        return _grade_fact(card, answer_text)
    if kind in (CardKind.REVERSE, CardKind.CLOZE):
        return _grade_name(card, answer_text, others)
    raise GradingError(f"card '{card.key}' has an unknown kind '{kind}'")


def rating_verdict(verdict: Verdict) -> str:
    """The verdict as the scheduler's rating rules take it: ``self`` for self-rated cards, else the
    status (``correct``, ``incorrect``, ``invalid``)."""
    return "self" if verdict.method == "self" else str(verdict.status)


# ----- expressions ---------------------------------------------------------------------------


def _table(card: Card) -> SymbolTable:
    try:
        return symbol_table(card)
    except FormulaError as error:
        raise GradingError(
            f"card '{card.key}' declares a bad symbol or function: {error}"
        ) from None


def _grade_expression(card: Card, answer_text: str) -> Verdict:
    broken = _form_rule_breach(card, answer_text)
    if broken is not None:
        return broken
    verdict = check(card.answer, answer_text, _table(card))
    # The deck's own spelling (``sigma(x)`` where the card aliases the sigmoid), not the engine's
    # canonical one: it is the form the prompt and hint use.
    return replace(verdict, expected=card.answer)


def _form_rule_breach(card: Card, answer_text: str) -> Verdict | None:
    """An answer in a form the card rules out (``require``/``forbid``) is invalid with the reason,
    whatever its value: ``sigmoid(x)`` is not "the definition with exp"."""
    rule = card.form_rule
    if not rule:
        return None
    try:
        used = parse(answer_text, _table(card)).names
    except ParseError:
        return None  # the check that follows says what cannot be read
    reason = breach(rule, used)
    if reason is None:
        return None
    return Verdict(Status.INVALID, "form", reason, interpreted=answer_text.strip())


# ----- numeric -------------------------------------------------------------------------------


def expected_value(card: Card, seed: int) -> tuple[Expression, dict[str, int | float]]:
    """The card's answer with the seed's values substituted (a constant expression), and the
    values."""
    _template, expected, values = _filled(card, seed)
    return expected, values


def _filled(card: Card, seed: int) -> tuple[Expression, Expression, dict[str, int | float]]:
    """The card's answer as parsed, with the seed's values substituted, and the values."""
    values = param_values.draw(card.params, seed)
    try:
        template = parse(card.answer, _table(card))
    except ParseError as error:
        raise GradingError(
            f"card '{card.key}' has an answer that does not parse: {error}"
        ) from None
    return template, substitute(template, values), values


def _grade_numeric(card: Card, answer_text: str, seed: int) -> Verdict:
    template, expected, values = _filled(card, seed)
    worked = _worked(card, template, values, expected)
    quantity = _in_card_unit(card, answer_text)
    if isinstance(quantity, Verdict):
        return replace(quantity, worked=worked)
    typed = _read_number(quantity.number, "")
    hint = fraction_hint(quantity, typed, card.unit, _values(expected)) if typed else None
    if hint is not None:
        return Verdict(Status.INVALID, "unit", hint, interpreted=quantity.number, worked=worked)
    verdict = grade_number(expected, quantity.engine_text(), engine_tolerance(card.tolerance))
    if quantity.unit and verdict.interpreted:
        verdict = replace(verdict, interpreted=f"{quantity.number} {quantity.unit}")
    return replace(verdict, worked=worked)


def _values(expected: Expression) -> list[float]:
    try:
        return [evaluate_constant(expected)]
    except FormulaError:
        return []


def _in_card_unit(card: Card, answer_text: str) -> Quantity | Verdict:
    """The typed number with its unit read against the card's (``17600 MB`` on a GB card is
    17.6 GB), or an *invalid* verdict for a unit of another kind, with the reason."""
    quantity = read_quantity(answer_text, card.unit)
    if isinstance(quantity, UnitMismatch):
        return Verdict(Status.INVALID, "unit", quantity.message, column=quantity.column)
    return quantity


def _worked(
    card: Card, template: Expression, values: dict[str, int | float], expected: Expression
) -> str:
    """``6*N*D`` / ``N = 70 billion, D = 1.4 trillion`` / ``6*(70 billion)*(1.4 trillion)`` /
    ``= 5.88e23 FLOPs``."""
    shown = {}
    for name, value in values.items():
        text = param_values.format_number(value)
        shown[name] = f"({text})" if (" " in text or text.startswith("-")) else text
    canonical = {_canonical(name): text for name, text in shown.items()}
    try:
        result = param_values.format_number(float(evaluate_constant(expected)))
    except FormulaError as error:
        result = f"undefined ({error})"
    lines = [
        template.to_text(),
        ", ".join(f"{name} = {param_values.format_number(v)}" for name, v in values.items()),
        "= " + to_text(template.tree, canonical),
        f"= {with_unit(result, card.unit)}",
    ]
    return "\n".join(lines)


def _canonical(name: str) -> str:
    from recall.formula.names import canonical_name

    return canonical_name(name)


# ----- facts ---------------------------------------------------------------------------------


def _read_number(text: str, unit: str) -> Fraction | float | None:
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
        value = evaluate_constant(expr)
    except FormulaError:
        return None
    return value


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
        low, high = _read_number(left, unit), _read_number(right, unit)
        if low is not None and high is not None and float(low) <= float(high):
            return float(low), float(high)
    single = _read_number(text, unit)
    return None if single is None else float(single)


def _grade_fact(card: Card, answer_text: str) -> Verdict:
    tolerance = engine_tolerance(card.tolerance)
    expected = reference_answer(card)
    quantity = _in_card_unit(card, answer_text)
    if isinstance(quantity, Verdict):
        return replace(quantity, expected=expected)
    typed = _read_answer(answer_text, card.unit)
    accepted = [v for v in (card.value, *(card.value_range or ())) if v is not None]
    single = typed if isinstance(typed, float) else None
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
    unit = with_unit("", card.unit)
    if isinstance(typed, tuple):
        interpreted = (
            f"{param_values.format_number(typed[0])} to {param_values.format_number(typed[1])}"
        )
        if card.value_range is None:
            return Verdict(
                Status.INCORRECT,
                "tolerance",
                f"The sheet gives one value here: {expected}{unit}.",
                interpreted=interpreted,
                diagnosis=Diagnosis("tolerance", "A range was typed where one value is expected."),
                expected=expected,
            )
        low, high = card.value_range
        ok = tolerance.accepts(low, typed[0]) and tolerance.accepts(high, typed[1])
        return _fact_verdict(ok, interpreted, expected, unit, tolerance)
    interpreted = param_values.format_number(typed)
    if card.value_range is not None:
        low, high = card.value_range
        ok = low - tolerance.bound(low) <= typed <= high + tolerance.bound(high)
        middle = (low + high) / 2
        return _fact_verdict(ok, interpreted, expected, unit, tolerance, _magnitude(typed, middle))
    if card.value is None:
        raise GradingError(f"fact card '{card.key}' has neither a value nor a range")
    ok = tolerance.accepts(_exact(card.value), _exact(typed))
    return _fact_verdict(ok, interpreted, expected, unit, tolerance, _magnitude(typed, card.value))


def _exact(value: float) -> Fraction:
    return Fraction(repr(float(value)))


def _fact_verdict(
    ok: bool,
    interpreted: str,
    expected: str,
    unit: str,
    tolerance: Tolerance,
    diagnosis: Diagnosis | None = None,
) -> Verdict:
    if ok:
        return Verdict(
            Status.CORRECT,
            "tolerance",
            f"Right: {expected}{unit}.",
            interpreted=interpreted,
            expected=expected,
        )
    return Verdict(
        Status.INCORRECT,
        "tolerance",
        f"The sheet says {expected}{unit} (accepted {tolerance.describe()}).",
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


# ----- names ---------------------------------------------------------------------------------


def _grade_name(card: Card, answer_text: str, others: Iterable[str]) -> Verdict:
    result = match_name(answer_text, card.accept, others)
    expected = reference_answer(card)
    if result.accepted:
        message = f"Right: {result.matched}."
        if result.how == "typo":
            message = f"Right (spelled {result.matched})."
        return Verdict(
            Status.CORRECT, "name", message, interpreted=answer_text.strip(), expected=expected
        )
    message = f"Expected {expected}."
    diagnosis = None
    if result.clash:
        message = f"That is {result.clash}; expected {expected}."
        diagnosis = Diagnosis("confused", f"'{answer_text.strip()}' names {result.clash}.")
    return Verdict(
        Status.INCORRECT,
        "name",
        message,
        interpreted=answer_text.strip(),
        diagnosis=diagnosis,
        expected=expected,
    )


# ----- shown answers -------------------------------------------------------------------------


def reference_answer(card: Card) -> str:
    """The card's reference answer as a learner would type it (what ``decks show`` prints)."""
    if card.kind in (CardKind.FORMULA, CardKind.NUMERIC) or (
        card.kind is CardKind.CLOZE and card.answer
    ):
        return card.answer
    if card.kind is CardKind.FACT:
        if card.value_range is not None:
            low, high = card.value_range
            return f"{param_values.format_number(low)} to {param_values.format_number(high)}"
        return param_values.format_number(card.value if card.value is not None else math.nan)
    if card.kind in (CardKind.REVERSE, CardKind.CLOZE):
        return " / ".join(card.accept[:3]) if card.accept else ""
    return card.model_answer


def preview(card: Card, text: str) -> Preview:
    """How ``text`` is read for ``card``, cheap enough for every keystroke (the TUI's live
    "interpreted as"). Numeric and fact answers are read as numbers."""
    if card.kind in (CardKind.NUMERIC, CardKind.FACT):
        return _quantity_preview(text, card.unit)
    return engine_preview(text, _table(card))


def _quantity_preview(text: str, unit: str) -> Preview:
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
