"""Validation with the formula engine: expressions parse, names are declared, templates compute.

The structural checks (:mod:`recall.cards.build`) cannot tell whether ``answer = "6*N*D"`` means
anything; this module asks the engine. It lives here, not in :mod:`recall.cards`, because the deck
format is stdlib-only: the loader takes :func:`check_deck` as its optional ``check`` callable
(``load_decks(dirs, check=check_deck)``) and never imports the engine itself.

Checks, per card:

* every domain and function alias is one the engine knows;
* every expression (``answer``, identity sides, ``derivative_of``) parses and renders, and so
  does every key point's formula;
* every variable an expression uses is declared (card or deck ``symbols``; for numeric cards,
  ``params``), with "did you mean" for near misses;
* a numeric template gives a finite value at every corner of its parameter ranges, for a few
  seeds, and at every value when all its parameters are discrete and few.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache

from recall.cards import params as param_values
from recall.cards.build import BuiltCard, BuiltDeck
from recall.cards.model import Card, CardKind, FunctionSpec, ParamSpec, SymbolSpec
from recall.cards.positions import Path
from recall.cards.problems import Problems, did_you_mean
from recall.errors import FormulaError, ParseError
from recall.formula import Expression, SymbolTable, evaluate_constant, parse, parse_domain
from recall.formula.names import canonical_name
from recall.formula.render import check_drawable
from recall.grading.explain_formulas import formula_sides
from recall.grading.tables import substitute, symbol_table

#: Seeds drawn, besides the range corners, to check a numeric template.
CHECK_SEEDS = tuple(range(8))


def check_deck(built: BuiltDeck, problems: Problems) -> None:
    """Run the engine checks over every structurally valid card of ``built``."""
    _check_specs(built.symbols, built.functions, ("deck",), None, problems)
    for item in built.cards:
        check_card(item, problems)


def _check_specs(
    symbols: Iterable[SymbolSpec],
    functions: Iterable[FunctionSpec],
    where: Path,
    card_id: str | None,
    problems: Problems,
) -> bool:
    """Report domains and function aliases the engine rejects; ``True`` if all are fine."""
    ok = True
    for symbol in symbols:
        try:
            parse_domain(symbol.domain)
        except FormulaError as error:
            ok = False
            problems.add(
                f"symbol '{symbol.name}' has a bad domain: {error}",
                (*where, "symbols", symbol.name),
                card_id=card_id,
                suggestion="domains: real, positive, nonnegative, negative, integer, "
                "positive integer, or an interval like (0, 1)",
            )
    for function in functions:
        try:
            SymbolTable.build({}, {function.name: function.means})
        except FormulaError as error:
            ok = False
            problems.add(
                str(error),
                (*where, "functions", function.name),
                card_id=card_id,
                suggestion="use 'unknown' for an arbitrary function",
            )
    return ok


def check_card(item: BuiltCard, problems: Problems) -> None:
    """Engine checks for one card (its deck-level names were checked with the deck)."""
    card, index = item.card, item.index
    where: Path = ("card", index)
    own_symbols = [s for s in card.symbols if s.name in item.own_symbols]
    own_functions = [f for f in card.functions if f.name in item.own_functions]
    if not _check_specs(own_symbols, own_functions, where, card.id, problems):
        return
    try:
        # Not strict: an undeclared name must parse, so it can be reported with a suggestion.
        table = _table(card.symbols, card.functions, card.params, card.kind)
    except FormulaError as error:
        problems.add(str(error), (*where, "symbols"), card_id=card.id)
        return
    except Exception:  # a bad deck-level spec, already reported for the deck
        return
    declared = set(table.variables)
    hidden = {canonical_name(s.name) for s in card.symbols if s.identities_only}
    for symbol in own_symbols:
        if symbol.equals:
            _parse(
                symbol.equals,
                table,
                (*where, "symbols", symbol.name),
                f"the definition of '{symbol.name}'",
                card,
                problems,
                declared - {symbol.name} - (set() if symbol.identities_only else hidden),
            )

    if card.kind in (CardKind.FORMULA, CardKind.NUMERIC) or (
        card.kind is CardKind.CLOZE and card.answer
    ):
        allowed = declared - hidden
        if card.kind is CardKind.NUMERIC:
            allowed = {name for name in declared if name in _param_names(card)}
        expr = _parse(card.answer, table, (*where, "answer"), "answer", card, problems, allowed)
        if expr is not None:
            _check_renders(expr, (*where, "answer"), card, problems)
            _check_form_rule(card, expr, table, where, problems)
            if card.kind is CardKind.NUMERIC:
                check_template(card, expr, (*where, "answer"), problems)

    _check_point_formulas(card, table, where, problems)
    _check_point_phrasings(card, where, problems)

    for number, identity in enumerate(card.identities):
        at = (*where, "identities", number)
        if identity.derivative_of is not None:
            _parse(identity.derivative_of, table, at, "derivative_of", card, problems, declared)
            wrt = canonical_name(identity.wrt or "")
            if wrt not in declared:
                problems.add(
                    f"identity differentiates by '{identity.wrt}', which is not declared",
                    at,
                    card_id=card.id,
                    suggestion=_name_hint(wrt, declared),
                )
        else:
            _parse(identity.lhs, table, at, "lhs", card, problems, declared)
        _parse(identity.rhs, table, at, "rhs", card, problems, declared)


@lru_cache(maxsize=64)
def _table(
    symbols: tuple[SymbolSpec, ...],
    functions: tuple[FunctionSpec, ...],
    params: tuple[ParamSpec, ...],
    kind: CardKind,
) -> SymbolTable:
    """The table a card's expressions are checked with (not strict, identities' names
    included), built once for the cards that declare the same names: a deck's symbols reach
    every card, and building the table (every domain read) cost as much as parsing a formula."""
    card = Card("", "", kind, "", symbols=symbols, functions=functions, params=params)
    return symbol_table(card, strict=False, identities=True)


def _check_point_formulas(card: Card, table: SymbolTable, where: Path, problems: Problems) -> None:
    """A key point's formula must parse: grading compares the learner's formulas with it, and a
    reference that does not parse would break the card at the first typed explanation. Any
    name may appear (an explanation is prose), so only parse errors are reported. An equation
    (``a = b``) is two sides, each of which must parse."""
    for number, point in enumerate(card.points):
        for j, formula in enumerate(point.formulas):
            try:
                for side in formula_sides(formula):
                    parse(side, table)
            except FormulaError as error:
                problems.add(
                    f"key point formula {formula!r} does not parse: {error}",
                    (*where, "points", number, "formulas", j),
                    card_id=card.id,
                    suggestion="`recall help syntax` shows what can be typed",
                )


def _check_point_phrasings(card: Card, where: Path, problems: Problems) -> None:
    """A key point's phrasing (or opposite) that can never be made as written is a deck error:
    a negation among a word's alternatives, or one with nothing after it to deny; and so is a
    phrasing too loose to state anything (one word the card's prompt or hint already says)."""
    from recall.grading.explain import loose_phrasing, phrasing_problem

    for number, point in enumerate(card.points):
        for key, phrasings in (("words", point.words), ("opposites", point.opposites)):
            for j, phrasing in enumerate(phrasings):
                message = phrasing_problem(phrasing)
                if message is None and key == "words":
                    message = loose_phrasing(card, phrasing)
                if message is not None:
                    problems.add(
                        f"key point phrasing {phrasing!r}: {message}",
                        (*where, "points", number, key, j),
                        card_id=card.id,
                    )


def _check_form_rule(
    card: Card, expr: Expression, table: SymbolTable, where: Path, problems: Problems
) -> None:
    """Each ``require``/``forbid`` name is one an answer can use, and the card's own answer
    takes the form it asks for (nothing to check on a card that has neither: most cards)."""
    if not card.require and not card.forbid:
        return
    from recall.cards.rules import breach
    from recall.formula.functions import BUILTINS

    known = set(table.variables) | set(table.functions) | set(BUILTINS) | {"e", "pi"}
    for key, names in (("require", card.require), ("forbid", card.forbid)):
        for i, name in enumerate(names):
            if name not in known:
                problems.add(
                    f"'{name}' in '{key}' is neither a declared name nor a builtin function",
                    (*where, key, i),
                    card_id=card.id,
                    suggestion=did_you_mean(name, known) or "use the canonical name, e.g. 'log'",
                )
    reason = breach(card.form_rule, expr.names)
    if reason is not None:
        problems.add(
            f"the card's own answer breaks its rule: {reason}", (*where, "answer"), card_id=card.id
        )


def _param_names(card: Card) -> set[str]:
    return {canonical_name(spec.name) for spec in card.params}


def _parse(
    text: str,
    table: SymbolTable,
    at: Path,
    what: str,
    card: Card,
    problems: Problems,
    allowed: set[str],
) -> Expression | None:
    """Parse ``text``; report a parse error or an undeclared name; the expression if it is fine."""
    try:
        expr = parse(text, table)
    except ParseError as error:
        problems.add(
            f"{what} {text!r} does not parse: {error}",
            at,
            card_id=card.id,
            suggestion="`recall help syntax` shows what can be typed",
        )
        return None
    undeclared = sorted(expr.free_symbols - allowed)
    for name in undeclared:
        if card.kind is CardKind.NUMERIC and what == "answer":
            message = f"'{name}' is used in the answer but is not a parameter"
            hint = (
                did_you_mean(name, allowed)
                or f"add {name} under [card.params] and show it as {{{name}}}"
            )
        else:
            message = f"symbol '{name}' is used in {what} but not declared"
            hint = _name_hint(name, allowed)
        problems.add(message, at, card_id=card.id, suggestion=hint)
    return None if undeclared else expr


def _name_hint(name: str, declared: Iterable[str]) -> str:
    return did_you_mean(name, declared) or (
        f'declare it under [card.symbols], e.g. {name} = "real" (or as a function under '
        "[card.functions])"
    )


def _check_renders(expr: Expression, at: Path, card: Card, problems: Problems) -> None:
    """The answer can be shown after grading: what :func:`recall.formula.render` would raise
    on, or an empty drawing, is reported (:func:`recall.formula.render.check_drawable`; the
    drawing itself is left to the screen that shows it, where a printer error falls back to
    one line)."""
    try:
        text = check_drawable(expr)
    except Exception as error:  # noqa: BLE001 - any renderer failure is a deck problem to report
        problems.add(f"answer does not render: {error}", at, card_id=card.id)
        return
    if not text.strip():
        problems.add("answer renders as nothing", at, card_id=card.id)


def evaluate(expr: Expression) -> float:
    """The float value of a constant expression (raises :class:`~recall.errors.FormulaError` when
    it is undefined)."""
    return float(evaluate_constant(expr))


def check_template(card: Card, expr: Expression, at: Path, problems: Problems) -> None:
    """Evaluate a numeric template at its range corners and for :data:`CHECK_SEEDS`; report the
    first set of values where it fails or is not finite."""
    cases = param_values.exhaustive_cases(card.params) or []
    cases += list(param_values.corner_cases(card.params))
    cases += [param_values.draw(card.params, seed) for seed in CHECK_SEEDS]
    for values in cases:
        shown = ", ".join(f"{k} = {param_values.format_number(v)}" for k, v in values.items())
        try:
            result = evaluate(substitute(expr, values))
        except Exception as error:  # noqa: BLE001 - report, whatever the engine raised
            problems.add(
                f"numeric template fails for {shown}: {error}",
                at,
                card_id=card.id,
                suggestion="narrow the parameter ranges or fix the formula",
            )
            return
        if not math.isfinite(result):
            problems.add(
                f"numeric template is not finite for {shown} (got {result})",
                at,
                card_id=card.id,
                suggestion="narrow the parameter ranges or fix the formula",
            )
            return
