"""Only regular files are opened for reading: never a FIFO, a device, a socket or a folder.

A decks folder, a config path or an import argument can name anything. Opening a FIFO blocks
until someone writes to it (every command hung on a FIFO as ``config.toml``); ``/dev/zero`` or
``/dev/urandom`` never ends; a symlink loop is not a file at all. So a file recall reads is

1. ``stat``-ed first (following links, as ``open`` would): anything but a regular file is refused
   before it is opened, with the reason (:class:`NotARegularFile`), so no device is ever opened;
2. opened with ``O_NONBLOCK`` (a FIFO swapped in after the check cannot block the ``open``) and
   ``O_NOCTTY``;
3. ``fstat``-ed once open, so what is read is what was checked, whatever was renamed in between.

:class:`NotARegularFile` is an :class:`OSError` with a ``strerror`` that names the kind ("a FIFO,
not a regular file"), so every ``except OSError`` that reports ``strerror`` already says why.
Nothing here imports anything but the standard library, so every layer may call it.
"""

from __future__ import annotations

import errno
import io
import os
import stat
from typing import BinaryIO

_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


class NotARegularFile(OSError):
    """The path names something other than a regular file (``strerror`` says what)."""


def kind_of(mode: int) -> str:
    """What a ``st_mode`` describes, for a message: "a FIFO", "a character device", ..."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _refuse(path: str | os.PathLike[str], mode: int) -> NotARegularFile:
    kind = kind_of(mode)
    reason = kind if kind == "not a regular file" else f"{kind}, not a regular file"
    code = errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL
    return NotARegularFile(code, reason, os.fspath(path))


def check_regular(path: str | os.PathLike[str]) -> os.stat_result:
    """``os.stat(path)`` if it is a regular file; else :class:`NotARegularFile`. A symlink loop
    raises ``OSError`` (``ELOOP``), a missing file ``FileNotFoundError``, as ``open`` would."""
    found = os.stat(path)
    if not stat.S_ISREG(found.st_mode):
        raise _refuse(path, found.st_mode)
    return found


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """``path`` opened for reading in binary, only if it is a regular file (checked before the
    open, and again on the open descriptor); never blocks on a FIFO, never opens a device."""
    check_regular(path)
    fd = os.open(path, _OPEN_FLAGS)
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode):
            raise _refuse(path, found.st_mode)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def open_regular_text(
    path: str | os.PathLike[str], *, encoding: str = "utf-8", newline: str | None = None
) -> io.TextIOWrapper:
    """:func:`open_regular` as text (strict decoding)."""
    return io.TextIOWrapper(open_regular(path), encoding=encoding, newline=newline)


def read_regular(path: str | os.PathLike[str], max_bytes: int | None = None) -> bytes:
    """The bytes of a regular file; with ``max_bytes``, at most ``max_bytes + 1`` of them are read
    (so the caller can tell the file is over its limit without reading the rest)."""
    with open_regular(path) as file:
        return file.read() if max_bytes is None else file.read(max_bytes + 1)
