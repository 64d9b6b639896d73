"""Measure the app's start: run it headless, stop at the first painted home screen, print JSON.

``python -m benchmarks.startup_probe [SPAWN_TIME] [--wait-load]`` (from the checkout's root)
prints one JSON line,
``{"first_paint": seconds, "heavy_at_first_paint": [...], "modules": n}``. The start-up
benchmark runs it many times and the import-laziness test runs it once; both need a fresh
process, since a test process has usually imported SymPy long before. Times are measured from
``SPAWN_TIME`` (the parent's ``time.time()`` just before it spawned this process, so interpreter
start-up counts), or from this module's start when it is not given. With ``--wait-load`` it goes
on until the home screen is filled in and the engine is warm, and reports what was imported.
"""

from __future__ import annotations

import json
import sys
import time


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    wait_for_load = "--wait-load" in sys.argv
    started = float(args[0]) if args else time.time()
    from recall.tui.app import HEAVY_MODULES, RecallApp
    from recall.tui.services import Services
    from recall.tui.settings import read_settings

    report: dict[str, object] = {}

    def painted(app: RecallApp) -> None:
        report["first_paint"] = time.time() - started
        report["heavy_at_first_paint"] = list(app.heavy_at_first_paint)
        report["modules"] = len(sys.modules)
        if not wait_for_load:
            app.exit(0)

    def loaded(app: RecallApp) -> None:
        report["loaded"] = time.time() - started
        report["decks"] = len(app.home_data.decks) if app.home_data else 0

    def warmed(app: RecallApp) -> None:
        report["warm"] = time.time() - started
        report["heavy_after_warm"] = [m for m in HEAVY_MODULES if m in sys.modules]
        app.exit(0)

    settings, problem = read_settings()
    app = RecallApp(
        Services(settings),
        settings,
        settings_problem=problem,
        after_first_paint=painted,
        after_load=loaded if wait_for_load else None,
        after_warm=warmed if wait_for_load else None,
        warm_engine=wait_for_load,
    )
    app.run(headless=True, size=(80, 24))
    print(json.dumps(report))
    return 0 if report else 1


if __name__ == "__main__":
    sys.exit(main())
