"""The prefetching child process of the home screen (:mod:`recall.tui.home_prefetch`), for
real: forked from a fresh interpreter (a test process has threads, and a fork there would copy
them half), its counts compared with the app's own load of the same data directory in several
states, its failures answered by the app's own load, and its end with the app however the app
ends (its quit, Ctrl-C, a hangup, a kill).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from recall.config import Settings
from tests.fault_helpers import Terminal, process_alive, recall_command, recall_env
from tests.tui_fixtures import BROKEN_DECK, SMALL_DECK, write_deck

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or not hasattr(os, "fork"), reason="needs fork"
)

#: Run in a fresh interpreter: the child's counts (``early``), then the app's own load on the
#: same data (``own``); ``parallel``: the app's own load at once, beside the child, as the app
#: runs it; argv: ``normal``/``parallel``/``fail``/``off`` and the ``--db`` URL (``-``: none).
_COMPARE = """
import json, sys
from recall.errors import RecallError
from recall.tui import home_prefetch
from recall.tui.launch import build_services
from recall.tui.settings import read_settings

mode, db = sys.argv[1], (None if sys.argv[2] == "-" else sys.argv[2])
settings, _problem = read_settings()

def services():
    return build_services(None, settings, db_url=db, custom_decks=None, learner=None)

def injected():
    raise RuntimeError("an injected failure")

# The app waits home_prefetch.TIMEOUT (5 s) for the child; a test on a loaded machine waits
# longer, so that a slow child is not mistaken for one whose counts differ.
PATIENT = 60
prefetch = None
if mode != "off":
    prefetch = home_prefetch.start(injected if mode == "fail" else services().load, db)
early = None
if prefetch is not None and mode != "parallel":
    early = prefetch.receive(PATIENT)
own = services()
try:
    data, error = own.load(), None
except RecallError as failure:
    data, error = None, str(failure)
if prefetch is not None and mode == "parallel":
    early = prefetch.receive(PATIENT)
sync = own.workspace.last_sync if data is not None else None
print(json.dumps({
    "started": prefetch is not None,
    "status": prefetch.status if prefetch is not None else None,
    "received": early is not None,
    "same": early == data,
    "early": repr(early),
    "own": repr(data),
    "error": error,
    "touched": sync.touched if sync is not None else None,
    "decks": len(data.decks) if data else 0,
    "checking": data.checking if data else 0,
    "failures": len(data.failures) if data else 0,
    "unfinished": data.unfinished_done if data else 0,
    "reviewed": data.reviewed_today if data else 0,
}))
"""


def _compare(home: Path, mode: str = "normal", db: str | None = None) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", _COMPARE, mode, db or "-"],
        capture_output=True,
        text=True,
        env=recall_env(home, RECALL_PREFETCH="1"),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert isinstance(report, dict)
    return report


def _first_start(home: Path) -> None:
    """What a learner's first start leaves: the database, the decks synced, the parse cache."""
    from recall.tui.services import Services

    services = Services(Settings(), defer_checks=True)
    try:
        data = services.load()
        if data.checking:
            services.check_pending()
        services.write_parse_cache()
    finally:
        services.close()
    assert (home / "recall.sqlite3").is_file()


def _review(cards: int, *, finish: bool) -> None:
    """Review ``cards`` cards right in a session, then end it or leave it unfinished."""
    from recall.scheduling.rating import Rating
    from recall.session.budget import Budget
    from recall.verdicts import Status
    from recall.workspace import Workspace

    workspace = Workspace.open(Settings())
    try:
        session = workspace.start_session(budget=Budget.cards(cards + 1), mode="normal")
        for _ in range(cards):
            assert session.next_card() is not None
            session.record(verdict=Status.CORRECT, rating=Rating.Good)
        if finish:
            session.end()
        else:
            session.release()
    finally:
        workspace.close()


