"""Open the TUI from the command line: ``recall`` (home) and ``recall drill`` (a session).

Only cheap modules are imported here; the app paints its home screen before the heavy layers
load (see :mod:`recall.tui.app`).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from recall.tui.views import SessionPlan

if TYPE_CHECKING:
    from recall.config import Settings
    from recall.tui.app import RecallApp
    from recall.tui.home_prefetch import Prefetch
    from recall.tui.services import Services


def build_app(
    plan: SessionPlan | None = None,
    *,
    settings: Settings | None = None,
    settings_problem: str = "",
    db_url: str | None = None,
    custom_decks: Path | None = None,
    learner: str | None = None,
    prefetch: Prefetch | None = None,
) -> RecallApp:
    """The app on the learner's data (``db_url``, ``custom_decks``: ``--db``, ``--decks``),
    with their settings: read here once, unless the caller read them already (imported
    lazily: Textual is heavy); ``prefetch``: the child computing its first home data
    (:mod:`recall.tui.home_prefetch`)."""
    from recall.tui.app import RecallApp

    if settings is None:
        from recall.tui.settings import read_settings

        settings, settings_problem = read_settings()
    services = build_services(
        plan, settings, db_url=db_url, custom_decks=custom_decks, learner=learner
    )
    services.prefetch = prefetch
    return RecallApp(services, settings, plan=plan, settings_problem=settings_problem)


def build_services(
    plan: SessionPlan | None,
    settings: Settings,
    *,
    db_url: str | None,
    custom_decks: Path | None,
    learner: str | None,
) -> Services:
    """The app's facade over the learner's data; also what the prefetching child loads with
    (:mod:`recall.tui.home_prefetch`), so both load the same way."""
    from recall.tui.services import Services

    # The home screen comes before new custom decks' formula checks (their cards join the
    # counts when checked); a session asked for on the command line waits for every deck.
    return Services(
        settings,
        db_url=db_url,
        custom_decks=custom_decks,
        learner=learner,
        defer_checks=plan is None,
    )


def run_app(
    plan: SessionPlan | None = None,
    *,
    settings: Settings | None = None,
    settings_problem: str = "",
    db_url: str | None = None,
    custom_decks: Path | None = None,
    learner: str | None = None,
) -> int:
    """Run the app until the learner quits; returns the exit status (the app's own
    ``return_code``: 2 when the database could not be opened, 1 after a crash, else 0).

    Ctrl-C inside the app quits it cleanly (reviews are committed as they happen); a
    ``KeyboardInterrupt`` that arrives before the app is up or after it is gone is also a clean
    exit (130). Quitting never waits for a worker thread: once the store is closed the process
    ends even if a grade is stuck in C code (see :func:`_leave_without_waiting`).
    """
    from recall.tui import startup_gc

    startup_gc.relax()  # until the app's engine warm-up: see recall.tui.startup_gc
    if settings is None:
        from recall.tui.settings import read_settings

        settings, settings_problem = read_settings()
    prefetch = None
    if plan is None:  # the home screen: its first counts from a second process, if it can
        from recall.tui.home_prefetch import start

        child = build_services(
            plan, settings, db_url=db_url, custom_decks=custom_decks, learner=learner
        )
        prefetch = start(child.load, db_url)
    try:
        app = build_app(
            plan,
            settings=settings,
            settings_problem=settings_problem,
            db_url=db_url,
            custom_decks=custom_decks,
            learner=learner,
            prefetch=prefetch,
        )
    except BaseException:  # Ctrl-C during Textual's import: the child goes too
        if prefetch is not None:
            prefetch.close()
        raise
    status = 0
    try:
        with asyncio.Runner(loop_factory=_AbandoningLoop) as runner:
            runner.run(_run_until_interrupted(app))
        status = app.return_code or 0
    except KeyboardInterrupt:
        status = 130
    finally:
        try:
            app.shutdown()
        finally:
            if prefetch is not None:  # (shutdown ends it too; this also when shutdown fails)
                prefetch.close()
        startup_gc.restore()
        _restore_stop_signals()
    _leave_without_waiting(status)
    return status


async def _run_until_interrupted(app: RecallApp) -> None:
    """Run the app; a SIGINT while it runs asks it to exit (status 130) between two of its
    steps, once its first screen is built (:meth:`RecallApp.interrupt`).

    Once the app has the terminal, Ctrl-C is a key and never a signal; before that (while the
    first screen is being built) it is SIGINT, and Python's way, a ``KeyboardInterrupt`` thrown
    into whichever coroutine was running, left a screen half composed: its ``on_mount`` failed
    (Textual printed that traceback) and coroutines never awaited were reported on the way out.

    A Ctrl-C of the start that Python lost (:mod:`recall.interrupts`) ends it here, before the
    app takes the terminal: the learner asked to leave, and nothing would ask again.
    """
    import signal

    from recall import interrupts

    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGINT, app.interrupt)
    except (NotImplementedError, RuntimeError):  # Windows, or not the main thread
        await app.run_async()
        return
    try:
        if interrupts.noted():  # (checked once the loop's handler has taken SIGINT over)
            raise KeyboardInterrupt
        await app.run_async()
    finally:
        loop.remove_signal_handler(signal.SIGINT)


class _AbandoningLoop(asyncio.SelectorEventLoop):
    """The event loop the app runs on, which does not wait for its worker threads at the end.

    ``asyncio.run`` (what Textual's ``App.run`` uses) joins the default thread pool before it
    returns, so a worker that never returns (a grade stuck in SymPy's C code, a load blocked on
    a silent database) would hold the process after the terminal is restored, deaf to Ctrl-C.
    Threads cannot be interrupted; the process instead leaves without them.
    """

    async def shutdown_default_executor(self, timeout: float | None = None) -> None:
        """Leave the pool to :meth:`close`, which shuts it down without waiting."""


def _restore_stop_signals() -> None:
    """Give SIGTSTP and SIGCONT back to the system: Textual's driver handlers restart the
    terminal on SIGCONT (which a closing terminal sends with SIGHUP), and must not outlive the
    app."""
    import signal

    if sys.platform == "win32":
        return
    for sig in (signal.SIGTSTP, signal.SIGCONT):
        signal.signal(sig, signal.SIG_DFL)


def _leave_without_waiting(status: int) -> None:
    """End the process now if a worker thread is still running: the store is closed and every
    review committed by the time this runs, so nothing is lost, while waiting could be forever
    (Python joins non-daemon threads at exit and a thread in C code cannot be stopped)."""
    import os
    import threading

    lingering = [
        thread
        for thread in threading.enumerate()
        if thread is not threading.main_thread() and not thread.daemon and thread.is_alive()
    ]
    if lingering:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass  # the terminal is gone
        os._exit(status)
