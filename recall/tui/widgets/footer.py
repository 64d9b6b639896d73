"""Textual's footer, recomposed once per change of bindings rather than once per signal.

Textual's :class:`~textual.widgets.Footer` schedules a full recompose (every key widget
unmounted, made and styled again) each time its screen announces that its bindings changed, and
a screen announces it for every focus change and every ``refresh_bindings()``. Before the first
card of ``recall drill`` that happened about ten times in one burst, each recompose after the
last one redoing the same work: about a tenth of a second of CPU on the path to the first prompt
(``benchmarks/bench_startup.py``). Here a burst of announcements schedules one recompose, which
reads the bindings as they are when it runs, so the footer shows the same keys; and when they
are the keys already shown (a focus change between widgets that show no key of their own, the
home screen's second announcement after its first frame), it does nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey

if TYPE_CHECKING:
    from textual.app import ComposeResult
    from textual.screen import Screen


class Footer(TextualFooter):
    """The footer every recall screen shows (see the module's docstring)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        #: A recompose is scheduled and has not run yet.
        self._recompose_pending = False
        #: Recomposes run since mount (what the coalescing saves is counted by the tests).
        self.recomposes = 0
        #: What the keys on show were composed from (:meth:`_keys_shown`), once composed.
        self._composed: tuple[object, ...] | None = None

    def compose(self) -> ComposeResult:
        """Textual's keys, each bound to the footer's ``compact`` made with that value already
        set: a key's own default is compact, so it was styled compact when mounted and styled
        again when its binding caught up, two style updates per key before the first frame
        for the look it had all along. (The palette's key is not bound: it keeps its own.)"""
        for widget in super().compose():
            bound = getattr(widget, "_reactive_connect", None) or {}
            if isinstance(widget, FooterKey) and "compact" in bound:
                widget.set_reactive(FooterKey.compact, self.compact)
            yield widget

    def bindings_changed(self, screen: Screen) -> None:  # type: ignore[type-arg]
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen and not self._recompose_pending:
            self._recompose_pending = True
            self.call_after_refresh(self._recompose_once)

    async def _recompose_once(self) -> None:
        self._recompose_pending = False
        if not self.is_attached:
            return  # its screen went away meanwhile (a session's screen switched for another)
        keys = self._keys_shown()
        if keys == self._composed:
            return  # the same keys: rebuilding them would only cost a restyle and a layout
        self._composed = keys
        self.recomposes += 1
        await self.recompose()

    def _keys_shown(self) -> tuple[object, ...]:
        """Everything the footer's keys are composed from: the screen's bindings it shows,
        each with whether it is enabled and its tooltip, and the command palette's key.
        (A focus change that only adds hidden bindings, such as an input's, leaves it as is.)"""
        active = self.screen.active_bindings
        shown = tuple(
            (binding, enabled, tooltip)
            for _node, binding, enabled, tooltip in active.values()
            if binding.show
        )
        palette = None
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            found = active.get(self.app.COMMAND_PALETTE_BINDING)
            palette = None if found is None else tuple(found[1:])
        return (shown, palette)
