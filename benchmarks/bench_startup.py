"""Time from process start to the first painted home screen (best of N), and modules loaded.

Each run spawns a fresh interpreter running ``benchmarks/startup_probe.py`` headless at 80x24
on a throwaway data directory; the clock starts just before the spawn, so interpreter start-up
is included, and stops when the home screen's first frame has been drawn. Also reports the
time until the deck counts are on screen and the engine is warm (``--full``).

    python benchmarks/bench_startup.py [-n 10] [--full] [--no-cli] [--no-deck-cache]
        [--no-bytecode-cache]

Then, through the real entry point (:mod:`cli_start_probe`, on a second start: a first run has
filled the database and the parsed-deck cache): from ``recall drill --minutes 10`` to the first
card's prompt on screen, and from ``recall`` to the home screen with real counts (best of N).
``--no-deck-cache`` turns the parsed-deck cache off, to see what it saves. Compiled bytecode is
kept between the runs, as an installed recall has it (``--no-bytecode-cache``: as the environment
says; with ``PYTHONDONTWRITEBYTECODE=1`` every start compiles recall's modules again). Each
figure comes with the process's CPU time by then, steadier than wall time on a shared machine.

Targets: first frame ≤ 0.6 s (issue 5); first prompt ≤ 1.0 s and home with counts ≤ 0.8 s
(issue 11), on a quiet 2-core machine.
"""

from __future__ import annotations

import argparse
import contextlib
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


#: Where the spawned interpreters keep compiled bytecode (see :func:`child_env`); ``None``: as
#: this environment says.
BYTECODE_DIR: str | None = None


def child_env(home: str) -> dict[str, str]:
    """The environment of a measured process: a throwaway data directory, and compiled
    bytecode kept between runs in :data:`BYTECODE_DIR` (an installed recall has its ``.pyc``
    files; a checkout run with ``PYTHONDONTWRITEBYTECODE=1`` would otherwise compile every
    module of recall at every start)."""
    env = {**os.environ, "RECALL_HOME": home}
    env.pop("RECALL_DB", None)
    env.pop("RECALL_DECKS", None)
    if BYTECODE_DIR is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = BYTECODE_DIR
    return env


def run_once(full: bool, home: str) -> dict[str, object]:
    env = child_env(home)
    spawned = time.time()
    args = [sys.executable, "-m", "benchmarks.startup_probe", repr(spawned)]
    if full:
        args.append("--wait-load")
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


#: The probe that runs the real command line headless (next to this file).
CLI_PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cli_start_probe.py")


def run_cli(until: str, argv: list[str], home: str, deck_cache: bool) -> tuple[float, float]:
    """Seconds from spawning ``recall ARGV`` until ``until`` is on screen, and the CPU seconds
    the process had used by then (see the probe)."""
    env = child_env(home)
    if not deck_cache:
        env["RECALL_NO_DECK_CACHE"] = "1"
    spawned = time.time()
    args = [sys.executable, CLI_PROBE, repr(spawned), until, *argv]
    done = subprocess.run(args, capture_output=True, text=True, env=env, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    return float(report["seconds"]), float(report["cpu"])


def cli_figures(runs: int, deck_cache: bool) -> None:
    """Print the two command-line start-up figures, best and median of ``runs`` second starts."""
    cases = [
        ("recall drill --minutes 10 → first prompt", "prompt", ["drill", "--minutes", "10"], 1.0),
        ("recall → home screen with counts", "home", [], 0.8),
    ]
    with tempfile.TemporaryDirectory() as home:
        run_cli("home", [], home, deck_cache)  # the first start: database and cache filled
        for label, until, argv, target in cases:
            figures = [run_cli(until, argv, home, deck_cache) for _ in range(runs)]
            times = [wall for wall, _cpu in figures]
            cpu = [used for _wall, used in figures]
            print(
                f"{label}: best {min(times):.3f} s, median {statistics.median(times):.3f} s "
                f"over {runs} second starts (target ≤ {target} s"
                f"{'' if deck_cache else ', deck cache off'}); CPU by then: best "
                f"{min(cpu):.3f} s, median {statistics.median(cpu):.3f} s"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=10, help="runs (default 10)")
    parser.add_argument("--full", action="store_true", help="also time loading and warm-up")
    parser.add_argument("--no-cli", action="store_true", help="skip the command-line figures")
    parser.add_argument(
        "--no-deck-cache", action="store_true", help="command-line figures without the deck cache"
    )
    parser.add_argument(
        "--no-bytecode-cache",
        action="store_true",
        help="keep this environment's bytecode setting (PYTHONDONTWRITEBYTECODE=1 compiles "
        "recall's modules at every start)",
    )
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        global BYTECODE_DIR
        if not args.no_bytecode_cache:
            BYTECODE_DIR = stack.enter_context(tempfile.TemporaryDirectory())
        return measure(args)


def measure(args: argparse.Namespace) -> int:
    """Print every figure (see the module's docstring)."""
    print(
        "bytecode: "
        + ("as this environment says" if BYTECODE_DIR is None else "compiled once and kept")
    )
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
    if not args.no_cli:
        cli_figures(args.n, deck_cache=not args.no_deck_cache)
    return 0


if __name__ == "__main__":
    sys.exit(main())
