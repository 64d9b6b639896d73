"""Recall's start-up against a bare Textual app, with and without compiled bytecode.

Every figure is printed by one command (best and median of N fresh processes, each with its CPU
seconds by then, which follow the machine's load much less than wall time):

    python benchmarks/bench_startup.py [-n 5] [--bytecode both|compiled|none] [--first-frame]
        [--no-deck-cache] [--before DIR]

``--before DIR`` measures an older tree too (``git archive COMMIT | tar -x -C DIR``), its runs
interleaved with this checkout's, so a before/after comparison sees the same load.

For each bytecode mode, the runs of every measure are interleaved (one of each, N times), so a
burst of load on the shared machine hits them alike and the ratios stay fair:

* **bare app**: :mod:`bare_app_probe`, a Textual app with a header, a 17-row table and a footer:
  the yardstick (what recall's home shows, without recall);
* **home, second start**: ``recall`` until the home table shows real counts, on a data
  directory a first start has filled (database, parsed-deck cache, drawing cache: the first
  start runs until its engine warm-up is over, :mod:`startup_probe` ``--wait-load``); the
  counts come from the prefetching child process (:mod:`recall.tui.home_prefetch`), which
  computes them on the other core while the app imports Textual (``RECALL_PREFETCH=1``: run
  whatever the load; a learner's recall runs it only when a core is idle, and the script
  says whether that was so at the start and the end);
* **home, second start, no prefetch**: the same with ``RECALL_PREFETCH=0`` (the app's load
  worker computes them after the first frame, as before the prefetch), in the same rounds;
* **home, fresh**: the same on a new, empty data directory (the database is created, migrated
  and synced with every deck);
* **first card**: ``recall drill --minutes 10`` until the first prompt is on screen (second
  start).

Bytecode modes: ``compiled`` keeps every module's bytecode in a private folder, compiled by a
first run (as an installed recall and its dependencies have it); ``none`` runs with
``PYTHONDONTWRITEBYTECODE=1`` (as ``python -B``): bytecode already beside a source file is used
(the standard library's, as Python installs it) and nothing is written, so recall's modules (a
checkout without ``__pycache__``) and any dependency installed without bytecode are compiled at
every start. The script says how many of recall's modules had bytecode beside them (0 is the
case measured).

For the homes it also prints the CPU seconds of the whole start by then, the children's
included (the prefetching child is reaped before its counts are shown; ``RUSAGE_CHILDREN``),
and when the app's own load was in (``ready``: keys act from then on; with the prefetch that
is after the counts, without it the same moment).

Goals (issue 19): home with counts ≤ 2× the bare app on a second start, ≤ 1.2 s on a fresh
home, first card ≤ 1.0 s, in both modes. ``--first-frame`` adds the time to the home screen's
first frame (:mod:`startup_probe`; goal ≤ 0.6 s) and what it has imported by then.
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

HERE = Path(__file__).resolve().parent
CLI_PROBE = HERE / "cli_start_probe.py"
BARE_PROBE = HERE / "bare_app_probe.py"
FIRST_FRAME_PROBE = HERE / "startup_probe.py"

#: (label, the probe's arguments after SPAWN_TIME, goal in seconds or None).
BARE = "bare Textual app (header, 17-row table, footer)"
HOME = "recall → home with counts, second start"
HOME_OFF = "recall → the same, RECALL_PREFETCH=0"
FRESH = "recall → home with counts, fresh data directory"
DRILL = "recall drill --minutes 10 → first card"


def child_env(home: str, pycache: str, compiled: bool, deck_cache: bool) -> dict[str, str]:
    """A measured process's environment: its own data directory; compiled, every module's
    bytecode read from and written to ``pycache``; else none written (see the docstring)."""
    env = {**os.environ, "RECALL_HOME": home}
    for name in (
        "RECALL_DB",
        "RECALL_DECKS",
        "RECALL_PREFETCH",
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONPYCACHEPREFIX",
    ):
        env.pop(name, None)
    if compiled:
        env["PYTHONPYCACHEPREFIX"] = pycache
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    if not deck_cache:
        env["RECALL_NO_DECK_CACHE"] = "1"
    return env


def spawn(probe: Path, args: list[str], env: dict[str, str]) -> dict[str, float]:
    """Run one probe in a fresh interpreter; its JSON report (seconds from the spawn)."""
    spawned = time.time()
    done = subprocess.run(
        [sys.executable, str(probe), repr(spawned), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=HERE,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise SystemExit(f"{probe.name} {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return json.loads(lines[-1])


def measure_mode(
    compiled: bool, runs: int, deck_cache: bool, first_frame: bool, before: str | None
) -> None:
    """Print every figure for one bytecode mode (and for the ``before`` tree, interleaved)."""
    trees = [("now", None)] + ([("before", before)] if before else [])
    results: dict[str, dict[str, list[dict[str, float]]]] = {
        name: {HOME: [], HOME_OFF: [], FRESH: [], DRILL: []} for name, _path in trees
    }
    bare: list[dict[str, float]] = []
    firsts: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as scratch:
        pycache = os.path.join(scratch, "pycache")
        os.makedirs(pycache)

        def env_for(data: str, source: str | None) -> dict[str, str]:
            env = child_env(data, pycache, compiled, deck_cache)
            # The probes run from benchmarks/, so this path comes first: the recall measured is
            # the one in the tree this script lives in (or the ``before`` tree), whatever the
            # environment has installed.
            env["PYTHONPATH"] = source or str(HERE.parent)
            return env

        # A first start fills each data directory (and, compiled, the bytecode folder). It runs
        # until the engine warm-up is over, as a learner's first start does before the second:
        # the warm-up writes the drawing cache (cache/shown.json) that a second start's first
        # card reads. (A probe that stops at the counts ends the process before it: the first
        # card's figure then included drawing its formula, SymPy's import with it.)
        for name, source in trees:
            spawn(FIRST_FRAME_PROBE, ["--wait-load"], env_for(os.path.join(scratch, name), source))
        spawn(BARE_PROBE, [], env_for(scratch, None))
        for run in range(runs):
            bare.append(spawn(BARE_PROBE, [], env_for(scratch, None)))
            for name, source in trees:
                home = os.path.join(scratch, name)
                measured = results[name]
                on = {**env_for(home, source), "RECALL_PREFETCH": "1"}
                measured[HOME].append(spawn(CLI_PROBE, ["home"], on))
                if source is None:  # (an older tree has no prefetch to turn off)
                    off = {**env_for(home, source), "RECALL_PREFETCH": "0"}
                    measured[HOME_OFF].append(spawn(CLI_PROBE, ["home"], off))
                measured[DRILL].append(
                    spawn(CLI_PROBE, ["prompt", "drill", "--minutes", "10"], env_for(home, source))
                )
                fresh = os.path.join(scratch, f"{name}-fresh-{run}")
                measured[FRESH].append(spawn(CLI_PROBE, ["home"], env_for(fresh, source)))
            if first_frame:
                firsts.append(spawn(FIRST_FRAME_PROBE, [], env_for(scratch, None)))
    mode = (
        "compiled bytecode"
        if compiled
        else f"no bytecode written (PYTHONDONTWRITEBYTECODE=1; {_recall_bytecode()} of recall's "
        "modules had bytecode beside them)"
    )
    print(f"\n{mode}, best / median of {runs} (CPU seconds by then, best / median):")
    wall_bare = [r["seconds"] for r in bare]
    cpu_bare = [r["cpu"] for r in bare]
    print(
        f"  {BARE:<50} {min(wall_bare):.3f} / {statistics.median(wall_bare):.3f} s"
        f"  (CPU {min(cpu_bare):.3f} / {statistics.median(cpu_bare):.3f} s)"
    )
    for name, _source in trees:
        if before:
            print(f"  {name} ({before if name == 'before' else 'this checkout'}):")
        for label, reports in results[name].items():
            if not reports:
                continue
            wall = [r["seconds"] for r in reports]
            cpu = [r["cpu"] for r in reports]
            print(
                f"  {label:<50} {min(wall):.3f} / {statistics.median(wall):.3f} s"
                f"  (CPU {min(cpu):.3f} / {statistics.median(cpu):.3f} s)"
                f"   ×{min(wall) / min(wall_bare):.2f} / "
                f"×{statistics.median(wall) / statistics.median(wall_bare):.2f} bare"
                f" (CPU ×{min(cpu) / min(cpu_bare):.2f} / "
                f"×{statistics.median(cpu) / statistics.median(cpu_bare):.2f})"
            )
            if label in (HOME, HOME_OFF):
                whole = [r["cpu"] + r.get("cpu_children", 0.0) for r in reports]
                ready = [r["ready_seconds"] for r in reports if "ready_seconds" in r]
                print(
                    f"  {'':<4}CPU with the child processes {min(whole):.3f} / "
                    f"{statistics.median(whole):.3f} s; own load in (keys act) "
                    + (f"{min(ready):.3f} / {statistics.median(ready):.3f} s" if ready else "—")
                )
    if firsts:
        first = [float(r["first_paint"]) for r in firsts]
        print(
            f"  {'recall → home first frame (goal ≤ 0.6 s)':<50} {min(first):.3f} / "
            f"{statistics.median(first):.3f} s; heavy modules then: "
            f"{firsts[0]['heavy_at_first_paint'] or 'none'}"
        )
    for kind, unit, bare_best in (
        ("seconds", "wall", min(wall_bare)),
        ("cpu", "CPU", min(cpu_bare)),
    ):
        now = {label: min(r[kind] for r in reports) for label, reports in results["now"].items()}
        # By CPU, the home is the one without the prefetch: the prefetch spends more CPU in
        # all, on two cores, to take wall time off; its CPU says nothing of its wall time.
        home = now[HOME] if kind == "seconds" else now[HOME_OFF]
        print(
            f"  goals by {unit} (this checkout, best run): home second start ≤ 2× bare"
            f"{'' if kind == 'seconds' else ' (no prefetch)'}: "
            f"{'met' if home <= 2 * bare_best else 'missed'}; fresh home ≤ 1.2 s: "
            f"{'met' if now[FRESH] <= 1.2 else 'missed'}; first card ≤ 1.0 s: "
            f"{'met' if now[DRILL] <= 1.0 else 'missed'}"
        )
    print(
        "  (the goals are wall times; on a loaded machine the CPU seconds are what a quiet "
        "machine's wall time would be, about, for a start that uses one core)"
    )


def _auto() -> str:
    """Whether a learner's recall would prefetch its home counts at this load."""
    sys.path.insert(0, str(HERE.parent))
    try:
        from recall.tui.home_prefetch import spare_core
    finally:
        sys.path.pop(0)
    return f"a learner's recall would{'' if spare_core() else ' not'} prefetch"


def _recall_bytecode() -> int:
    """How many compiled files sit in ``__pycache__`` folders of the recall package."""
    package = HERE.parent / "recall"
    return sum(1 for _ in package.rglob("__pycache__/*.pyc"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=5, help="runs of each measure (default 5)")
    parser.add_argument(
        "--bytecode", choices=("both", "compiled", "none"), default="both", help="default both"
    )
    parser.add_argument(
        "--first-frame", action="store_true", help="also time the home screen's first frame"
    )
    parser.add_argument(
        "--no-deck-cache", action="store_true", help="turn the parsed-deck cache off"
    )
    parser.add_argument(
        "--before",
        metavar="DIR",
        help="also measure the recall package in DIR (e.g. `git archive COMMIT | tar -x -C DIR`),"
        " interleaved with this checkout's runs so both see the same load",
    )
    args = parser.parse_args()
    load = os.getloadavg()
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores; load average "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the start ({_auto()})"
    )
    modes = {"both": (True, False), "compiled": (True,), "none": (False,)}[args.bytecode]
    for compiled in modes:
        measure_mode(compiled, args.n, not args.no_deck_cache, args.first_frame, args.before)
    load = os.getloadavg()
    print(f"\nload average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} at the end ({_auto()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
