"""Measure the explain-card matcher against a blind corpus of learner explanations.

Usage::

    python tests/data/explain_paraphrases_fresh_measure.py
    python tests/data/explain_paraphrases_fresh_measure.py \
        --corpus tests/data/explain_paraphrases_fresh3.jsonl \
        --report tests/data/explain_paraphrases_fresh3_report.txt

``--corpus`` defaults to ``tests/data/explain_paraphrases_fresh.jsonl`` and ``--report`` to
``tests/data/explain_paraphrases_fresh_report.txt``; ``--report -`` prints the report instead.

Every entry is graded through the public path of ``recall check --card DECK/CARD "text"``
(:func:`recall.commands.card_check.grade_on_card`, the drill screen's own path), in one process,
with a throwaway ``RECALL_HOME`` so no learner's data or custom decks are read. The report says
how many entries and labels there are, how often the matcher agrees with each kind of label
(a must-credit point made; a must-not-credit point not made), the same per "Saying it out loud"
card, and then every disagreement with the point's statement and what the matcher quoted as said.

It asserts nothing: each corpus was written independently of the matcher, and this is a
measurement of it, not a test (a corpus's own shape is checked by its build script,
``explain_paraphrases_fresh_build.py --check`` or ``explain_paraphrases_fresh3_build.py --check``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent
CORPUS = DATA / "explain_paraphrases_fresh.jsonl"
REPORT = DATA / "explain_paraphrases_fresh_report.txt"
OUT_LOUD = (
    "losses/why-cross-entropy",
    "normalization/batchnorm-vs-layernorm",
    "attention-transformers/explain-sqrt-dk",
    "inference-cost/explain-where-compute-goes",
)


def percent(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "0/0"


def grade_all(entries: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The matcher's point list for every entry, in corpus order."""
    from recall.cli import build_parser
    from recall.commands import open_workspace
    from recall.commands.card_check import find_card, grade_on_card

    args = build_parser().parse_args(["check", "--card", entries[0]["card"], "answer"])
    workspace = open_workspace(args, sync=False)
    results = []
    for entry in entries:
        card = find_card(workspace, entry["card"])
        _question, verdict = grade_on_card(workspace, card, entry["text"])
        points = verdict.to_dict().get("points") or []
        if not points:
            raise SystemExit(f"{entry['card']}: the verdict lists no points")
        results.append(points)
    return results


def shown(path: Path) -> str:
    """The path as a reader would type it: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the JSONL corpus to grade")
    parser.add_argument(
        "--report", default=str(REPORT), help="where to write the report ('-' for stdout)"
    )
    args = parser.parse_args(argv)
    corpus: Path = args.corpus
    entries = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines()]
    for name in ("RECALL_DB", "RECALL_DECKS"):
        os.environ.pop(name, None)
    with tempfile.TemporaryDirectory(prefix="recall-measure-") as home:
        os.environ["RECALL_HOME"] = home
        started = time.perf_counter()
        results = grade_all(entries)
        seconds = time.perf_counter() - started

    credit_total = credit_agree = deny_total = deny_agree = whole = 0
    by_card: Counter[tuple[str, str]] = Counter()
    disagreements: list[str] = []
    for entry, points in zip(entries, results, strict=True):
        card, text = entry["card"], entry["text"]
        entry_ok = True
        for kind, indices in (("credit", entry["states"]), ("deny", entry["denies"])):
            for index in indices:
                point = points[index]
                made = bool(point["made"])
                agrees = made if kind == "credit" else not made
                if kind == "credit":
                    credit_total += 1
                    credit_agree += agrees
                else:
                    deny_total += 1
                    deny_agree += agrees
                by_card[(card, f"{kind}_total")] += 1
                by_card[(card, f"{kind}_agree")] += agrees
                if not agrees:
                    entry_ok = False
                    wanted = "must credit" if kind == "credit" else "must NOT credit"
                    got = "made" if made else "missed"
                    said = f" (matcher quoted: {point.get('said')!r})" if made else ""
                    disagreements.append(
                        f"- {card} point {index} [{wanted}, matcher: {got}]{said}\n"
                        f"    point: {point['say']}\n"
                        f"    text:  {text}"
                    )
        whole += entry_ok

    lines: list[str] = []
    say = lines.append
    command = "python tests/data/explain_paraphrases_fresh_measure.py"
    if corpus.resolve() != CORPUS or args.report != str(REPORT):
        report_shown = args.report if args.report == "-" else shown(Path(args.report))
        command += f" --corpus {shown(corpus)} --report {report_shown}"
    say(f"corpus: {corpus.name}")
    say(
        f"command: {command} "
        "(grades through recall.commands.card_check.grade_on_card, "
        'the path of `recall check --card DECK/CARD "text"`)'
    )
    say(f"entries: {len(entries)} over {len({e['card'] for e in entries})} explain cards")
    say(
        f"points labelled: {credit_total + deny_total} "
        f"({credit_total} must-credit, {deny_total} must-not-credit)"
    )
    say(f"agreement on must-credit (point made): {percent(credit_agree, credit_total)}")
    say(f"agreement on must-not-credit (point not made): {percent(deny_agree, deny_total)}")
    say(f"entries with every label agreed: {percent(whole, len(entries))}")
    say("'Saying it out loud' cards:")
    for card in OUT_LOUD:
        say(
            f"  {card}: must-credit "
            f"{percent(by_card[(card, 'credit_agree')], by_card[(card, 'credit_total')])}, "
            f"must-not-credit "
            f"{percent(by_card[(card, 'deny_agree')], by_card[(card, 'deny_total')])}"
        )
    say(f"\ndisagreements: {len(disagreements)}")
    for line in disagreements:
        say(line)
    report = "\n".join(lines) + "\n"
    if args.report == "-":
        sys.stdout.write(report)
    else:
        Path(args.report).write_text(report, encoding="utf-8")
    sys.stderr.write(f"graded {len(entries)} entries in {seconds:.1f} s\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
