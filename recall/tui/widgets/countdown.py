"""The session clock: time (or cards) left, always visible, and "paused" when it is stopped.

It reads the remaining budget from a callable rather than keeping its own time, so the session
(and a test's fake clock) is the only source of truth.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static


def format_remaining(seconds: float) -> str:
    """``m:ss`` for the budget left (never negative)."""
    whole = max(0, int(seconds + 0.999))  # show 0:01 until the very end, not 0:00
    return f"{whole // 60}:{whole % 60:02d}"


class Countdown(Static):
    """Shows ``⏱ 9:41`` (or ``12 cards left``), refreshed twice a second."""

    paused: reactive[bool] = reactive(False)
    """Whether the session clock is stopped (drawn as "paused")."""

    def __init__(
        self,
        seconds_left: Callable[[], float | None],
        cards_left: Callable[[], int | None],
        **kwargs: object,
    ) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        self._seconds_left = seconds_left
        self._cards_left = cards_left

    def on_mount(self) -> None:
        self.tick()
        self.set_interval(0.5, self.tick)

    def tick(self) -> None:
        """Redraw from the session's budget."""
        text = Text()
        seconds = self._seconds_left()
        cards = self._cards_left()
        if seconds is not None:
            style = "bold red" if seconds <= 60 else "bold"
            text.append("⏱ ")
            text.append(format_remaining(seconds), style=style)
        elif cards is not None:
            text.append(f"{cards} card{'s' if cards != 1 else ''} left", style="bold")
        else:
            text.append("until done", style="dim")
        if self.paused:
            text.append("  paused", style="reverse")
        self.update(text)

    def watch_paused(self) -> None:
        self.tick()
