"""The Ctrl-C question mid-session promises a resumable session only when there will be one,
driven with Pilot at 80x24 and 100x30.

A session is offered again next time only if it has reviews (``Workspace.unfinished``). Seen in
tmux: Ctrl-C on the first card, before any answer, asked "Nothing is reviewed yet in this
session; the session can be resumed next time", and the next start offered nothing to resume.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from recall.tui.app import RecallApp
from recall.tui.screens.dialogs import ConfirmDialog
from recall.tui.screens.drill import DrillScreen, Phase
from recall.tui.views import SessionPlan
from tests.tui_fixtures import FakeClock, isolate, real_services, screen_text, settle, type_text

SIZES = [(80, 24), (100, 30)]


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def asked_then_quit(tmp_path: Path, size: tuple[int, int], typed: str) -> tuple[str, bool]:
    """Type ``typed`` and Enter (nothing when empty), Ctrl-C, read the question, answer yes;
    the question's text and whether the next start has an unfinished session to offer."""
    services = real_services(tmp_path, FakeClock())
    app = RecallApp(services, plan=SessionPlan(minutes=10))
    seen: list[str] = []

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            if typed:
                await type_text(pilot, typed)
                await pilot.press("enter")
                await settle(app, pilot)
                assert screen.phase is Phase.FEEDBACK  # graded, not yet rated
            await pilot.press("ctrl+c")
            await settle(app, pilot)
            assert isinstance(app.screen, ConfirmDialog) and app.screen.purpose == "quit"
            assert "Quit recall?" in screen_text(app)
            seen.append(" ".join(app.screen.text.split()))  # the question as written
            await pilot.press("y")
            await settle(app, pilot)

    asyncio.run(main())
    later = real_services(tmp_path, FakeClock())
    try:
        later.load()  # type: ignore[attr-defined]
        resumable = later.workspace.unfinished() is not None  # type: ignore[attr-defined]
    finally:
        later.close()  # type: ignore[attr-defined]
    return seen[0], resumable


@pytest.mark.parametrize("size", SIZES)
def test_nothing_reviewed_promises_no_resume(tmp_path: Path, size: tuple[int, int]) -> None:
    text, resumable = asked_then_quit(tmp_path, size, "")
    assert "Nothing is reviewed yet" in text
    assert not resumable
    assert "resumed" not in text


@pytest.mark.parametrize("size", SIZES)
def test_a_graded_answer_on_screen_is_kept_and_makes_the_session_resumable(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    text, resumable = asked_then_quit(tmp_path, size, "x^2")
    assert resumable
    assert "resumed next time" in text
