"""Evaluate expression trees over the reals: fast float64, exact rationals, and mpmath.

Three evaluators share one set of rules: results are real; where an expression is undefined
(``log`` of a non-positive number, division by zero, a negative base to a fractional power) the
value is ``None``; a float64 overflow is ``inf`` (too big to tell, not undefined), which sends
the caller to arbitrary precision. Unknown functions (``f``, ``g``) are replaced by random smooth
functions, the same for both sides of a comparison.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import mpmath

from recall.formula.functions import BUILTINS
from recall.formula.nodes import BinOp, Call, Constant, Negate, Node, Number, Symbol
from recall.formula.reach import SHORTCUT_DIGITS, OutOfReach, magnitude_text, power_hidden

#: Powers whose result would need more bits than this are treated as overflow.
MAX_POWER_BITS = 50_000


__all__ = ["NotRational", "OutOfReach", "UnknownFunctions", "eval_exact", "eval_float", "eval_mp"]


class NotRational(Exception):
    """Raised inside :func:`eval_exact` when a value is not a rational number."""


class UnknownFunctions:
    """Random smooth stand-ins for arbitrary functions, reproducible from a seed."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._coefficients: dict[tuple[str, int], list[float]] = {}

    def coefficients(self, name: str, arity: int) -> list[float]:
        key = (name, arity)
        if key not in self._coefficients:
            rng = random.Random(f"{self.seed}:{name}:{arity}")
            self._coefficients[key] = [rng.uniform(0.5, 1.5) for _ in range(4 + 2 * arity)]
        return self._coefficients[key]

    def real(self, name: str, args: list[float]) -> float:
        c = self.coefficients(name, len(args))
        phase = c[2] + sum(c[4 + 2 * i] * a for i, a in enumerate(args))
        linear = sum(c[5 + 2 * i] * a for i, a in enumerate(args))
        return c[0] * math.sin(phase) + c[1] * math.cos(c[3] * linear) + 0.3 * linear

    def mp(self, name: str, args: list[Any]) -> Any:
        c = [mpmath.mpf(x) for x in self.coefficients(name, len(args))]
        phase = c[2] + sum(c[4 + 2 * i] * a for i, a in enumerate(args))
        linear = sum(c[5 + 2 * i] * a for i, a in enumerate(args))
        return (
            c[0] * mpmath.sin(phase) + c[1] * mpmath.cos(c[3] * linear) + mpmath.mpf("0.3") * linear
        )


# -- float64 ---------------------------------------------------------------------------------
def eval_float(
    node: Node,
    env: Mapping[str, float],
    unknown: UnknownFunctions,
    scale: list[float] | None = None,
) -> float | None:
    """float64 value of ``node``; ``None`` where undefined, ``±inf`` on overflow. With
    ``scale`` (a one-item list), the largest summand met is recorded in it: the size that
    rounding error is relative to after a cancellation."""
    if isinstance(node, Number):
        try:
            return float(node.value)
        except OverflowError:
            return math.inf
    if isinstance(node, Symbol):
        return env[node.name]
    if isinstance(node, Constant):
        return math.pi if node.name == "pi" else math.e
    if isinstance(node, Negate):
        value = eval_float(node.operand, env, unknown, scale)
        return None if value is None else -value
    if isinstance(node, BinOp):
        left = eval_float(node.left, env, unknown, scale)
        if left is None:
            return None
        right = eval_float(node.right, env, unknown, scale)
        if right is None:
            return None
        if scale is not None and node.op in "+-":
            scale[0] = max(scale[0], abs(left), abs(right))
        return _float_binop(node.op, left, right)
    if isinstance(node, Call):
        args = []
        for arg in node.args:
            value = eval_float(arg, env, unknown, scale)
            if value is None:
                return None
            args.append(value)
        if any(math.isinf(a) for a in args):
            return math.inf
        builtin = BUILTINS.get(node.name)
        try:
            if builtin is None:
                return unknown.real(node.name, args)
            return builtin.real(*args)
        except OverflowError:
            return math.inf
    raise TypeError(f"not an expression node: {node!r}")


def _float_binop(op: str, left: float, right: float) -> float | None:
    if math.isinf(left) or math.isinf(right):
        return math.inf
    try:
        if op == "+":
            return left + right
        if op == "-":
            return left - right
        if op == "*":
            return left * right
        if op == "/":
            return None if right == 0 else left / right
        # power, over the reals
        if left == 0 and right < 0:
            return None
        if left < 0 and not right.is_integer():
            return None
        result = math.pow(left, right)
    except OverflowError:
        return math.inf
    except (ValueError, ZeroDivisionError):
        return None
    return result


