"""A card that becomes a leech is announced on the drill screen at that very review.

A real session over a real store: two cards are reviewed into the schedule beforehand (one of
them forgotten once already), then drilled in the TUI and forgotten again. With a leech threshold
of two lapses, only the second card's lapse makes a leech, and only then is it announced.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

from recall.config import Settings
from recall.session import Budget
from recall.tui.app import RecallApp
from recall.tui.screens.drill import DrillScreen, Phase
from recall.tui.views import SessionPlan
from recall.workspace import Workspace
from tests.tui_fixtures import FakeClock, isolate, settle, type_text, write_deck

DECK = """\
[deck]
id = "pair"
name = "Pair"

[[card]]
id = "steady"
kind = "formula"
prompt = "The square of x."
answer = "x^2"
symbols = { x = "real" }

[[card]]
id = "shaky"
kind = "formula"
prompt = "Twice y."
answer = "2*y"
symbols = { y = "real" }
"""

TITLE = "This card is now a leech"


def _review(workspace: Workspace, ratings: dict[str, int]) -> None:
    """One scheduled session rating each due card once, as ``ratings`` says (by card id); a
    forgotten card comes back in the session for relearning: the session is ended before."""
    session = workspace.start_session(budget=Budget.until_done(), mode="normal")
    seen: set[str] = set()
    while (card := session.next_card()) is not None and card.id not in seen:
        seen.add(card.id)
        rating = ratings[card.id]
        session.record(verdict="correct" if rating > 1 else "incorrect", rating=rating)
    session.end()


def test_a_leech_is_announced_the_moment_a_card_becomes_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    isolate(monkeypatch, tmp_path)
    clock = FakeClock()
    settings = Settings(leech_threshold=2)
    decks = tmp_path / "decks"
    write_deck(decks, "pair.toml", DECK)

    workspace = Workspace.open(settings, [decks], clock=clock)
    _review(workspace, {"steady": 4, "shaky": 4})  # both straight into review
    clock.advance(timedelta(days=400).total_seconds())
    _review(workspace, {"steady": 3, "shaky": 1})  # shaky forgotten: one lapse
    clock.advance(timedelta(days=1).total_seconds())
    _review(workspace, {"shaky": 3})  # relearnt: back in review
    clock.advance(timedelta(days=3000).total_seconds())
    lapses = {k: c.state.lapses for k, c in workspace.store.cards_by_key().items()}
    assert lapses == {"pair/steady": 0, "pair/shaky": 1}
    workspace.close()

    from recall.tui.services import Services

    services = Services(settings, clock=clock, deck_dirs=[decks])
    app = RecallApp(services, settings, plan=SessionPlan(minutes=10))

    def announced() -> list[str]:
        return [n.message for n in app._notifications if n.title == TITLE]

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            seen = []
            for _ in range(2):
                assert screen.card is not None
                key = screen.card.key
                seen.append(key)
                await type_text(pilot, "3*x" if key == "pair/steady" else "3*y")  # both wrong
                await settle(app, pilot)
                await pilot.press("enter")
                await settle(app, pilot)
                assert screen.phase is Phase.FEEDBACK
                before = announced()  # graded, not yet recorded
                await pilot.press("enter")  # accept the suggested Again: a lapse
                await settle(app, pilot)
                if key == "pair/steady":
                    assert announced() == before  # one lapse: not a leech yet
                else:
                    assert before == []  # not announced before the review that made it one
                    [message] = announced()
                    assert "pair/shaky" in message and "2 times" in message
            assert sorted(seen) == ["pair/shaky", "pair/steady"]
            assert len(announced()) == 1  # announced once, at the review that made it one
            await pilot.press("ctrl+q")

    asyncio.run(flow())