def _state(home: Path, name: str) -> None:
    decks = home / "decks"
    _first_start(home)
    if name == "reviews done":
        _review(3, finish=True)
    elif name == "an unfinished session":
        _review(2, finish=False)
    elif name == "a custom deck pending its checks":
        write_deck(decks, "mine.toml", SMALL_DECK)
    elif name == "a failing custom deck":
        write_deck(decks, "broken.toml", BROKEN_DECK)
        _first_start(home)  # checked once: its errors are known now
    elif name == "a custom deck removed":
        write_deck(decks, "mine.toml", SMALL_DECK)
        _first_start(home)
        (decks / "mine.toml").unlink()
    elif name == "an exam plan followed":
        _follow_exam()


def _follow_exam() -> None:
    """Follow an exam plan from today, its day's guidance not worked out yet (as on the first
    start of a study day): the next load works it out and writes it into ``exam.json``."""
    import datetime

    from recall.exam_follow import exam_file
    from recall.workspace import Workspace

    workspace = Workspace.open(Settings())
    try:
        exam = datetime.date.today() + datetime.timedelta(days=60)
        assert workspace.follow_exam(exam.isoformat(), minutes=240).feasible
    finally:
        workspace.close()
    followed = json.loads(exam_file().read_text())
    assert followed.pop("guidance")
    exam_file().write_text(json.dumps(followed))


STATES = [
    "after a first start",
    "reviews done",
    "an unfinished session",
    "a custom deck pending its checks",
    "a failing custom deck",
    "a custom deck removed",
    "an exam plan followed",
]


@pytest.mark.parametrize("state", STATES)
def test_the_childs_counts_are_the_apps_own(isolated_recall_home: Path, state: str) -> None:
    _state(isolated_recall_home, state)
    report = _compare(isolated_recall_home)
    assert report["started"] and report["status"] == 0, report
    assert report["received"] and report["same"], (report["early"], report["own"])
    # The child synced first; the app's own sync found nothing left to do.
    assert report["touched"] is False, report
    assert report["decks"] >= 17
    if state == "reviews done":
        assert report["reviewed"] == 3
    if state == "an unfinished session":
        assert report["unfinished"] == 2
    if state == "a custom deck pending its checks":
        assert report["checking"] == 1
    if state == "a failing custom deck":
        assert report["failures"] == 1


@pytest.mark.parametrize("state", ["a custom deck removed", "an unfinished session"])
def test_the_child_and_the_app_loading_at_once_agree(
    isolated_recall_home: Path, state: str
) -> None:
    """As the app runs them: its own load beside the child's (two processes syncing one
    database, as two windows do), then a third start finds nothing left to sync."""
    _state(isolated_recall_home, state)
    report = _compare(isolated_recall_home, "parallel")
    assert report["started"] and report["error"] is None, report
    assert report["status"] == 0 and report["same"], (report["early"], report["own"])
    assert _compare(isolated_recall_home, "off")["touched"] is False


def test_without_the_child_the_removed_decks_sync_is_the_apps(isolated_recall_home: Path) -> None:
    """The control of the last state above: there, the child's sync did the work (the app's
    own load would otherwise retire the removed deck's cards)."""
    _state(isolated_recall_home, "a custom deck removed")
    report = _compare(isolated_recall_home, "off")
    assert not report["started"] and report["touched"] is True, report


def test_a_failing_child_leaves_the_load_to_the_app(isolated_recall_home: Path) -> None:
    _first_start(isolated_recall_home)
    report = _compare(isolated_recall_home, "fail")
    assert report["started"] and report["status"] == 1 and not report["received"], report
    assert report["error"] is None and report["decks"] >= 17


def test_no_child_on_a_first_start(isolated_recall_home: Path) -> None:
    report = _compare(isolated_recall_home)
    assert not report["started"] and report["error"] is None and report["decks"] >= 17
    assert report["touched"] is True  # the app's own load created and synced everything


