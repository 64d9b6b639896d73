"""``recall anki import`` of a large Anki package: wall time, CPU time and peak memory.

Usage::

    python benchmarks/bench_anki_import.py [--notes 10000] [--reviews 100000] [--sm2 0.2]
        [--by-hand] [--profile DIR]

The package: ``--notes`` Basic notes in one deck (a tenth with a MathJax formula back, the rest
HTML text), one review card each with FSRS state in ``data`` (a ``--sm2`` share without, which
the import rebuilds by replaying their reviews through FSRS), ``--reviews`` revlog rows spread
over the cards, and a few rows the import skips (manual, cram). Where the official ``anki``
wheel is installed (the ``oracle`` extra) the wheel builds it: the notes added through its API,
the schedules and revlog rows (which it adds only by answering cards) written through its
database handle, and the package exported by it in its current format (``collection.anki21b``,
zstd). Otherwise, or with ``--by-hand``, the same content is written by hand as a schema-11
``collection.anki2`` in Anki's layout (as ``tests/anki_packages.py`` does).

``recall anki import`` then runs on it in a fresh process and a fresh ``RECALL_HOME``, and again
(the second import changes nothing, and says so). Prints each run's wall time, its CPU time
(user + system: what the import costs whatever else the machine is doing) and the child's peak
resident memory (``ru_maxrss``). Target from the issue, on the two-core machine: under 10 s and
under 300 MB. Figures are printed, never asserted. ``--profile DIR`` runs each import under
:mod:`cProfile` and writes ``DIR/first.prof`` and ``DIR/second.prof`` (read them with
``python -m pstats``); the times it prints then include the profiler's overhead. A smaller
``--notes``/``--reviews`` is the quick way to work on the import.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from recall.interop.anki_schema import TABLES, deck_entry  # noqa: E402

DAY_MS = 86_400_000
DECK = 1_500_000_000_100
BASIC = 1_500_000_000_001
NOTE0 = 1_400_000_000_000
CARD0 = 1_450_000_000_000


@dataclass
class Content:
    """What the package holds, whoever writes it: each note's front and back, its card's
    schedule (due day, FSRS ``data`` or ``""``) and the revlog rows, by note number."""

    crt: int
    fields: list[tuple[str, str]] = field(default_factory=list)
    schedules: list[tuple[int, str]] = field(default_factory=list)
    #: (id ms, note number, ease, ivl, factor, time ms, type)
    revlog: list[tuple[int, int, int, int, int, int, int]] = field(default_factory=list)


def content(notes: int, reviews: int, sm2_share: float) -> Content:
    rng = random.Random(7)
    now_ms = int(time.time() * 1000)
    made = Content(crt=int(time.time()) - 400 * 86_400)
    today = (now_ms // 1000 - made.crt) // 86_400
    per_card = max(1, reviews // notes)
    for n in range(notes):
        if n % 10 == 0:
            back = rf"\(\frac{{a_{n % 7}}}{{1 + e^{{-x}}}}\)"
        else:
            back = f"Answer number {n}: a <b>sentence</b> of text with &amp; entities<br>here."
        made.fields.append((f"Question {n}?", back))
        at = now_ms - 300 * DAY_MS + rng.randrange(0, 30 * DAY_MS)
        for k in range(per_card):
            rtype = 0 if k < 2 else 1
            ease = 3 if rng.random() > 0.1 else 1
            made.revlog.append((at, n, ease, k, 2500, rng.randrange(1000, 20000), rtype))
            at += DAY_MS * (1 + k * 2)
        data = ""
        if rng.random() >= sm2_share:
            s, d = round(rng.uniform(1, 80), 3), round(rng.uniform(1, 10), 3)
            data = json.dumps({"s": s, "d": d, "dr": 0.9, "lrt": at // 1000})
        made.schedules.append((today + rng.randrange(-5, 60), data))
    # a few rows the import lists as skipped: a manual change of the due date, a cram review
    for n in range(0, notes, 500):
        made.revlog.append((now_ms - n - 7, n, 0, 0, 0, 0, 4))
        made.revlog.append((now_ms - n - 9, n, 3, 0, 0, 900, 3))
    return made


def build_by_hand(target: Path, made: Content) -> Path:
    """A schema-11 ``collection.anki2`` in Anki's layout, zipped as an ``.apkg``."""
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
    reps = len(made.revlog) // max(1, len(made.fields))
    with sqlite3.connect(database) as db:
        db.executescript(TABLES)
        db.execute(
            "INSERT INTO col VALUES (1, ?, 0, 0, 11, 0, 0, 0, ?, ?, ?, '{}', '{}')",
            (
                made.crt,
                json.dumps({"schedVer": 2, "creationOffset": 0, "rollover": 4}),
                json.dumps({str(BASIC): model}),
                json.dumps(decks),
            ),
        )
        db.executemany(
            "INSERT INTO notes VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (
                (NOTE0 + n, f"g{n}", BASIC, 0, 0, "", f"{front}\x1f{back}", n, 0, 0, "")
                for n, (front, back) in enumerate(made.fields)
            ),
        )
        db.executemany(
            "INSERT INTO cards VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                (
                    CARD0 + n,
                    NOTE0 + n,
                    DECK,
                    0,
                    0,
                    0,
                    2,
                    2,
                    due,
                    10,
                    2500,
                    reps,
                    0,
                    0,
                    0,
                    0,
                    0,
                    data,
                )
                for n, (due, data) in enumerate(made.schedules)
            ),
        )
        db.executemany(
            "INSERT INTO revlog VALUES (?,?,0,?,?,0,?,?,?)",
            ((at, CARD0 + n, *rest) for at, n, *rest in made.revlog),
        )
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(database, "collection.anki2")
        archive.writestr("media", "{}")
    database.unlink()
    return target


