"""The drill screen marks the part of a wrong answer that differs from the reference (issue 9).

A Pilot test over the real layers: the engine locates the differing term, the feedback view
carries the answer split around it, and the feedback panel draws it highlighted.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from recall.tui.app import RecallApp
from recall.tui.screens.drill import DrillScreen, Phase
from recall.tui.views import SessionPlan
from recall.verdicts import Status
from tests.tui_fixtures import FakeClock, isolate, real_services, screen_text, settle, type_text

DECK = """\
[deck]
id = "marks"
name = "Marks"
topic = "Testing"

[[card]]
id = "scaled"
kind = "formula"
prompt = "Scale s by the square root of d."
answer = "s/sqrt(d)"
symbols = { s = "real", d = "positive" }

[[card]]
id = "signed"
kind = "formula"
prompt = "x squared plus twice y."
answer = "x^2 + 2*y"
symbols = { x = "real", y = "real" }
"""


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


async def _answer(app: RecallApp, pilot: object, text: str) -> None:
    await type_text(pilot, text)
    await settle(app, pilot)
    await pilot.press("enter")  # type: ignore[attr-defined]
    await settle(app, pilot)


def test_the_differing_part_is_marked_on_the_drill_screen(tmp_path: Path) -> None:
    services = real_services(tmp_path, FakeClock(), only={"marks.toml": DECK})
    app = RecallApp(services, plan=SessionPlan(cards=2))
    seen: dict[str, tuple[str, str, str] | None] = {}

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            for _ in range(2):
                assert screen.card is not None
                key = screen.card.key
                wrong = "s/d" if key == "marks/scaled" else "x^2 - 2*y"
                await _answer(app, pilot, wrong)
                assert screen.phase is Phase.FEEDBACK
                assert screen.feedback is not None
                assert screen.feedback.outcome is Status.INCORRECT
                seen[key] = screen.feedback.answer_marked
                assert "the part that differs marked" in screen_text(app)
                await pilot.press("1")
                await settle(app, pilot)

    asyncio.run(flow())
    assert seen["marks/scaled"] == ("s/", "d", "")  # the denominator lacks its square root
    assert seen["marks/signed"] == ("x^2 - ", "2*y", "")  # the second term's sign


def test_a_right_answer_marks_nothing(tmp_path: Path) -> None:
    services = real_services(tmp_path, FakeClock(), only={"marks.toml": DECK})
    app = RecallApp(services, plan=SessionPlan(cards=1))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen) and screen.card is not None
            right = "s/sqrt(d)" if screen.card.key == "marks/scaled" else "2*y + x^2"
            await _answer(app, pilot, right)
            assert screen.feedback is not None and screen.feedback.outcome is Status.CORRECT
            assert screen.feedback.answer_marked is None
            assert "the part that differs" not in screen_text(app)

    asyncio.run(flow())
