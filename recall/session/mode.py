"""What a drill session draws from, and whether it touches the schedule: :class:`Mode`.

The one spelling of a session's mode, for the session, the TUI and the store's ``sessions.mode``
column alike (values are what that column has always held, so every old row reads back). Light
on purpose: the TUI imports it before its first frame.
"""

from __future__ import annotations

from enum import StrEnum


class Mode(StrEnum):
    """What a drill session draws from, and whether it touches the schedule."""

    NORMAL = "normal"  # due cards, then new ones: the scheduled session (limits, siblings)
    CRAM = "cram"  # any cards of the chosen decks; the schedule is left untouched
    WEAKEST = "weakest"  # the N cards with the lowest retrievability; schedule untouched
    MISSED = "missed"  # the cards missed in the last session (or the given keys)

    @property
    def on_schedule(self) -> bool:
        """Whether reviews in this mode move the schedule (only :attr:`NORMAL` does; the others
        are logged as off-schedule and change no card's state)."""
        return self is Mode.NORMAL


__all__ = ["Mode"]