@pytest.mark.learner_sql_unchecked  # the old database is written as a 0001 recall wrote it
def test_a_database_to_upgrade_is_the_apps_to_upgrade(
    isolated_recall_home: Path, tmp_path: Path
) -> None:
    """The child refuses a database it would have to migrate (no backup, no change); the app's
    own load then upgrades it as before."""
    from tests.test_store_schema import make_old_database

    path = tmp_path / "old.sqlite3"
    url = f"sqlite:///{path}"
    make_old_database(url)
    report = _compare(isolated_recall_home, db=url)
    assert report["started"] and report["status"] == 1 and not report["received"], report
    assert report["error"] is None and report["decks"] >= 17
    backups = [p.name for p in tmp_path.iterdir() if p.name != path.name and "old" in p.name]
    assert len(backups) == 1, backups  # one backup: the app's upgrade, none from the child


def test_a_database_that_is_not_recalls_is_reported_as_before(
    isolated_recall_home: Path, tmp_path: Path
) -> None:
    import sqlite3

    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as db:
        db.execute("create table invoices (id integer primary key, total real)")
    url = f"sqlite:///{foreign}"
    with_child = _compare(isolated_recall_home, db=url)
    without = _compare(isolated_recall_home, "off", db=url)
    assert with_child["started"] and with_child["status"] == 1, with_child
    assert with_child["error"] == without["error"]
    assert "not a recall database" in str(with_child["error"])


def test_a_database_file_that_is_not_there_is_not_prefetched(
    isolated_recall_home: Path, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'missing' / 'recall.sqlite3'}"
    report = _compare(isolated_recall_home, db=url)
    assert report["started"] and report["status"] == 3 and not report["received"], report
    assert "does not exist" in str(report["error"])
    assert not (tmp_path / "missing").exists()


