"""Turn recall's own expression tree into SymPy objects.

Only trees built by :mod:`recall.formula.parser` come here, so SymPy never sees typed text.
``evaluate=False`` keeps the learner's form for rendering (no reordering, ``0.5`` stays
``0.5``); ``evaluate=True`` builds ordinary SymPy expressions, with each variable's domain as
SymPy assumptions, for symbolic proofs and for the deck tests (derivatives).
"""

from __future__ import annotations

from functools import lru_cache

import sympy

from recall.formula.functions import BUILTINS
from recall.formula.nodes import BinOp, Call, Constant, Negate, Node, Number, Symbol
from recall.formula.printer import to_text
from recall.formula.symbols import Domain, SymbolTable


def display_name(name: str) -> str:
    """The SymPy symbol name that pretty-prints like the canonical name: accents become
    SymPy's modifiers (``m_hat`` → ``mhat`` → m̂), subscripts stay subscripts."""
    parts = name.split("_")
    head = parts[0]
    rest: list[str] = []
    for part in parts[1:]:
        if part in ("hat", "bar", "tilde", "dot") and not rest:
            head += part
        else:
            rest.append(part)
    return "_".join([head, *rest])


def _assumptions(domain: Domain) -> dict[str, bool]:
    flags: dict[str, bool] = {"real": True}
    if domain.integer:
        flags["integer"] = True
    if domain.low > 0 or (domain.low == 0 and domain.low_open):
        flags["positive"] = True
    elif domain.low >= 0:
        flags["nonnegative"] = True
    elif domain.high < 0 or (domain.high == 0 and domain.high_open):
        flags["negative"] = True
    return flags


@lru_cache(maxsize=512)
def _symbol(name: str, flags: tuple[tuple[str, bool], ...]) -> sympy.Symbol:
    return sympy.Symbol(display_name(name), **dict(flags))


@lru_cache(maxsize=256)
def _number_symbol(text: str) -> sympy.Symbol:
    return sympy.Symbol(text)


_UNKNOWN_CACHE: dict[str, sympy.FunctionClass] = {}


def _function(name: str) -> sympy.FunctionClass:
    if name not in _UNKNOWN_CACHE:
        _UNKNOWN_CACHE[name] = sympy.Function(display_name(name))
    return _UNKNOWN_CACHE[name]


def _builtin(name: str, args: list, evaluate: bool):
    x = args[0]
    if name == "exp":
        return sympy.exp(x, evaluate=evaluate)
    if name == "log":
        return sympy.log(x, evaluate=evaluate)
    if name == "log2":
        return sympy.log(x, 2, evaluate=evaluate) if evaluate else _function("log2")(x)
    if name == "log10":
        return sympy.log(x, 10, evaluate=evaluate) if evaluate else _function("log10")(x)
    if name == "sqrt":
        return sympy.sqrt(x, evaluate=evaluate)
    if name == "abs":
        return sympy.Abs(x, evaluate=evaluate)
    if name == "sign":
        return sympy.sign(x, evaluate=evaluate)
    if name in ("sin", "cos", "tan", "sinh", "cosh", "tanh", "erf"):
        return getattr(sympy, name)(x, evaluate=evaluate)
    if name in ("min", "max"):
        if not evaluate:
            # Displayed as typed: SymPy's Min/Max sort their arguments and print capitalised
            # ("Max(0, x)"), so the learner's max(0, x) is drawn as an applied name instead.
            return _function(name)(*args)
        return (sympy.Min if name == "min" else sympy.Max)(*args)
    if name == "binom":
        return sympy.binomial(*args, evaluate=evaluate)
    if not evaluate:
        return _function(name)(*args)
    if name == "sigmoid":
        return 1 / (1 + sympy.exp(-x))
    if name == "softplus":
        return sympy.log(1 + sympy.exp(x))
    if name == "Phi":
        return (1 + sympy.erf(x / sympy.sqrt(2))) / 2
    if name == "relu":
        return sympy.Max(0, x)
    raise ValueError(f"no SymPy form for {name}")


def _display_negation(node: Negate, go):
    """``-x`` for display. SymPy's pretty printer fails on a negated ``-1`` (an IndexError in
    its Mul layout), so negated numbers become one atom and a double negation shows its inner
    part in parentheses."""
    operand = node.operand
    if isinstance(operand, Number):
        return _number_symbol("-" + (operand.text or str(operand.value)))
    if isinstance(operand, Negate):
        return sympy.Mul(-1, _number_symbol(f"({to_text(operand)})"), evaluate=False)
    return sympy.Mul(-1, go(operand), evaluate=False)


def to_sympy(node: Node, table: SymbolTable, *, evaluate: bool = True):
    """The SymPy expression for ``node``."""

    def go(n: Node):
        if isinstance(n, Number):
            if evaluate:
                return sympy.Rational(n.value.numerator, n.value.denominator)
            return _number_symbol(n.text if n.text and "," not in n.text else str(n.value))
        if isinstance(n, Constant):
            return sympy.pi if n.name == "pi" else sympy.E
        if isinstance(n, Symbol):
            flags = tuple(sorted(_assumptions(table.domain(n.name)).items()))
            return _symbol(n.name, flags)
        if isinstance(n, Negate):
            if evaluate:
                return -go(n.operand)
            return _display_negation(n, go)
        if isinstance(n, BinOp):
            left, right = go(n.left), go(n.right)
            if n.op == "+":
                return sympy.Add(left, right, evaluate=evaluate)
            if n.op == "-":
                return sympy.Add(left, sympy.Mul(-1, right, evaluate=evaluate), evaluate=evaluate)
            if n.op == "*":
                return sympy.Mul(left, right, evaluate=evaluate)
            if n.op == "/":
                return sympy.Mul(left, sympy.Pow(right, -1, evaluate=evaluate), evaluate=evaluate)
            return sympy.Pow(left, right, evaluate=evaluate)
        if isinstance(n, Call):
            args = [go(a) for a in n.args]
            if n.name in BUILTINS:
                return _builtin(n.name, args, evaluate)
            return _function(n.name)(*args)
        raise TypeError(f"not an expression node: {n!r}")

    return go(node)
