"""The home screen's first counts, computed in a second process while this one imports Textual.

A second start of ``recall`` spends about 0.3 s of CPU between its first frame and its counts
(SQLAlchemy's import, the store's modules, the decks from the parse cache, the sync, today's
counts: ``docs/benchmarks.md``, start-up), and a worker thread cannot overlap that with the
screen's own imports: an import holds the interpreter's lock. A second process can. Before
Textual is imported (and before any thread exists), :func:`start` forks a child that runs the
very load the app runs, :meth:`recall.tui.services.Services.load` (the workspace opened, the
decks synced, today's counts and the unfinished session: one code path, so the counts cannot
disagree with the rest), sends the :class:`recall.tui.views.HomeData` pickled through a pipe
and leaves with :func:`os._exit` (no ``atexit``, no buffers flushed; its standard streams point
at ``/dev/null``, so nothing of it ever reaches the terminal). On a machine with two cores the
child's work runs beside the app's imports and first frame.

After its first frame the app starts its own load as it always did, and a thread of its own
waits for the child's counts (:meth:`Prefetch.receive`, a blocking read that does not hold the
interpreter's lock): when they come first they are shown, and the app's own counts replace
them when its load is in (the child is then killed if it has not delivered yet). Nothing that
needs the workspace (a session, the decks, stats, a dialog) runs before that load: the home
screen queues such keys as it does while loading
(:meth:`recall.tui.screens.home.HomeScreen.show_data`). The app's load is not held back for
the child: waiting for it first, then loading, made the keys act 0.04-0.06 s later than
without a child (``docs/benchmarks.md``); beside it, the counts come as soon and the keys act
as soon as without one.

When it runs: the TUI's home screen started from the command line
(:func:`recall.tui.launch.run_app` without a session; never in tests' ``App.run_test``, never
for ``recall drill``, whose session needs the app's own workspace anyway), on POSIX, with no
thread running yet, on a SQLite database file that exists (a second start), when the machine
has a core to spare (two cores or more, and a load average below their number: on a busy
machine the child only competes with the app, :func:`spare_core`), unless
``RECALL_PREFETCH=0`` turns it off (``RECALL_PREFETCH=1`` runs it whatever the load: the
start-up benchmark compares the two; both serve for debugging too). Not on PostgreSQL: the
child would log in a second time at every start (a second connection against the role's
connection limit and in the server's logs, a second ``last_opened_at`` write, and a server
that does not answer would make the learner wait for its timeout twice), for a load whose
time is mostly the network's, not the CPU's.

Whenever the child does not deliver (it failed, the database must be created or upgraded, the
file is not there, the pipe closed, :data:`TIMEOUT` passed), the app does the load itself, as
it did before this module: every error is reported by that load, exactly as before. The child
changes nothing the app's own load would then redo differently: a database it would have to
create or upgrade is refused (:func:`recall.store.schema.only_ready_databases`), decks parsed
afresh are kept for the app to write to the parse cache (``defer_cache_writes``), custom decks
never checked are left for the app to check (``defer_checks``), files the load writes beside
the database (a followed exam plan's day in ``exam.json``, the deck failure cache) are left to
the app to write (:func:`recall.paths.leave_files_alone`: a child killed inside one of those
writes would leave its temporary file behind), and its sync, the same as the app's, leaves the
app's nothing to do. The two load at once as two windows of recall do:
the sync is one write transaction, so whichever commits second finds nothing left to do, and
a child killed mid-transaction leaves the database as it was (SQLite's rollback).

The child never outlives the app: it dies with the terminal's Ctrl-C and hangup (it keeps the
default action of SIGINT, SIGHUP and SIGTERM, in the app's process group); the app's load
kills it once its own counts are in, or have failed (:meth:`Prefetch.abandon`, which does not
wait for it: a child inside an ``fsync`` goes only when the disk is done), the thread receiving
its counts reaps it, and the app's quit kills and reaps it (:meth:`Prefetch.close`, from
:meth:`recall.tui.services.Services.close` and :func:`recall.tui.launch.run_app`); and a
killed app closes the child's lifeline, a pipe a thread of the child reads, which then ends it
at once.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

from recall.tui.views import HomeData

#: ``0`` (or ``off``): the app does its first load itself, as before; ``1`` (or ``on``): the
#: child runs whatever the machine's load (the start-up benchmark compares the two); unset or
#: anything else: it runs when a core is idle (:func:`spare_core`).
ENV = "RECALL_PREFETCH"

#: Seconds the app's thread waits for the child's counts before killing it (the app's own load
#: goes on meanwhile, and kills it anyway once its counts are in). A second start's child takes
#: 0.2-0.3 s quiet and a few seconds on a loaded machine; a longer wait is a database locked by
#: another process (SQLite's busy timeout is 15 s), which the app's own load waits for too.
TIMEOUT = 5.0

#: Seconds the app's close waits for a killed child to go (see :meth:`Prefetch.close`).
CLOSE_WAIT = 2.0

#: The child's exit statuses (for tests and debugging; the app only tells 0 from the rest).
DELIVERED, FAILED, DECLINED = 0, 1, 3

#: The signals held back while the child is forked (see :func:`_fork`), and given their
#: default actions in the child.
_STOPPING = frozenset(
    getattr(signal, name) for name in ("SIGINT", "SIGHUP", "SIGTERM") if hasattr(signal, name)
)

#: Modules whose classes a prefetched :class:`HomeData` is made of (see :func:`_unpickle`).
_VIEW_MODULES = frozenset(
    {"recall.tui.views", "recall.session.mode", "recall.scheduling.rating", "recall.verdicts"}
)


def wanted() -> bool:
    """Whether the prefetch is to run now: as :data:`ENV` says, else when a core is idle."""
    setting = os.environ.get(ENV, "").strip().lower()
    if setting in ("0", "off", "no"):
        return False
    if setting in ("1", "on", "yes"):
        return True
    return spare_core()


def spare_core() -> bool:
    """Whether this process may run on two cores or more and the last minute's load average
    is below their number (some core is idle part of the time). The child is worth its CPU
    only on a core nobody else wants: on a busy machine it competes with the app for the
    same time slices, and the counts come no sooner than the app's own load would bring them.
    Measured on a two-core machine (``docs/benchmarks.md``, start-up), best / median of
    interleaved second starts until the counts, with the child against without: at load
    average 1.3-1.5, 0.35 / 0.38 s against 0.49 / 0.54 s; at 2.4-2.7, 0.34 / 0.72 s against
    0.51 / 0.64 s; at 3-4, 0.57 / 0.70 s against 0.53 / 0.67 s."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        cores = os.cpu_count() or 1
    if cores < 2:
        return False
    try:
        load = os.getloadavg()[0]
    except OSError:
        return False
    return load < cores