def test_the_only_ready_switch_refuses_creating_and_changes_nothing(tmp_path: Path) -> None:
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    code = (
        "import sys\n"
        "from recall.errors import StoreError\n"
        "from recall.store import open_store\n"
        "from recall.store.schema import only_ready_databases\n"
        "only_ready_databases()\n"
        "try:\n"
        f"    open_store({f'sqlite:///{empty}'!r})\n"
        "except StoreError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "must be created first" in done.stdout, done.stdout + done.stderr
    assert empty.stat().st_size == 0


# ------------------------------------------------------------------------------- its end

#: A child whose load never ends (a database locked for long): its pid, then the parent waits.
_LINGERING = """
import os, sys, time
from recall.tui import home_prefetch

def load():
    time.sleep(60)

prefetch = home_prefetch.start(load, None)
print(prefetch.pid if prefetch is not None else 0, flush=True)
if sys.argv[1] == "close":
    prefetch.close()
    print(prefetch.status, flush=True)
elif sys.argv[1] == "timeout":
    print(prefetch.receive(timeout=0.5), prefetch.status, flush=True)
else:
    time.sleep(60)
"""


def _wait_gone(pid: int, seconds: float = 10) -> bool:
    end = time.monotonic() + seconds
    while process_alive(pid) and time.monotonic() < end:
        time.sleep(0.02)
    return not process_alive(pid)


@pytest.mark.parametrize("end", ["close", "timeout", "SIGKILL", "SIGTERM"])
def test_the_child_never_outlives_the_app(isolated_recall_home: Path, end: str) -> None:
    _first_start(isolated_recall_home)
    parent = subprocess.Popen(
        [sys.executable, "-c", _LINGERING, end],
        stdout=subprocess.PIPE,
        text=True,
        env=recall_env(isolated_recall_home, RECALL_PREFETCH="1"),
    )
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert child
        if end == "close":
            assert parent.stdout.readline().strip() == str(-signal.SIGKILL)
        elif end == "timeout":
            assert parent.stdout.readline().split() == ["None", str(-signal.SIGKILL)]
        else:
            time.sleep(0.3)  # the child is at its (endless) load
            assert process_alive(child)
            parent.send_signal(getattr(signal, end))  # the child itself is not signalled
        assert _wait_gone(child), f"the child outlived the app ({end})"
    finally:
        parent.kill()
        parent.wait(10)


#: A child stuck where SIGKILL takes a while to act (inside an ``fsync``: it dies when the disk
#: is done), then the app's own load, in ``argv[1]``: ``services`` (its load and close) or
#: ``app`` (the home screen, headless). The child is stopped (SIGSTOP) and the app's SIGKILL held
#: back until the app's own counts are in, which is how long the disk takes here.
_STUCK = """
import asyncio, os, signal, sys, threading, time
from recall.tui import home_prefetch

def load():
    time.sleep(60)

prefetch = home_prefetch.start(load, None)
os.kill(prefetch.pid, signal.SIGSTOP)
real_kill, held = os.kill, []

def kill(pid, signum):
    if pid == prefetch.pid and signum == signal.SIGKILL:
        held.append(signum)  # takes effect once the disk is done: below
    else:
        real_kill(pid, signum)

os.kill = kill

def zombie():
    try:
        return os.waitpid(prefetch.pid, os.WNOHANG) != (0, 0)  # (still there: not reaped)
    except ChildProcessError:
        return False  # reaped

from recall.tui.launch import build_app, build_services
from recall.tui.settings import read_settings

settings, _problem = read_settings()
if sys.argv[1] == "services":
    services = build_services(None, settings, db_url=None, custom_decks=None, learner=None)
    services.prefetch = prefetch
    loaded = []
    worker = threading.Thread(target=lambda: loaded.append(services.load()), daemon=True)
    worker.start()
    worker.join(20)
    print("loaded", bool(loaded), "killed", len(held), flush=True)
    if not loaded:  # held in a wait for the child (closing would wait as long)
        real_kill(prefetch.pid, signal.SIGKILL)
        os._exit(1)
    os.kill = real_kill  # the disk is done
    services.close()
else:
    app = build_app(None, settings=settings, prefetch=prefetch)

    async def run():
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(1000):
                if app.home_data is not None:
                    break
                await asyncio.sleep(0.02)
            print("loaded", app.home_data is not None, "killed", len(held), flush=True)
            if app.home_data is None:
                real_kill(prefetch.pid, signal.SIGKILL)
                os._exit(1)
            os.kill = real_kill  # the disk is done
            await pilot.press("ctrl+q")

    asyncio.run(run())
print("closed", "reaped" if prefetch.reaped and not zombie() else "not reaped", prefetch.status)
"""


@pytest.mark.parametrize("how", ["services", "app"])
def test_the_apps_load_never_waits_for_a_stuck_child_and_its_close_reaps_it(
    isolated_recall_home: Path, how: str
) -> None:
    """The app's own load kills the child and goes on: its counts are not held back while the
    child takes its time to die; and once the app has closed, the child is reaped."""
    _first_start(isolated_recall_home)
    done = subprocess.run(
        [sys.executable, "-c", _STUCK, how],
        capture_output=True,
        text=True,
        env=recall_env(isolated_recall_home, RECALL_PREFETCH="1"),
        timeout=120,
        check=False,
    )
    lines = done.stdout.splitlines()
    assert lines[:1] == ["loaded True killed 1"], done.stdout + done.stderr[-3000:]
    assert lines[1:] == [f"closed reaped {-signal.SIGKILL}"], done.stdout + done.stderr[-3000:]
    assert done.returncode == 0, done.stderr[-3000:]


#: The child abandoned before anyone receives its counts: the receiving thread reaps it.
_ABANDONED_FIRST = """
import os, time
from recall.tui import home_prefetch

prefetch = home_prefetch.start(lambda: time.sleep(60), None)
prefetch.abandon()
print(prefetch.receive(), prefetch.reaped, prefetch.status)
"""


def test_a_child_abandoned_before_its_counts_are_read_is_reaped_by_the_receiver(
    isolated_recall_home: Path,
) -> None:
    _first_start(isolated_recall_home)
    done = subprocess.run(
        [sys.executable, "-c", _ABANDONED_FIRST],
        capture_output=True,
        text=True,
        env=recall_env(isolated_recall_home, RECALL_PREFETCH="1"),
        timeout=60,
        check=True,
    )
    assert done.stdout.split() == ["None", "True", str(-signal.SIGKILL)], done.stdout


#: Only the child's load (received, then this process ends without a load of its own).
_CHILD_ONLY = """
from recall.tui import home_prefetch
from recall.tui.launch import build_services
from recall.tui.settings import read_settings

settings, _problem = read_settings()
services = build_services(None, settings, db_url=None, custom_decks=None, learner=None)
prefetch = home_prefetch.start(services.load, None)
print(prefetch.receive(60) is not None, prefetch.status)  # (a loaded machine: see _COMPARE)
"""


def test_the_child_writes_no_file_beside_the_database(isolated_recall_home: Path) -> None:
    """A followed exam plan's day is worked out at the first load of the day and kept in
    ``exam.json`` (a durable write: an fsync). The child works it out too but leaves the file
    to the app, so a child killed inside that write leaves no temporary file behind."""
    home = isolated_recall_home
    _state(home, "an exam plan followed")
    exam = home / "exam.json"
    before = exam.read_bytes()
    done = subprocess.run(
        [sys.executable, "-c", _CHILD_ONLY],
        capture_output=True,
        text=True,
        env=recall_env(home, RECALL_PREFETCH="1"),
        timeout=120,
        check=True,
    )
    assert done.stdout.split() == ["True", "0"], done.stdout + done.stderr[-3000:]
    assert exam.read_bytes() == before
    assert sorted(p.name for p in home.iterdir() if p.name.endswith(".tmp")) == []
    # The app's own load, the same load, is the one that writes the day's guidance.
    _compare(home, "off")
    assert exam.read_bytes() != before
    assert b'"guidance": {' in exam.read_bytes()


def test_leave_files_alone_makes_write_atomically_write_nothing(tmp_path: Path) -> None:
    code = """
import sys
from pathlib import Path
from recall.paths import leave_files_alone, write_atomically

target = Path(sys.argv[1]) / "exam.json"
write_atomically(target, "before")
leave_files_alone()
try:
    write_atomically(target, "after")
except OSError as error:
    print("refused", error.errno)
"""
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True
    )
    import errno

    assert done.stdout.split() == ["refused", str(errno.EROFS)], done.stdout + done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exam.json"]
    assert (tmp_path / "exam.json").read_text() == "before"


