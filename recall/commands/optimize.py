"""``recall optimize [--revert] [--json]``: fit the memory model to the learner's own history.

The fit is kept only if it predicts the learner's latest reviews better than the parameters in
use (:mod:`recall.scheduling.fitting`); either way it is recorded, and the comparison is shown.
A kept fit schedules from the next review. ``--revert`` goes back to the parameters used before
the current fit (the FSRS defaults when there was none).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from recall.wording import count_of


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "optimize",
        help="fit the memory model to your review history",
        description="Fit FSRS to your reviews; the new parameters are used only if they predict "
        "your latest reviews better than the ones in use.",
    )
    parser.add_argument(
        "--revert", action="store_true", help="go back to the parameters used before the last fit"
    )
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from recall.commands import open_workspace
    from recall.memory import model as memory_model
    from recall.memory.sentences import fit_sentence

    workspace = open_workspace(args)
    store, settings = workspace.store, workspace.settings
    try:
        if args.revert:
            back = memory_model.revert(store)
            outcome: dict[str, Any] = {"reverted_to": None if back is None else back.id}
            message = (
                "Back to the FSRS default parameters."
                if back is None
                else f"Back to the parameters fitted on {back.created_at:%Y-%m-%d} "
                f"({count_of(back.reviews, 'review')})."
            )
        else:
            done = memory_model.optimize(store, settings)
            message = fit_sentence(done.result)
            outcome = {**done.result.to_dict(), "summary": message}
            outcome["recorded"] = None if done.recorded is None else done.recorded.id
    finally:
        workspace.close()
    print(json.dumps(outcome, indent=2) if args.json else message)
    return 0
