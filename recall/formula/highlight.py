"""The "interpreted as" line with one part marked: for the drill screen and ``recall check``.

The TUI (and any other front end) calls :func:`highlight` with a verdict's ``interpreted`` text
and its part's path, or simply :func:`highlight_verdict`, and gets back the one-line text with
the span of the part, ready to style::

    from recall.formula import check, highlight_verdict

    verdict = check("a/sqrt(b)", "a/b", table)
    marked = highlight_verdict(verdict)      # None when there is nothing to mark
    if marked is not None:
        before, part, after = marked.pieces  # ("a/", "b", "")
        # Rich/Textual: Text(before) + Text(part, style="reverse red") + Text(after)
        print(marked.text)
        print(marked.marker)                 # "  ^" under the part

The text is exactly :meth:`~recall.formula.expression.Expression.to_text`'s (the verdict's
``interpreted``), so the span can be drawn under the line the learner already sees. Nothing here
imports SymPy; it is cheap enough for every verdict.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from recall.errors import ParseError
from recall.formula.nodes import Node
from recall.formula.printer import to_text_with_spans
from recall.formula.verdict import Path, Verdict


@dataclass(frozen=True)
class Highlight:
    """One-line text and the ``[start, end)`` span of the marked part in it."""

    text: str
    start: int
    end: int

    @property
    def pieces(self) -> tuple[str, str, str]:
        """The text before the part, the part, and the text after it."""
        return self.text[: self.start], self.text[self.start : self.end], self.text[self.end :]

    @property
    def marker(self) -> str:
        """Carets under the part, to print on the line below :attr:`text` (counted in columns:
        a combining hat, as in ``m̂``, takes none)."""
        before, part, _ = self.pieces
        return " " * columns(before) + "^" * max(1, columns(part))


def columns(text: str) -> int:
    """Terminal columns ``text`` takes: one per character, none for a combining mark."""
    return sum(0 if unicodedata.combining(char) else 1 for char in text)


def highlight(
    tree: Node, path: Path, spelling: Mapping[str, str] | None = None
) -> Highlight | None:
    """The plain text of ``tree`` with the subtree at ``path`` marked (``None`` for a path
    that is not in the tree); ``spelling`` prints names as the learner typed them."""
    text, spans = to_text_with_spans(tree, spelling)
    span = spans.get(tuple(path))
    if span is None:
        return None
    return Highlight(text, *span)


def highlight_verdict(verdict: Verdict) -> Highlight | None:
    """The verdict's ``interpreted`` text with its differing part marked, or ``None`` when the
    verdict names no part of the answer."""
    part = verdict.part
    if part is None or part.answer_span is None or not verdict.interpreted:
        return None
    start, end = part.answer_span
    if not 0 <= start < end <= len(verdict.interpreted):
        return None
    return Highlight(verdict.interpreted, start, end)


def span_of(
    tree: Node, path: Path | None, spelling: Mapping[str, str] | None = None
) -> tuple[int, int] | None:
    """Where the subtree at ``path`` lies in ``to_text(tree, spelling)``."""
    if path is None:
        return None
    try:
        found = highlight(tree, path, spelling)
    except ParseError:  # pragma: no cover - printing never parses
        return None
    return None if found is None else (found.start, found.end)
