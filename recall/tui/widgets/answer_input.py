"""The answer box: an :class:`Input` that can be locked while the verdict is on screen.

Locking instead of disabling keeps the focus where it is: moving focus makes Textual rebuild
the footer and restyle the screen, which cost more than half of the time between Enter and the
verdict on screen. A locked box takes no typing, no editing and no paste, and lets the keys
through to the screen's bindings (1–4, Enter, ?).

A paste is never cut without a word: one longer than the box takes is refused with a message, and
an explanation pasted over several lines keeps them all, joined (Input keeps the first line).
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.reactive import reactive

from recall.tui.widgets.text_input import TextInput


class AnswerInput(TextInput):
    """A :class:`TextInput` with a ``locked`` state that leaves every key to the screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Ctrl-W (delete a word) closes the tab in a browser (recall serve): Alt-W does it there.
        Binding("alt+w", "delete_left_word", "Delete a word", show=False),
    ]

    locked: reactive[bool] = reactive(False)
    """While ``True`` the value cannot change and printable keys reach the bindings."""

    prose = False
    """An explanation is asked: a paste keeps all its lines, joined (a formula, the first)."""

    def watch_locked(self, locked: bool) -> None:
        self.set_class(locked, "-locked")

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return not self.locked and super().check_consume_key(key, character)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.locked:
            return False  # editing keys and Enter fall through to the screen
        return super().check_action(action, parameters)

    async def _on_key(self, event: events.Key) -> None:
        if self.locked:
            event.prevent_default()  # skip Input's handler: nothing is typed
            return
        if event.key == "enter":
            # Sent here, in the box's own turn, not by the binding: a binding is looked up
            # when the key has bubbled to the app, in the screen on top *then*, and a question
            # opened by a key pressed right after Enter (Ctrl-C, Esc) would take this Enter
            # as its own "go back", and the answer would never be graded.
            event.stop()
            event.prevent_default()
            await self.action_submit()
            return
        # Not handled here: the editing keys run next in the box's own turn (KeysInOrder), then
        # Input inserts a typed character.

    def _on_paste(self, event: events.Paste) -> None:
        # Textual calls the ``_on_paste`` of every class in the MRO until one prevents the
        # default, so Input's own handler inserts the text next: calling it here as well
        # pasted everything twice.
        if self.locked:
            event.stop()
            event.prevent_default()
            return
        text = pasted_text(event.text, prose=self.prose)
        start, end = sorted(self.selection)
        length = len(self.value) - (end - start) + len(text)
        if self.max_length and length > self.max_length:
            # Input would drop it without a word; a cut answer would be another answer.
            event.stop()
            event.prevent_default()
            self.notify(
                f"Not pasted: {len(text)} characters, and the box takes {self.max_length} at most.",
                severity="warning",
                timeout=5,
            )
            return
        if self.prose:
            event.stop()
            event.prevent_default()
            self.replace(text, start, end)
        # A formula: Input's own handler inserts the first line next.


def pasted_text(text: str, *, prose: bool) -> str:
    """What of a paste a one-line box takes: an explanation's lines joined by spaces (each line
    stripped, blank ones left out), a formula's first line (as Input does)."""
    if prose:
        return " ".join(line.strip() for line in text.splitlines() if line.strip())
    return text.splitlines()[0] if text else text
