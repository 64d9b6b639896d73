"""What the TUI's pre-first-frame imports of the lower layers cost (best of N, fresh processes).

The drill screen's views use scheduling's :class:`~recall.scheduling.Rating` and the session's
:class:`~recall.session.Mode`. Both live in light modules, and ``recall.scheduling`` loads
``fsrs`` only when :class:`~recall.scheduling.Scheduler` is first used: this prints what each
step costs on top of what a process has already imported by then (dataclasses, enum, typing),
and what an eager ``fsrs`` import would add.

    python benchmarks/bench_light_imports.py [-n 15]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

PRELUDE = "import time, json, sys, dataclasses, datetime, enum, typing, collections.abc, recall.tui"
STEPS = {
    "recall.tui.views (Rating, Mode, SessionPlan...)": "import recall.tui.views",
    "recall.scheduling.rating + recall.session.mode": (
        "import recall.scheduling.rating, recall.session.mode"
    ),
    "fsrs (what an eager recall.scheduling would add)": "import fsrs",
    "recall.session.Session (the facade: store, SQLAlchemy, fsrs)": (
        "from recall.session import Session"
    ),
}
HEAVY = ("fsrs", "sqlalchemy", "numpy", "sympy", "recall.store")


def once(statement: str) -> tuple[float, list[str]]:
    code = (
        f"{PRELUDE}\nt = time.perf_counter()\n{statement}\n"
        "print(json.dumps([(time.perf_counter() - t) * 1000, "
        f"[m for m in {HEAVY!r} if m in sys.modules]]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    ms, heavy = json.loads(done.stdout)
    return float(ms), list(heavy)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=15, help="runs per step (default 15)")
    args = parser.parse_args()
    for label, statement in STEPS.items():
        runs = [once(statement) for _ in range(args.n)]
        best = min(ms for ms, _ in runs)
        heavy = runs[0][1]
        print(f"{label:62s} best {best:7.2f} ms   heavy loaded: {', '.join(heavy) or 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
