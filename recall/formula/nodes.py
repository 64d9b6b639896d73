"""The expression tree the parser builds, and the :class:`Expression` wrapper around it.

The tree is recall's own, not SymPy's: it is cheap to build on every keystroke, it keeps the
learner's form (``a - b`` stays a subtraction, ``0.5`` stays ``0.5``), and it can be evaluated
numerically without importing SymPy. SymPy objects are made from it only for rendering and for
symbolic proofs (:mod:`recall.formula.to_sympy`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from recall.formula.symbols import SymbolTable


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


@dataclass(frozen=True)
class Expression:
    """A parsed expression: the tree, the text it came from, and the table it was read with."""

    tree: Node
    text: str
    table: SymbolTable
    numeric: bool = False
    _cache: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def free_symbols(self) -> frozenset[str]:
        """Names of the variables the expression uses."""
        if "free" not in self._cache:
            self._cache["free"] = frozenset(
                n.name for n in walk(self.tree) if isinstance(n, Symbol)
            )
        return self._cache["free"]

    @property
    def unknown_functions(self) -> frozenset[str]:
        """Names of unknown (card-declared, arbitrary) functions the expression applies."""
        if "funcs" not in self._cache:
            from recall.formula.functions import BUILTINS

            self._cache["funcs"] = frozenset(
                n.name for n in walk(self.tree) if isinstance(n, Call) and n.name not in BUILTINS
            )
        return self._cache["funcs"]

    @property
    def names(self) -> frozenset[str]:
        """Every name the expression mentions: variables, the functions it applies (builtins by
        their canonical name, so ``ln`` and ``σ``-aliases read as ``log`` and ``sigmoid``) and
        the constants ``pi`` and ``e``. A card's form rule is checked against these."""
        if "names" not in self._cache:
            self._cache["names"] = frozenset(
                n.name for n in walk(self.tree) if isinstance(n, Symbol | Call | Constant)
            )
        return self._cache["names"]

    @property
    def is_constant(self) -> bool:
        """True when the expression has no variables and no unknown functions."""
        return not self.free_symbols and not self.unknown_functions

    @property
    def size(self) -> int:
        """Number of nodes in the tree."""
        if "size" not in self._cache:
            self._cache["size"] = sum(1 for _ in walk(self.tree))
        return self._cache["size"]

    def to_text(self) -> str:
        """A one-line plain-text form in recall's syntax that parses back to this tree."""
        from recall.formula.printer import to_text

        return to_text(self.tree)

    def to_sympy(self, *, evaluate: bool = True):
        """The SymPy expression (``evaluate=False`` keeps the learner's form, for rendering)."""
        from recall.formula.to_sympy import to_sympy

        return to_sympy(self.tree, self.table, evaluate=evaluate)

    def __str__(self) -> str:
        return self.to_text()