def start(load: Callable[[], HomeData], db_url: str | None) -> Prefetch | None:
    """Fork the child that runs ``load`` (the app's own first load:
    :meth:`recall.tui.services.Services.load` of the services the app is built with) on the
    database ``db_url`` (``--db``; ``None``: ``RECALL_DB`` or the default file) and sends what
    it returns (see the module docstring); ``None`` when it is not to run here: the app then
    loads as before."""
    if not hasattr(os, "fork") or sys.platform == "win32" or not wanted():
        return None
    running = sys.modules.get("threading")
    if running is not None and running.active_count() > 1:
        return None  # a thread forked along would be missing in the child, holding its locks
    url = db_url or os.environ.get("RECALL_DB") or None
    if url is None:
        from recall.paths import default_database_path

        if not default_database_path().is_file():
            return None  # a first start: the database is created by the app's own load
    elif not url.lower().startswith("sqlite"):
        return None  # PostgreSQL: see the module docstring
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING)
    try:
        prefetch = _fork(load, db_url, held)
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        raise
    try:  # a Ctrl-C held during the fork is raised here, with the child's end in hand
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    except BaseException:
        if prefetch is not None:
            prefetch.close()
        raise
    return prefetch


def _fork(load: Callable[[], HomeData], db_url: str | None, held: set[int]) -> Prefetch | None:
    """Fork the child (which never returns from here) and return the app's side of it;
    ``None`` when the system refuses a pipe or a process.

    Called with :data:`_STOPPING` blocked (``held``: the mask before): ``os.fork`` runs the
    interpreter's fork hooks, and a ``KeyboardInterrupt`` raised inside one is printed as
    "Exception ignored" and lost. Lost inside ``logging``'s hook (which takes the logging lock
    before the fork and gives it back after), it also kept that lock: the app's load then
    waited for it forever on the home screen, deaf to the Ctrl-C that had already come (a
    loaded machine, Ctrl-C at 0.1 s). Held back, the signal reaches the app once the child is
    forked and its end is in hand (:func:`start`); the child restores the default actions
    before it lets the signals in (:func:`_child`)."""
    fds: list[int] = []
    try:
        fds.extend(os.pipe())
        fds.extend(os.pipe())
        pid = os.fork()
    except OSError:  # out of files or processes: the app loads by itself
        for fd in fds:
            os.close(fd)
        return None
    data_read, data_write, life_read, life_write = fds
    if pid == 0:  # the child: never returns, whatever happens
        status = FAILED
        try:
            os.close(data_read)
            os.close(life_write)
            status = _child(load, db_url, data_write, life_read, held)
        finally:
            os._exit(status)
    os.close(data_write)
    os.close(life_read)
    return Prefetch(pid, data_read, life_write)


