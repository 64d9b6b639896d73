"""The formula engine: read typed math safely, decide equivalence, grade numbers, explain misses.

A library first: everything the TUI does with an expression, a test or ``recall check`` can do
without Textual or a database. It never passes typed text to ``eval``, ``exec``, ``sympify`` or
``parse_expr``: :func:`parse` reads text with recall's own grammar into a small tree of
:mod:`recall.formula.nodes`, and only that tree is ever turned into SymPy objects.

Public API::

    table = SymbolTable.build(variables={"sigma": "positive"}, functions={"f": "unknown"})
    expr = parse("sqrt(sigma^2)", table)            # Expression, or raises ParseError
    verdict = check("sigma", "sqrt(sigma^2)", table) # Verdict(status=CORRECT, method=..., ...)
    verdict = grade_number(expected_expr, "6.4e9", Tolerance.relative(0.01))
    print(render(expr))                              # 2-D Unicode
    p = preview("sqrt(x", table)                     # cheap, for every keystroke
    verdict.part                                     # the smallest part that differs, if wrong
    highlight_verdict(verdict)                       # "read as" text + span of that part

Errors are :class:`recall.errors.ParseError` (with a column) and its children.
"""

from recall.formula.compare import check
from recall.formula.expression import Expression
from recall.formula.highlight import Highlight, highlight_verdict
from recall.formula.numeric import evaluate_constant, grade_number
from recall.formula.parser import parse
from recall.formula.preview import Preview, preview
from recall.formula.render import render
from recall.formula.symbols import Domain, SymbolTable, parse_domain
from recall.formula.tolerance import Tolerance
from recall.formula.verdict import Diagnosis, Part, Status, Verdict

__all__ = [
    "Diagnosis",
    "Domain",
    "Expression",
    "Highlight",
    "Part",
    "Preview",
    "Status",
    "SymbolTable",
    "Tolerance",
    "Verdict",
    "check",
    "evaluate_constant",
    "grade_number",
    "highlight_verdict",
    "parse",
    "parse_domain",
    "preview",
    "render",
]
