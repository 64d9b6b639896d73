"""Time from process start to the first painted home screen (best of N), and modules loaded.

Each run spawns a fresh interpreter running ``benchmarks/startup_probe.py`` headless at 80x24
on a throwaway data directory; the clock starts just before the spawn, so interpreter start-up
is included, and stops when the home screen's first frame has been drawn. Also reports the
time until the deck counts are on screen and the engine is warm (``--full``).

    python benchmarks/bench_startup.py [-n 10] [--full]

Target (issue 5): first frame ≤ 0.6 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The checkout's root, where ``python -m benchmarks.startup_probe`` runs from.
ROOT = Path(__file__).resolve().parent.parent


def run_once(full: bool, home: str) -> dict[str, object]:
    env = {**os.environ, "RECALL_HOME": home}
    env.pop("RECALL_DB", None)
    env.pop("RECALL_DECKS", None)
    spawned = time.time()
    args = [sys.executable, "-m", "benchmarks.startup_probe", repr(spawned)]
    if full:
        args.append("--wait-load")
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=10, help="runs (default 10)")
    parser.add_argument("--full", action="store_true", help="also time loading and warm-up")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        run_once(True, home)  # create and fill the database once, as a learner's second start
        reports = [run_once(args.full, home) for _ in range(args.n)]
    firsts = [float(r["first_paint"]) for r in reports]
    print(
        f"first frame: best {min(firsts):.3f} s, median {statistics.median(firsts):.3f} s "
        f"over {len(firsts)} runs (target ≤ 0.6 s)"
    )
    print(
        f"modules loaded at first frame: {reports[0]['modules']}; "
        f"heavy modules loaded then: {reports[0]['heavy_at_first_paint'] or 'none'}"
    )
    if args.full:
        loaded = [float(r["loaded"]) for r in reports]
        warm = [float(r["warm"]) for r in reports]
        print(
            f"deck counts on screen: best {min(loaded):.3f} s, median "
            f"{statistics.median(loaded):.3f} s"
        )
        print(
            f"engine warm: best {min(warm):.3f} s, median {statistics.median(warm):.3f} s; "
            f"heavy modules then: {reports[0]['heavy_after_warm']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
