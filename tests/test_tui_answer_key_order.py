"""Keys typed in a burst edit the answer box in the order they were pressed, driven with Pilot
at 80x24.

Textual inserts a printable key in the box's own turn, but runs a bound editing key (Backspace,
Delete, the arrows, Ctrl-U) only once the key has bubbled up to the app, so a character typed
right after it could land first (Textual issue 6605). Seen in tmux: twenty Backspaces then
``1/2σ^2`` and Enter graded ``1/2σ^2``, and then the box held ``1/2``: the last Backspaces had
run after the typing and the Enter. A held-down Backspace followed by fast typing does the same.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual import events

from recall.tui.app import RecallApp
from recall.tui.screens.drill import DrillScreen
from recall.tui.views import SessionPlan
from recall.tui.widgets.answer_input import AnswerInput
from tests.tui_fixtures import FakeClock, isolate, real_services, settle, type_text


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def burst(tmp_path: Path, typed: str, keys: list[str]) -> str:
    """The box's value after typing ``typed``, then ``keys`` sent with no pause between them."""
    app = RecallApp(real_services(tmp_path, FakeClock()), plan=SessionPlan(minutes=10))
    value = ""

    async def main() -> None:
        nonlocal value
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            await type_text(pilot, typed)
            await settle(app, pilot)
            for key in keys:  # as a terminal delivers a burst: all queued before any is handled
                character = key if len(key) == 1 else None
                app.post_message(events.Key(key, character))
            await settle(app, pilot)
            value = screen.query_one("#answer", AnswerInput).value

    asyncio.run(main())
    return value


@pytest.mark.parametrize(
    ("typed", "keys", "expected"),
    [
        ("x^3", ["backspace", "2"], "x^2"),
        ("abc", ["backspace", "backspace", "backspace", "y", "+", "1"], "y+1"),
        ("x+1", ["home", "2", "*"], "2*x+1"),
        ("y+1", ["left", "left", "delete", "-"], "y-1"),
        ("x^2", ["ctrl+u", "x"], "x"),
    ],
)
def test_a_burst_of_keys_edits_the_box_in_order(
    tmp_path: Path, typed: str, keys: list[str], expected: str
) -> None:
    assert burst(tmp_path, typed, keys) == expected
