"""Import limits benchmark: time and peak memory of imports refused and accepted at the limits.

    python benchmarks/bench_import_limits.py            # all figures
    python benchmarks/bench_import_limits.py --quick    # review logs of 100k rows, not 1M

Each case runs ``recall`` as a new process on a fresh data directory and prints its wall time
and its peak resident memory (``ru_maxrss`` of that child, from ``os.wait4``), so the start-up of
Python and recall is included (about 40 MB, 0.3 s on a quiet machine):

* ``decks import`` of a 1,000,000-row CSV: refused before it is read (the issue: 80 s, 1.6 GB,
  and a 95 MB deck left in the decks folder);
* ``decks import`` of a file just under the 4 MiB input limit holding 1,000,000 short rows:
  refused at the first row past 2,000 cards;
* ``decks import`` accepted at the limits: 2,000 cards making a deck just under 1 MiB;
* ``reviews import`` of 1,000,000 rows (the issue: 1.16 GB), none matching a card, and of
  200,000 rows matching one card (stored in batches).

Target from the issue: a refusal in under 1 s; memory under 200 MB for anything accepted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECALL = [sys.executable, "-c", "from recall.cli import main; raise SystemExit(main())"]


def run(home: Path, *args: str) -> tuple[float, float, int, str]:
    """(seconds, peak MB, exit status, last line of output) of one ``recall`` process."""
    env = {**os.environ, "RECALL_HOME": str(home)}
    env.pop("RECALL_DB", None)
    env.pop("RECALL_DECKS", None)
    started = time.perf_counter()
    child = subprocess.Popen(
        [*RECALL, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    assert child.stdout is not None
    output = child.stdout.read()
    _pid, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    peak_mb = usage.ru_maxrss / 1024  # kilobytes on Linux
    last = (output.strip().splitlines() or [""])[-1]
    return seconds, peak_mb, child.returncode, last[:110]


def report(name: str, figures: tuple[float, float, int, str]) -> None:
    seconds, peak, status, last = figures
    print(f"{name:<48} {seconds:6.2f} s  {peak:7.1f} MB  exit {status}")
    print(f"    {last}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="review logs of 100k rows")
    quick = parser.parse_args().quick
    with tempfile.TemporaryDirectory() as scratch:
        tmp = Path(scratch)

        big = tmp / "million.csv"
        with big.open("w", encoding="utf-8") as out:
            out.writelines(f"front number {i},back number {i}\n" for i in range(1_000_000))
        home = tmp / "h1"
        report(
            f"decks import 1M rows ({big.stat().st_size >> 20} MiB)",
            run(home, "decks", "import", str(big)),
        )
        assert not (home / "decks").exists() or not any((home / "decks").iterdir())

        short = tmp / "short.csv"
        with short.open("w", encoding="utf-8") as out:
            out.writelines(f"{i % 10},{i % 7}\n" for i in range(1_000_000))
        size = short.stat().st_size / (1 << 20)
        report(
            f"decks import 1M short rows ({size:.1f} MiB)",
            run(tmp / "h2", "decks", "import", str(short)),
        )

        fits = tmp / "at_limit.csv"
        pad = "y" * 400
        with fits.open("w", encoding="utf-8") as out:
            out.writelines(f"front {i},back {i} {pad}\n" for i in range(2_000))
        home = tmp / "h3"
        report("decks import at the limits (2,000 cards)", run(home, "decks", "import", str(fits)))
        written = list((home / "decks").glob("*.toml"))
        if written:
            print(f"    deck written: {written[0].stat().st_size / (1 << 20):.2f} MiB")

        rows = 100_000 if quick else 1_000_000
        log = tmp / "reviews.csv"
        with log.open("w", encoding="utf-8") as out:
            out.write("card_id,review_time,review_rating\n")
            out.writelines(f"ghost/card{i % 50},{1_700_000_000_000 + i},3\n" for i in range(rows))
        report(
            f"reviews import {rows:,} rows, unmatched",
            run(tmp / "h4", "reviews", "import", str(log)),
        )

        matched = 20_000 if quick else 200_000
        log = tmp / "matched.csv"
        with log.open("w", encoding="utf-8") as out:
            out.write("card_id,review_time,review_rating\n")
            out.writelines(
                f"activations/sigmoid,{1_700_000_000_000 + i},3\n" for i in range(matched)
            )
        report(
            f"reviews import {matched:,} rows, matched",
            run(tmp / "h5", "reviews", "import", str(log)),
        )


if __name__ == "__main__":
    main()
