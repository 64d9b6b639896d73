"""2-D Unicode rendering of expressions for the terminal, in the learner's own form."""

from __future__ import annotations

import threading

import sympy
from sympy.printing.conventions import split_super_sub
from sympy.printing.pretty.pretty import PrettyPrinter
from sympy.printing.pretty.pretty_symbology import pretty_symbol, pretty_use_unicode, sub
from sympy.printing.pretty.stringpict import prettyForm

from recall.formula.expression import Expression
from recall.formula.nodes import BinOp, Call, Negate, Node
from recall.formula.symbols import SymbolTable

#: Fractions, powers and roots nested deeper than this are shown on one line: a drawing that
#: deep is taller than a terminal and costs SymPy's printer hundreds of milliseconds (30
#: nested cube roots: over half a second on every keystroke).
MAX_DRAWN_NESTING = 8
#: Nodes past which an expression is shown on one line for the same reason.
MAX_DRAWN_NODES = 400
#: SymPy's printer switches Unicode on and off in a global for each call: two threads drawing
#: at once (the drill screen's preview worker and the start-up warm-up drawing the decks'
#: formulas) can each turn it off under the other, and a preview comes out in ASCII with
#: ``sigma`` spelled out. One drawing at a time.
_PRINTER = threading.Lock()


def render(
    expression: Expression | str, table: SymbolTable | None = None, *, width: int = 80
) -> str:
    """Multi-line Unicode math (SymPy's pretty printer over our tree, order kept as typed:
    ``b + a`` is not shown as ``a + b``). Text is parsed first; a parse error propagates."""
    if isinstance(expression, str):
        from recall.formula.parser import parse

        expression = parse(expression, table)
    if _too_big_to_draw(expression.tree):
        return expression.to_text()
    tree = expression.to_sympy(evaluate=False)
    try:
        with _PRINTER:
            return _pretty(tree, width)
    except Exception:  # noqa: BLE001 - a printer bug must never cost the learner the preview
        return expression.to_text()


def _pretty(tree: sympy.Basic, width: int) -> str:
    """SymPy's Unicode drawing of ``tree``, with one subscript style in the whole formula.

    SymPy writes a subscript in Unicode subscript letters when every character has one (``Sₓₓ``)
    and falls back to ``_`` otherwise (``S_xy``: there is no subscript y), symbol by symbol, so a
    formula could show both side by side. When any subscript falls back, every subscript in the
    formula is written with ``_`` (``S_xy/S_xx``, ``σ_1``)."""
    names = {symbol.name for symbol in tree.free_symbols if isinstance(symbol, sympy.Symbol)}
    printer = PrettyPrinter({"use_unicode": True, "order": "none", "num_columns": width})
    if any(_subscript_falls_back(name) for name in names):
        printer = _PlainSubscripts({"use_unicode": True, "order": "none", "num_columns": width})
    before = pretty_use_unicode(True)
    try:
        return str(printer.doprint(tree))
    finally:
        pretty_use_unicode(before)


def _subscript_falls_back(name: str) -> bool:
    """Whether SymPy draws ``name``'s subscripts with ``_``: some character of them has no
    Unicode subscript form."""
    _, sups, subs = split_super_sub(name)
    return (
        bool(subs)
        and not sups
        and any(piece not in sub and any(char not in sub for char in piece) for piece in subs)
    )


def _plain_symbol(name: str) -> str:
    """``name`` drawn as SymPy would, but its subscripts written after ``_`` (a Greek letter
    still drawn as one: ``sigma_1`` is ``σ_1``)."""
    base, sups, subs = split_super_sub(name)
    if not subs or sups:
        return str(pretty_symbol(name))
    return "_".join([str(pretty_symbol(base)), *(str(pretty_symbol(piece)) for piece in subs)])


class _PlainSubscripts(PrettyPrinter):  # type: ignore[misc]
    """SymPy's printer with every subscripted symbol written as :func:`_plain_symbol`."""

    def _print_Symbol(self, e: sympy.Symbol, bold_name: bool = False) -> prettyForm:
        return prettyForm(_plain_symbol(e.name))


def check_drawable(expression: Expression) -> str:
    """What :func:`render` needs of ``expression`` besides SymPy's printer, checked without
    drawing: the SymPy tree it draws is built (an error there propagates from :func:`render`
    too), and the one-line text it falls back to is returned. The printer itself cannot make
    :func:`render` fail (its errors fall back to that text), so a deck check that calls this
    finds every answer :func:`render` would raise on, at a tenth of the cost of drawing (half a
    millisecond per formula: two thirds of checking a custom deck)."""
    if not _too_big_to_draw(expression.tree):
        expression.to_sympy(evaluate=False)
    return expression.to_text()


def _too_big_to_draw(tree: Node) -> bool:
    """Whether ``tree`` nests more than :data:`MAX_DRAWN_NESTING` fractions, powers and roots,
    or has more than :data:`MAX_DRAWN_NODES` nodes (a walk with its own stack: no recursion)."""
    stack: list[tuple[Node, int]] = [(tree, 0)]
    seen = 0
    while stack:
        node, depth = stack.pop()
        seen += 1
        if seen > MAX_DRAWN_NODES:
            return True
        drawn = (isinstance(node, BinOp) and node.op in "/^") or (
            isinstance(node, Call) and node.name == "sqrt"
        )
        depth += drawn
        if depth > MAX_DRAWN_NESTING:
            return True
        if isinstance(node, BinOp):
            stack += [(node.left, depth), (node.right, depth)]
        elif isinstance(node, Negate):
            stack.append((node.operand, depth))
        elif isinstance(node, Call):
            stack += [(argument, depth) for argument in node.args]
    return False
