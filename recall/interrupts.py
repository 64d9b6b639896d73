"""Whether a Ctrl-C has come during the start, even one that Python lost on the way.

Python turns SIGINT into a ``KeyboardInterrupt`` raised in whatever code the main thread runs.
It can be raised where nobody can catch it: in a ``__del__``, a weakref callback, or a fork
hook. Python prints "Exception ignored in ..." there and goes on, as if no key had been
pressed. The start's SIGINT handler (:mod:`recall.start`) notes every interrupt here before
it raises one. Code that is about to begin something long, like the TUI taking the terminal,
asks :func:`noted` first, and ends with status 130 when an interrupt came but never arrived.

Stdlib only, and nothing imported: :mod:`recall.start` imports this before anything else.
"""

_noted = False


def note() -> None:
    """Remember that SIGINT has arrived (called from the start's signal handler)."""
    global _noted
    _noted = True


def noted() -> bool:
    """Whether SIGINT has arrived since the start's handler took over."""
    return _noted
