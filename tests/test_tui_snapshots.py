"""How each screen looks, at 80x24 and at a wide 140x40 (pytest-textual-snapshot).

The app runs on the real layers over the small test deck, with a fake clock and a fresh
database, so the pictures do not depend on the machine, the date or the built-in decks. Update
the stored SVGs with ``pytest tests/test_tui_snapshots.py --snapshot-update`` after a deliberate
change, and look at them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from recall.tui.app import RecallApp
from recall.tui.views import SessionPlan
from tests.test_tui_explain import POINTS_DECK, TWO_OF_FOUR
from tests.tui_fixtures import FakeClock, isolate, real_services, settle, type_text

SIZES = {"small": (80, 24), "wide": (140, 40)}

Steps = Callable[[Pilot], Awaitable[None]]


async def _calm(pilot: Pilot) -> None:
    """Wait for the workers and stop the cursor blinking, so the picture is stable."""
    await settle(pilot.app, pilot)
    for box in pilot.app.screen.query(Input):
        box.cursor_blink = False
    await pilot.pause()


def steps(*keys: str, text: str = "") -> Steps:
    async def run(pilot: Pilot) -> None:
        await settle(pilot.app, pilot)
        for key in keys:
            if key == "TYPE":
                await type_text(pilot, text)
            else:
                await pilot.press(key)
            await settle(pilot.app, pilot)
        await _calm(pilot)

    return run


SCREENS: dict[str, tuple[SessionPlan | None, Steps]] = {
    "home": (None, steps()),
    "drill": (SessionPlan(minutes=10), steps("TYPE", text="x^2/2")),
    "drill_error": (SessionPlan(minutes=10), steps("TYPE", text="sqrt(x")),
    "feedback": (SessionPlan(minutes=10), steps("TYPE", "enter", text="x^2/2")),
    "summary": (SessionPlan(minutes=10), steps("TYPE", "enter", "1", "ctrl+l", "y", text="x^2/2")),
    "paused": (SessionPlan(minutes=10), steps("escape")),
    "help": (None, steps("question_mark")),
    "stats": (None, steps("t")),
    "decks": (None, steps("b")),
    "card_form": (None, steps("b", "a")),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("screen", SCREENS)
def test_screen_looks_right(
    screen: str,
    size: str,
    snap_compare: Callable[..., bool],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    isolate(monkeypatch, tmp_path)
    plan, run_before = SCREENS[screen]
    app = RecallApp(real_services(tmp_path, FakeClock()), plan=plan)
    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)


# ---------------------------------------------------------------------------- issue 12 cards

#: An explain card whose model answer is hard-wrapped as deck files are (our own words).
EXPLAIN_SNAPSHOT_DECK = '''\
[deck]
id = "talk"
name = "Talk"
topic = "Testing"

[[card]]
id = "why-warmup"
kind = "explain"
prompt = "Why do large transformer runs start with a learning-rate warmup?"
model_answer = """At the first steps Adam's second-moment estimate is built from a handful of
gradients, so its per-coordinate step sizes are noisy and some are far too large; a full
learning rate on those steps can push the network somewhere it never recovers from.

Warming up keeps the steps small while the estimates settle; once they can be trusted the
schedule reaches its peak and decays from there."""
numbers = ["warmup of about 1-2% of the steps"]
'''

#: A numeric card with a unit (its parameters drawn from a fixed seed in the test).
NUMERIC_SNAPSHOT_DECK = """\
[deck]
id = "cost"
name = "Cost"
topic = "Testing"

[[card]]
id = "train-flops"
kind = "numeric"
prompt = "A {N}-parameter model is trained on {D} tokens. About how many FLOPs does it take?"
answer = "6*N*D"
tolerance = { relative = 0.02 }
unit = "FLOPs"
[card.params]
N = { low = 1e8, high = 4e11, log = true, sigfigs = 2, meaning = "parameters" }
D = { low = 1e10, high = 1.5e13, log = true, sigfigs = 2, meaning = "training tokens" }
"""

CARD_SCREENS: dict[str, tuple[str, Steps]] = {
    # An explain card with key points, answered with two of its four (issue 23).
    "explain_points_two_of_four": (POINTS_DECK, steps("TYPE", "enter", text=TWO_OF_FOUR)),
    "explain_asking": (EXPLAIN_SNAPSHOT_DECK, steps()),
    "explain_revealed": (EXPLAIN_SNAPSHOT_DECK, steps("enter")),
    "numeric_unit": (NUMERIC_SNAPSHOT_DECK, steps("TYPE", text="4.2e21")),
}


@pytest.mark.parametrize("size", ["small"])
@pytest.mark.parametrize("screen", CARD_SCREENS)
def test_card_looks_right(
    screen: str,
    size: str,
    snap_compare: Callable[..., bool],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    isolate(monkeypatch, tmp_path)
    monkeypatch.setattr("recall.grading.question.fresh_seed", lambda: 12)
    deck, run_before = CARD_SCREENS[screen]
    services = real_services(tmp_path, FakeClock(), only={"deck.toml": deck})
    app = RecallApp(services, plan=SessionPlan(minutes=10))
    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
