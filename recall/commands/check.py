"""``recall check``: grade one answer, or a batch of JSON lines, from the command line.

Exit status for a single check: 0 correct, 1 incorrect, 2 invalid. The batch mode never stops on
a bad line: it answers it with an ``invalid`` verdict and the reason.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import IO, Any

EXIT = {"correct": 0, "incorrect": 1, "invalid": 2}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check",
        help="grade an answer against a reference expression",
        description="Grade ANSWER against EXPECTED with the formula engine. Exit status: "
        "0 correct, 1 incorrect, 2 invalid.",
    )
    parser.add_argument("expected", nargs="?", help="the reference expression")
    parser.add_argument("answer", nargs="?", help="the answer to grade")
    parser.add_argument(
        "--var",
        action="append",
        default=[],
        metavar="NAME=DOMAIN",
        help="declare a variable's domain: real, positive, nonnegative, "
        "integer, 'positive integer', or an interval like '(0, 1)'",
    )
    parser.add_argument(
        "--func",
        action="append",
        default=[],
        metavar="NAME",
        dest="funcs",
        help="declare NAME an unknown function (NAME=BUILTIN for an alias)",
    )
    parser.add_argument(
        "--tolerance",
        type=float,
        metavar="R",
        help="relative tolerance for numeric answers (0 = exact, the default)",
    )
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    parser.add_argument(
        "--batch",
        metavar="FILE",
        help="grade JSON lines from FILE ('-' for stdin), one verdict per line",
    )
    parser.set_defaults(func=run)


def _table(variables: dict[str, str], functions: Any):
    from recall.formula import SymbolTable

    return SymbolTable.build(variables=variables, functions=functions)


def _parse_vars(items: list[str]) -> dict[str, str]:
    from recall.errors import ConfigError

    variables = {}
    for item in items:
        name, sep, domain = item.partition("=")
        if not sep or not name.strip():
            raise ConfigError(f"--var takes NAME=DOMAIN, got '{item}'")
        variables[name.strip()] = domain.strip()
    return variables


def _parse_funcs(items: list[str]) -> dict[str, str]:
    functions = {}
    for item in items:
        name, _, means = item.partition("=")
        functions[name.strip()] = means.strip() or "unknown"
    return functions


def grade_one(
    expected: str, answer: str, variables: dict[str, str], functions: Any, tolerance: float | None
) -> dict[str, Any]:
    """Grade one pair and return the JSON-ready verdict plus timing."""
    from recall.formula import Tolerance, check

    started = time.perf_counter()
    table = _table(variables, functions)
    tol = Tolerance.relative(tolerance) if tolerance is not None else None
    verdict = check(expected, answer, table, tolerance=tol)
    data = verdict.to_dict()
    data["ms"] = round((time.perf_counter() - started) * 1000, 3)
    return data


def run(args: argparse.Namespace) -> int:
    if args.batch:
        stream = sys.stdin if args.batch == "-" else open(args.batch, encoding="utf-8")  # noqa: SIM115
        with stream:
            return run_batch(stream, sys.stdout)
    if args.expected is None or args.answer is None:
        print("recall check: give EXPECTED and ANSWER, or --batch FILE", file=sys.stderr)
        return 2
    data = grade_one(
        args.expected, args.answer, _parse_vars(args.var), _parse_funcs(args.funcs), args.tolerance
    )
    status = data["status"]
    if args.json:
        data = {"verdict": data.pop("status"), **data}
        print(json.dumps(data, ensure_ascii=False))
    else:
        _print_human(data)
    return EXIT[status]


def _print_human(data: dict[str, Any]) -> None:
    print(f"verdict: {data['status']} (decided by: {data['method']})")
    if data.get("interpreted"):
        print(f"read as: {data['interpreted']}")
        part = data.get("part") or {}
        if part.get("answer_span"):
            start, end = part["answer_span"]
            print(" " * (len("read as: ") + start) + "^" * max(1, end - start) + "  this part")
        rendered = _render(data["interpreted"])
        if rendered and "\n" in rendered:
            print(rendered)
    if data.get("caret"):
        print(data["caret"])
    print(data["message"])
    if data.get("worked"):
        print(data["worked"])


def _render(text: str) -> str:
    from recall.errors import RecallError
    from recall.formula import render

    try:
        return render(text)
    except RecallError:
        return ""


def run_batch(stream: IO[str], out: IO[str]) -> int:
    """Grade every JSON line of ``stream``; a bad line gets an ``invalid`` verdict."""
    from recall.errors import RecallError

    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        started = time.perf_counter()
        record: dict[str, Any] = {"id": None}
        try:
            item = json.loads(line)
            if not isinstance(item, dict):
                raise ValueError("each line must be a JSON object")
            record["id"] = item.get("id")
            expected, answer = item.get("expected"), item.get("answer")
            if not isinstance(expected, str) or not isinstance(answer, str):
                raise ValueError("'expected' and 'answer' must be strings")
            tolerance = item.get("tolerance")
            if tolerance is not None and not isinstance(tolerance, (int, float)):
                raise ValueError("'tolerance' must be a number")
            variables = item.get("vars") or {}
            functions = item.get("funcs") or []
            if not isinstance(variables, dict) or not isinstance(functions, (list, dict)):
                raise ValueError("'vars' must be an object and 'funcs' a list")
            data = grade_one(
                expected,
                answer,
                {str(k): str(v) for k, v in variables.items()},
                functions,
                tolerance,
            )
            record.update(
                verdict=data["status"],
                method=data["method"],
                message=data["message"],
                ms=data["ms"],
            )
        except (ValueError, RecallError) as error:
            record.update(
                verdict="invalid",
                method="input",
                message=f"line {number}: {error}",
                ms=round((time.perf_counter() - started) * 1000, 3),
            )
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
        out.flush()
    return 0
