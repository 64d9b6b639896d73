"""Under a followed exam plan, today's new cards are one count everywhere (issue 23 part 2,
issue 19 item 1): ``recall exam``'s row for today, ``recall today``, the ``x`` dialog's plan and
the home screen at 80x24 say the same number, and it is what the day's limit has left.

Seen in a tryout: with 7 new cards done (one in the followed decks), ``recall exam … --follow``
listed today as "new 1" while ``recall today`` said "2 a day, 7 done, 0 left" and 0 new: the
plan counted the day's introductions in its own decks only, the daily limit in every deck. After
a session, ``recall exam`` made the plan again and gave today new cards the day no longer had.

Several simulated days on two custom decks (built-in decks beside them): a day starting with
cards of other decks introduced, a skipped day, days with fewer new cards done than planned and
days with more (today's limit raised, which takes the plan's next cards, or learned with the
plan set aside, then followed again); each is compared in the
morning and after the day's work. The decks' look-alike cards form sibling groups, so a card the
plan wants today can be buried by its sibling seen today: the plan made again that evening must
not count it (the day's limit kept room for a card no session would show).
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from recall.cli import main
from recall.scheduling import Rating
from recall.session import Budget
from recall.tui.app import RecallApp
from recall.tui.screens.home import HomeScreen
from recall.tui.screens.today_dialogs import ExamPlanDialog
from recall.workspace import Workspace
from tests.tui_fixtures import FakeClock, isolate, screen_text, settle, static_text

DECKS = ("my-losses", "optim-bits")
#: The exam day, 20 days after the fake clock's first day.
EXAM = "2025-03-24"


def _deck(deck: str, cards: int) -> str:
    out = [f'[deck]\nid = "{deck}"\nname = "{deck}"\ndescription = "test"\n']
    for i in range(cards):
        out.append(
            f'[[card]]\nid = "c{i}"\nkind = "fact"\nprompt = "{deck} value {i}?"\n'
            f"value = {i + 1}\ntolerance = {{ exact = true }}\n"
        )
    return "\n".join(out)


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()  # what the app wrote, if anything
    status = main(list(argv))
    out = capsys.readouterr().out
    assert status == 0, out
    return out


def _exam_row(text: str, day: str) -> int:
    found = re.search(rf"^{day} +(\d+) ", text, re.MULTILINE)
    assert found, f"no row for {day} in:\n{text}"
    return int(found.group(1))


def _drill(clock: FakeClock, new: int, *, only: list[str] | None = None) -> int:
    """Answer cards right until ``new`` new cards were introduced (or none is left); how many
    were introduced."""
    workspace = Workspace.open(clock=clock)
    introduced = 0
    try:
        session = workspace.start_session(budget=Budget.cards(400), mode="normal", only=only)
        while introduced < new and (card := session.next_card()) is not None:
            state = session.current_state
            introduced += bool(state is not None and state.state.is_new and card.key)
            session.record(verdict="correct", rating=Rating.Good, seconds=10.0)
            clock.advance(30)
        session.end()
    finally:
        workspace.close()
    return introduced


def _home(clock: FakeClock) -> tuple[int, str, str]:
    """The home screen at 80x24: today's new count, the exam line, and the plan the ``x``
    dialog shows."""
    from recall.tui.services import Services

    services = Services(clock=clock)
    app = RecallApp(services)
    shown: dict[str, str] = {}

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert isinstance(app.screen, HomeScreen)
            shown["home"] = screen_text(app)
            await pilot.press("x")  # opens on the followed plan, its date filled in
            await settle(app, pilot)
            assert isinstance(app.screen, ExamPlanDialog), type(app.screen).__name__
            shown["dialog"] = static_text(app.screen.query_one("#exam-text"))

    asyncio.run(run())
    found = re.search(r"Today: (\d+) new", shown["home"])
    assert found, shown["home"]
    return int(found.group(1)), shown["home"], shown["dialog"]


def test_todays_new_cards_under_a_followed_plan_are_one_count_day_after_day(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = isolate(monkeypatch, tmp_path)
    for deck in DECKS:
        (home / "decks").mkdir(parents=True, exist_ok=True)
        (home / "decks" / f"{deck}.toml").write_text(_deck(deck, 12), encoding="utf-8")
    clock = FakeClock()
    monkeypatch.setattr("recall.workspace.utc_now", clock)  # the commands' clock
    deck_args = [arg for deck in DECKS for arg in ("--deck", deck)]

    assert _drill(clock, 7) == 7  # every deck: most of the seven are not the plan's
    followed = _cli(capsys, "exam", EXAM, *deck_args, "--follow")

    # What the learner does on each day after the morning's look, against the plan's new cards
    # for the day: none of them, fewer, all, more (a session on chosen cards of the plan's
    # decks, as `recall drill` over picked cards would), or skip the day (no look at night).
    # "raise": today's limit raised by 3 ("learn 3 more today", `n` on the home screen), then
    # that many more drilled: the plan's next cards, ahead of their day.
    days = ["none", "raise", "skip", "fewer", "more", "all", "skip", "raise"]
    table = []
    learned_ahead: list[int] = []
    for index, work in enumerate(days):
        morning, iso = _look(capsys, clock, deck_args, followed if index == 0 else None)
        row = [iso, work, *morning]
        if work != "skip":
            wanted = {"none": 0, "fewer": morning[0] // 2, "all": morning[0]}
            if work == "more":
                # The plan sets the day's new cards, so more than it asks is learned with the
                # plan set aside for a while (the normal limit allows them), then followed again.
                _cli(capsys, "exam", "--stop")
                done = _drill(clock, morning[0] + 3, only=_new_keys(clock, morning[0] + 3))
                assert done > morning[0], (iso, done, morning)  # more than planned indeed
                _cli(capsys, "exam", EXAM, *deck_args, "--follow")
            elif work == "raise":
                _raise(clock, 3)
                raised, _iso = _look(capsys, clock, deck_args)
                learned_ahead.append(raised[0] - morning[0])  # the plan's next cards
                done = _drill(clock, raised[0])
                assert done == raised[0], (iso, done, raised)
            else:
                done = _drill(clock, wanted[work])
            clock.advance(3600)
            evening, _iso = _look(capsys, clock, deck_args)
            row += [done, *evening]
        table.append(row)
        clock.advance(24 * 3600)
    assert learned_ahead and learned_ahead[0] == 3, learned_ahead  # a raise takes more cards
    with capsys.disabled():
        print(
            "\nday         work   morning: exam today today-text home dialog left"
            " · done · evening: the same"
        )
        for row in table:
            print(" ".join(str(cell) for cell in row))


def _look(
    capsys: pytest.CaptureFixture[str],
    clock: FakeClock,
    deck_args: list[str],
    exam_text: str | None = None,
) -> tuple[list[int], str]:
    """Today's new cards as every place shows them (``recall exam``'s row for today, ``recall
    today --json``'s queue, ``recall today``'s text, the home screen, the ``x`` dialog, what
    the day's limit has left), asserted equal; and the study day."""
    workspace = Workspace.open(clock=clock)
    try:
        guidance = workspace.exam_guidance()
        assert guidance is not None, "the plan is no longer followed"
        iso = guidance.today.day.isoformat()
        today_json = json.loads(_cli(capsys, "today", "--json"))
        # The plan's new cards a session can introduce today: not yet introduced, not buried,
        # and with no sibling among today's reviews (of two siblings the review goes first).
        group = {key: card.sibling_group for key, card in workspace.cards.items()}
        busy = {
            group[f"{c['deck']}/{c['card']}"] for c in today_json["queue"] if c["state"] != "new"
        }
        keys = guidance.today.new_cards
        stored = workspace.store.cards_by_key(keys)
        available = sum(
            1
            for key in keys
            if stored[key].state.is_new
            and (stored[key].buried_until is None or stored[key].buried_until <= clock())
            and (not group[key] or group[key] not in busy)
        )
    finally:
        workspace.close()
    exam_text = exam_text or _cli(capsys, "exam", EXAM, *deck_args)
    today_text = _cli(capsys, "today")
    limit = today_json["limits"]["new"]
    home_new, home_text, dialog = _home(clock)
    figures = [
        _exam_row(exam_text, iso),
        sum(1 for c in today_json["queue"] if c["state"] == "new"),
        _number(r"Today, \S+: (\d+) new", today_text),
        home_new,
        _exam_row(dialog, iso),
    ]
    # What the day's limit has left, unless the plan has fewer new cards than that left.
    left = max(0, limit["limit"] - limit["spent"])
    figures.append(min(left, available))
    assert re.search(r"exam (in \d+ days?|\d+d|today)", home_text), home_text
    assert len(set(figures)) == 1, (iso, figures, guidance.today)
    return figures, iso


def _raise(clock: FakeClock, count: int) -> None:
    workspace = Workspace.open(clock=clock)
    try:
        workspace.learn_more_today(count)
    finally:
        workspace.close()


def _new_keys(clock: FakeClock, count: int) -> list[str]:
    """``count`` cards of the plan's decks not introduced yet."""
    workspace = Workspace.open(clock=clock)
    try:
        keys = [key for key, card in workspace.cards.items() if card.deck_id in DECKS]
        stored = workspace.store.cards_by_key(keys)
        return [key for key in keys if stored[key].state.is_new][:count]
    finally:
        workspace.close()


def _number(pattern: str, text: str) -> int:
    found = re.search(pattern, " ".join(text.split()))
    assert found, f"{pattern!r} not in:\n{text}"
    return int(found.group(1))
