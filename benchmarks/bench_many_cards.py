"""Start-up with many custom cards: 10 generated decks of 2,000 cards each (issue 18, item 7).

    python benchmarks/bench_many_cards.py [--decks 10] [--cards 2000] [-n 3] [--seed 7]
        [--before DIR]

``--before DIR`` measures an older tree too (``git archive COMMIT | tar -x -C DIR``) on the
same generated decks in a data directory of its own, every run of it interleaved with this
checkout's (first starts, then each later start in turn), so both see the same load; a table
gives both and their ratio. The probe is this tree's for both (it runs the tree's
``recall.cli`` through ``PYTHONPATH``).

Writes ``--decks`` deck files of ``--cards`` cards into the custom decks folder of a throwaway
data directory, then times ``recall`` from spawning the interpreter until the home screen shows
the deck table with real counts (:mod:`cli_start_probe`, the same probe as
``bench_start-up``'s command-line figures):

* **first start**: nothing cached yet. The home screen shows the built-in decks' counts
  first, then checks every custom deck file with the formula engine in a worker (parse,
  checks, siblings, the store filled) and adds its cards to the counts: both moments are
  printed, the first paint with counts and the moment every custom card is counted;
* **later start** (best and median of ``-n``): the parsed-deck cache and the database are warm.

The cards are drawn from a seeded generator with the mix of a real deck (formulas, facts,
reverse and cloze cards), with prompts that mention other cards' vocabulary so the sibling scan
has real work. Each figure comes with the CPU seconds the process had used by then (steadier than
wall time on a shared machine). Goal on a two-core machine: first start ≤ 3 s, later ≤ 1.2 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The probe that runs the real command line headless (next to this file).
PROBE = Path(__file__).resolve().parent / "cli_start_probe.py"

_SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "pe", "su", "do", "gar", "fen")
_TOPICS = ("loss", "norm", "head", "step", "prior", "score", "rate", "layer", "mask", "gate")
_SYMBOLS = ("x", "y", "w", "b", "mu", "sigma", "alpha", "beta", "eta", "lam")


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))


def _formula(rng: random.Random) -> str:
    a, b, c = rng.sample(_SYMBOLS, 3)
    shapes = (
        f"{a}*{b} + {c}",
        f"({a} - {b})^2/{c}",
        f"exp(-{a}/{b})*{c}",
        f"{a}/(1 + exp(-{b}*{c}))",
        f"log(1 + {a}^2) - {b}*{c}",
        f"sqrt({a}^2 + {b}^2)*{c}",
    )
    coefficient = rng.randint(2, 97)
    return f"{coefficient}*({rng.choice(shapes)})"


def _card(rng: random.Random, index: int, names: list[str]) -> str:
    """One card in TOML; its prompt names two other cards' words (vocabulary, not answers)."""
    context = " and ".join(rng.sample(names, 2))
    topic = rng.choice(_TOPICS)
    kind = rng.choices(("formula", "fact", "reverse", "cloze"), (4, 2, 2, 2))[0]
    head = f'[[card]]\nid = "c{index}"\nkind = "{kind}"\n'
    if kind == "formula":
        return (
            head + f'prompt = "The {topic} of the {context} rule, card {index}: type it."\n'
            f'answer = "{_formula(rng)}"\n'
        )
    if kind == "fact":
        value = round(rng.uniform(1, 5000), 3)
        return (
            head
            + f'prompt = "The {topic} constant of {context} (item {index})?"\nvalue = {value}\n'
        )
    if kind == "reverse":
        return (
            head + f'prompt = "Name this {topic} (item {index}), used with {context}."\n'
            f'shown = "{_formula(rng)}"\naccept = ["{names[index]}"]\n'
        )
    return (
        head + f'text = "The {topic} of {context} is called the {{{{}}}} rule (item {index})."\n'
        f'accept = ["{names[index]}"]\n'
    )


def write_deck(folder: Path, number: int, cards: int, seed: int) -> None:
    rng = random.Random(seed * 1000 + number)
    names = [f"{_word(rng)} {_word(rng)}" for _ in range(cards)]
    symbols = "\n".join(f'{s} = "real"' for s in _SYMBOLS)
    body = "\n".join(_card(rng, i, names) for i in range(cards))
    text = (
        f'[deck]\nid = "many-{number}"\nname = "Many {number}"\n\n'
        f"[deck.symbols]\n{symbols}\n\n{body}"
    )
    (folder / f"many-{number}.toml").write_text(text, encoding="utf-8")


