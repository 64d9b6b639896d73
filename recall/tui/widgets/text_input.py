"""Text fields that take a burst of keys in the order it was typed: every field of the app is a
:class:`TextInput` (one line) or a :class:`TextBox` (several lines), both built on
:class:`KeysInOrder`.

Textual hands a key to the focused field in the field's own turn, and the field inserts a
printable character there; but a key the field has a *binding* for (Backspace, Delete, Home,
the arrows, Ctrl-U, Enter…) runs only once the key has bubbled up to the app, and Tab moves the
focus only then too. A fast typist's keys all arrive before the first is handled, so a character
typed after Backspace was inserted before the Backspace ran, and one typed after Tab landed in
the field being left (Textual issue 6605; seen in tmux in the answer box, the card form and the
exam date). Two rules put them back in order:

* a field's own editing bindings run in the field's turn, as a typed character is;
* Tab and Shift-Tab move the focus the moment the app reads them (priority bindings on the
  field), so the keys after them are handed to the next field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import Input, TextArea

if TYPE_CHECKING:
    from textual.widget import Widget

    _Field = Widget
else:
    # A plain mixin at run time: a Widget subclass in the middle of Input's ancestry would
    # hide Input's COMPONENT_CLASSES from Textual's merge.
    _Field = object

#: Tab and Shift-Tab move the focus the moment the app reads them (see the module's docstring).
FOCUS_KEYS: list[BindingType] = [
    Binding("tab", "app.focus_next", "Next field", show=False, priority=True),
    Binding("shift+tab", "app.focus_previous", "Previous field", show=False, priority=True),
]


class KeysInOrder(_Field):
    """Mixed into a text field (before the Textual class): its keys are handled in the order
    they were typed.

    Which action a key runs does not change, only when: the focused field's own bindings are the
    first the app would try for a key it does not consume, and priority bindings were tried
    before the key reached the field. An action the field refuses (``check_action``, as a locked
    answer box does) is left to bubble to the screen as before.
    """

    async def _on_key(self, event: events.Key) -> None:
        # Textual calls the ``_on_key`` of every class in the MRO until one prevents the
        # default, so the field's own handler (which inserts a character) runs next if this
        # one did not handle the key.
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if not binding.priority and await self.app.run_action(binding.action, self):
                event.stop()
                event.prevent_default()
                return


class TextInput(KeysInOrder, Input):
    """A one-line field whose keys land in the order typed."""

    BINDINGS: ClassVar[list[BindingType]] = FOCUS_KEYS


class TextBox(KeysInOrder, TextArea):
    """A several-line field whose keys land in the order typed."""

    BINDINGS: ClassVar[list[BindingType]] = FOCUS_KEYS