class Prefetch:
    """The app's side of a running child: its counts (:meth:`receive`, once) or its end
    (:meth:`abandon`, which never waits; :meth:`close`, which reaps it). Thread-safe: the load
    worker abandons it while another thread receives and the app may quit.

    Nothing here waits for the child with a lock held, and the app's own load never waits for
    it at all: a child in an ``fsync`` (a SQLite commit) dies of its SIGKILL only when the disk
    is done, which could otherwise hold back the app's counts by as much. Whoever ends up
    waiting is a thread of its own (the one receiving) or the app's close."""

    def __init__(self, pid: int, data_fd: int, lifeline_fd: int) -> None:
        self.pid = pid
        self._data_fd = data_fd
        self._lifeline_fd: int | None = lifeline_fd
        #: Held while the child is signalled or reaped (a reap that does not wait), never
        #: while waiting: its pid is never signalled once reaped (another process may have it
        #: by then).
        self._lock = threading.Lock()
        self._reaped = False
        self._received = False
        #: :meth:`abandon` came before any :meth:`receive` (the data pipe is closed unread).
        self._abandoned_unread = False
        #: The child's exit status once reaped (a negative signal number if killed), for tests.
        self.status: int | None = None

    @property
    def reaped(self) -> bool:
        """Whether the child has been waited for (no zombie of it is left)."""
        return self._reaped

    def receive(self, timeout: float = TIMEOUT) -> HomeData | None:
        """The child's home data, or ``None`` when it did not deliver in ``timeout`` seconds
        (then it is killed) or was abandoned: blocks without holding the interpreter's lock.
        Only the first call reads; the child is reaped before this returns (this thread waits
        for it, so that :meth:`abandon` does not have to)."""
        with self._lock:
            first = not self._received and not self._reaped
            self._received = True
            abandoned = self._abandoned_unread
        if not first:
            if abandoned:
                self._wait()  # killed before anyone read: reaped here, off the app's load
            return None
        import select
        import time

        deadline = time.monotonic() + timeout
        chunks: list[bytes] = []
        complete = False
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                ready, _w, _x = select.select([self._data_fd], [], [], left)
                if not ready:
                    break
                chunk = os.read(self._data_fd, 1 << 16)
                if not chunk:
                    complete = True  # the child has closed the pipe: it is leaving
                    break
                chunks.append(chunk)
        except OSError:
            complete = False
        finally:
            os.close(self._data_fd)
        if not complete:
            self.abandon()
        status = self._wait()
        if not complete or status != DELIVERED or not chunks:
            return None
        try:
            data = _unpickle(b"".join(chunks))
        except Exception:  # noqa: BLE001 - anything unreadable: the app loads itself
            return None
        return data if isinstance(data, HomeData) else None

    def abandon(self) -> None:
        """Kill the child if it is still there, without waiting for it to go (it is reaped by
        the thread receiving, or by :meth:`close`); safe to call more than once, from any
        thread."""
        with self._lock:
            if not self._reaped:
                try:
                    os.kill(self.pid, signal.SIGKILL)
                except OSError:
                    pass  # already gone: reaped below or later
                self._reap_if_ended()
            self._close_lifeline()
            if not self._received:  # nobody reads it any more
                self._received = True
                self._abandoned_unread = True
                os.close(self._data_fd)

    def close(self, timeout: float = CLOSE_WAIT) -> None:
        """Kill the child and reap it (the app is quitting): waits at most ``timeout``
        seconds for a killed child to go (one inside an ``fsync`` goes when the disk is done);
        one still there then is reaped by the system once this process has ended."""
        self.abandon()
        self._wait(timeout)

    def _wait(self, timeout: float | None = None) -> int | None:
        """Wait for the child, which has closed its end of the pipe or was killed, and reap
        it (``timeout``: at most that long); its exit status, ``None`` if it is not reaped
        (or was reaped without one)."""
        import time

        deadline = None if timeout is None else time.monotonic() + timeout
        pause = 0.001
        while True:
            with self._lock:
                if self._reaped or self._reap_if_ended():
                    self._close_lifeline()
                    return self.status
            if deadline is not None and time.monotonic() >= deadline:
                return None
            time.sleep(pause)  # a poll, not a blocking wait: the lock is free meanwhile
            pause = min(pause * 2, 0.02)

    def _reap_if_ended(self) -> bool:
        """Reap the child if it has ended (never waits); whether it is reaped. Called with
        the lock held."""
        try:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:  # (not ours, or reaped by someone else)
            self.status = None
        else:
            if pid == 0:
                return False  # still there
            self.status = os.waitstatus_to_exitcode(status)
        self._reaped = True
        return True

    def _close_lifeline(self) -> None:
        if self._lifeline_fd is not None:
            os.close(self._lifeline_fd)
            self._lifeline_fd = None


