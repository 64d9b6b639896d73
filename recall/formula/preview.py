"""The live "interpreted as" preview: parse and render on every keystroke, nothing more."""

from __future__ import annotations

from dataclasses import dataclass

from recall.errors import ParseError
from recall.formula.parser import parse
from recall.formula.render import render
from recall.formula.symbols import SymbolTable


@dataclass(frozen=True)
class Preview:
    """How the text reads so far: ``rendered`` 2-D math and ``interpreted`` one-line text when
    it parses, otherwise ``message`` with ``column`` and a ``caret`` drawing."""

    ok: bool
    rendered: str = ""
    interpreted: str = ""
    message: str = ""
    column: int | None = None
    caret: str = ""


def preview(text: str, table: SymbolTable | None = None, *, numeric: bool = False) -> Preview:
    """Parse and render ``text`` (no grading). Empty text gives an empty, ok preview."""
    if not text.strip():
        return Preview(True)
    try:
        expression = parse(text, table, numeric=numeric)
    except ParseError as error:
        return Preview(False, message=error.message, column=error.column, caret=error.caret())
    return Preview(True, rendered=render(expression), interpreted=expression.to_text())
