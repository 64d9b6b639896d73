"""Formulas a card shows with its prompt, as rendered once, kept for the next start.

A card's ``shown`` formula is drawn as 2-D Unicode by SymPy's pretty printer, and importing
SymPy costs a third of a second or more. Without this cache, ``recall drill`` whose first card
shows a formula (a third of the built-in cards do) would wait for that import before its first
prompt. So the engine warm-up, which runs after the first prompt or the home counts are drawn,
renders every loaded card's formula (about 0.15 s for the built-in decks) and writes them to
``cache/shown.json`` in the data directory; the next start reads them back without SymPy.

An entry is found by a digest of the card's content (:meth:`recall.cards.model.Card.content_hash`,
which covers the formula, the symbols and the parameters the rendering reads), the formula and
the width; the file as a whole is only trusted when it was written by the same code (recall's
version and a digest of the engine's, the grading's and this rendering's sources) and the same
SymPy (its ``release.py``). Anything wrong with the file (missing, corrupt, too large, written by
other code) just means the formulas are rendered again. Values are plain text, shown as text.
``RECALL_NO_DECK_CACHE=1`` turns this cache off with the deck cache.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterable
from importlib.util import find_spec
from pathlib import Path
from typing import Final

from recall.cards import parse_cache
from recall.cards.model import Card
from recall.paths import make_private_dirs, write_atomically
from recall.regular_files import read_regular

#: The file, under the data directory's ``cache`` folder.
FILE_NAME: Final = "shown.json"
#: Largest file read back (bytes), most entries kept, longest rendering kept (characters).
MAX_FILE_BYTES: Final = 4 * 1024 * 1024
MAX_ENTRIES: Final = 4096
MAX_TEXT: Final = 8192
#: The sources whose code decides how a formula is drawn (see :func:`code_key`).
SOURCES: Final = ("cards", "formula", "grading", "tui/presenting.py", "tui/latex_display.py")

Render = Callable[[Card], str]


def code_key() -> str:
    """What the rendering depends on besides the card: recall's code and SymPy's version,
    found without importing SymPy."""
    digest = hashlib.sha256(parse_cache.sources_fingerprint(SOURCES).encode())
    spec = find_spec("sympy")
    release = Path(spec.origin).parent / "release.py" if spec and spec.origin else None
    try:
        digest.update(release.read_bytes() if release else b"no sympy")
    except OSError:
        digest.update(b"unreadable")
    return digest.hexdigest()


def entry_key(card: Card, width: int) -> str:
    """The key of ``card``'s formula drawn ``width`` columns wide."""
    return hashlib.sha256(f"{card.content_hash()}\0{width}\0{card.shown}".encode()).hexdigest()


class ShownCache:
    """The rendered formulas of one data directory's ``cache`` folder (``folder``).

    Safe to share between the event loop (:meth:`get`, :meth:`put`) and the warm-up worker
    (:meth:`fill`, :meth:`save`): one lock guards the entries. Read from disk on first use.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._entries: dict[str, str] | None = None
        self._code: str | None = None
        self._dirty = False

    @property
    def path(self) -> Path:
        return self.folder / FILE_NAME

    def get(self, card: Card, width: int) -> str | None:
        """The formula as rendered before, or ``None``."""
        if parse_cache.disabled():
            return None
        with self._lock:
            return self._loaded().get(entry_key(card, width))

    def put(self, card: Card, width: int, rendered: str) -> None:
        """Keep a rendering (written by the next :meth:`save`)."""
        if parse_cache.disabled() or len(rendered) > MAX_TEXT:
            return
        key = entry_key(card, width)
        with self._lock:
            entries = self._loaded()
            if entries.get(key) != rendered:
                entries[key] = rendered
                self._dirty = True

    def fill(self, cards: Iterable[Card], width: int, render: Render) -> int:
        """Render the formula of each card that has one and is not cached yet (the engine
        warm-up calls this once SymPy is imported); how many were rendered."""
        if parse_cache.disabled():
            return 0
        done = 0
        for card in cards:
            if card.shown.strip() and self.get(card, width) is None:
                self.put(card, width, render(card))
                done += 1
        return done

    def save(self) -> bool:
        """Write the entries if any changed (atomically: a reader never sees half a file);
        ``False`` when nothing was written."""
        with self._lock:
            if not self._dirty or self._entries is None:
                return False
            entries = dict(list(self._entries.items())[-MAX_ENTRIES:])
            text = json.dumps({"code": self._code_key(), "entries": entries}, ensure_ascii=False)
            self._dirty = False
        try:
            make_private_dirs(self.folder)
            write_atomically(self.path, text, durable=False)
        except OSError:
            return False
        return True

    def _code_key(self) -> str:
        if self._code is None:
            self._code = code_key()
        return self._code

    def _loaded(self) -> dict[str, str]:
        """The entries (the caller holds the lock), read from the file the first time."""
        if self._entries is None:
            self._entries = self._read()
        return self._entries

    def _read(self) -> dict[str, str]:
        try:
            raw = read_regular(self.path, MAX_FILE_BYTES)  # never waits on a FIFO
            if len(raw) > MAX_FILE_BYTES:
                return {}
            data = json.loads(raw)
        except (OSError, ValueError, RecursionError):
            return {}
        if not isinstance(data, dict) or data.get("code") != self._code_key():
            return {}
        entries = data.get("entries")
        if not isinstance(entries, dict):
            return {}
        return {
            key: value
            for key, value in list(entries.items())[:MAX_ENTRIES]
            if isinstance(key, str) and isinstance(value, str) and len(value) <= MAX_TEXT
        }


_CACHES: dict[Path, ShownCache] = {}
_CACHES_LOCK = threading.Lock()


def shown_cache() -> ShownCache:
    """The cache of the current data directory (``RECALL_HOME`` is read each time, so tests
    that move it get their own)."""
    folder = parse_cache.cache_dir().parent
    with _CACHES_LOCK:
        found = _CACHES.get(folder)
        if found is None:
            found = _CACHES[folder] = ShownCache(folder)
        return found
