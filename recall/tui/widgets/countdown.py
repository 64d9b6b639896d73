"""The session clock: time (or cards) left, always visible; "paused" while it is stopped, and
"time is up, finish this card" once a minutes budget ran out under the card on screen.

It reads everything it shows from callables rather than keeping its own time or state, so the
session (and a test's fake clock) is the only source of truth: a pause for any reason (help, the
palette, a dialog, the editor) shows, and nothing on screen can disagree with the budget.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.widgets import Static

from recall.tui.browser import timer_icon

#: What the countdown says when the budget ran out while a card is on screen.
TIME_UP = "time is up, finish this card"


def format_remaining(seconds: float) -> str:
    """``m:ss`` for the budget left (never negative)."""
    whole = max(0, int(seconds + 0.999))  # show 0:01 until the very end, not 0:00
    return f"{whole // 60}:{whole % 60:02d}"


def _never() -> bool:
    return False


class Countdown(Static):
    """Shows ``⏱ 9:41`` (``9:41`` in a browser, or ``12 cards left``), refreshed twice a second.

    ``paused`` says whether the session clock stands, ``time_up`` whether the budget ran out
    under the card on screen (both default to never)."""

    def __init__(
        self,
        seconds_left: Callable[[], float | None],
        cards_left: Callable[[], int | None],
        *,
        paused: Callable[[], bool] = _never,
        time_up: Callable[[], bool] = _never,
        **kwargs: object,
    ) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        self._seconds_left = seconds_left
        self._cards_left = cards_left
        self._paused = paused
        self._time_up = time_up
        self._icon = timer_icon()

    def on_mount(self) -> None:
        self.tick()
        self.set_interval(0.5, self.tick)

    def tick(self) -> None:
        """Redraw from the session's budget."""
        self.update(self.render_status())

    def render_status(self) -> Text:
        """The line as it stands now (what :meth:`tick` shows)."""
        text = Text()
        seconds = self._seconds_left()
        cards = self._cards_left()
        if seconds is not None:
            style = "bold red" if seconds <= 60 else "bold"
            text.append(self._icon)
            text.append(format_remaining(seconds), style=style)
        elif cards is not None:
            text.append(f"{cards} card{'s' if cards != 1 else ''} left", style="bold")
        else:
            text.append("until done", style="dim")
        if self._paused():
            text.append("  paused", style="reverse")
        elif self._time_up():
            text.append(f"  {TIME_UP}", style="bold red")
        return text
