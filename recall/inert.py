"""The one rule for text recall did not write: refused where it enters, made inert where it leaves.

Deck files, imports (CSV, Anki text, Anki packages), config values, typed answers, URLs and the
names of files in a decks folder can come from anyone. A terminal obeys the control characters in
what it is given: ``ESC ] 52`` writes the clipboard, ``ESC [ 2J`` clears the screen, ``ESC ] 0``
sets the title, ``ESC ] 8`` makes a hyperlink, a C1 ``CSI`` (U+009B) does what ``ESC [`` does on
some terminals. The bidirectional embeddings, overrides and isolates (U+202A to U+202E, U+2066 to
U+2069) reorder what is drawn after them, so a prompt or an answer can read differently from what
the file holds ("Trojan Source"); zero-width characters make two different ids look the same. So
there are three classes:

* *control characters*: C0 other than newline and tab, DEL, C1, and the bidi embeddings,
  overrides and isolates. No stored text may hold one.
* *hidden characters*: the zero-width space, the word joiner and invisible operators, the byte
  order mark, the line and paragraph separators. Text may hold them, an id may not; a terminal
  (the TUI, the CLI on a terminal) shows them as their code point.
* *joiners and marks*: ZWNJ, ZWJ, LRM, RLM, ALM (U+200C to U+200F, U+061C). Persian, Arabic,
  Hebrew and Indic text and emoji sequences need them and they reorder nothing but the neutral
  characters beside them: text keeps them everywhere, an id may not hold one.

* **On the way in** (deck files, imports, config, typed answers), :func:`first_control` finds a
  control character, and the loader refuses the field with file:line and the field named.
  :func:`first_invisible` finds any of the three classes (and a line break or a tab), which an
  *id* may not hold.
* **On the way out** (Textual widgets, CLI output, error messages, logs, exports to a terminal),
  :func:`inert` makes every control and hidden character visible and harmless; :func:`quote`
  makes every character of the three classes visible and keeps at most ``limit`` characters, for
  error messages that cite the input (often an id refused for an invisible character).

Nothing here imports anything but the standard library, so every layer may call it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

#: C0 controls but newline and tab, DEL, the C1 controls (U+0080 to U+009F), and the
#: bidirectional embeddings, overrides and isolates, which reorder what is drawn after them.
_CONTROL_CLASS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
#: Characters with no look of their own that running text has no need of: the zero-width space,
#: the word joiner and invisible operators, the byte order mark; the line and paragraph
#: separators U+2028/U+2029 end a line in some terminals and editors.
_HIDDEN_CLASS = "\u200b\u2060-\u2064\ufeff\u2028\u2029"
#: Zero-width joiners and direction marks, which right-to-left and joining scripts and emoji
#: sequences need: kept in text, refused in ids.
_MARK_CLASS = "\u061c\u200c-\u200f"
_INVISIBLE_CLASS = f"\u202a-\u202e\u2066-\u2069{_HIDDEN_CLASS}{_MARK_CLASS}"

_BIDI_CLASS = "\u202a-\u202e\u2066-\u2069"
_BIDI = re.compile(f"[{_BIDI_CLASS}]")
_CONTROL = re.compile(f"[{_CONTROL_CLASS}]")
_INVISIBLE = re.compile(f"[{_INVISIBLE_CLASS}]")
_UNSAFE_OUT = re.compile(f"[{_CONTROL_CLASS}{_HIDDEN_CLASS}]")
_UNSAFE_OUT_ONE_LINE = re.compile(f"[{_CONTROL_CLASS}{_HIDDEN_CLASS}\n\t]")
_CONTROL_OUT_ONE_LINE = re.compile(f"[{_CONTROL_CLASS}\n\t]")
_NOT_IN_AN_ID = re.compile(f"[{_CONTROL_CLASS}{_HIDDEN_CLASS}{_MARK_CLASS}\n\t]")

#: How many characters of someone else's text an error message quotes at most.
QUOTE_LIMIT = 80


def _visible(match: re.Match[str]) -> str:
    """A control character as something a person can read and a terminal ignores.

    C0 controls become their Unicode "control picture" (ESC is ``␛``, NUL ``␀``), DEL ``␡``;
    everything else (C1, bidi, zero-width) its code point, ``<U+202E>``.
    """
    char = match.group()
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)
    if code == 0x7F:
        return "\u2421"
    return f"<U+{code:04X}>"


def inert(text: str, *, one_line: bool = False, invisible: bool = True) -> str:
    """``text`` with every control character (bidi overrides included) and every hidden
    character made visible and inert; joiners and direction marks are kept (see the module).

    Newline and tab are kept (they are layout, not commands) unless ``one_line`` is set, for a
    place where a line break would itself mislead (a table cell, a log line, an option list).
    With ``invisible=False`` only the control characters are replaced and hidden characters are
    kept: for data written to a pipe or a file (an export), which no terminal draws.
    """
    if invisible:
        pattern = _UNSAFE_OUT_ONE_LINE if one_line else _UNSAFE_OUT
    else:
        pattern = _CONTROL_OUT_ONE_LINE if one_line else _CONTROL
    if not pattern.search(text):
        return text
    return pattern.sub(_visible, text)


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` for an error message: inert, on one line, at most ``limit`` characters (with an
    ellipsis and the full length when cut), so an error never echoes a whole hostile input.
    Joiners and direction marks are shown too: the text quoted is often an id refused for
    holding one."""
    if len(text) > limit:
        shown = _NOT_IN_AN_ID.sub(_visible, text[:limit])
        return f"{shown}… ({len(text):,} characters)"
    return _NOT_IN_AN_ID.sub(_visible, text)