# -- exact rationals ---------------------------------------------------------------------------
def eval_exact(node: Node, env: Mapping[str, Fraction] | None = None) -> Fraction | None:
    """Exact rational value; raises :class:`NotRational` for irrational parts (``pi``,
    ``sqrt(2)``, ``exp(1)``) and ``None`` where undefined."""
    env = env or {}
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Symbol):
        if node.name not in env:
            raise NotRational(node.name)
        return env[node.name]
    if isinstance(node, Constant):
        raise NotRational(node.name)
    if isinstance(node, Negate):
        value = eval_exact(node.operand, env)
        return None if value is None else -value
    if isinstance(node, BinOp):
        left = eval_exact(node.left, env)
        right = eval_exact(node.right, env)
        if left is None or right is None:
            return None
        if node.op == "+":
            return left + right
        if node.op == "-":
            return left - right
        if node.op == "*":
            return left * right
        if node.op == "/":
            return None if right == 0 else left / right
        return _exact_power(left, right)
    if isinstance(node, Call):
        values: list[Fraction] = []
        for arg in node.args:
            value = eval_exact(arg, env)
            if value is None:
                return None
            values.append(value)
        return _exact_call(node.name, values)
    raise TypeError(f"not an expression node: {node!r}")


def _exact_call(name: str, args: list[Fraction]) -> Fraction | None:
    """A builtin applied to rationals, when the result is rational too."""
    if name == "abs":
        return abs(args[0])
    if name == "min":
        return min(args)
    if name == "max":
        return max(args)
    if name == "relu":
        return max(Fraction(0), args[0])
    if name == "sign":
        return Fraction((args[0] > 0) - (args[0] < 0))
    if name == "sqrt":
        return _exact_power(args[0], Fraction(1, 2))
    if name == "binom":
        n, k = args
        if n.denominator == 1 and k.denominator == 1 and 0 <= n <= 10_000:
            n_i, k_i = int(n), int(k)
            return Fraction(math.comb(n_i, k_i)) if 0 <= k_i <= n_i else Fraction(0)
    raise NotRational(name)


def _exact_power(base: Fraction, exponent: Fraction) -> Fraction | None:
    if base == 0:
        return None if exponent < 0 else (Fraction(1) if exponent == 0 else Fraction(0))
    if exponent.denominator == 1:
        bits = max(base.numerator.bit_length(), base.denominator.bit_length())
        if abs(exponent.numerator) * bits > MAX_POWER_BITS:
            raise NotRational("power too large for exact arithmetic")
        return base**exponent.numerator
    if base < 0:
        # Negative bases with fractional exponents are undefined over the reals here, as in
        # the float and mpmath evaluators (SymPy's principal branch would be complex).
        return None
    if exponent.denominator > MAX_ROOT_DEGREE:
        raise NotRational("root of too high a degree for exact arithmetic")
    root = _rational_root(base, exponent.denominator)
    if root is None:
        raise NotRational("irrational root")
    return _exact_power(root, Fraction(exponent.numerator))


#: Roots of higher degree are left to mpmath: an exact root of degree 10^6 would need
#: big-integer powers that cannot be interrupted.
MAX_ROOT_DEGREE = 64


def _integer_root(value: int, degree: int) -> int | None:
    if value.bit_length() > 4096 or degree > MAX_ROOT_DEGREE:
        return None
    if value in (0, 1):
        return value
    guess = round(value ** (1.0 / degree)) if value < 2**1000 else int(mpmath.root(value, degree))
    for candidate in (guess - 1, guess, guess + 1):
        if candidate >= 0 and candidate**degree == value:
            return candidate
    return None


def _rational_root(value: Fraction, degree: int) -> Fraction | None:
    top = _integer_root(value.numerator, degree)
    bottom = _integer_root(value.denominator, degree)
    if top is None or bottom is None:
        return None
    return Fraction(top, bottom)


