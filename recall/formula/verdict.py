"""What grading returns: a status, the method that decided, and words for the learner.

The status is :class:`recall.verdicts.Status`, the one verdict kind the scheduler, the session,
the review log and the screens share (re-exported here as the engine's own).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from recall.errors import ParseError
from recall.verdicts import Status

__all__ = ["Diagnosis", "Status", "Verdict"]


@dataclass(frozen=True)
class Diagnosis:
    """How a wrong answer is wrong, when that can be told.

    ``kind`` is a stable key for statistics (``sign``, ``factor``, ``additive``, ``reciprocal``,
    ``missing-term``, ``extra-term``, ``swapped``, ``complement``, ``exponent``, ``log-base``,
    ``square-root``, ``partial-domain``, ``approximation``, ``tolerance``, ``magnitude``);
    ``message`` is for the learner.
    """

    kind: str
    message: str


@dataclass(frozen=True)
class Verdict:
    """The outcome of grading one answer.

    ``method`` names what decided (``structural``, ``numeric``, ``exact``, ``high-precision``,
    ``symbolic``, ``tolerance``, ``parse``, ``undecided``, ``self``); ``interpreted`` is how the
    answer was read, as one line of typed syntax; ``worked`` is the worked computation of a
    numeric question; ``column`` and ``caret`` point at the problem in an invalid answer.
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