#: An environment variable only the recall processes of a test are started with.
TOKEN = "RECALL_TEST_START"


def _recall_processes(token: str) -> list[int]:
    """Live processes started with ``TOKEN=token`` (the app, and the child it forked)."""
    found = []
    marker = f"{TOKEN}={token}".encode() + b"\0"
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if marker in environ and process_alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def _children(pid: int) -> list[int]:
    try:
        tasks = Path(f"/proc/{pid}/task").iterdir()
        return [
            int(child)
            for task in tasks
            for child in (task / "children").read_text().split()
            if child.isdigit()
        ]
    except OSError:
        return []


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc")
@pytest.mark.parametrize("delay", [0.15, 0.3, 0.6, "counts"])
@pytest.mark.parametrize("signum", ["SIGINT", "SIGHUP"])
def test_a_real_start_shows_the_counts_and_ctrl_c_or_a_hangup_leaves_no_process(
    isolated_recall_home: Path, delay: float | str, signum: str
) -> None:
    """``recall`` on a pseudo terminal, a second start: the counts appear (the child's, then
    the app's), and the terminal's Ctrl-C or hangup (sent to the process group, as a terminal
    sends it) at any moment of the start leaves no process of it behind."""
    home = isolated_recall_home
    _first_start(home)
    token = f"{os.getpid()}-{signum}-{delay}"
    env = recall_env(home, RECALL_PREFETCH="1", COLUMNS="100", LINES="30", **{TOKEN: token})
    terminal = Terminal(recall_command(), env)
    try:
        if delay == "counts":
            assert terminal.wait_for(lambda: b"Today:" in terminal.screen, seconds=60), (
                terminal.screen[-3000:]
            )
            assert b"new" in terminal.screen and b"Loading decks" in terminal.screen
        else:
            assert isinstance(delay, float)
            terminal.drain(delay)
        seen = [terminal.process.pid, *_children(terminal.process.pid)]
        os.killpg(terminal.process.pid, getattr(signal, signum))
        status = terminal.wait_exit(20)
        assert status is not None, f"recall outlived {signum}"
        for pid in seen:
            assert _wait_gone(pid), f"process {pid} outlived {signum} at {delay}"
        assert _recall_processes(token) == []
        text = terminal.drain(0.1).decode("utf-8", "replace")
        assert "Traceback" not in text, text[-3000:]
    finally:
        terminal.close()


