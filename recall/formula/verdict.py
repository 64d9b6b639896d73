"""What grading returns: a status, the method that decided, and words for the learner.

The status is :class:`recall.verdicts.Status`, the one verdict kind the scheduler, the session,
the review log and the screens share (re-exported here as the engine's own).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from recall.errors import ParseError
from recall.verdicts import PointOutcome, Status

Path = tuple[int, ...]

__all__ = ["Diagnosis", "Part", "Path", "Status", "Verdict"]


@dataclass(frozen=True)
class Diagnosis:
    """How a wrong answer is wrong, when that can be told.

    ``kind`` is a stable key for statistics (``sign``, ``factor``, ``additive``, ``reciprocal``,
    ``missing-term``, ``extra-term``, ``swapped``, ``complement``, ``exponent``, ``log-base``,
    ``square-root``, ``partial-domain``, ``approximation``, ``tolerance``, ``magnitude``, and
    the part kinds of :class:`Part` when a differing part explains it best); ``message`` is for
    the learner.
    """

    kind: str
    message: str


@dataclass(frozen=True)
class Part:
    """The part of the answer that differs from the reference.

    ``kind`` is a stable key (``sign``, ``extra-term``, ``missing-term``, ``term``,
    ``exponent``, ``square-root``, ``reciprocal``, ``extra-factor``, ``missing-factor``,
    ``factor``, ``function``, ``constant``, ``rounded-constant``, ``parentheses``; a whole-answer
    diagnosis's kind when the whole answer is marked); ``message`` is for the learner;
    ``answer_path`` and ``expected_path`` locate the part in each tree (``None`` for a part
    that is only on the other side); ``answer_text`` and ``expected_text`` are the two
    parts as typed syntax; ``answer_span`` is where the answer's part lies in
    :attr:`Verdict.interpreted` (``start, end``), for underlining it.
    """

    kind: str
    message: str
    answer_path: Path | None
    expected_path: Path | None
    answer_text: str = ""
    expected_text: str = ""
    answer_span: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "message": self.message,
            "answer_path": None if self.answer_path is None else list(self.answer_path),
            "expected_path": None if self.expected_path is None else list(self.expected_path),
            "answer_text": self.answer_text,
            "expected_text": self.expected_text,
            "answer_span": None if self.answer_span is None else list(self.answer_span),
        }


@dataclass(frozen=True)
class Verdict:
    """The outcome of grading one answer.

    ``method`` names what decided (``structural``, ``numeric``, ``exact``, ``high-precision``,
    ``symbolic``, ``tolerance``, ``parse``, ``undecided``, ``self``); ``interpreted`` is how the
    answer was read, as one line of typed syntax; ``worked`` is the worked computation of a
    numeric question; ``column`` and ``caret`` point at the problem in an invalid answer;
    ``part`` is the smallest part of a wrong answer that differs from the reference
    (:mod:`recall.formula.locate`), with its path in the answer's tree and its span in
    ``interpreted``.
    """

    status: Status
    method: str
    message: str
    interpreted: str = ""
    diagnosis: Diagnosis | None = None
    worked: str = ""
    column: int | None = None
    caret: str = ""
    expected: str = ""
    part: Part | None = None
    # A checked explanation (explain cards with key points): each point, made or missed.
    points: tuple[PointOutcome, ...] = ()

    @classmethod
    def unreadable(cls, error: ParseError, *, expected: str = "", worked: str = "") -> Verdict:
        """The verdict for an answer that could not be read: *invalid*, pointing at the column."""
        return cls(
            Status.INVALID,
            "parse",
            error.message,
            column=error.column,
            caret=error.caret(),
            expected=expected,
            worked=worked,
        )

    @classmethod
    def control_character(
        cls, text: str, *, caret: bool = False, expected: str = ""
    ) -> Verdict | None:
        """*Invalid* for an answer holding a control character (bidi controls included), named
        as the formula reader names it, or ``None`` when it holds none: checked before any
        rewrite of the text could strip one (``str.strip`` takes U+001C-U+001F as spaces)."""
        from recall.inert import describe_char, first_control

        index = first_control(text)
        if index is None:
            return None
        return cls(
            Status.INVALID,
            "parse",
            f"unexpected character {describe_char(text[index])}",
            column=index,
            caret=" " * index + "^" if caret else "",
            expected=expected,
        )

    @property
    def is_correct(self) -> bool:
        return self.status is Status.CORRECT

    @property
    def is_invalid(self) -> bool:
        return self.status is Status.INVALID

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (``recall check --json`` and the batch mode print this)."""
        data = asdict(self)
        data["status"] = str(self.status)
        return data
