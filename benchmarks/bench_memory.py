"""Memory-model benchmark: fitting FSRS to 1k, 10k and 100k reviews, and the workload plan.

    python benchmarks/bench_memory.py            # all figures
    python benchmarks/bench_memory.py --quick    # 1k and 10k only

For each history size (a simulated forgetful learner, seeded) it prints the time of one
fsrs-rs-python fit on every review (``optimize``), of the whole ``fit_parameters`` (time
split, candidate fit, both scorings, paired predictions, refit on all) and of the health report
(every review predicted, binned, grouped) two ways: from columns, as ``recall stats`` computes it
(:mod:`recall.scheduling.review_table`), and from the event history, as before; best of N.
Then the plan: 17 decks of about 40 cards (670 cards, two thirds reviewed), 90 days, the ten
default desired retentions plus the learner's 0.90. Target from the issue: the plan in ≤ 2 s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from recall.memory.report import model_health, model_health_of_table  # noqa: E402
from recall.scheduling.fitting import fit_parameters, optimize  # noqa: E402
from recall.scheduling.history import History  # noqa: E402
from recall.scheduling.review_table import ReviewTable  # noqa: E402
from recall.scheduling.simulation import PlanInputs, PlannedCard, plan_workload  # noqa: E402
from recall.scheduling.today import Pace  # noqa: E402
from tests.simulated_learners import DEFAULTS, FORGETFUL, simulate_history  # noqa: E402

#: (cards, days, new per day) giving about 1k, 10k and 100k reviews.
SIZES = {
    "1k": (80, 120, 4),
    "10k": (600, 300, 6),
    "100k": (4000, 730, 12),
}


def best_of(runs: int, action: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_fits(names: list[str]) -> None:
    print(
        f"{'history':>8} {'reviews':>8} {'scored':>8} {'optimize':>10} {'fit_parameters':>15} "
        f"{'health':>8} {'(events)':>9}"
    )
    for name in names:
        cards, days, new = SIZES[name]
        history = History.from_events(
            simulate_history(FORGETFUL, cards=cards, days=days, new_per_day=new, seed=1)
        )
        runs = 3 if name != "100k" else 1
        fit_time = best_of(runs, lambda h=history: optimize(h))
        whole = best_of(runs, lambda h=history: fit_parameters(h, DEFAULTS))
        events = best_of(runs, lambda h=history: model_health(h, DEFAULTS, 0.9))
        columns = _columns(history)
        health = best_of(runs, lambda c=columns: _health_from_columns(*c))
        result = fit_parameters(history, DEFAULTS)
        print(
            f"{name:>8} {len(history):>8} {len(history.targets):>8} {fit_time:>9.2f}s "
            f"{whole:>14.2f}s {health:>7.2f}s {events:>8.2f}s  ({result.status})"
        )


def _columns(history: History) -> tuple[list[int], list[int], list[int], dict[int, str]]:
    """The reviews as the store hands them to ``recall stats``: card, epoch ms, rating."""
    cards, millis, ratings, decks = [], [], [], {}
    for code, card in enumerate(history.cards):
        decks[code] = card.events[0].deck or ""
        for event in card.events:
            cards.append(code)
            millis.append(int(event.reviewed_at.timestamp() * 1000))
            ratings.append(int(event.rating))
    return cards, millis, ratings, decks


def _health_from_columns(
    cards: list[int], millis: list[int], ratings: list[int], decks: dict[int, str]
) -> object:
    """The health report as ``recall stats`` computes it: the table, then the report."""
    table = ReviewTable.build(cards, millis, ratings)
    return model_health_of_table(table, DEFAULTS, 0.9, decks, {})


def collection(seed: int = 0) -> list[PlannedCard]:
    rng = random.Random(seed)
    cards = []
    for _deck in range(17):
        for i in range(40 if _deck % 2 else 39):
            if i < 26:
                cards.append(
                    PlannedCard(
                        stability=rng.uniform(0.5, 90),
                        difficulty=rng.uniform(2, 9),
                        days_since_review=rng.randint(0, 40),
                        due_in_days=rng.randint(-5, 60),
                    )
                )
            else:
                cards.append(PlannedCard())
    return cards


def bench_plan() -> None:
    cards = collection()
    inputs = PlanInputs(
        DEFAULTS, cards, Pace(review_seconds=14.0, new_card_seconds=35.0), new_per_day=10, days=90
    )
    seconds = best_of(5, lambda: plan_workload(inputs, current_retention=0.9))
    plan = plan_workload(inputs, current_retention=0.9)
    reviews = sum(p.reviews for p in plan.points)
    print(
        f"plan: {len(cards)} cards x {plan.days} days x {len(plan.points)} retentions "
        f"({reviews} simulated reviews): {seconds:.2f}s best of 5 (target <= 2 s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the 100k-review history")
    args = parser.parse_args()
    bench_fits(["1k", "10k"] if args.quick else ["1k", "10k", "100k"])
    bench_plan()


if __name__ == "__main__":
    main()
