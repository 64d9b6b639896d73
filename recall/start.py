"""The ``recall`` console script's entry point: Ctrl-C at any moment of the start is a quiet exit.

The script Python's installer writes imports its entry point, runs a line of its own, then calls
it; an entry point in :mod:`recall.cli` left the import of the CLI (argparse, the command
registry, the error types: a tenth of a second on a cold start) outside every ``try``, and Ctrl-C
pressed right after typing ``recall`` printed a ``KeyboardInterrupt`` traceback. This module
imports only the C half of :mod:`signal` and, until :func:`main` starts, makes SIGINT a plain
exit with status 130; :func:`main` gives Python's own handler back and turns an interrupt into
status 130. Left out: Python's own start-up, before this module has run (seen as ``Fatal Python
error: init_import_site`` or a traceback in the script's own imports), which no program can
catch.

Importing this module changes the SIGINT handler: only the console script and ``python -m
recall`` import it.
"""

# ``_signal`` is the C module under :mod:`signal`, loaded with the interpreter: ``signal``
# itself builds its enums first (milliseconds in which an interrupt was still a traceback).
import _signal
from types import FrameType

from recall import interrupts


def _exit_quietly(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(130)


# Only over Python's default: a start with SIGINT ignored (``recall &`` in some shells) keeps it.
if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    _signal.signal(_signal.SIGINT, _exit_quietly)


def _note_interrupt(signum: int, frame: FrameType | None) -> None:
    """Python's own SIGINT handler (a ``KeyboardInterrupt``), remembering that it ran
    (:mod:`recall.interrupts`): an interrupt that lands inside the interpreter's own machinery
    (an import building an exception, a class body's ``__set_name__``, a fork hook) can come
    out as another error, or lose its ``KeyboardInterrupt`` on the way."""
    interrupts.note()
    _signal.default_int_handler(signum, frame)


def main() -> int:
    """Import the command line and run it; an interrupt at any point is status 130."""
    try:
        if _signal.getsignal(_signal.SIGINT) is _exit_quietly:
            _signal.signal(_signal.SIGINT, _note_interrupt)
        from recall.cli import main as run

        return run()
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        # ``from _ssl import RAND_egd`` interrupted at 0.03 s came out as "TypeError: expected a
        # message argument", with no trace of the interrupt: the flag tells.
        if interrupts.noted() or _caused_by_interrupt(error):
            return 130
        raise


def _caused_by_interrupt(error: BaseException) -> bool:
    """Whether ``error`` only wraps a Ctrl-C: an interrupt that lands while a class body runs
    ``__set_name__`` (Textual's ``Theme`` dataclass, during the import before the first frame)
    comes out of the import as ``RuntimeError: Error calling __set_name__``, caused by the
    ``KeyboardInterrupt``."""
    seen: set[int] = set()
    link: BaseException | None = error
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False
