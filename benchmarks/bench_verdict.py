"""Time from Enter to the verdict painted on the drill screen (p50 / p99), on the real layers.

Drives the app headless with Pilot over the built-in decks in a cram session on a throwaway
database: for each formula card it submits the reference answer, then a wrong one, and reads
the time the drill screen measured between the Enter handler and the first refresh after the
verdict was drawn (grading runs in a worker thread in between). The engine's own share is
reported too (grading plus rendering the reference answer).

    python benchmarks/bench_verdict.py [-n 150]

Target (issue 5): verdict ≤ 50 ms after Enter at p99.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


async def measure(count: int) -> tuple[list[float], list[float]]:
    from textual.widgets import Input

    from recall.cards.model import CardKind
    from recall.session import Mode
    from recall.tui.app import RecallApp
    from recall.tui.screens.drill import DrillScreen, Phase
    from recall.tui.services import Services
    from recall.tui.views import SessionPlan

    services = Services()
    plan = SessionPlan(minutes=None, cards=None, mode=Mode.CRAM)
    app = RecallApp(services, plan=plan)
    engine_ms: list[float] = []
    async with app.run_test(size=(100, 30)) as pilot:
        while not isinstance(app.screen, DrillScreen) or app.screen.card is None:
            await pilot.pause(0.05)
        while app.engine_warm_seconds is None:
            await pilot.pause(0.05)
        screen = app.screen
        graded = 0
        while graded < count and screen.card is not None:
            card = services.card(screen.card.key)
            if card.kind is not CardKind.FORMULA:
                await pilot.press("ctrl+s")
                await pilot.pause()
                continue
            answer = card.answer if graded % 2 == 0 else f"2*({card.answer})+1"
            screen.query_one("#answer", Input).value = answer
            await pilot.pause()
            await pilot.press("enter")
            while screen.phase is not Phase.FEEDBACK:
                if screen.phase is Phase.ASKING:  # invalid (should not happen): skip the card
                    break
                await asyncio.sleep(0.001)
            if screen.phase is Phase.FEEDBACK and screen.feedback is not None:
                await pilot.pause()
                engine_ms.append(screen.feedback.grading_ms)
                graded += 1
                await pilot.press("3")
            else:
                await pilot.press("ctrl+s")
            await pilot.pause()
        seconds = list(screen.verdict_seconds)
        await pilot.press("ctrl+q")
    return [s * 1000 for s in seconds], engine_ms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=150, help="answers to grade (default 150)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["RECALL_HOME"] = home
        os.environ.pop("RECALL_DB", None)
        os.environ.pop("RECALL_DECKS", None)
        shown, engine = asyncio.run(measure(args.n))
    if not shown:
        print("no answers were graded")
        return 1
    print(f"Enter → verdict painted, {len(shown)} answers (half right, half wrong):")
    print(
        f"  p50 {statistics.median(shown):.1f} ms · p99 {percentile(shown, 99):.1f} ms · "
        f"max {max(shown):.1f} ms  (target p99 ≤ 50 ms)"
    )
    print(
        f"  of which in the worker (grade + render reference): "
        f"p50 {statistics.median(engine):.1f} ms · p99 {percentile(engine, 99):.1f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
