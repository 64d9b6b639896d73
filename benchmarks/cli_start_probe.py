"""Time a real ``recall`` command line until a given thing is on screen; print one JSON line.

``python benchmarks/cli_start_probe.py SPAWN_TIME UNTIL [recall arguments…]`` runs
:func:`recall.cli.main` with those arguments in this process, with Textual's ``App.run`` made
(and ``App.run_async``) made headless at 80x24, and stops as soon as UNTIL is on screen:

* ``prompt``: the drill screen shows its first card's prompt (``recall drill --minutes 10``);
* ``home``: the home screen shows the deck table filled with real counts (``recall``); the
  report also gives ``ready_seconds`` and ``ready_cpu``, when the app's own load is in (keys
  act): later than the counts when they came from the prefetching child process
  (:mod:`recall.tui.home_prefetch`), the same moment without it;
* ``home-all``: as ``home``, and no custom deck is still being checked (a first start checks
  new custom decks after the first counts: their cards join the table when checked). The
  report also gives ``home_seconds`` and ``home_cpu``, when ``home`` was reached.

It prints ``{"seconds": …}``, measured from ``SPAWN_TIME`` (the parent's ``time.time()`` just
before it started this interpreter, so interpreter start-up and every import count), taken
after the frame that shows the thing has been drawn (the screen's next refresh once it is
there; work still running in the background, such as the engine warm-up, is not waited for),
and ``"cpu"``, the process's CPU seconds by then (all threads, interpreter start-up included):
on a shared machine the wall time follows the load, the CPU time much less; ``"cpu_children"``
adds the CPU seconds of the child processes reaped by then (the prefetching child, reaped
before its counts are shown). Only widget ids are relied on (``#prompt``, ``#decks``), so the
probe follows the app through refactors of its screens and services.

Textual is made headless once the launch has built the app (``recall.tui.launch.build_app``),
not before: the launch forks its prefetching child before Textual is imported, and a probe that
imported Textual first would time a start no learner has.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from typing import Any

#: Longest the probe waits for the screen (seconds) before giving up with a failure
#: (``RECALL_PROBE_TIMEOUT`` overrides it: a first start over 20,000 custom cards may take longer).
TIMEOUT = float(os.environ.get("RECALL_PROBE_TIMEOUT", "60"))


class _Watched:
    """The widget with ``widget_id`` on the screen in front, looked up once per screen (again
    if it is removed): the probe asks every 2 ms, and a query over the whole screen each time
    cost the event loop about 0.05 s of CPU during recall's load (an observer's cost, not the
    app's)."""

    def __init__(self, widget_id: str) -> None:
        self.widget_id = widget_id
        self.screen: Any = None
        self.widget: Any = None

    def find(self, app: Any) -> Any:
        screen = app.screen
        if screen is not self.screen or self.widget is None or not self.widget.is_attached:
            self.screen = screen
            found = list(screen.query(f"#{self.widget_id}"))
            self.widget = found[0] if found else None
        return self.widget


def _prompt_shown(watched: _Watched, app: Any) -> bool:
    widget = watched.find(app)
    return widget is not None and bool(str(getattr(widget, "content", "") or "").strip())


def _home_counted(watched: _Watched, app: Any) -> bool:
    table = watched.find(app)
    return table is not None and table.row_count > 0


def _nothing_checking(watched: _Watched, app: Any) -> bool:
    widget = watched.find(app)
    text = str(getattr(widget, "content", "") or "") if widget is not None else ""
    return widget is not None and not text.startswith("Checking")


#: What UNTIL names: the widget watched and the test on it.
CONDITIONS = {
    "prompt": ("prompt", _prompt_shown),
    "home": ("decks", _home_counted),
    "home-all": ("decks", _home_counted),
}


def main() -> int:
    started = float(sys.argv[1])
    widget_id, condition = CONDITIONS[sys.argv[2]]
    watched = _Watched(widget_id)
    problems = _Watched("home-problems")
    report: dict[str, object] = {}

    def until(app: Any) -> bool:
        if not condition(watched, app):
            return False
        if sys.argv[2] != "home-all":
            return True
        if "home_seconds" not in report:
            report["home_seconds"] = time.time() - started
            report["home_cpu"] = time.process_time()
        return _nothing_checking(problems, app)

    argv = sys.argv[3:]
    original_run: Any = None
    original_run_async: Any = None

    async def pilot(driver: Any) -> None:
        app = driver.app
        deadline = time.time() + TIMEOUT
        while not until(app):
            if time.time() > deadline:
                report["error"] = f"{sys.argv[2]} not on screen after {TIMEOUT:g} s"
                app.exit(1)
                return
            await asyncio.sleep(0.002)
        # The frame that shows it has been drawn: the screen runs after-refresh callbacks only
        # once nothing on it waits to be laid out or painted. (Not ``Pilot.pause()``: that waits
        # for the whole process to go idle, up to a second, so the engine warm-up that rightly
        # runs after the first frame would be counted as start-up time.)
        await app.screen.wait_for_refresh()
        report["seconds"] = time.time() - started
        report["cpu"] = time.process_time()  # this process's CPU seconds, every thread
        report["cpu_children"] = _children_cpu()
        report["modules"] = len(sys.modules)
        if sys.argv[2] == "home":  # and the app's own load (the same moment without a child)
            while getattr(app, "home_data", None) is None:
                if time.time() > deadline:
                    report["error"] = f"the home's own load not in after {TIMEOUT:g} s"
                    app.exit(1)
                    return
                await asyncio.sleep(0.002)
            await app.screen.wait_for_refresh()
            report["ready_seconds"] = time.time() - started
            report["ready_cpu"] = time.process_time()
        # Printed now: the launcher ends the process without waiting for a worker still running
        # (the engine warm-up), so nothing after ``recall_main`` is sure to run.
        print(json.dumps(report), flush=True)
        app.exit(0)

    def headless_run(self: Any, **kwargs: Any) -> Any:
        kwargs.update(headless=True, size=(80, 24), auto_pilot=pilot)
        return original_run(self, **kwargs)

    def headless_run_async(self: Any, **kwargs: Any) -> Any:
        kwargs.update(headless=True, size=(80, 24), auto_pilot=pilot)
        return original_run_async(self, **kwargs)

    import recall.tui.launch as launch

    original_build = launch.build_app

    def build_app(*args: Any, **kwargs: Any) -> Any:
        app = original_build(*args, **kwargs)  # Textual is imported now, after the fork
        from textual.app import App

        if App.run is not headless_run:
            nonlocal original_run, original_run_async
            original_run, original_run_async = App.run, App.run_async
            # The launcher may use either entry point (``run``, or ``run_async`` under its
            # own runner).
            App.run = headless_run  # type: ignore[method-assign]
            App.run_async = headless_run_async  # type: ignore[method-assign]
        return app

    launch.build_app = build_app
    from recall.cli import main as recall_main

    status = recall_main(argv)
    if "seconds" not in report:
        print(json.dumps(report), flush=True)
    return 0 if "seconds" in report and status == 0 else 1


def _children_cpu() -> float:
    """CPU seconds of this process's children reaped so far (user and system)."""
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


if __name__ == "__main__":
    sys.exit(main())
