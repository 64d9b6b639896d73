"""The expression tree the parser builds (the :class:`~recall.formula.expression.Expression`
wrapper around a tree lives in :mod:`recall.formula.expression`).

The tree is recall's own, not SymPy's: it is cheap to build on every keystroke, it keeps the
learner's form (``a - b`` stays a subtraction, ``0.5`` stays ``0.5``), and it can be evaluated
numerically without importing SymPy. SymPy objects are made from it only for rendering and for
symbolic proofs (:mod:`recall.formula.to_sympy`).

This module imports nothing from the engine, so every other engine module can import it
without a cycle.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Number:
    """An exact number: decimals are kept as rationals (``0.1`` is ``1/10``)."""

    value: Fraction
    text: str  # as typed, for rendering ("0.5", "6.4e9", "512k")


@dataclass(frozen=True, slots=True)
class Constant:
    """``pi`` or ``e``."""

    name: str


@dataclass(frozen=True, slots=True)
class Symbol:
    """A variable, by its canonical name (``sigma``, ``d_k``, ``m_hat``)."""

    name: str


@dataclass(frozen=True, slots=True)
class Negate:
    """Unary minus."""

    operand: Node


@dataclass(frozen=True, slots=True)
class BinOp:
    """``left op right`` with ``op`` one of ``+ - * / ^``."""

    op: str
    left: Node
    right: Node


@dataclass(frozen=True, slots=True)
class Call:
    """A function applied to arguments. ``name`` is the resolved function: a builtin's canonical
    name (``log``, ``sigmoid``) or an unknown function's own name; ``shown`` is the name as
    typed (``ln``, ``sigma``), for rendering."""

    name: str
    args: tuple[Node, ...]
    shown: str = ""


Node = Number | Constant | Symbol | Negate | BinOp | Call


def walk(node: Node):
    """Every node of the tree, parents before children."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if isinstance(current, Negate):
            stack.append(current.operand)
        elif isinstance(current, BinOp):
            stack.append(current.right)
            stack.append(current.left)
        elif isinstance(current, Call):
            stack.extend(reversed(current.args))


def replace_symbols(node: Node, replacements: Mapping[str, Node]) -> Node:
    """``node`` with every symbol named in ``replacements`` replaced by its tree (one pass: the
    replacement trees are not searched again)."""
    if isinstance(node, Symbol):
        return replacements.get(node.name, node)
    if isinstance(node, Negate):
        return Negate(replace_symbols(node.operand, replacements))
    if isinstance(node, BinOp):
        return BinOp(
            node.op,
            replace_symbols(node.left, replacements),
            replace_symbols(node.right, replacements),
        )
    if isinstance(node, Call):
        return Call(
            node.name, tuple(replace_symbols(a, replacements) for a in node.args), node.shown
        )
    return node