def build_with_wheel(target: Path, made: Content) -> Path:
    """The same content in a collection of the official ``anki`` wheel (notes added through
    its API; the schedules and revlog rows, which it adds only by answering cards, written
    with SQL through its database handle), exported by the wheel in its current format
    (``collection.anki21b``, zstd-compressed schema 18)."""
    from anki.collection import AddNoteRequest, Collection, ExportAnkiPackageOptions

    col = Collection(str(target.with_suffix(".anki2")))
    try:
        basic = col.models.by_name("Basic")
        deck = col.decks.id("Big::Deck")
        requests = []
        for front, back in made.fields:
            note = col.new_note(basic)
            note["Front"], note["Back"] = front, back
            requests.append(AddNoteRequest(note=note, deck_id=deck))
        col.add_notes(requests)
        cards = [cid for (cid,) in col.db.all("SELECT id FROM cards ORDER BY nid")]
        reps = len(made.revlog) // max(1, len(made.fields))

        def write_schedules_and_revlog() -> None:
            col.db.execute("UPDATE col SET crt = ?", made.crt)
            col.db.executemany(
                "UPDATE cards SET type = 2, queue = 2, due = ?, ivl = 10, factor = 2500,"
                " reps = ?, data = ? WHERE id = ?",
                [
                    (due, reps, data, cid)
                    for cid, (due, data) in zip(cards, made.schedules, strict=True)
                ],
            )
            col.db.executemany(
                "INSERT INTO revlog VALUES (?,?,0,?,?,0,?,?,?)",
                [(at, cards[n], *rest) for at, n, *rest in made.revlog],
            )

        # one transaction: row by row, the wheel commits (and syncs to disk) each statement
        col.db.transact(write_schedules_and_revlog)
        col.export_anki_package(
            out_path=str(target),
            options=ExportAnkiPackageOptions(with_scheduling=True, with_media=False, legacy=False),
            limit=None,
        )
    finally:
        col.close()
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
    parser.add_argument(
        "--by-hand",
        action="store_true",
        help="build the package by hand (schema 11) even where the anki wheel is installed",
    )
    args = parser.parse_args()
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        made = content(args.notes, args.reviews, args.sm2)
        target = Path(scratch) / "big.apkg"
        wheel = not args.by_hand and importlib.util.find_spec("anki") is not None
        started = time.perf_counter()
        package = build_with_wheel(target, made) if wheel else build_by_hand(target, made)
        how = "by the anki wheel (anki21b)" if wheel else "by hand (schema-11 anki2)"
        print(
            f"package: {args.notes:,} notes, {len(made.revlog):,} revlog rows, "
            f"{package.stat().st_size / 1e6:.1f} MB, built {how} "
            f"in {time.perf_counter() - started:.1f} s"
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
