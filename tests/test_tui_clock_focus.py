"""Typing goes straight into the answer box whenever a card is being asked, driven with Pilot.

After Ctrl-Z (over a verdict, over a revealed answer, or taking back the last review) and after
closing anything that covered the screen (help, the command palette, the pause dialog, the
end-session question) with a card being asked, the answer box has the focus: the next keys the
learner types land in it, with no click or Tab first, even when Tab or a click had moved the
focus away before the overlay opened (Textual alone would give the focus back there).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from recall.tui.app import RecallApp
from recall.tui.screens.drill import DrillScreen, Phase
from recall.tui.views import SessionPlan
from recall.tui.widgets.answer_input import AnswerInput
from tests.tui_fixtures import FakeClock, isolate, real_services, settle, type_text

Flow = Callable[[Pilot[int], DrillScreen], Awaitable[None]]


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def run(tmp_path: Path, flow: Flow) -> None:
    app = RecallApp(real_services(tmp_path, FakeClock()), plan=SessionPlan(minutes=10))

    async def main() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            await flow(pilot, screen)

    asyncio.run(main())


async def press(pilot: Pilot[int], *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot.app, pilot)


async def answer(pilot: Pilot[int], text: str) -> None:
    await type_text(pilot, text)
    await settle(pilot.app, pilot)
    await press(pilot, "enter")


async def typing_lands_in_the_box(pilot: Pilot[int], screen: DrillScreen) -> None:
    """With a card asked, keys typed now fill the answer box (and the box is empty first)."""
    assert pilot.app.screen is screen and screen.phase is Phase.ASKING
    box = screen.query_one("#answer", AnswerInput)
    assert box.value == ""
    await type_text(pilot, "y+1")
    await settle(pilot.app, pilot)
    assert box.has_focus and box.value == "y+1"


@pytest.mark.parametrize("verdict", ["x^2", "x^3"])
def test_typing_after_ctrl_z_over_a_verdict_goes_into_the_box(tmp_path: Path, verdict: str) -> None:
    async def flow(pilot: Pilot[int], screen: DrillScreen) -> None:
        await answer(pilot, verdict)
        assert screen.phase is Phase.FEEDBACK
        await press(pilot, "ctrl+z")
        await typing_lands_in_the_box(pilot, screen)

    run(tmp_path, flow)


def test_typing_after_undoing_the_last_review_goes_into_the_box(tmp_path: Path) -> None:
    async def flow(pilot: Pilot[int], screen: DrillScreen) -> None:
        await answer(pilot, "x^2")
        await press(pilot, "enter")  # recorded; the next card is asked
        await press(pilot, "ctrl+z")  # takes that review back: "square" is asked again
        assert screen.card is not None and screen.card.key == "tiny/square"
        await typing_lands_in_the_box(pilot, screen)

    run(tmp_path, flow)


#: Each overlay over a card being asked, with the keys that open it and close it again.
OVERLAYS = {
    "help": ("f1", "escape"),
    "palette": ("ctrl+p", "escape"),
    "pause dialog": ("escape", "escape"),
    "end-session question": ("ctrl+l", "n"),
}


async def move_focus_away(pilot: Pilot[int], screen: DrillScreen, how: str) -> None:
    """Take the focus off the answer box the ways a learner does: Tab, or a click on the card."""
    if how == "tab":
        await press(pilot, "tab")
    elif how == "click":
        await pilot.click("#prompt")
        await settle(pilot.app, pilot)
    if how:
        assert not screen.query_one("#answer", AnswerInput).has_focus


@pytest.mark.parametrize("moved", ["", "tab", "click"])
@pytest.mark.parametrize("overlay", OVERLAYS)
def test_typing_after_closing_an_overlay_goes_into_the_box(
    tmp_path: Path, overlay: str, moved: str
) -> None:
    opened, closed = OVERLAYS[overlay]

    async def flow(pilot: Pilot[int], screen: DrillScreen) -> None:
        await move_focus_away(pilot, screen, moved)
        await press(pilot, opened)
        assert pilot.app.screen is not screen
        await press(pilot, closed)
        await typing_lands_in_the_box(pilot, screen)

    run(tmp_path, flow)


def test_keys_typed_at_once_after_an_overlay_all_land_in_the_box(tmp_path: Path) -> None:
    async def flow(pilot: Pilot[int], screen: DrillScreen) -> None:
        await move_focus_away(pilot, screen, "tab")
        await pilot.press("f1", "escape", "y", "plus", "1")  # no pause between the keys
        await settle(pilot.app, pilot)
        assert screen.query_one("#answer", AnswerInput).value == "y+1"

    run(tmp_path, flow)


@pytest.mark.parametrize("moved", ["", "click"])
def test_typing_after_ctrl_z_over_a_verdict_clicked_on_goes_into_the_box(
    tmp_path: Path, moved: str
) -> None:
    async def flow(pilot: Pilot[int], screen: DrillScreen) -> None:
        await answer(pilot, "x^3")
        if moved:
            await pilot.click("#feedback")
            await settle(pilot.app, pilot)
        await press(pilot, "ctrl+z")
        await typing_lands_in_the_box(pilot, screen)

    run(tmp_path, flow)


def test_typing_after_an_overlay_over_a_verdict_taken_back_goes_into_the_box(
    tmp_path: Path,
) -> None:
    async def flow(pilot: Pilot[int], screen: DrillScreen) -> None:
        await answer(pilot, "x^3")
        await press(pilot, "f1")  # help over the verdict ...
        await press(pilot, "escape")
        await press(pilot, "ctrl+z")  # ... then the answer taken back
        await press(pilot, "ctrl+p")
        await press(pilot, "escape")
        await typing_lands_in_the_box(pilot, screen)

    run(tmp_path, flow)
