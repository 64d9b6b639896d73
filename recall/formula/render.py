"""2-D Unicode rendering of expressions for the terminal, in the learner's own form."""

from __future__ import annotations

import sympy

from recall.formula.expression import Expression
from recall.formula.symbols import SymbolTable


def render(
    expression: Expression | str, table: SymbolTable | None = None, *, width: int = 80
) -> str:
    """Multi-line Unicode math (SymPy's pretty printer over our tree, order kept as typed:
    ``b + a`` is not shown as ``a + b``). Text is parsed first; a parse error propagates."""
    if isinstance(expression, str):
        from recall.formula.parser import parse

        expression = parse(expression, table)
    tree = expression.to_sympy(evaluate=False)
    try:
        return sympy.pretty(tree, use_unicode=True, order="none", num_columns=width)
    except Exception:  # noqa: BLE001 - a printer bug must never cost the learner the preview
        return expression.to_text()