def first_control(text: str) -> int | None:
    """The index of the first character ``text`` may not hold as stored text (C0 other than
    newline and tab, DEL, C1, a bidi embedding, override or isolate), or ``None`` when it holds
    none."""
    match = _CONTROL.search(text)
    return match.start() if match else None


def first_invisible(text: str) -> int | None:
    """The index of the first control, hidden, joiner or direction-mark character, line break or
    tab in ``text`` (what an id, a name that must look like itself, may not hold), or ``None``."""
    match = _NOT_IN_AN_ID.search(text)
    return match.start() if match else None


def is_bidi_control(char: str) -> bool:
    """Whether ``char`` is a bidi embedding, override or isolate (U+202A to U+202E, U+2066 to
    U+2069): refused as a control character, for its own reason."""
    return bool(_BIDI.match(char))


def describe_char(char: str) -> str:
    """A character named for an error message: ``U+001B (ESC)``-style, never the raw character."""
    code = ord(char)
    names = {0x1B: "ESC", 0x07: "BEL", 0x00: "NUL", 0x7F: "DEL", 0x9B: "CSI", 0x9D: "OSC"}
    if _BIDI.match(char):
        return f"U+{code:04X} (a bidi control, which reorders the text after it)"
    if _INVISIBLE.match(char):
        return f"U+{code:04X} (an invisible character)"
    name = names.get(code)
    return f"U+{code:04X} ({name})" if name else f"U+{code:04X} (a control character)"


class InertWriter:
    """A text stream that makes everything written through it inert before passing it on.

    The command line's exit: :func:`inert_output` puts one in front of ``sys.stdout`` and
    ``sys.stderr`` for the whole of a command, so no ``print`` of a deck name, a typed answer or
    an error message can reach the terminal with a control character in it, whichever command
    wrote it. On a terminal hidden characters (a zero-width space…) are shown as code points
    too; on a pipe or a file (an export redirected) only the control characters are replaced,
    since valid data holds none. Joiners and direction marks are text and kept.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        try:
            self._terminal = bool(stream.isatty())
        except (AttributeError, ValueError, OSError):
            self._terminal = False

    @property
    def wrapped(self) -> TextIO:
        """The stream this one writes to."""
        return self._stream

    def write(self, text: str) -> int:
        # A CR LF line end (csv's default) is harmless and kept; a lone CR is not (it lets a
        # line overwrite what came before it).
        parts = text.split("\r\n")
        self._stream.write("\r\n".join(inert(part, invisible=self._terminal) for part in parts))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, isatty, encoding, buffer, ...
        return getattr(self._stream, name)


@contextmanager
def inert_output() -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` made inert (:class:`InertWriter`) inside the block, and
    restored after it."""
    saved = sys.stdout, sys.stderr
    sys.stdout = InertWriter(saved[0])  # type: ignore[assignment]
    sys.stderr = InertWriter(saved[1])  # type: ignore[assignment]
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved
