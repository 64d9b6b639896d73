"""Keys typed while a dialog with a field is still opening wait for its field.

A fast typist presses ``x`` and the exam date, ``l`` and a length, ``n`` and a count, ``a`` and the
new card's fields, in one burst. The opening key is a priority binding, so it pushes the dialog the
moment the app reads it; but the dialog is mounted, and its field focused, only a few turns later,
and a key read meanwhile had no focused widget to go to: Textual handed it to the dialog screen
itself, where nothing typed it. :class:`TypeAhead` holds such keys (and every key read after them,
so the order stays) until the dialog's field has the focus, then hands them to the app in the order
read.

A hold is armed for one screen (:meth:`TypeAhead.hold`) and lapses by itself: once a text field of
that screen has the focus (a scrolling box Textual focuses first does not count: keys sent there
were lost), once the screen is no longer on the stack (closed before it was ready), or after
:data:`MAX_HOLD` seconds, whatever happens to the screen.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from recall.tui.widgets.text_input import KeysInOrder

if TYPE_CHECKING:
    from textual import events
    from textual.app import App
    from textual.screen import Screen

#: The longest a key waits for a dialog to be ready, in seconds.
MAX_HOLD = 1.5

#: How often a hold looks again whether its dialog is ready, in seconds.
POLL = 0.01


class TypeAhead:
    """The keys read while a dialog opens, handed over in order once its field is focused.

    ``handle`` is what the app does with a key it is not holding (Textual's own handling).
    """

    def __init__(self, app: App[Any], handle: Callable[[events.Key], Awaitable[None]]) -> None:
        self._app = app
        self._handle = handle
        self._screen: Screen[Any] | None = None
        self._until = 0.0
        self._keys: list[events.Key] = []
        self._draining = False

    def hold(self, screen: Screen[Any]) -> None:
        """Keys read from now on wait until a text field of ``screen`` has the focus."""
        self._screen = screen
        self._until = time.monotonic() + MAX_HOLD

    def take(self, event: events.Key) -> bool:
        """Whether ``event`` is held (the app must not handle it now): a hold is on, or keys
        read before it still wait."""
        if not self._keys and self._ready():
            return False
        self._keys.append(event)
        self._schedule()
        return True

    def _ready(self) -> bool:
        """Whether no hold is on any longer (the hold is dropped when it lapses)."""
        screen = self._screen
        if screen is None:
            return True
        if (
            time.monotonic() >= self._until
            or screen not in self._app.screen_stack
            or (screen.is_mounted and isinstance(screen.focused, KeysInOrder))
        ):
            self._screen = None
            return True
        return False

    def _schedule(self) -> None:
        if not self._draining:
            self._draining = True
            # The timer only posts: the keys are handed over in the app's own turn.
            self._app.set_timer(POLL, lambda: self._app.call_later(self._drain))

    async def _drain(self) -> None:
        """Hand the held keys over in order; a key that opens another dialog holds the rest."""
        self._draining = False
        while self._keys:
            if not self._ready():
                self._schedule()
                return
            await self._handle(self._keys.pop(0))
