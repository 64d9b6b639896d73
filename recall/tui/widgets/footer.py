"""Textual's footer, recomposed once per change of bindings rather than once per signal.

Textual's :class:`~textual.widgets.Footer` schedules a full recompose (every key widget
unmounted, made and styled again) each time its screen announces that its bindings changed, and
a screen announces it for every focus change and every ``refresh_bindings()``. Before the first
card of ``recall drill`` that happened about ten times in one burst, each recompose after the
last one redoing the same work: about a tenth of a second of CPU on the path to the first prompt
(``benchmarks/bench_startup.py``). Here a burst of announcements schedules one recompose, which
reads the bindings as they are when it runs, so the footer shows the same keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import Footer as TextualFooter

if TYPE_CHECKING:
    from textual.screen import Screen


class Footer(TextualFooter):
    """The footer every recall screen shows (see the module's docstring)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        #: A recompose is scheduled and has not run yet.
        self._recompose_pending = False
        #: Recomposes run since mount (what the coalescing saves is counted by the tests).
        self.recomposes = 0

    def bindings_changed(self, screen: Screen) -> None:  # type: ignore[type-arg]
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen and not self._recompose_pending:
            self._recompose_pending = True
            self.call_after_refresh(self._recompose_once)

    async def _recompose_once(self) -> None:
        self._recompose_pending = False
        self.recomposes += 1
        await self.recompose()
