"""How long a session runs (:class:`Budget`) and the time it has spent (:class:`Stopwatch`).

Only time with a card on screen counts against a minutes budget: a pause (a break, the help
screen, the command palette, a dialog) stops the clock on the current card, and the time between
cards is not counted. Pauses nest: each has a reason, and the clock runs again only when every
pause has been resumed (a dialog opened over the help screen does not restart it on closing). The
stopwatch takes every "now" from its caller (the session's injectable clock), so a test drives
it with a fake clock and no sleeping.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class Budget:
    """How long a session runs: ``minutes`` of time on cards, a number of ``cards``, or
    ``until_done`` (nothing left in the queue)."""

    kind: str = "minutes"
    value: float | None = 10.0

    @classmethod
    def minutes(cls, minutes: float = 10.0) -> Budget:
        return cls("minutes", float(minutes))

    @classmethod
    def cards(cls, count: int) -> Budget:
        return cls("cards", float(count))

    @classmethod
    def until_done(cls) -> Budget:
        return cls("until_done", None)

    def __post_init__(self) -> None:
        if self.kind not in ("minutes", "cards", "until_done"):
            raise ValueError(f"unknown budget kind {self.kind!r}")
        if self.kind != "until_done" and (self.value is None or self.value <= 0):
            raise ValueError(f"a {self.kind} budget needs a positive value")

    def spent(self, seconds: float, cards: int) -> bool:
        """Whether ``seconds`` on recorded cards, or ``cards`` recorded, use the budget up
        (never, for ``until_done``: the queue running out ends that session)."""
        if self.kind == "minutes":
            assert self.value is not None
            return seconds >= self.value * 60
        if self.kind == "cards":
            assert self.value is not None
            return cards >= self.value
        return False

    def seconds_left(self, elapsed: float) -> float | None:
        """Time left in a minutes budget after ``elapsed`` seconds (``None`` for the others);
        below zero while the last card is finished."""
        if self.kind != "minutes" or self.value is None:
            return None
        return self.value * 60 - elapsed


@dataclass
class Stopwatch:
    """Seconds of budget spent (``used_seconds``: recorded cards, and cards set aside), and
    the clock of the card on screen: when it was shown, and its pauses.

    ``pauses`` counts the pauses in force by reason; the clock stands while any is. The card's
    answer time is kept apart from its time on screen: ``asked_from`` is when on the card's
    clock it was (last) asked, 0 unless an answer was taken back, and ``answered_after`` when
    on it the answer was given (``None`` until then)."""

    used_seconds: float = 0.0
    shown_at: datetime | None = None
    paused_at: datetime | None = None
    paused_seconds: float = 0.0
    pauses: Counter[str] = field(default_factory=Counter)
    asked_from: float = 0.0
    answered_after: float | None = None

    @property
    def paused(self) -> bool:
        return bool(self.pauses)

    def start(self, now: datetime) -> None:
        """A card was put on screen: a fresh clock (standing, if a pause is in force)."""
        self.shown_at = now
        self.paused_seconds = 0.0
        self.paused_at = now if self.pauses else None
        self.asked_from = 0.0
        self.answered_after = None

    def reset(self) -> None:
        """The card left the screen: its clock is cleared (the pauses in force stay)."""
        self.shown_at = None
        self.paused_at = None
        self.paused_seconds = 0.0
        self.asked_from = 0.0
        self.answered_after = None

    def on_card(self, now: datetime) -> float:
        """Time the card on screen has been shown, pauses excluded (0 with none shown)."""
        if self.shown_at is None:
            return 0.0
        end = self.paused_at or now
        return max(0.0, (end - self.shown_at).total_seconds() - self.paused_seconds)

    def answered(self, now: datetime) -> None:
        """The answer of the card on screen was given (a later one, after an unreadable
        answer or a worker failure, replaces it)."""
        self.answered_after = self.on_card(now)

    def ask_again(self, now: datetime) -> None:
        """The answer on screen was taken back: the card's answer time starts again now (its
        time on screen runs on: it stays spent)."""
        self.asked_from = self.on_card(now)
        self.answered_after = None

    def answer_seconds(self, now: datetime) -> float:
        """The time taken to give the answer: from the card (last) asked to the answer given,
        or to ``now`` if none was marked; pauses excluded."""
        end = self.on_card(now) if self.answered_after is None else self.answered_after
        return max(0.0, end - self.asked_from)

    def pause(self, now: datetime, reason: str = "pause") -> None:
        """One more pause for ``reason``; the clock stops at the first."""
        if not self.pauses and self.shown_at is not None:
            self.paused_at = now
        self.pauses[reason] += 1

    def resume(self, now: datetime, reason: str = "pause") -> bool:
        """End one pause for ``reason`` (a resume with none in force is ignored); the clock
        runs again when the last pause ends. Returns whether it did."""
        if self.pauses[reason] <= 0:
            del self.pauses[reason]
            return False
        self.pauses[reason] -= 1
        if self.pauses[reason] == 0:
            del self.pauses[reason]
        if self.pauses:
            return False
        if self.paused_at is not None:
            self.paused_seconds += max(0.0, (now - self.paused_at).total_seconds())
            self.paused_at = None
        return True


__all__ = ["Budget", "Stopwatch"]