#: ``recall`` as its console script runs it, with a fork hook that sends the process group a
#: SIGINT as the prefetching child is forked: argv[1] says where. ``first``: before the fork,
#: ahead of every other hook (``before`` hooks run last registered, first); ``logging``: after
#: it, inside the parent's hooks, ahead of ``logging``'s own, which gives back the logging lock
#: its ``before`` hook took; ``last``: after every other hook.
_INTERRUPTED_FORK = """
import os, signal, sys

where = sys.argv.pop(1)
if where == "last":
    import logging  # (registers its hooks first: this one runs after them)

def interrupt():
    os.killpg(os.getpgid(0), signal.SIGINT)

if where == "first":
    os.register_at_fork(before=interrupt)
else:
    os.register_at_fork(after_in_parent=interrupt)
from recall.start import main

sys.exit(main())
"""


@pytest.mark.parametrize("where", ["first", "logging", "last"])
def test_ctrl_c_while_the_child_is_forked_ends_the_start(
    isolated_recall_home: Path, where: str
) -> None:
    """A Ctrl-C that lands in the interpreter's fork hooks is not lost. It was (the full
    suite, Ctrl-C at 0.15 s on a loaded machine): Python printed "Exception ignored in
    _releaseLock" and went on; the logging lock stayed taken, and the app's load waited for it
    forever on the home screen. The signals are now held back during the fork."""
    home = isolated_recall_home
    _first_start(home)
    token = f"{os.getpid()}-fork-{where}"
    env = recall_env(home, RECALL_PREFETCH="1", COLUMNS="100", LINES="30", **{TOKEN: token})
    terminal = Terminal([sys.executable, "-c", _INTERRUPTED_FORK, where], env)
    try:
        status = terminal.wait_exit(30)
        text = terminal.drain(0.1).decode("utf-8", "replace")
        assert status == 130, text[-3000:]
        assert "Traceback" not in text and "Exception ignored" not in text, text[-3000:]
        assert _wait_until(lambda: _recall_processes(token) == [])
    finally:
        terminal.close()


def _wait_until(condition: Callable[[], bool], seconds: float = 10) -> bool:
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        time.sleep(0.02)
    return condition()


def test_an_interrupt_python_lost_during_the_start_still_ends_it() -> None:
    """The same class anywhere else in the start (a ``__del__``, a weakref callback): an
    interrupt the start's handler noted (:mod:`recall.interrupts`) but that never arrived as
    a ``KeyboardInterrupt`` ends the start before the app takes the terminal."""
    from recall import interrupts
    from recall.tui.launch import _run_until_interrupted

    class NeverRun:
        ran = False

        def interrupt(self) -> None:
            raise AssertionError("the app's interrupt is for a SIGINT while it runs")

        async def run_async(self) -> None:
            NeverRun.ran = True

    before = signal.getsignal(signal.SIGINT)
    interrupts._noted = True
    try:
        with pytest.raises(KeyboardInterrupt):
            asyncio.run(_run_until_interrupted(NeverRun()))  # type: ignore[arg-type]
        assert NeverRun.ran is False
        # The loop's handler is gone (asyncio gives SIGINT Python's default back).
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        interrupts._noted = False
        asyncio.run(_run_until_interrupted(NeverRun()))  # type: ignore[arg-type]
        assert NeverRun.ran is True  # with no interrupt noted, the app runs
    finally:
        interrupts._noted = False
        signal.signal(signal.SIGINT, before)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_closing_the_window_during_a_start_leaves_no_process(isolated_recall_home: Path) -> None:
    """As a learner closes a terminal window (tmux ``kill-window``) while recall starts."""
    import shlex

    home = isolated_recall_home
    _first_start(home)
    socket = f"recall-prefetch-{os.getpid()}"
    tmux = ["tmux", "-L", socket]
    token = f"{os.getpid()}-window"
    command = f"{TOKEN}={token} RECALL_PREFETCH=1 exec {shlex.join(recall_command())}"
    env = recall_env(home)
    subprocess.run(
        # The session's first window outlives the test (a loaded machine takes more than 30 s);
        # each start gets a window of its own, named, so only that one is closed.
        [*tmux, "new-session", "-d", "-s", "t", "-x", "100", "-y", "30", "sleep 3600"],
        check=True,
        env=env,
    )
    try:
        for delay in (0.1, 0.25, 0.5):
            subprocess.run(
                [*tmux, "new-window", "-t", "t:", "-n", "start", command], check=True, env=env
            )
            time.sleep(delay)
            subprocess.run([*tmux, "kill-window", "-t", "t:start"], check=False)
            end = time.monotonic() + 15
            while _recall_processes(token) and time.monotonic() < end:
                time.sleep(0.05)
            assert _recall_processes(token) == [], f"recall outlived its window ({delay} s)"
    finally:
        subprocess.run([*tmux, "kill-server"], check=False, capture_output=True)