def _child(
    load: Callable[[], HomeData],
    db_url: str | None,
    out_fd: int,
    lifeline_fd: int,
    held: set[int],
) -> int:
    """The child's whole life: load, send, and say how it went (its exit status). It starts
    with :data:`_STOPPING` blocked (``held``: the mask to restore)."""
    import gc

    gc.disable()  # it lives for a fraction of a second: collections would only slow it
    for signum in (*_STOPPING, signal.SIGPIPE):
        signal.signal(signum, signal.SIG_DFL)  # dies with the terminal's Ctrl-C and hangup
    signal.pthread_sigmask(signal.SIG_SETMASK, held)  # (one that came meanwhile ends it here)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
    threading.Thread(target=_end_with_parent, args=(lifeline_fd,), daemon=True).start()
    if not _ready_sqlite_file(db_url):
        return DECLINED
    from recall.paths import leave_files_alone
    from recall.store.schema import only_ready_databases

    only_ready_databases()
    leave_files_alone()  # (exam.json, the deck failure cache: the app's load writes them)
    data = load()
    import pickle

    payload = memoryview(pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL))
    while payload:
        payload = payload[os.write(out_fd, payload) :]
    return DELIVERED


def _ready_sqlite_file(db_url: str | None) -> bool:
    """Whether the database is a SQLite file that exists (checked in the child: reading a
    SQLite URL's path needs SQLAlchemy's URL parser)."""
    from recall.paths import default_database_url
    from recall.store.engine import parse_url, sqlite_path

    try:
        path = sqlite_path(parse_url(db_url or default_database_url()))
    except Exception:  # noqa: BLE001 - a bad URL is the app's own load's to report
        return False
    return path is not None and path.is_file()


def _end_with_parent(lifeline_fd: int) -> None:
    """Block until the app closes the lifeline (it is done with this child, or it died: the
    system closes a dead process's files), then end this process at once."""
    try:
        os.read(lifeline_fd, 1)
    finally:
        os._exit(FAILED)


def _unpickle(payload: bytes) -> object:
    """The child's pickled home data, read with only the view classes a :class:`HomeData` is
    made of (and the standard types they hold) allowed: the pipe is this process's own, but
    nothing else should ever come out of it."""
    import io
    import pickle

    class ViewsOnly(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            if module in _VIEW_MODULES or (module == "datetime" and name == "date"):
                return super().find_class(module, name)
            raise pickle.UnpicklingError(f"{module}.{name} is not part of the home data")

    return ViewsOnly(io.BytesIO(payload)).load()
