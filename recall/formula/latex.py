"""Translate LaTeX math input into recall's plain typed syntax (``docs/syntax.md``).

Learners who think in LaTeX type ``\\frac{1}{1+e^{-x}}`` or ``\\hat{m}_t``; the engine's parser only
reads the plain syntax, so it calls :func:`latex_to_plain` first whenever :func:`looks_like_latex`
says so. The translation is text to text and never evaluates anything: a small tokenizer splits the
input into commands (``\\frac``) and single characters, and a recursive emitter walks those tokens
once, writing plain text as it goes.

Two deliberate departures from how TeX would typeset the input, both to read what a person meant:

* a run of letters and digits stays one name (``lr`` is the name ``lr``, not ``l*r``), exactly as in
  the plain syntax, so the parser's "did you mean l*r?" hint still applies;
* a bare superscript or subscript takes the whole run after it (``x^10`` is ``x^10``, ``d_model`` is
  ``d_model``), where TeX would take one character. Command arguments keep TeX's one-token rule
  (``\\frac12`` is one half), because that idiom is common in written formulas.

Whatever cannot be read raises :class:`recall.errors.ParseError` with the column (0-based, into the
LaTeX text) of the offending command or brace; size bounds raise :class:`recall.errors.LimitError`.

The work is layered over three helper modules: :mod:`~recall.formula.latex_vocabulary` (the
commands known), :mod:`~recall.formula.latex_reader` (tokens and a cursor) and
:mod:`~recall.formula.latex_operands` (operands and commands); this module reads sequences.
"""

from __future__ import annotations

from recall.errors import LimitError
from recall.formula.latex_operands import OperandReader
from recall.formula.latex_reader import LatexToken, PlainOutput, tokenize_latex
from recall.formula.latex_vocabulary import (
    ABS_OPEN,
    MAX_DEPTH,
    MAX_LENGTH,
    NORMS,
    OPENERS,
    OPERATORS,
    SIZERS,
)

__all__ = ["MAX_DEPTH", "MAX_LENGTH", "latex_to_plain", "looks_like_latex"]


def looks_like_latex(text: str) -> bool:
    """True when ``text`` should go through :func:`latex_to_plain` before the plain parser.

    A backslash never appears in the plain syntax, and neither do braces after ``^`` or ``_``.
    """
    return "\\" in text or "^{" in text or "_{" in text


def latex_to_plain(text: str) -> str:
    """Translate LaTeX math ``text`` into the plain typed syntax.

    Raises :class:`ParseError` (with the column in ``text``) for what cannot be read, and
    :class:`LimitError` past the length and nesting bounds.
    """
    if len(text) > MAX_LENGTH:
        raise LimitError(f"the answer is longer than {MAX_LENGTH:,} characters", text, MAX_LENGTH)
    return LatexEmitter(text, tokenize_latex(text)).translate()


