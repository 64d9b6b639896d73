"""Checking the identities a card states (``identities = [...]``) with the formula engine.

A deck that says ``sigmoid'(x) = sigmoid(x)(1 - sigmoid(x))`` should be able to prove it. Each
``{ lhs, rhs }`` is graded with :func:`recall.formula.check` under the card's symbol table (so
domains decide, as they do for the learner); each ``{ derivative_of, wrt, rhs }`` is
differentiated with SymPy (through the engine's converter, never from raw text) and compared the
same way. Slow (SymPy), so it runs in the test suite and in ``recall decks validate
--identities``, not on every load.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import sympy

from recall.cards.model import Card, Identity
from recall.errors import RecallError
from recall.formula import SymbolTable, check, parse
from recall.formula.names import canonical_name
from recall.formula.sampling import sample
from recall.grading.tables import symbol_table


@dataclass(frozen=True)
class ClaimResult:
    """One identity's outcome: ``ok``, and the engine's words when it is not."""

    card: Card
    index: int
    identity: Identity
    ok: bool
    message: str = ""

    def describe(self) -> str:
        """``deck/card identity #n: lhs = rhs: message``."""
        identity = self.identity
        if identity.derivative_of is not None:
            claim = f"d/d{identity.wrt} [{identity.derivative_of}] = {identity.rhs}"
        else:
            claim = f"{identity.lhs} = {identity.rhs}"
        return f"{self.card.key} identity #{self.index + 1}: {claim}: {self.message}"


def check_identity(card: Card, index: int) -> ClaimResult:
    """Verify ``card.identities[index]`` with the engine."""
    identity = card.identities[index]
    try:
        table = symbol_table(card, identities=True)
        if identity.derivative_of is not None:
            ok, message = check_derivative(
                identity.derivative_of, identity.wrt or "", identity.rhs, table
            )
            return ClaimResult(card, index, identity, ok, message)
        verdict = check(identity.lhs, identity.rhs, table)
    except RecallError as error:
        return ClaimResult(card, index, identity, False, f"cannot be checked: {error}")
    if verdict.is_correct:
        return ClaimResult(card, index, identity, True, verdict.method)
    return ClaimResult(card, index, identity, False, f"{verdict.status}: {verdict.message}")


#: Points at which a derivative claim is compared, and the digits it must agree to.
DERIVATIVE_POINTS = 12
DERIVATIVE_DIGITS = 30


def check_derivative(text: str, wrt: str, rhs: str, table: SymbolTable) -> tuple[bool, str]:
    """Whether ``d(text)/d(wrt) == rhs`` on the declared domains.

    Both sides are parsed by recall's parser and converted with the engine's SymPy converter;
    SymPy differentiates, and the two are compared at random points of the domains (drawn with
    the engine's own sampler) to :data:`DERIVATIVE_DIGITS` digits, with a symbolic
    simplification as a last word when the points disagree only through rounding.
    """
    parsed, claim = parse(text, table), parse(rhs, table)
    function, claimed = parsed.to_sympy(), claim.to_sympy()
    # The converter names SymPy symbols for display; map them back through recall's own names.
    symbols = {n: parse(n, table).to_sympy() for n in parsed.free_symbols | claim.free_symbols}
    variable = symbols.get(canonical_name(wrt))
    if variable is None or variable not in function.free_symbols:
        return False, f"'{wrt}' does not occur in {text}"
    derivative = sympy.diff(function, variable)
    rng = random.Random(0)
    compared = 0
    for _ in range(DERIVATIVE_POINTS * 3):
        # Floats at high precision, not Rationals: exact powers of big rationals can take SymPy
        # minutes, and evalf(subs=...) keeps every step numeric.
        point = {
            sym: sympy.Rational(str(sample(table.domain(n), rng))).evalf(DERIVATIVE_DIGITS + 10)
            for n, sym in symbols.items()
        }
        left = derivative.evalf(DERIVATIVE_DIGITS, subs=point)
        right = claimed.evalf(DERIVATIVE_DIGITS, subs=point)
        left_ok, right_ok = _finite(left), _finite(right)
        if not left_ok and not right_ok:
            continue
        if left_ok != right_ok:
            return False, f"defined on one side only at {_show(point)}"
        scale = max(abs(left), abs(right), 1)
        if abs(left - right) > scale * sympy.Float(10) ** (-(DERIVATIVE_DIGITS - 8)):
            if sympy.simplify(derivative - claimed) == 0:
                return True, "symbolic"
            return (
                False,
                f"at {_show(point)} the derivative is {sympy.N(left, 6)}, "
                f"the claim {sympy.N(right, 6)}",
            )
        compared += 1
        if compared >= DERIVATIVE_POINTS:
            break
    if compared == 0:
        return False, "no point of the domain where both sides are defined"
    return True, "numeric"


def _finite(value: Any) -> bool:
    return (
        bool(getattr(value, "is_number", False))
        and bool(value.is_finite)
        and value.is_real is not False
    )  # type: ignore[attr-defined]


def _show(point: dict[object, object]) -> str:
    return ", ".join(f"{k} = {float(v):.6g}" for k, v in point.items())  # type: ignore[arg-type]


def check_card_claims(card: Card) -> list[ClaimResult]:
    """Every identity of ``card``, checked."""
    return [check_identity(card, index) for index in range(len(card.identities))]
