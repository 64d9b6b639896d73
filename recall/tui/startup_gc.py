"""Fewer garbage collections while the TUI starts.

Starting recall creates a few hundred thousand long-lived objects (Textual, SQLAlchemy, the
decks, the store's tables), and CPython's cyclic collector runs a collection every 700 net
allocations of container objects: 165 collections on the way to a second start's counts, 0.07 to
0.1 s of CPU, to find almost no garbage (``docs/benchmarks.md``, start-up; the peak memory was
the same without them). :func:`relax` raises the youngest generation's threshold for the start
(:func:`recall.tui.launch.run_app`); :func:`restore` puts the thresholds back once the start is
over (the app calls it after the engine warm-up, which also freezes what the start made, see
:meth:`recall.tui.app.RecallApp.warm_engine`). Collection is never turned off: cyclic garbage
made meanwhile is still collected, every :data:`START_THRESHOLD` allocations instead of 700
(more than a start makes: none runs before the counts).
"""

from __future__ import annotations

import gc
import threading

#: The youngest generation's threshold while starting (CPython's default is 700).
START_THRESHOLD = 200_000

_lock = threading.Lock()
_saved: tuple[int, int, int] | None = None


def relax() -> None:
    """Raise the youngest generation's threshold until :func:`restore` (the first call wins)."""
    global _saved
    with _lock:
        if _saved is not None:
            return
        saved = gc.get_threshold()
        _saved = (saved[0], saved[1], saved[2])
        gc.set_threshold(max(START_THRESHOLD, saved[0]), saved[1], saved[2])


def restore() -> None:
    """Put back the thresholds :func:`relax` found (nothing when it was not called)."""
    global _saved
    with _lock:
        if _saved is None:
            return
        gc.set_threshold(*_saved)
        _saved = None


def relaxed() -> bool:
    """Whether the start's threshold is in force."""
    return _saved is not None
