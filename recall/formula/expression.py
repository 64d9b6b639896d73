"""A parsed expression: the tree, the text it came from, and the table it was read with.

Kept apart from :mod:`recall.formula.nodes` so the tree classes depend on nothing: the printer and
the SymPy bridge import the tree, and this wrapper imports them (no cycle).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from recall.formula.functions import BUILTINS
from recall.formula.nodes import Call, Constant, Node, Symbol, walk
from recall.formula.printer import to_text
from recall.formula.symbols import SymbolTable


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
        return to_text(self.tree)

    def to_sympy(self, *, evaluate: bool = True):
        """The SymPy expression (``evaluate=False`` keeps the learner's form, for rendering)."""
        from recall.formula.to_sympy import to_sympy

        return to_sympy(self.tree, self.table, evaluate=evaluate)

    def __str__(self) -> str:
        return self.to_text()
