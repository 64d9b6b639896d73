"""The ``recall`` console script's entry point: Ctrl-C at any moment of the start is a quiet exit.

The script Python's installer writes imports its entry point, runs a line of its own, then calls
it; an entry point in :mod:`recall.cli` left the import of the CLI (argparse, the command
registry, the error types: a tenth of a second on a cold start) outside every ``try``, and Ctrl-C
pressed right after typing ``recall`` printed a ``KeyboardInterrupt`` traceback. This module
imports only :mod:`signal` and, until :func:`main` starts, makes SIGINT a plain exit with status
130; :func:`main` gives Python's own handler back and turns an interrupt into status 130. The only
part of a start left out is Python's own start-up, before any line of recall runs (seen as
``Fatal Python error: init_import_site``, which no program can catch).

Importing this module changes the SIGINT handler: only the console script and ``python -m
recall`` import it.
"""

import signal
from types import FrameType


def _exit_quietly(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(130)


# Only over Python's default: a start with SIGINT ignored (``recall &`` in some shells) keeps it.
if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, _exit_quietly)


def main() -> int:
    """Import the command line and run it; an interrupt at any point is status 130."""
    try:
        if signal.getsignal(signal.SIGINT) is _exit_quietly:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        from recall.cli import main as run

        return run()
    except KeyboardInterrupt:
        return 130
