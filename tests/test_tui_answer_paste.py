"""Pasting into the answer box puts the text there once, driven with Pilot at 80x24.

A terminal with bracketed paste (every modern one; tmux with ``paste-buffer -p``) delivers a paste
as one :class:`textual.events.Paste`. Textual runs the ``_on_paste`` handler of *every* class in
the widget's MRO unless one prevents the default, so a subclass handler that also calls
``super()._on_paste`` inserts the text twice: a pasted ``12*L*d^2`` became ``12*L*d^212*L*d^2``,
graded as a different answer.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual import events

from recall.tui.app import RecallApp
from recall.tui.screens.drill import DrillScreen, Phase
from recall.tui.views import SessionPlan
from recall.tui.widgets.answer_input import AnswerInput
from tests.tui_fixtures import FakeClock, isolate, real_services, settle, type_text


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def pasted(tmp_path: Path, typed: str, paste: str, *, verdict_first: bool = False) -> str:
    """The answer box's value after typing ``typed`` then pasting ``paste`` (as a terminal does)."""
    app = RecallApp(real_services(tmp_path, FakeClock()), plan=SessionPlan(minutes=10))
    value = ""

    async def main() -> None:
        nonlocal value
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            box = screen.query_one("#answer", AnswerInput)
            if verdict_first:
                await type_text(pilot, "x^3")
                await pilot.press("enter")
                await settle(app, pilot)
                assert screen.phase is Phase.FEEDBACK and box.locked
            await type_text(pilot, typed)
            app.post_message(events.Paste(paste))  # how the driver hands a paste to the app
            await settle(app, pilot)
            value = box.value

    asyncio.run(main())
    return value


@pytest.mark.parametrize(
    ("typed", "paste", "expected"),
    [
        ("", "12*L*d^2", "12*L*d^2"),
        ("2*", "x+1", "2*x+1"),
        ("", "½r²", "½r²"),
        ("", "x^2\nsecond line", "x^2"),  # one line: the box is a single line
    ],
)
def test_a_paste_lands_in_the_box_once(
    tmp_path: Path, typed: str, paste: str, expected: str
) -> None:
    assert pasted(tmp_path, typed, paste) == expected


def test_a_paste_over_a_verdict_changes_nothing(tmp_path: Path) -> None:
    assert pasted(tmp_path, "", "x^2", verdict_first=True) == "x^3"