class LatexEmitter(OperandReader):
    """Walks the tokens once, writing plain text: sequences, operators, bars and delimiters
    here; operands and commands in :class:`~recall.formula.latex_operands.OperandReader`."""

    def translate(self) -> str:
        return self._sequence(depth=0, closer=None, opened_at=0)

    def _sequence(self, depth: int, closer: str | None, opened_at: int) -> str:
        """Translate tokens up to ``closer`` (consumed) or to the end of the input.

        ``closer`` is ``}`` or ``]`` (braces, a root index), ``)`` (a parenthesised argument,
        nesting counted), ``|``, ``rvert`` or ``right|`` (an absolute value read as a function's
        argument), or ``None`` for the whole input.
        """
        self._check_depth(depth, opened_at)
        out = PlainOutput()
        open_bars: list[int] = []
        nested_parens = 0
        while True:
            before = self.pos
            token = self._skip_spaces()
            if self.pos != before:
                out.gap()
            if token is None:
                if closer is not None:
                    raise self._error(f"this {OPENERS[closer]} is never closed", opened_at)
                break
            if self._is_char(token, "}") and closer != "}":
                raise self._error("a '}' with no '{' before it", token.column)
            if closer == ")" and self._is_char(token, "("):
                nested_parens += 1
            elif closer == ")" and self._is_char(token, ")") and nested_parens:
                nested_parens -= 1
            elif self._closes(token, closer):
                break
            self._item(token, out, open_bars, depth)
        if open_bars:
            raise self._error("an absolute value bar '|' that is never closed", open_bars[-1])
        return out.text()

    def _closes(self, token: LatexToken, closer: str | None) -> bool:
        """Whether ``token`` ends a sequence opened with ``closer``; if so, it is consumed."""
        if closer in ("}", "]", ")", "|") and self._is_char(token, closer):
            self.pos += 1
            return True
        if closer == "rvert" and token.is_command and token.value == "rvert":
            self.pos += 1
            return True
        if closer == "right|" and token.is_command and token.value == "right":
            following = self.tokens[self.pos + 1] if self.pos + 1 < len(self.tokens) else None
            if self._is_char(following, "|"):
                self.pos += 2
                return True
        return False

    def _item(self, token: LatexToken, out: PlainOutput, open_bars: list[int], depth: int) -> None:
        """Translate one thing in a sequence: an operator, a bar, a delimiter or an operand."""
        if not token.is_command:
            c = token.value
            if c == "|":
                self.pos += 1
                self._bar(token, out, open_bars, opening=None)
            elif c == "^":
                self.pos += 1
                out.add("^", "op")
                piece, kind = self._superscript(depth)
                out.add(piece, kind, from_command=True)
            elif c == "_":
                raise self._error("a subscript must follow a name", token.column)
            elif c in "([":
                self.pos += 1
                out.add(c, "open")
            elif c in ")]'!%":
                self.pos += 1
                out.add(c, "value")
            elif c.isalnum() or c in "{.":
                piece, kind = self._operand(depth)
                out.add(piece, kind)
            else:
                self.pos += 1
                out.add(c, "op")
            return
        name = token.value
        if name in SIZERS:
            self.pos += 1
            self._delimiter(token, out, open_bars)
        elif name in ("{", "lbrace"):
            self.pos += 1
            out.add("(", "open")
        elif name in ("}", "rbrace"):
            self.pos += 1
            out.add(")", "value")
        elif name in ("lvert", "rvert", "vert"):
            self.pos += 1
            opening = {"lvert": True, "rvert": False}.get(name)
            self._bar(token, out, open_bars, opening)
        elif name in OPERATORS:
            self.pos += 1
            symbol = OPERATORS[name]
            out.add(symbol, "value" if symbol in "'%" else "op")
        else:
            piece, kind = self._operand(depth)
            out.add(piece, kind, from_command=True)

    def _bar(
        self, token: LatexToken, out: PlainOutput, open_bars: list[int], opening: bool | None
    ) -> None:
        """Write an absolute-value bar as ``abs(`` or ``)``.

        ``opening`` is known for ``\\lvert`` and ``\\left|``; a bare ``|`` closes when a bar is
        open and what precedes it is an operand, and opens otherwise.
        """
        if opening is None:
            opening = not (open_bars and out.kind in ("name", "value"))
        if opening:
            open_bars.append(token.column)
            out.add(ABS_OPEN, "open", from_command=True)
        elif not open_bars:
            raise self._error("a closing '|' with no opening '|' before it", token.column)
        else:
            open_bars.pop()
            out.add(")", "value")

    def _delimiter(self, sizer: LatexToken, out: PlainOutput, open_bars: list[int]) -> None:
        """Read the delimiter after ``\\left``, ``\\right``, ``\\big`` and friends."""
        token = self._skip_spaces()
        if token is None:
            raise self._error(f"\\{sizer.value} needs a delimiter after it", sizer.column)
        self.pos += 1
        value = token.value
        opening = (
            None
            if sizer.value in ("big", "Big", "bigg", "Bigg")
            else (sizer.value == "left" or sizer.value.endswith("l"))
        )
        if token.is_command and value in NORMS:
            raise self._norm_error(token)
        if not token.is_command and value in "([":
            out.add(value, "open")
        elif not token.is_command and value in ")]":
            out.add(value, "value")
        elif token.is_command and value in ("{", "lbrace"):
            out.add("(", "open")
        elif token.is_command and value in ("}", "rbrace"):
            out.add(")", "value")
        elif (not token.is_command and value == "|") or (
            token.is_command and value in ("vert", "lvert", "rvert")
        ):
            if value in ("lvert", "rvert"):
                opening = value == "lvert"
            self._bar(token, out, open_bars, opening)
        elif not token.is_command and value == ".":
            pass  # \left. and \right. are invisible delimiters
        else:
            shown = f"\\{value}" if token.is_command else value
            raise self._error(
                f"'{shown}' cannot follow \\{sizer.value}; use ( ), [ ] or |", token.column
            )
