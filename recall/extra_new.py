""" "Learn N more today": a raise of today's new-card limit that lapses when the study day ends.

The daily limit (``new_per_day``) is a setting; asking for a few more cards one evening must not
change it for every day after. So the raise is kept apart from the settings, in a small JSON
file in the data directory, with the study day it belongs to: ``{"day": "2026-12-01",
"extra_new": 10}``. On any other day it reads as zero, so it resets itself without a job to
clear it. A file that is missing, unreadable or not ours reads as zero too (the learner loses
a raise, never a start), and it is written whole or not at all.

On a database several learners share, each learner's raise is theirs: the same text is kept in
the database instead (:class:`recall.store.learner_settings.LearnerSettings`; the workspace
decides which), read and written by :func:`raise_from_text` and :func:`raised_text`.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from recall.errors import ConfigError
from recall.paths import data_dir, make_private_dirs, write_atomically
from recall.regular_files import read_regular

#: The file's name in the data directory.
FILE_NAME = "today.json"
#: Most extra new cards one day may add (far past any real evening; keeps the number sane).
MAX_EXTRA = 10_000
#: Bytes read at most (the file holds one short object).
MAX_BYTES = 4096


def extra_file() -> Path:
    """Where today's raise is kept."""
    return data_dir() / FILE_NAME


def extra_new(day: date, path: Path | None = None) -> int:
    """The new cards added to ``day``'s limit (0 on any other day, or with no usable file)."""
    path = path or extra_file()
    try:
        raw = read_regular(path, MAX_BYTES)
        if len(raw) > MAX_BYTES:
            return 0
        return raise_from_text(raw.decode("utf-8"), day)
    except (OSError, UnicodeDecodeError):
        return 0


def raise_from_text(text: str | None, day: date) -> int:
    """``day``'s raise kept as ``text`` (``{"day": ..., "extra_new": n}``); 0 for another day,
    no text, or text that is not such an object."""
    if text is None or len(text) > MAX_BYTES:
        return 0
    try:
        data = json.loads(text)
    except ValueError:
        return 0
    if not isinstance(data, dict) or data.get("day") != day.isoformat():
        return 0
    extra = data.get("extra_new")
    if isinstance(extra, bool) or not isinstance(extra, int):
        return 0
    return max(0, min(extra, MAX_EXTRA))


def raised_text(old: str | None, day: date, count: int) -> str:
    """The text keeping ``day``'s raise ``old`` (text as kept, or ``None``) plus ``count`` more
    cards. Raises :class:`ValueError` for a count that is not 1 to :data:`MAX_EXTRA`."""
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_EXTRA:
        raise ValueError(f"learn 1 to {MAX_EXTRA} more cards, not {count!r}")
    total = min(raise_from_text(old, day) + count, MAX_EXTRA)
    return json.dumps({"day": day.isoformat(), "extra_new": total}) + "\n"


def add_extra_new(day: date, count: int, path: Path | None = None) -> int:
    """Raise ``day``'s new-card limit by ``count`` more cards; the day's raise in all.

    Raises :class:`ValueError` for a count that is not 1 to :data:`MAX_EXTRA`, and
    :class:`recall.errors.ConfigError` when the file cannot be written."""
    path = path or extra_file()
    try:
        old = read_regular(path, MAX_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        old = None
    text = raised_text(old, day, count)
    total = raise_from_text(text, day)
    try:
        make_private_dirs(path.parent)
        write_atomically(path, text)
    except OSError as error:
        reason = error.strerror or str(error)
        raise ConfigError(f"{path}: cannot keep today's raised limit ({reason})") from error
    return total
