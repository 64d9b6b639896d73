"""Every screen says where the learner is, at 80x24 and 100x30: a full screen in its top lines
(home "recall", the deck browser "Decks", stats "Statistics", the drill "Drill", the summary
"Session done"), a dialog in its title (the keys, the card form, a new session, the exam plan,
learn more, pause, the quit question).

Seen in the tryout: the deck browser at 80x24 opened on a search box and a card table with
nothing saying this was the deck browser.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from recall.tui.app import RecallApp
from tests.tui_fixtures import FakeClock, isolate, real_services, screen_text, settle

SIZES = [(80, 24), (100, 30)]

#: (keys pressed from the home screen, what the screen shows, whether it is a full screen)
PLACES = [
    pytest.param([], "recall", True, id="home"),
    pytest.param(["b"], "recall — Decks", True, id="decks"),
    pytest.param(["t"], "recall — Statistics", True, id="stats"),
    pytest.param(["s"], "Drill · ", True, id="drill"),
    pytest.param(["s", "ctrl+l", "y"], "Session done", True, id="summary"),
    pytest.param(["question_mark"], "Keys", False, id="help"),
    pytest.param(["b", "a"], "New card", False, id="card-form"),
    pytest.param(["l"], "New session", False, id="session"),
    pytest.param(["x"], "Exam plan", False, id="exam"),
    pytest.param(["s", "escape"], "Paused", False, id="pause"),
    pytest.param(["s", "ctrl+c"], "Quit recall?", False, id="quit"),
]


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("keys", "shown", "full"), PLACES)
def test_every_screen_says_where_the_learner_is(
    tmp_path: Path, size: tuple[int, int], keys: list[str], shown: str, full: bool
) -> None:
    app = RecallApp(real_services(tmp_path, FakeClock()))
    text: list[str] = []

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            for key in keys:
                await pilot.press(key)
                await settle(app, pilot)
            text.append(screen_text(app))

    asyncio.run(flow())
    lines = text[0].splitlines()
    where = "\n".join(lines[:2]) if full else text[0]
    assert shown in where, text[0]
