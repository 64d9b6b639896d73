"""One count of new cards waiting, one plan, everywhere (issue 19, item 1): the home screen's
header, the "learn more" dialog, the empty-session offer and ``recall today`` say the same number,
and it does not drift from day to day with no cards added (it read 475 in the offer and 662 on
home, and dropped after a session as siblings were buried, to come back the next morning).

Four simulated days on a deck of sibling pairs (a card seen today buries its sibling), with two
new cards a day, each day drilled through the real screens with a fake clock; ``recall today``
runs on the same clock."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from recall.cli import main
from recall.tui.app import RecallApp
from recall.tui.screens.drill import DrillScreen
from recall.tui.screens.home import HomeScreen
from recall.tui.screens.summary import SummaryScreen
from recall.tui.screens.today_dialogs import EmptyOfferDialog, LearnMoreDialog
from tests.tui_fixtures import FakeClock, isolate, real_services, screen_text, settle, type_text

PAIRS = 8


def _deck() -> str:
    cards = []
    for i in range(PAIRS * 2):
        other = i + 1 if i % 2 == 0 else i - 1
        cards.append(
            f'[[card]]\nid = "c{i}"\nkind = "fact"\nprompt = "Number {i}?"\nvalue = {100 + i}\n'
            f'tolerance = {{ exact = true }}\nsiblings = ["c{other}"]\n'
        )
    return '[deck]\nid = "pairs"\nname = "Pairs"\ntopic = "Testing"\n\n' + "\n".join(cards)


def _number(pattern: str, text: str) -> int:
    found = re.search(pattern, " ".join(text.split()))
    assert found, f"{pattern!r} not in:\n{text}"
    return int(found.group(1))


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
def test_new_cards_waiting_is_one_number_everywhere_and_day_after_day(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, size: tuple[int, int]
) -> None:
    home = isolate(monkeypatch, tmp_path)
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text("new_per_day = 2\n", encoding="utf-8")
    clock = FakeClock()
    decks = tmp_path / "decks"
    seen: list[dict[str, int]] = []

    for _day in range(4):
        services = real_services(tmp_path, clock, only={"pairs.toml": _deck()})
        app = RecallApp(services)
        figures: dict[str, int] = {}
        asyncio.run(_one_day(app, clock, size, figures))
        figures["recall today"] = _today_waiting(decks, clock)
        seen.append(figures)
        clock.advance(24 * 3600)  # the next day, no card added

    for figures in seen:
        assert len(set(figures.values())) == 1, seen  # one number everywhere
    evenings = [next(iter(f.values())) for f in seen]
    # Two new cards a day leave the waiting cards, and nothing else moves the count.
    assert evenings == [PAIRS * 2 - 2 * (day + 1) for day in range(4)], seen


def _today_waiting(decks: Path, clock: FakeClock) -> int:
    """What `recall today` prints, over the same decks (the command's own plan and words; the
    command itself always adds the built-in decks)."""
    from recall.commands.today import render
    from recall.config import load_settings
    from recall.workspace import Workspace

    workspace = Workspace.open(load_settings(), [decks], clock=clock)
    try:
        text = render(workspace.plan_today(), extra_new=workspace.extra_new_today())
    finally:
        workspace.close()
    return _number(r"(\d+) new cards? waits?", text)


def _answer(card_prompt: str) -> str:
    return str(100 + int(card_prompt.split()[1].rstrip("?")))


async def _one_day(
    app: RecallApp, clock: FakeClock, size: tuple[int, int], figures: dict[str, int]
) -> None:
    """Drill everything the day has (new cards and their learning steps), then read the
    count of new cards waiting on the home screen, in "learn more" and in the offer."""
    async with app.run_test(size=size) as pilot:
        await settle(app, pilot)
        for _round in range(6):
            await pilot.press("s")
            await settle(app, pilot)
            if isinstance(app.screen, EmptyOfferDialog):
                text = screen_text(app)
                await pilot.press("escape")
                await settle(app, pilot)
                if "here wait" in " ".join(text.split()):
                    figures["offer"] = _number(r"(\d+) new cards? here waits?", text)
                    break
                clock.advance(20 * 60)  # learning steps come back later today
                continue
            while isinstance(app.screen, DrillScreen):
                card = app.screen.card
                assert card is not None
                await type_text(pilot, _answer(card.prompt))
                await settle(app, pilot)
                for key in ("enter", "enter"):
                    await pilot.press(key)
                    await settle(app, pilot)
                clock.advance(30)
            assert isinstance(app.screen, SummaryScreen)
            await pilot.press("escape")
            await settle(app, pilot)
            clock.advance(20 * 60)
        assert "offer" in figures, "the day never ran out of cards"
        assert isinstance(app.screen, HomeScreen)
        # The deck table's New column (the header says "n more" once today's are done).
        figures["home"] = _number(r"Pairs \(mine\) +(\d+)", screen_text(app))
        await pilot.press("n")
        await settle(app, pilot)
        assert isinstance(app.screen, LearnMoreDialog)
        figures["learn more"] = _number(r"(\d+) new cards? waits?", screen_text(app))
        await pilot.press("escape")
        await settle(app, pilot)


def test_the_first_recall_today_of_a_day_plans_the_cards_the_session_introduces(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 19, item 1: the first `recall today` of a new day split the day's new cards
    across decks unlike the session (it planned before yesterday's buried siblings were back).
    Over four days on the built-in decks, `recall today --json` run first thing each morning
    names exactly the new cards the day's session then introduces."""
    from recall.scheduling import Rating
    from recall.session import Budget
    from recall.workspace import Workspace

    isolate(monkeypatch, tmp_path)
    clock = FakeClock()
    monkeypatch.setattr("recall.workspace.utc_now", clock)  # the command's clock
    for day in range(4):
        assert main(["today", "--json"]) == 0
        queue = json.loads(capsys.readouterr().out)["queue"]
        planned = {f"{c['deck']}/{c['card']}" for c in queue if c["state"] == "new"}
        workspace = Workspace.open(clock=clock)
        try:
            session = workspace.start_session(budget=Budget.cards(400), mode="normal")
            introduced = set()
            while (card := session.next_card()) is not None:
                state = session.current_state
                if state is not None and state.state.is_new:
                    introduced.add(card.key)
                session.record(verdict="correct", rating=Rating.Good, seconds=10.0)
                clock.advance(30)
            session.end()
        finally:
            workspace.close()
        assert len(planned) == 20 and introduced == planned, (day, planned ^ introduced)
        clock.advance(24 * 3600)
