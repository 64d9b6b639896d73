"""The command palette lists each command once (issue 12: every command twice, two "Theme").

A Pilot opens the palette on each screen and reads the titles it shows: no title twice, every
action bound on the screen present, and none of Textual's own screen keys (focus next, copy).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette

from recall.tui.app import RecallApp
from recall.tui.keys import bindings_of
from recall.tui.screens.decks import DecksScreen
from recall.tui.screens.drill import DrillScreen
from recall.tui.screens.home import HomeScreen
from recall.tui.screens.stats import StatsScreen
from recall.tui.views import SessionPlan
from tests.tui_fixtures import FakeServices, isolate, settle


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    return isolate(monkeypatch, tmp_path)


async def palette_titles(app: RecallApp, pilot: object) -> list[str]:
    await pilot.press("ctrl+p")  # type: ignore[attr-defined]
    await settle(app, pilot)
    await pilot.pause(0.3)  # type: ignore[attr-defined]
    palette = app.screen
    assert isinstance(palette, CommandPalette)
    options = palette.query_one(CommandList)
    titles = [
        str(options.get_option_at_index(i).prompt).split("\n", 1)[0]
        for i in range(options.option_count)
    ]
    await pilot.press("escape")  # type: ignore[attr-defined]
    await settle(app, pilot)
    return titles


@pytest.mark.parametrize(
    ("screen", "keys", "plan"),
    [
        (HomeScreen, (), None),
        (DrillScreen, (), SessionPlan(minutes=10)),
        (StatsScreen, ("t",), None),
        (DecksScreen, ("b",), None),
    ],
    ids=["home", "drill", "stats", "decks"],
)
def test_the_palette_lists_each_command_once(
    home: Path, screen: type, keys: tuple[str, ...], plan: SessionPlan | None
) -> None:
    app = RecallApp(FakeServices(), plan=plan)

    async def flow() -> tuple[list[str], set[str]]:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            for key in keys:
                await pilot.press(key)
                await settle(app, pilot)
            assert isinstance(app.screen, screen)
            active = app.screen.active_bindings.values()
            enabled = {binding.binding.id for binding in active if binding.enabled}
            return await palette_titles(app, pilot), enabled

    titles, enabled = asyncio.run(flow())
    twice = [title for title, count in Counter(titles).items() if count > 1]
    assert not twice, f"listed more than once: {twice}"
    assert titles.count("Theme") == 1 and "Quit" in titles and "Keys" in titles
    assert not {"Focus Next", "Focus Previous", "Copy selected text"} & set(titles)
    for binding in bindings_of(screen):  # every key that works now is there by name
        if binding.id in enabled:
            assert binding.description in titles, binding.description


@pytest.mark.parametrize("plan", [None, SessionPlan(minutes=10)], ids=["home", "drill"])
def test_no_command_reads_twice_in_its_own_entry(home: Path, plan: SessionPlan | None) -> None:
    """Each entry is a title and a line under it: that line gives the key (and a tooltip that
    says more), never the title again, which a learner reads as the command listed twice."""
    app = RecallApp(FakeServices(), plan=plan)

    async def flow() -> list[list[str]]:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("ctrl+p")
            await settle(app, pilot)
            await pilot.pause(0.3)
            options = app.screen.query_one(CommandList)
            return [
                str(options.get_option_at_index(i).prompt).split("\n")
                for i in range(options.option_count)
            ]

    entries = asyncio.run(flow())
    assert entries
    for lines in entries:
        title, *rest = lines
        assert rest, f"{title!r} has no line saying its key"
        assert "key " in rest[-1], rest
        said = rest[-1].split(" · key ")[0]
        assert said != title and not said.startswith(f"{title} ("), f"{title!r} twice: {said!r}"
