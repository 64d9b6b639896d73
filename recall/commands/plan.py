"""``recall plan [--days 90] [--json] [--seed N]``: the workload at each desired retention.

Simulates the learner's own next days (their parameters, cards, pace and rating habits) at
desired retentions from 0.70 to 0.97 and shows minutes per day and cards remembered at the end,
the current setting marked (:mod:`recall.scheduling.simulation`). The same seed gives the same
plan.
"""

from __future__ import annotations

import argparse
import json

from recall.inert import quote


def _days(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{quote(repr(text))} is not a whole number of days"
        ) from None
    if not 1 <= value <= 730:
        raise argparse.ArgumentTypeError("days must be between 1 and 730")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quote(repr(text))} is not a whole number") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError("the seed must be between 0 and 2^63 - 1")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "plan",
        help="simulate your workload at each desired retention",
        description="Minutes per day and cards remembered after N days at desired retentions "
        "from 70%% to 97%%, simulated from your own cards, memory and pace.",
    )
    parser.add_argument(
        "--days", type=_days, default=90, metavar="N", help="days to simulate (default 90)"
    )
    parser.add_argument("--seed", type=_seed, default=0, help="random seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print the curve as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from recall.commands import open_workspace
    from recall.memory import model as memory_model
    from recall.memory.charts import workload_curve

    workspace = open_workspace(args)
    store, settings = workspace.store, workspace.settings
    try:
        result = memory_model.plan(store, settings, days=args.days, seed=args.seed)
    finally:
        workspace.close()
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
        return 0
    print(workload_curve(result))
    print()
    print(
        "Change the setting with `recall config retention R` (for example 0.85 or 85%; the "
        "same as `recall config desired_retention R`). "
        "Below about 80% forgetting costs relearning time, so the curve flattens."
    )
    return 0