# -- arbitrary precision -----------------------------------------------------------------------
class MpEvaluator:
    """mpmath evaluation at the current working precision.

    It also measures how much precision the expression needs, from its additions: ``absorbed``
    is the most digits by which one summand was smaller than the other (``exp(100) + 1`` needs
    44 digits before the ``1`` is even represented), ``cancelled`` the most digits a sum lost
    to cancellation (``1 - Phi(16)``), ``vanished`` whether a sum of nonzero terms came out
    exactly zero (all its digits cancelled: the true value may be tinier than the precision),
    and ``hidden`` the most digits a function value hides behind its limit (``tanh(50)`` is
    ``1 - 7.4e-44``; :mod:`recall.formula.reach`), with ``hidden_at`` the call that hides them.

    Every builtin's arguments pass its guard first: past it, :class:`OutOfReach` is raised
    before anything slow is computed.
    """

    def __init__(self, env: Mapping[str, Any], unknown: UnknownFunctions) -> None:
        self.env = env
        self.unknown = unknown
        self.absorbed = 0.0
        self.cancelled = 0.0
        self.vanished = False
        self.hidden = 0.0
        self.hidden_at: Node | None = None

    def value_of(self, node: Node) -> Any:
        if isinstance(node, Number):
            return mpmath.mpf(node.value.numerator) / node.value.denominator
        if isinstance(node, Symbol):
            return self.env[node.name]
        if isinstance(node, Constant):
            return +mpmath.pi if node.name == "pi" else +mpmath.e
        if isinstance(node, Negate):
            value = self.value_of(node.operand)
            return None if value is None else -value
        if isinstance(node, BinOp):
            left = self.value_of(node.left)
            if left is None:
                return None
            right = self.value_of(node.right)
            if right is None:
                return None
            if node.op in "+-":
                if _cancels_itself(node):
                    return left - right if node.op == "-" else left + right  # exactly zero
                return self._sum(left, right if node.op == "+" else -right)
            if node.op == "^":
                hidden = power_hidden(left, right)
                if hidden > self.hidden:
                    self.hidden, self.hidden_at = hidden, node
            return self._binop(node.op, left, right)
        if isinstance(node, Call):
            args = []
            for arg in node.args:
                value = self.value_of(arg)
                if value is None:
                    return None
                args.append(value)
            builtin = BUILTINS.get(node.name)
            if builtin is None:
                return self.unknown.mp(node.name, args)
            reason = builtin.reach(*args)
            if reason is not None:
                raise OutOfReach(reason)
            hidden = builtin.hidden(*args)
            if hidden > self.hidden:
                self.hidden, self.hidden_at = hidden, node
            if hidden > SHORTCUT_DIGITS and builtin.saturated is not None:
                limit = builtin.saturated(*args)
                if limit is not None:
                    return limit  # equal to the value to more digits than any comparison uses
            value = builtin.mp(*args)
            if node.name in _LOGARITHMS and value is not None:
                self._logarithm(args[0], value)
            return value
        raise TypeError(f"not an expression node: {node!r}")

    def _sum(self, left: Any, right: Any) -> Any:
        result = left + right
        if not left or not right:
            return result
        big = max(mpmath.mag(left), mpmath.mag(right))
        small = min(mpmath.mag(left), mpmath.mag(right))
        self.absorbed = max(self.absorbed, (big - small) * _DIGITS_PER_BIT)
        if result:
            self.cancelled = max(self.cancelled, (big - mpmath.mag(result)) * _DIGITS_PER_BIT)
        else:
            self.vanished = True
        return result

    def _logarithm(self, argument: Any, value: Any) -> None:
        """A log near 1 magnifies the argument's rounding: log(1 + 1e-36) needs 36 more digits
        than the argument had to be more than noise."""
        if argument == 1:
            return
        if not value:
            self.vanished = True
        elif mpmath.mag(value) < 0:
            self.cancelled = max(self.cancelled, -mpmath.mag(value) * _DIGITS_PER_BIT)

    @staticmethod
    def _binop(op: str, left: Any, right: Any) -> Any:
        if op == "*":
            return left * right
        if op == "/":
            return None if right == 0 else left / right
        if left == 0:
            return None if right < 0 else (mpmath.mpf(1) if right == 0 else mpmath.mpf(0))
        if left < 0 and not mpmath.isint(right):
            return None
        with mpmath.workdps(15):  # a size estimate: low precision is plenty, and cheap
            bits = abs(right) * abs(mpmath.log(abs(left), 2)) if abs(left) != 1 else 0
        if bits > MAX_MP_POWER_BITS:
            raise OutOfReach(
                f"a power of about 2^{magnitude_text(bits)} cannot be computed in the time allowed"
            )
        result = mpmath.power(left, right)
        if isinstance(result, mpmath.mpc):
            return None
        return result


_DIGITS_PER_BIT = 0.30103
_LOGARITHMS = frozenset({"log", "log2", "log10"})


def _cancels_itself(node: BinOp) -> bool:
    """``a - a`` or ``a + (-a)``: both sides are computed identically, so the zero is exact,
    not a rounded cancellation worth more precision."""
    if node.op == "-":
        return node.left == node.right
    return node.right == Negate(node.left) or node.left == Negate(node.right)


#: A power needing more bits than this is out of reach (:class:`OutOfReach`), not computed.
MAX_MP_POWER_BITS = 10**9


def eval_mp(
    node: Node, env: Mapping[str, Any], unknown: UnknownFunctions
) -> tuple[Any, MpEvaluator]:
    """``(value, evaluator)`` at the current mpmath precision; the evaluator carries the
    precision figures (:class:`MpEvaluator`)."""
    evaluator = MpEvaluator(env, unknown)
    return evaluator.value_of(node), evaluator
