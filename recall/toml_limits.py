"""Bounds on the TOML files recall reads but did not write (deck files, ``config.toml``).

``tomllib`` trusts its input: a 40 KB file holding one dotted key of 20,000 parts costs it tens of
seconds and gigabytes, arrays nested a few thousand deep overflow the stack, and a 50 MB file is
read whole. So before a file reaches it, :func:`read_bounded` refuses one that is too big (it
never reads more than the limit), and :func:`check_shape` refuses one nested too deep or with
too many key parts, in one linear scan that skips strings and comments the way TOML does. The
limits are far above anything a real deck or config needs (``docs/decks.md``, "Limits").
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from recall.regular_files import read_regular


@dataclass(frozen=True)
class TomlLimits:
    """What one kind of file may hold; ``what`` names it in messages (``"a deck file"``)."""

    what: str
    max_bytes: int
    #: Arrays and inline tables inside one another.
    max_depth: int = 16
    #: Parts of one dotted key or table header (``a.b.c`` has 3).
    max_key_parts: int = 8


class TomlLimitExceeded(ValueError):
    """A file over one of its :class:`TomlLimits`; ``line`` is 1-based where it is known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def read_bounded(path: str | os.PathLike[str], limits: TomlLimits) -> bytes:
    """The bytes of ``path``, refusing a file larger than ``limits.max_bytes`` without reading
    more than that (a sparse file never fills memory). Only a regular file is opened
    (:mod:`recall.regular_files`: a FIFO or a device is refused, never blocked on or read);
    ``OSError`` (:class:`~recall.regular_files.NotARegularFile` among them) passes through."""
    data = read_regular(path, limits.max_bytes)
    if len(data) > limits.max_bytes:
        raise TomlLimitExceeded(
            f"the file is larger than {_size(limits.max_bytes)}, the limit for {limits.what}"
        )
    return data


#: What the scan stops at: whole strings and comments (skipped), brackets and separators.
_TOKEN = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^']|'(?!''))*'''"
    r'|"(?:[^"\\\n]|\\.)*"'
    r"|'[^'\n]*'"
    r"|#[^\n]*"
    r"|[\n\[\]{}=.,]"
)


def check_shape(text: str, limits: TomlLimits) -> None:
    """Raise :class:`TomlLimitExceeded` (with the line) if ``text`` nests arrays and inline
    tables deeper than ``limits.max_depth`` or has a key or table header of more than
    ``limits.max_key_parts`` parts. Text that is not valid TOML is left for ``tomllib`` to
    report; this only has to be right about the shapes it bounds."""
    line = 1
    stack: list[str] = []  # "[" (array) or "{" (inline table), innermost last
    in_key = True  # at the start of a line, or after "{" or "," in an inline table
    header = False  # inside a [table] or [[array-of-tables]] header
    parts = 1
    for match in _TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first in "\"'":
            if len(token) > 5 and token[:3] in ('"""', "'''"):
                line += token.count("\n")
        elif first == "\n":
            line += 1
            if not stack:
                in_key, header, parts = True, False, 1
        elif first == ".":
            if in_key or header:
                parts += 1
                if parts > limits.max_key_parts:
                    raise TomlLimitExceeded(
                        f"a key has more than {limits.max_key_parts} dotted parts, the limit "
                        f"for {limits.what}",
                        line,
                    )
        elif first == "=":
            in_key = False
        elif first == ",":
            if stack and stack[-1] == "{":
                in_key, parts = True, 1
        elif first in "[{":
            if header or (first == "[" and not stack and in_key):
                header = True  # a table header (the second "[" of "[[" lands here too)
                continue
            stack.append(first)
            if len(stack) > limits.max_depth:
                raise TomlLimitExceeded(
                    f"arrays and tables are nested more than {limits.max_depth} deep, the "
                    f"limit for {limits.what}",
                    line,
                )
            in_key, parts = first == "{", 1
        elif first in "]}" and stack:  # closing a value; a header's "]" needs nothing
            stack.pop()
            in_key = False


def _size(count: int) -> str:
    if count >= 1 << 20 and count % (1 << 20) == 0:
        return f"{count >> 20} MiB"
    if count >= 1 << 10 and count % (1 << 10) == 0:
        return f"{count >> 10} KiB"
    return f"{count} bytes"
