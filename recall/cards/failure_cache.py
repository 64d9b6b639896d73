"""The errors of deck files that failed, kept by content: a broken deck is checked once.

The parsed-deck cache (:mod:`recall.cards.parse_cache`) keeps only decks that load, so a custom
deck with one broken card among 2,000 was parsed and checked with the formula engine again at
every start (seconds each time) to report the same errors. Its verdict is kept here instead,
under the parse cache's key for the file (:func:`recall.cards.parse_cache.entry_key`: the
file's bytes, recall's code, the load flags and the check): any edit of the file, or other
code, is another key, and the file is checked afresh. Only the errors the deck builder and its
check find are kept (a TOML syntax error or a limit is found in milliseconds anyway).

An entry is JSON in ``cache/deck-failures`` of the data directory, read only from a regular
file, bounded, and trusted only when it names the key it was looked up by and every field has
its type; anything else, or a folder that cannot be written, means the file is checked again.
The errors are given back located in the file where it is now (its path is not kept).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any, Final

from recall.cards import parse_cache
from recall.errors import DeckError
from recall.paths import make_private_dirs, write_atomically
from recall.regular_files import read_regular

#: Entries kept; the least recently used beyond this are removed when one is written.
MAX_ENTRIES: Final = 64
#: Largest entry read back (bytes): every card of a deck at its limits in error fits.
MAX_ENTRY_BYTES: Final = 8 * 1024 * 1024


def cache_dir() -> Path:
    """Where entries live: ``cache/deck-failures`` in the data directory."""
    from recall.paths import data_dir

    return data_dir() / "cache" / "deck-failures"


def load(
    raw: bytes, path: str, *, builtin: bool, check: parse_cache.Check | None
) -> list[DeckError] | None:
    """The errors kept for a file with these bytes read this way, located in ``path``, or
    ``None`` when there is no trustworthy entry (the file is then read and checked)."""
    key = parse_cache.entry_key(raw, builtin=builtin, check=check)
    if key is None:
        return None
    file = cache_dir() / f"{key}.json"
    try:
        data = read_regular(file, MAX_ENTRY_BYTES)  # a FIFO here is refused, never waited on
        if len(data) > MAX_ENTRY_BYTES:
            return None
        entry = json.loads(data)
        if not isinstance(entry, dict) or entry.get("key") != key:
            return None
        errors = [_error(item, path) for item in entry["errors"]]
    except (OSError, ValueError, TypeError, KeyError, RecursionError):
        return None
    if not errors:
        return None
    with contextlib.suppress(OSError):  # a read-only data directory still serves its entries
        os.utime(file)
    return errors


def store(
    raw: bytes, errors: list[DeckError], *, builtin: bool, check: parse_cache.Check | None
) -> bool:
    """Keep ``errors`` as what a file with these bytes, read with ``check``, is found to hold;
    ``False`` when nothing was written (no errors, the cache is off, the check cannot be named,
    or the folder cannot be written)."""
    key = parse_cache.entry_key(raw, builtin=builtin, check=check)
    if key is None or not errors:
        return False
    entry = {
        "key": key,
        "errors": [[e.message, e.line, e.card_id, e.suggestion] for e in errors],
    }
    folder = cache_dir()
    try:
        make_private_dirs(folder)
        write_atomically(folder / f"{key}.json", json.dumps(entry), durable=False)
    except (OSError, TypeError, ValueError):
        return False
    parse_cache.prune(folder, MAX_ENTRIES)
    return True


def _error(item: Any, path: str) -> DeckError:
    """One kept error, every field of its declared type (else ``TypeError``)."""
    if not isinstance(item, list) or len(item) != 4:
        raise TypeError("an error is four fields")
    message, line, card_id, suggestion = item
    if not isinstance(message, str):
        raise TypeError("a message is text")
    if line is not None and (type(line) is not int or line < 1):
        raise TypeError("a line is a positive whole number")
    for text in (card_id, suggestion):
        if text is not None and not isinstance(text, str):
            raise TypeError("a card id and a suggestion are text")
    return DeckError(message, path=path, line=line, card_id=card_id, suggestion=suggestion)
