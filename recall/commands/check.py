"""``recall check``: grade one answer, or a batch of JSON lines, from the command line.

Exit status for a single check: 0 correct, 1 incorrect, 2 invalid. The batch mode never stops on
a bad line: it answers it with an ``invalid`` verdict and the reason.

``recall check --card DECK/CARD ANSWER [--seed N]`` grades against a loaded card instead, with
everything the card declares (symbols and domains, functions, required and forbidden names,
units, tolerance, parameters drawn from the seed), through the drill screen's own path: the
card from :class:`recall.workspace.Workspace`, the question from
:meth:`recall.grading.Question.draw` and the verdict from :func:`recall.grading.grade`.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Iterator
from typing import IO, Any

from recall.errors import ConfigError, RecallError
from recall.inert import quote

EXIT = {"correct": 0, "incorrect": 1, "invalid": 2}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check",
        help="grade an answer against a reference expression",
        description="Grade ANSWER against EXPECTED with the formula engine. Exit status: "
        "0 correct, 1 incorrect, 2 invalid.",
    )
    parser.add_argument(
        "expected", nargs="?", help="the reference expression (with --card: the answer)"
    )
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
        type=_tolerance_argument,
        metavar="R",
        help="relative tolerance for numeric answers (0 = exact, the default)",
    )
    parser.add_argument(
        "--card",
        metavar="DECK/CARD",
        help="grade ANSWER against this card (built-in or custom), as the drill screen does",
    )
    parser.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="with --card: draw a numeric card's values from seed N (default: a fresh seed)",
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
            raise ConfigError(f"--var takes NAME=DOMAIN, got '{quote(item)}'")
        variables[name.strip()] = domain.strip()
    return variables


def _parse_funcs(items: object) -> dict[str, str]:
    """The declared functions, from ``--func`` options or a batch line's ``"funcs"``: the one
    reader of both, so ``sigma=sigmoid`` means an alias wherever it is written. A list holds
    ``NAME`` (an unknown function) or ``NAME=BUILTIN`` (an alias); an object maps names to
    ``"unknown"`` or a builtin. Anything else is a ``ValueError`` saying so."""
    if isinstance(items, dict):
        return {str(name).strip(): str(means).strip() or "unknown" for name, means in items.items()}
    if not isinstance(items, (list, tuple)):
        raise ValueError("'funcs' must be a list of NAME or NAME=BUILTIN, or an object")
    functions = {}
    for item in items:
        if not isinstance(item, str):
            raise ValueError("each entry of 'funcs' must be a string, NAME or NAME=BUILTIN")
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
        if args.batch == "-":
            return run_batch(sys.stdin.buffer, sys.stdout)
        try:
            stream = open(args.batch, "rb")  # noqa: SIM115
        except OSError as error:
            raise ConfigError(
                f"cannot read the batch file {args.batch}: {error.strerror or error}"
            ) from None
        with stream:
            try:
                return run_batch(stream, sys.stdout)
            except OSError as error:  # e.g. a directory: open() succeeds, reading does not
                raise ConfigError(
                    f"cannot read the batch file {args.batch}: {error.strerror or error}"
                ) from None
    if args.card is not None:
        from recall.commands.card_check import run_card

        return run_card(args, _print_human)
    if args.seed is not None:
        print("recall check: --seed needs --card", file=sys.stderr)
        return 2
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
            from recall.formula.highlight import Highlight

            start, end = part["answer_span"]
            marked = Highlight(data["interpreted"], start, end)
            print(" " * len("read as: ") + marked.marker + "  this part")
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


#: Longest batch line read (bytes or characters); a longer one is answered with an error.
MAX_BATCH_LINE = 1 << 20


def run_batch(stream: IO[str] | IO[bytes], out: IO[str]) -> int:
    """Grade every JSON line of ``stream``: each line, blank or broken included, gets exactly
    one output line, in order. A line that is not a usable request gets an ``invalid`` verdict
    with the reason; one that cannot even be read (not UTF-8, nested too deep, too long) or
    whose grading fails unexpectedly gets ``{"id": ..., "error": "line N: ..."}``."""
    for number, line in enumerate(_bounded_lines(stream), start=1):
        started = time.perf_counter()
        record: dict[str, Any] = {"id": None}
        try:
            _grade_line(line, number, record)
        except _Unreadable as error:
            record = {"id": record["id"], "error": f"line {number}: {error}"}
        except (ValueError, RecallError) as error:
            record.update(
                verdict="invalid",
                method="input",
                message=f"line {number}: {error}",
                ms=round((time.perf_counter() - started) * 1000, 3),
            )
        except Exception as error:  # one line never ends the batch, whatever happens
            record = {"id": record["id"], "error": f"line {number}: {type(error).__name__}"}
        out.write(_json_line(record))
        out.flush()
    return 0


class _Unreadable(Exception):
    """A batch line that cannot be read as a request at all."""


def _bounded_lines(stream: IO[str] | IO[bytes]) -> Iterator[str | bytes | None]:
    """The lines of ``stream`` without their newline, ``None`` for one over
    :data:`MAX_BATCH_LINE` (its rest is skipped unread into memory)."""
    while True:
        line = stream.readline(MAX_BATCH_LINE + 1)
        if not line:
            return
        newline = "\n" if isinstance(line, str) else b"\n"
        if len(line) > MAX_BATCH_LINE and not line.endswith(newline):  # type: ignore[arg-type]
            rest = line
            while rest and not rest.endswith(newline):  # type: ignore[arg-type]
                rest = stream.readline(MAX_BATCH_LINE)
            yield None
            continue
        yield line.rstrip(newline)  # type: ignore[arg-type]


def _grade_line(line: str | bytes | None, number: int, record: dict[str, Any]) -> None:
    """Fill ``record`` with the verdict for one batch line (raises for a bad line)."""
    if line is None:
        raise _Unreadable(f"longer than {MAX_BATCH_LINE} bytes")
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as error:
            raise _Unreadable(f"not UTF-8 text (byte {error.start + 1})") from None
    if not line.strip():
        raise _Unreadable("empty line")
    try:
        item = json.loads(line)
    except RecursionError:
        raise _Unreadable("JSON nested too deep") from None
    if not isinstance(item, dict):
        raise ValueError("each line must be a JSON object")
    record["id"] = item.get("id")
    expected, answer = item.get("expected"), item.get("answer")
    if not isinstance(expected, str) or not isinstance(answer, str):
        raise ValueError("'expected' and 'answer' must be strings")
    tolerance = checked_tolerance(item.get("tolerance"))
    variables = item.get("vars") or {}
    if not isinstance(variables, dict):
        raise ValueError("'vars' must be an object")
    functions = _parse_funcs(item.get("funcs") or [])
    data = grade_one(
        expected,
        answer,
        {str(k): str(v) for k, v in variables.items()},
        functions,
        tolerance,
    )
    record.update(
        verdict=data["status"], method=data["method"], message=data["message"], ms=data["ms"]
    )


def checked_tolerance(value: object) -> float | None:
    """A batch line's relative tolerance (``None``: exact), or ``ValueError`` saying why not."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("'tolerance' must be a number")
    return _in_range(value)


def _in_range(tolerance: float) -> float:
    """A relative tolerance must be a finite number from 0 (exact) to 1 (100%): a negative or
    NaN one would silently make every comparison fail or pass."""
    if not (math.isfinite(tolerance) and 0 <= tolerance <= 1):
        raise ValueError(
            "a tolerance must be a finite number from 0 (exact) to 1 (100%), "
            f"not {quote(repr(tolerance))}"
        )
    return float(tolerance)


def _tolerance_argument(text: str) -> float:
    """``--tolerance R``, refused by argparse (exit 2, with the reason) unless it is usable."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quote(repr(text))} is not a number") from None
    try:
        return _in_range(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _json_line(record: dict[str, Any]) -> str:
    """One JSON line; text that cannot be UTF-8 (a lone surrogate from ``\\ud800`` in the
    input) is written as JSON escapes instead of ending the batch at the write."""
    text = json.dumps(record, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(record)
    return text + "\n"
