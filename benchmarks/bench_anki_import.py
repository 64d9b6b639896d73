"""``recall anki import`` of a large Anki package: wall time and peak memory.

Usage::

    python benchmarks/bench_anki_import.py [--notes 10000] [--reviews 100000] [--sm2 0.2]
        [--profile DIR]

Builds a schema-11 collection in Anki's layout (the same hand-built layout the import tests use,
``tests/anki_packages.py``): ``--notes`` Basic notes (a tenth with a MathJax formula back, the
rest text), one card each (review cards with FSRS state in ``data``, a ``--sm2`` share without,
which the import rebuilds by replaying their reviews through FSRS), ``--reviews`` revlog rows
spread over the cards, a few of them rows the import skips (manual, cram). It zips that as an
``.apkg`` and runs ``recall anki import`` on it in a fresh process and a fresh ``RECALL_HOME``,
then again (the second import changes nothing).

Prints the package's size, each run's wall time, its CPU time (user + system: what the import
costs whatever else the machine is doing) and the child's peak resident memory (``ru_maxrss``).
Target from the issue, on the two-core machine: under 10 s and under 300 MB.
Figures are printed, never asserted. ``--profile DIR`` runs each import under :mod:`cProfile`
and writes ``DIR/first.prof`` and ``DIR/second.prof`` (read them with ``python -m pstats``);
the times it prints then include the profiler's overhead. A smaller ``--notes``/``--reviews``
is the quick way to work on the import.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from recall.interop.anki_schema import TABLES, deck_entry  # noqa: E402

DAY_MS = 86_400_000
DECK = 1_500_000_000_100
BASIC = 1_500_000_000_001


def build(target: Path, notes: int, reviews: int, sm2_share: float) -> Path:
    rng = random.Random(7)
    now_ms = int(time.time() * 1000)
    crt = int(time.time()) - 400 * 86_400
    today = (now_ms // 1000 - crt) // 86_400
    model = {
        "id": BASIC,
        "name": "Basic",
        "type": 0,
        "mod": 0,
        "usn": 0,
        "sortf": 0,
        "did": 1,
        "tmpls": [{"name": "Card 1", "ord": 0, "qfmt": "{{Front}}", "afmt": "{{Back}}"}],
        "flds": [
            {"name": n, "ord": i, "sticky": False, "rtl": False, "font": "Arial", "size": 20}
            for i, n in enumerate(("Front", "Back"))
        ],
        "css": "",
    }
    decks = {"1": deck_entry(1, "Default", 0), str(DECK): deck_entry(DECK, "Big::Deck", 0)}
    database = target.with_suffix(".anki2")
    per_card = max(1, reviews // notes)
    with sqlite3.connect(database) as db:
        db.executescript(TABLES)
        db.execute(
            "INSERT INTO col VALUES (1, ?, 0, 0, 11, 0, 0, 0, ?, ?, ?, '{}', '{}')",
            (
                crt,
                json.dumps({"schedVer": 2, "creationOffset": 0, "rollover": 4}),
                json.dumps({str(BASIC): model}),
                json.dumps(decks),
            ),
        )
        note_rows, card_rows, revlog = [], [], []
        for n in range(notes):
            nid, cid = 1_400_000_000_000 + n, 1_450_000_000_000 + n
            if n % 10 == 0:
                back = rf"\(\frac{{a_{n % 7}}}{{1 + e^{{-x}}}}\)"
            else:
                back = f"Answer number {n}: a <b>sentence</b> of text with &amp; entities<br>here."
            note_rows.append(
                (nid, f"g{n}", BASIC, 0, 0, "", f"Question {n}?\x1f{back}", n, 0, 0, "")
            )
            start = now_ms - 300 * DAY_MS + rng.randrange(0, 30 * DAY_MS)
            at = start
            for k in range(per_card):
                rtype = 0 if k < 2 else 1
                ease = 3 if rng.random() > 0.1 else 1
                revlog.append((at, cid, 0, ease, k, 0, 2500, rng.randrange(1000, 20000), rtype))
                at += DAY_MS * (1 + k * 2)
            data = ""
            if rng.random() >= sm2_share:
                data = json.dumps(
                    {
                        "s": round(rng.uniform(1, 80), 3),
                        "d": round(rng.uniform(1, 10), 3),
                        "dr": 0.9,
                        "lrt": at // 1000,
                    }
                )
            due = today + rng.randrange(-5, 60)
            card_rows.append(
                (cid, nid, DECK, 0, 0, 0, 2, 2, due, 10, 2500, per_card, 0, 0, 0, 0, 0, data)
            )
        # a few rows the import lists as skipped
        for n in range(0, notes, 500):
            revlog.append((now_ms - n - 7, 1_450_000_000_000 + n, 0, 0, 0, 0, 0, 0, 4))
            revlog.append((now_ms - n - 9, 1_450_000_000_000 + n, 0, 3, 0, 0, 0, 900, 3))
        db.executemany("INSERT INTO notes VALUES (?,?,?,?,?,?,?,?,?,?,?)", note_rows)
        db.executemany("INSERT INTO cards VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", card_rows)
        db.executemany("INSERT INTO revlog VALUES (?,?,?,?,?,?,?,?,?)", revlog)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(database, "collection.anki2")
        archive.writestr("media", "{}")
    database.unlink()
    return target


def run(package: Path, home: Path, profile: Path | None) -> tuple[float, float, float, str]:
    env = {**os.environ, "RECALL_HOME": str(home)}
    env.pop("RECALL_DB", None)
    env.pop("RECALL_DECKS", None)
    arguments = ["anki", "import", str(package)]
    if profile is None:
        command = f"status = main({arguments!r})\n"
    else:
        command = (
            f"profiler = cProfile.Profile()\nstatus = profiler.runcall(main, {arguments!r})\n"
            f"profiler.dump_stats({str(profile)!r})\n"
        )
    code = (
        "import cProfile, resource, sys\n"
        "from recall.cli import main\n"
        + command
        + "use = resource.getrusage(resource.RUSAGE_SELF)\n"
        "print('peak_kb', use.ru_maxrss, use.ru_utime + use.ru_stime, file=sys.stderr)\n"
        "sys.exit(status)\n"
    )
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"import failed ({done.returncode}):\n{done.stderr}")
    peak_kb, cpu = next(
        (int(line.split()[1]), float(line.split()[2]))
        for line in done.stderr.splitlines()
        if line.startswith("peak_kb")
    )
    return elapsed, cpu, peak_kb / 1024, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--reviews", type=int, default=100_000)
    parser.add_argument("--sm2", type=float, default=0.2, help="share of cards without FSRS data")
    parser.add_argument("--profile", type=Path, help="write cProfile stats of each run here")
    args = parser.parse_args()
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        package = build(Path(scratch) / "big.apkg", args.notes, args.reviews, args.sm2)
        print(
            f"package: {args.notes:,} notes, {args.reviews:,} reviews, "
            f"{package.stat().st_size / 1e6:.1f} MB zipped"
        )
        home = Path(scratch) / "home"
        runs = (("first", "first import"), ("second", "second import (changes nothing)"))
        for name, label in runs:
            profile = None if args.profile is None else args.profile / f"{name}.prof"
            elapsed, cpu, peak_mb, out = run(package, home, profile)
            summary = [line for line in out.splitlines() if "review" in line or "schedules" in line]
            print(
                f"{label}: {elapsed:.2f} s wall, {cpu:.2f} s CPU (user + system), "
                f"peak RSS {peak_mb:.0f} MB"
            )
            for line in summary[:3]:
                print(f"    {line}")
    load = os.getloadavg()[0]
    print(
        f"target: under 10 s and under 300 MB (load average now {load:.1f} "
        f"on {os.cpu_count()} CPUs:"
    )
    print("  wall time exceeds CPU time by the share of the cores other processes take)")


if __name__ == "__main__":
    main()
