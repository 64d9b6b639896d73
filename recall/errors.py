"""One error tree for the whole of recall.

Every error recall raises on purpose derives from :class:`RecallError`, so the CLI and the TUI can
catch one type and show its message to a person instead of a traceback::

    RecallError
    ├── ConfigError          bad settings, bad paths, bad --db URL
    ├── FormulaError         the formula engine
    │   ├── ParseError       typed text that is not a valid expression (carries the column)
    │   ├── LimitError       input too long, too deep, numbers or exponents too large
    │   └── EvaluationError  an expression that cannot be evaluated where it was asked to be
    ├── GradingError         a card and an answer that cannot be graded together
    │   └── RatingError      a rating the rules refuse (Hard for a wrong answer, any for invalid)
    ├── DeckError            a deck file that fails to load or validate (file, line, card id)
    ├── StoreError           the database: unreachable, not a recall database, newer schema, ...
    └── InteropError         a file from another tool that cannot be read (an Anki package)

Messages are written for the learner: what went wrong, where, and what to do next.
"""

from __future__ import annotations

from recall.inert import inert, quote


class RecallError(Exception):
    """Base of every error recall raises on purpose."""


class ConfigError(RecallError):
    """Settings, paths or a database URL that cannot be used."""


class FormulaError(RecallError):
    """Something the formula engine cannot accept."""


class ParseError(FormulaError):
    """Typed text that is not a valid expression.

    ``column`` is the 0-based offset into ``text`` where the problem is (or ``None`` when the
    problem is the whole input); :meth:`caret` draws the text with a caret under that column.
    """

    def __init__(self, message: str, text: str = "", column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.column = column

    def caret(self) -> str:
        """The offending text with a ``^`` under the column, for terminals and logs: on one line
        and inert (a carriage return in it would otherwise pair with the line break below it,
        which the command line's exit keeps as a CR LF line end)."""
        if self.column is None or not self.text:
            return inert(self.text, one_line=True)
        line = inert(self.text.replace("\n", " "), one_line=True)
        return f"{line}\n{' ' * min(self.column, len(line))}^"

    def __str__(self) -> str:
        if self.column is None:
            return self.message
        return f"{self.message} (at column {self.column + 1})"


class AmbiguousReading(ParseError):
    """Typed text that could be read more than one way (``x/2y``, ``ln p^2``): *invalid*, with
    ``readings``, each an unambiguous plain text of one way to read it (recall's own first).
    The grader asks which was meant only when the choice matters: when no reading is right,
    the answer is wrong either way and is graded so."""

    def __init__(
        self,
        message: str,
        text: str = "",
        column: int | None = None,
        readings: tuple[str, ...] = (),
    ) -> None:
        super().__init__(message, text, column)
        self.readings = readings


class LimitError(ParseError):
    """Input that breaks a size bound: length, nesting, number size, exponent size."""


class EvaluationError(FormulaError):
    """An expression that cannot be evaluated (unknown value, overflow past our bounds, ...)."""


class GradingError(RecallError):
    """A card and an answer that cannot be graded together (a broken card, not a wrong answer)."""


class RatingError(GradingError):
    """A rating the scheduling rules refuse: Hard (a passing grade) for a wrong answer, or any
    rating for an invalid answer, which costs nothing and is simply tried again."""


class DeckError(RecallError):
    """A deck file problem, located by file, line and card id when they are known."""

    def __init__(
        self,
        message: str,
        path: str | None = None,
        line: int | None = None,
        card_id: str | None = None,
        suggestion: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.card_id = card_id
        self.suggestion = suggestion

    def __str__(self) -> str:
        # The path, the card id and whatever the message quotes may come from a shared deck:
        # made inert here, once, for every place an error is shown. Unlocated (a deck given as
        # text, not a file): no invented placeholder for the place.
        where = inert(self.path or "", one_line=True)
        if self.line is not None:
            where += f":{self.line}" if where else f"line {self.line}"
        text = f"{where}: " if where else ""
        if self.card_id:
            text += f"card '{quote(self.card_id)}': "
        text += inert(self.message)
        if self.suggestion:
            text += f" ({inert(self.suggestion)})"
        return text


class StoreError(RecallError):
    """The database cannot be opened, read or written as recall needs."""


class InteropError(RecallError):
    """A file from another tool (an Anki package) that is damaged, hostile or not what it
    claims to be: refused with one line, before anything is written."""
