"""Naming parts of an answer in the learner's own words when a card defines a shorthand.

A card may say ``y_hat = w*x``; answers are compared with the shorthand expanded, so a part
found by :mod:`recall.formula.locate` is a piece of the expanded tree (``w*x - y``). Shown as
is, it would name ``w``, which the learner never typed. :class:`SpokenText` folds each
definition back into its shorthand before printing, and remembers which names it printed, so
the caller can tell whether a message speaks only names the learner or the reference used.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from recall.formula.nodes import BinOp, Call, Negate, Node, Symbol, walk
from recall.formula.printer import to_text
from recall.formula.structural import structurally_equal

#: Subtrees visited when folding one part (parts are small; typed trees are bounded anyway).
MAX_FOLD_NODES = 400


def symbol_names(node: Node) -> set[str]:
    """The variable names in ``node``."""
    return {n.name for n in walk(node) if isinstance(n, Symbol)}


class SpokenText:
    """``to_text`` with shorthands folded back; ``names`` collects every variable printed."""

    def __init__(self, shorthands: Mapping[str, Node] | None = None) -> None:
        self.shorthands = dict(shorthands or {})
        self.names: set[str] = set()

    def fold(self, node: Node) -> Node:
        """``node`` with every subtree equal to a shorthand's definition replaced by the
        shorthand's name (outermost first)."""
        if not self.shorthands or sum(1 for _ in walk(node)) > MAX_FOLD_NODES:
            return node
        return self._fold(node)

    def _fold(self, node: Node) -> Node:
        if not isinstance(node, Symbol):
            for name, definition in self.shorthands.items():
                if structurally_equal(node, definition):
                    return Symbol(name)
        if isinstance(node, Negate):
            return Negate(self._fold(node.operand))
        if isinstance(node, BinOp):
            return BinOp(node.op, self._fold(node.left), self._fold(node.right))
        if isinstance(node, Call):
            return Call(node.name, tuple(self._fold(a) for a in node.args), node.shown)
        return node

    def __call__(self, node: Node) -> str:
        folded = self.fold(node)
        self.names |= symbol_names(folded)
        return to_text(folded)

    def speaks_only(self, allowed: Iterable[str]) -> bool:
        """Whether every name printed so far is in ``allowed``."""
        return self.names <= set(allowed)


#: Kinds of part whose message never names a variable ("the second term has the wrong sign").
_NAMELESS_KINDS = frozenset({"sign", "constant", "rounded-constant"})
_TERM_KINDS = frozenset({"term", "extra-term", "missing-term"})


def unnamed_message(kind: str, message: str) -> str:
    """A part's message with no names in it, for when the names would not be the learner's."""
    if kind in _NAMELESS_KINDS:
        return message
    return "one term is wrong" if kind in _TERM_KINDS else "one factor is wrong"


#: Words a part's message may start with; only these are capitalised to begin a sentence.
_LEADING_WORDS = frozenset({"a", "an", "the", "this", "one"})


def sentence_case(message: str) -> str:
    """``message`` as a sentence: its first word capitalised when it is an English word, left
    alone when it is math (``y`` must never become ``Y``, which is another symbol)."""
    first = message.split(" ", 1)[0]
    if first in _LEADING_WORDS:
        return message[0].upper() + message[1:]
    return message
