"""Every footer shows its key hints in full at 80x24 (issue 12: the home footer was cut).

A Pilot opens each screen at 80 columns and reads the footer's rendered line: every binding the
footer shows (the first key of each action with ``show=True``, as Textual's footer picks them)
is there with its key and its label, and so is the palette's Ctrl-P. Bindings kept out of the
footer to make room are still in the help, which lists every binding.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from rich.console import Console
from textual.app import App

from recall.tui.app import RecallApp
from recall.tui.keys import binding_sections, bindings_of, keys_table
from recall.tui.screens.summary import SummaryScreen
from recall.tui.views import SessionPlan, SummaryView
from tests.tui_fixtures import FakeClock, isolate, real_services, screen_text, settle, type_text


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    return isolate(monkeypatch, tmp_path)


def shown_hints(app: App[object]) -> list[str]:
    """``key label`` for each hint the footer should show, in the footer's own choice."""
    first_of_action: dict[str, str] = {}
    for active in app.screen.active_bindings.values():
        binding = active.binding
        if binding.show and binding.action not in first_of_action:
            first_of_action[binding.action] = (
                f"{app.get_key_display(binding)} {binding.description}"
            )
    palette = app.screen.active_bindings.get(app.COMMAND_PALETTE_BINDING)
    if palette is not None:
        first_of_action["command_palette"] = f"{app.get_key_display(palette.binding)} Commands"
    return list(first_of_action.values())


Step = Callable[[RecallApp, object], Awaitable[None]]


async def press(app: RecallApp, pilot: object, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)  # type: ignore[attr-defined]
        await settle(app, pilot)


async def nothing(app: RecallApp, pilot: object) -> None:
    return None


async def stats(app: RecallApp, pilot: object) -> None:
    await press(app, pilot, "t")


async def decks(app: RecallApp, pilot: object) -> None:
    await press(app, pilot, "b")


async def graded(app: RecallApp, pilot: object) -> None:
    await type_text(pilot, "x^2")
    await press(app, pilot, "enter")


async def summary(app: RecallApp, pilot: object) -> None:
    app.push_screen(SummaryScreen(SummaryView(reviews=2, cards=2), SessionPlan(minutes=10)))
    await settle(app, pilot)


CASES: dict[str, tuple[SessionPlan | None, Step]] = {
    "home": (None, nothing),
    "drill-asking": (SessionPlan(minutes=10), nothing),
    "drill-graded": (SessionPlan(minutes=10), graded),
    "stats": (None, stats),
    "decks": (None, decks),
    "summary": (None, summary),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_footer_shows_every_hint_in_full_at_80_columns(
    home: Path, tmp_path: Path, case: str
) -> None:
    plan, step = CASES[case]
    app = RecallApp(real_services(tmp_path, FakeClock()), plan=plan)

    async def flow() -> tuple[str, list[str]]:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await step(app, pilot)
            await pilot.pause(0.2)
            return screen_text(app).splitlines()[-1], shown_hints(app)

    footer, hints = asyncio.run(flow())
    assert len(hints) >= 3, hints
    for hint in hints:
        assert hint in footer, f"{hint!r} is cut from the footer: {footer!r}"


def test_bindings_kept_out_of_the_footer_are_still_in_the_help() -> None:
    console = Console(width=200, record=True, color_system=None)
    console.print(keys_table({}, RecallApp))
    text = console.export_text()
    hidden = [
        binding
        for _title, owner in binding_sections(RecallApp)
        for binding in bindings_of(owner)
        if not binding.show
    ]
    assert {binding.id for binding in hidden} >= {"home.cram", "home.quit", "drill.bury"}
    for binding in hidden:
        assert binding.id in text
        assert (binding.tooltip or binding.description) in text