def parse_only_in(folder: Path, source: str | None) -> tuple[float, float]:
    """:func:`parse_only` in a fresh interpreter running the recall of ``source`` (a tree's
    root; ``None``: this checkout)."""
    env = {**os.environ, "PYTHONPATH": source or str(Path(__file__).resolve().parent.parent)}
    done = subprocess.run(
        [sys.executable, __file__, "--parse-only-in", str(folder)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the parse failed:\n{done.stderr[-2000:]}")
    wall, cpu = json.loads(done.stdout.strip().splitlines()[-1])
    return float(wall), float(cpu)


def parse_only(folder: Path) -> tuple[float, float]:
    """Seconds to read every deck of ``folder`` and find its siblings, in this process, with
    the parsed-deck cache off and without the formula engine's checks: the part of a first
    start that grows with the cards in :mod:`recall.cards` alone."""
    os.environ["RECALL_NO_DECK_CACHE"] = "1"
    from recall.cards.loader import load_decks

    began, began_cpu = time.perf_counter(), time.process_time()
    result = load_decks([folder])
    took, cpu = time.perf_counter() - began, time.process_time() - began_cpu
    if not result.ok:
        raise SystemExit(f"a generated deck did not load: {result.errors[:3]}")
    return took, cpu


def start(
    home: str, timeout: float, until: str = "home", source: str | None = None
) -> dict[str, float]:
    """Seconds from spawning ``recall`` until the home screen shows real counts, and CPU
    (``until="home-all"``: until no custom deck is still being checked, with the first counts'
    moment as ``home_seconds`` and ``home_cpu``), running the recall of ``source`` (a tree's
    root; ``None``: this checkout)."""
    env = {**os.environ, "RECALL_HOME": home, "RECALL_PROBE_TIMEOUT": str(timeout)}
    env["PYTHONPATH"] = source or str(Path(__file__).resolve().parent.parent)
    for name in ("RECALL_DB", "RECALL_DECKS", "RECALL_NO_DECK_CACHE"):
        env.pop(name, None)
    spawned = time.time()
    done = subprocess.run(
        [sys.executable, str(PROBE), repr(spawned), until],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        raise SystemExit(f"the start failed:\n{done.stdout}\n{done.stderr[-2000:]}")
    report = json.loads(lines[-1])
    return {k: float(v) for k, v in report.items() if k.endswith(("seconds", "cpu"))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=10)
    parser.add_argument("--cards", type=int, default=2000, help="cards per deck (at most 2000)")
    parser.add_argument("-n", type=int, default=3, help="later starts (default 3)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timeout", type=float, default=600, help="longest wait for a start")
    parser.add_argument(
        "--parse-only", action="store_true", help="only the in-process parse + siblings figure"
    )
    parser.add_argument("--before", metavar="DIR", help="an older tree to measure alongside")
    parser.add_argument("--parse-only-in", metavar="FOLDER", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.parse_only_in:  # the child of parse_only_in: one JSON line
        print(json.dumps(parse_only(Path(args.parse_only_in))))
        return 0
    trees: list[tuple[str, str | None]] = [("after", None)]
    if args.before:
        trees.insert(0, ("before", str(Path(args.before).resolve())))
    print(f"load average {os.getloadavg()[0]:.2f} at the start")
    with tempfile.TemporaryDirectory() as scratch:
        homes = {}
        for name, _source in trees:
            homes[name] = os.path.join(scratch, name)
            folder = Path(homes[name]) / "decks"
            folder.mkdir(parents=True)
            for number in range(args.decks):
                write_deck(folder, number, args.cards, args.seed)
        print(f"{args.decks * args.cards} custom cards in {args.decks} decks")
        rows: dict[str, dict[str, tuple[float, float]]] = {name: {} for name, _ in trees}
        for name, source in trees:
            rows[name]["parse"] = parse_only_in(Path(homes[name]) / "decks", source)
        if not args.parse_only:
            for name, source in trees:
                first = start(homes[name], args.timeout, "home-all", source)
                rows[name]["first"] = (first["home_seconds"], first["home_cpu"])
                rows[name]["all"] = (first["seconds"], first["cpu"])
            later: dict[str, list[dict[str, float]]] = {name: [] for name, _ in trees}
            for _run in range(args.n):
                for name, source in trees:
                    later[name].append(start(homes[name], args.timeout, "home", source))
            for name, _ in trees:
                runs = later[name]
                rows[name]["later"] = (
                    min(run["seconds"] for run in runs),
                    min(run["cpu"] for run in runs),
                )
                rows[name]["later-median"] = (
                    statistics.median(run["seconds"] for run in runs),
                    statistics.median(run["cpu"] for run in runs),
                )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    _print_table(rows, args.n)
    return 0


#: The rows of the table, in order: key, what it measures.
MEASURES = (
    ("parse", "parse + siblings, every deck, in process (no engine checks, no cache)"),
    ("first", "first start: the home screen's first counts (goal ≤ 3 s)"),
    ("all", "first start: every custom card checked and counted"),
    ("later", "later start, best (goal ≤ 1.2 s)"),
    ("later-median", "later start, median"),
)


def _print_table(rows: dict[str, dict[str, tuple[float, float]]], runs: int) -> None:
    """Wall and CPU seconds of each measure per tree, and before/after ratios of CPU."""
    names = list(rows)
    print(f"(later starts: {runs} of each; wall s / CPU s)")
    header = "| measure | " + " | ".join(names) + (" | CPU ratio |" if len(names) > 1 else " |")
    print(header)
    print("|" + " --- |" * (header.count("|") - 1))
    for key, label in MEASURES:
        if key not in rows[names[-1]]:
            continue
        cells = [f"{rows[n][key][0]:.2f} s / **{rows[n][key][1]:.2f} s**" for n in names]
        ratio = ""
        if len(names) > 1:
            ratio = f" {rows[names[0]][key][1] / rows[names[-1]][key][1]:.2f}× |"
        print(f"| {label} | " + " | ".join(cells) + " |" + ratio)


if __name__ == "__main__":
    sys.exit(main())