# ------------------------------------------------------------------------------ when it runs


@pytest.mark.parametrize(
    ("cores", "load", "setting", "runs"),
    [
        (2, 0.4, None, True),
        (2, 1.9, None, True),
        (2, 2.0, None, False),  # no core idle: the child would only compete with the app
        (4, 3.5, None, True),
        (1, 0.0, None, False),  # one core: nothing to run beside the app
        (2, 6.0, "1", True),
        (2, 6.0, "on", True),
        (2, 0.1, "0", False),
        (2, 0.1, "off", False),
    ],
)
def test_the_child_runs_with_a_core_to_spare_or_as_the_switch_says(
    monkeypatch: pytest.MonkeyPatch, cores: int, load: float, setting: str | None, runs: bool
) -> None:
    from recall.tui import home_prefetch

    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: set(range(cores)), raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    if setting is None:
        monkeypatch.delenv(home_prefetch.ENV, raising=False)
    else:
        monkeypatch.setenv(home_prefetch.ENV, setting)
    assert home_prefetch.wanted() is runs


def test_switched_off_no_child_is_forked(isolated_recall_home: Path) -> None:
    _first_start(isolated_recall_home)
    done = subprocess.run(
        [sys.executable, "-c", _COMPARE, "normal", "-"],
        capture_output=True,
        text=True,
        env=recall_env(isolated_recall_home, RECALL_PREFETCH="0"),
        timeout=120,
        check=True,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert not report["started"] and report["decks"] >= 17


_WHICH_DATABASES = """
import sys
from recall.tui import home_prefetch

def load():
    raise SystemExit(0)

for url in sys.argv[1:]:
    prefetch = home_prefetch.start(load, None if url == "-" else url)
    print(url, prefetch is not None)
    if prefetch is not None:
        prefetch.close()
"""


def test_only_an_existing_sqlite_file_is_prefetched(isolated_recall_home: Path) -> None:
    """PostgreSQL never (a second login at every start), nor a first start (no database yet:
    the app creates it); a SQLite URL is forked for, the child then checks the file."""
    urls = ["-", "postgresql+psycopg://learner@localhost/recall", "sqlite:////tmp/x.sqlite3"]

    def run() -> list[str]:
        return subprocess.run(
            [sys.executable, "-c", _WHICH_DATABASES, *urls],
            capture_output=True,
            text=True,
            env=recall_env(isolated_recall_home, RECALL_PREFETCH="1"),
            check=True,
        ).stdout.split()

    assert run() == ["-", "False", urls[1], "False", urls[2], "True"]
    _first_start(isolated_recall_home)
    assert run() == ["-", "True", urls[1], "False", urls[2], "True"]
