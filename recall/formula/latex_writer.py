"""LaTeX for an expression tree: how a formula is written where MathJax draws it (Anki's cards).

The inverse direction of :mod:`recall.formula.latex`, which reads LaTeX a learner types. This
writes from the tree the parser built, never from text, so what it emits is always well formed:
fractions as ``\\frac``, powers with braced exponents, Greek names as their commands, ``d_k`` as
``d_{k}``, the accent suffixes (``m_hat``) as accents, builtins as operators. Reading the output
back with :func:`recall.formula.latex.latex_to_plain` gives the same tree (the tests check it on
every built-in deck's formulas), so a card exported to Anki and imported again is still graded.

Pure string building over :mod:`recall.formula.nodes`: no SymPy.
"""

from __future__ import annotations

from recall.formula.names import GREEK_LETTERS
from recall.formula.nodes import BinOp, Call, Constant, Negate, Node, Number, Symbol
from recall.formula.printer import format_fraction

#: Builtins LaTeX has an operator for (``\log x``); the rest are written ``\operatorname{…}``.
_OPERATORS = {"exp", "log", "sin", "cos", "tan", "sinh", "cosh", "tanh", "min", "max"}
#: Accent suffixes of a name (``m_hat``) and their commands, as the LaTeX reader reads them.
_ACCENTS = {"hat": "hat", "bar": "bar", "tilde": "tilde"}

_SUM = 1
_PRODUCT = 2
_UNARY = 3
_POWER = 4
_ATOM = 5


def to_latex(node: Node) -> str:
    """LaTeX math for ``node`` (without delimiters: wrap it in ``\\(…\\)`` for MathJax)."""
    return _write(node)


def name_latex(name: str) -> str:
    """A variable's name in LaTeX: Greek letters as commands, ``_`` parts as subscripts."""
    base, _, rest = name.partition("_")
    parts = rest.split("_") if rest else []
    accent = ""
    for at in (0, -1):
        if parts and parts[at] in _ACCENTS:
            accent = _ACCENTS[parts.pop(at)]
            break
    text = _letter(base)
    if accent:
        text = f"\\{accent}{{{text}}}"
    if parts:
        text += "_{" + ",".join(_letter(part) for part in parts) + "}"
    return text


def _letter(word: str) -> str:
    if word in GREEK_LETTERS:
        return f"\\{word}"
    if len(word) > 1 and not word.isdigit():
        return f"\\mathrm{{{word}}}"
    return word


def _precedence(node: Node) -> int:
    if isinstance(node, BinOp):
        return {"+": _SUM, "-": _SUM, "*": _PRODUCT, "/": _ATOM, "^": _POWER}[node.op]
    if isinstance(node, Negate):
        return _UNARY
    if isinstance(node, Number):
        text = format_fraction(node.value)
        if node.value < 0:
            return _UNARY
        return _ATOM if "/" not in text else _ATOM
    return _ATOM


def _wrapped(node: Node, minimum: int) -> str:
    text = _write(node)
    return f"\\left({text}\\right)" if _precedence(node) < minimum else text


def _number(node: Number) -> str:
    text = format_fraction(node.value)
    if "/" in text:
        numerator, denominator = text.lstrip("-").split("/")
        sign = "-" if text.startswith("-") else ""
        return f"{sign}\\frac{{{numerator}}}{{{denominator}}}"
    return text


def _write(node: Node) -> str:
    if isinstance(node, Number):
        return _number(node)
    if isinstance(node, Constant):
        return "\\pi" if node.name == "pi" else "e"
    if isinstance(node, Symbol):
        return name_latex(node.name)
    if isinstance(node, Negate):
        return "-" + _wrapped(node.operand, _POWER)
    if isinstance(node, Call):
        return _call(node)
    if isinstance(node, BinOp):
        return _binop(node)
    raise TypeError(f"not an expression node: {node!r}")


def _binop(node: BinOp) -> str:
    op = node.op
    if op == "+":
        right = _write(node.right)
        if isinstance(node.right, Negate) or (
            isinstance(node.right, Number) and node.right.value < 0
        ):
            right = f"\\left({right}\\right)"
        return f"{_wrapped(node.left, _SUM)} + {right}"
    if op == "-":
        return f"{_wrapped(node.left, _SUM)} - {_wrapped(node.right, _PRODUCT)}"
    if op == "*":
        left = _wrapped(node.left, _PRODUCT)
        right = _wrapped(node.right, _UNARY + 1)
        return f"{left} \\cdot {right}"
    if op == "/":
        return f"\\frac{{{_write(node.left)}}}{{{_write(node.right)}}}"
    base = _wrapped(node.left, _ATOM)
    if isinstance(node.left, Call) and node.left.name != "abs":
        base = f"\\left({_write(node.left)}\\right)"
    return f"{{{base}}}^{{{_write(node.right)}}}"


def _call(node: Call) -> str:
    args = [_write(arg) for arg in node.args]
    name = node.name
    if name == "sqrt":
        return f"\\sqrt{{{args[0]}}}"
    if name == "abs":
        return f"\\left|{args[0]}\\right|"
    if name == "binom":
        return f"\\binom{{{args[0]}}}{{{args[1]}}}"
    head = f"\\{name}" if name in _OPERATORS else f"\\operatorname{{{name}}}"
    return f"{head}\\left({', '.join(args)}\\right)"
