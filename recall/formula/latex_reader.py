"""Tokens of LaTeX input, the plain text being written, and a cursor over the tokens.

The lowest layer of the LaTeX translation (:mod:`recall.formula.latex`): it splits the input
into commands and characters and gives the readers above it small, safe steps (peek, consume,
skip what TeX ignores, bound the nesting).
"""

from __future__ import annotations

from dataclasses import dataclass

from recall.errors import LimitError, ParseError
from recall.formula.latex_vocabulary import MAX_DEPTH, SPACES


def touches(char: str) -> bool:
    return char.isalnum() or char in ")]'"


@dataclass(frozen=True, slots=True)
class LatexToken:
    """One command (``\\frac``, ``\\,``) or one plain character, with its column in the input."""

    is_command: bool
    value: str
    column: int


def tokenize_latex(text: str) -> list[LatexToken]:
    """Split ``text`` into commands (a backslash and a run of ASCII letters, or one other
    character) and single characters."""
    tokens: list[LatexToken] = []
    i = 0
    while i < len(text):
        if text[i] != "\\":
            tokens.append(LatexToken(False, text[i], i))
            i += 1
            continue
        j = i + 1
        while j < len(text) and text[j].isascii() and text[j].isalpha():
            j += 1
        if j == i + 1:
            if j == len(text):
                raise ParseError("a backslash with no command after it", text, i)
            j += 1  # a one-character command such as \, or \{
        tokens.append(LatexToken(True, text[i + 1 : j], i))
        i = j
    return tokens


def is_name(text: str) -> bool:
    """A plain-syntax identifier: a letter, then letters, digits and underscores."""
    return bool(text) and text[0].isalpha() and all(c.isalnum() or c == "_" for c in text)


class PlainOutput:
    """Plain text being written, and the kind of the last piece written.

    ``kind`` is ``name``, ``value`` (a number or something closed, like ``)``), ``op`` or
    ``open``; it decides whether a ``|`` opens or closes an absolute value and whether a
    subscript may follow. A piece produced by a command, or separated by a space in the input,
    gets a space between it and a touching letter or digit, so ``\\pi r`` does not become the
    name ``pir`` and ``a b`` stays two names.
    """

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.kind = "open"
        self.separate_next = False

    def gap(self) -> None:
        """The input had a space here: keep the next piece apart from the last one."""
        self.separate_next = True

    def add(self, piece: str, kind: str, from_command: bool = False) -> None:
        if not piece:
            return
        if (
            self.parts
            and (from_command or self.separate_next)
            and touches(self.parts[-1][-1])
            and piece[0].isalnum()
        ):
            self.parts.append(" ")
        self.parts.append(piece)
        self.kind = kind
        self.separate_next = from_command

    def text(self) -> str:
        return "".join(self.parts).strip()


class TokenReader:
    """A cursor over the tokens of one input; each reader method consumes what it reads."""

    def __init__(self, text: str, tokens: list[LatexToken]) -> None:
        self.text = text
        self.tokens = tokens
        self.pos = 0

    def _error(self, message: str, column: int | None) -> ParseError:
        return ParseError(message, self.text, column)

    def _peek(self) -> LatexToken | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _next(self) -> LatexToken:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def _skip_spaces(self) -> LatexToken | None:
        """Skip what TeX ignores between tokens, and return the next token (not consumed)."""
        self.pos = self._past_spaces()
        return self._peek()

    def _past_spaces(self) -> int:
        """The index of the next token that is not a space, without consuming anything."""
        i = self.pos
        while i < len(self.tokens):
            token = self.tokens[i]
            if token.is_command and token.value in SPACES:
                i += 1
            elif not token.is_command and (token.value.isspace() or token.value in "$~"):
                i += 1
            else:
                break
        return i

    def _next_script(self) -> LatexToken | None:
        """Consume and return a ``^`` or ``_`` that comes next (spaces allowed before it)."""
        i = self._past_spaces()
        if i < len(self.tokens) and self._is_char(self.tokens[i], "^_"):
            self.pos = i + 1
            return self.tokens[i]
        return None

    def _end_column(self) -> int:
        return len(self.text)

    def _check_depth(self, depth: int, column: int) -> None:
        if depth > MAX_DEPTH:
            raise LimitError(f"the LaTeX nests deeper than {MAX_DEPTH} levels", self.text, column)

    def _is_char(self, token: LatexToken | None, chars: str) -> bool:
        return token is not None and not token.is_command and token.value in chars

    def _run(self, first_is_digit: bool) -> str:
        """Consume a run of letters and digits (a name) or of digits and dots (a number)."""
        chars: list[str] = []
        while (token := self._peek()) is not None and not token.is_command:
            c = token.value
            ok = (c.isdigit() or c == ".") if first_is_digit else c.isalnum()
            if not ok:
                break
            chars.append(c)
            self.pos += 1
        return "".join(chars)
