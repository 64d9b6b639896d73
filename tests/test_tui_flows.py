"""Pilot tests that drive whole flows through the real layers (engine, decks, store).

Every test runs on a fresh database under ``tmp_path`` (``RECALL_HOME``), over a small test deck,
with a fake clock, so the machine's own data and the wall clock never matter.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest
from textual.widgets import Input

from recall.session import Mode
from recall.tui.app import RecallApp
from recall.tui.screens.drill import DrillScreen, Phase
from recall.tui.screens.home import HomeScreen
from recall.tui.screens.summary import SummaryScreen
from recall.tui.views import SessionPlan
from recall.verdicts import Status
from tests.tui_fixtures import (
    FakeClock,
    isolate,
    real_services,
    screen_text,
    settle,
    type_text,
)

#: A right answer for each card of the test deck.
RIGHT = {"tiny/square": "x^2", "tiny/double": "2y", "tiny/answer": "42"}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def drill(app: RecallApp) -> DrillScreen:
    screen = app.screen
    assert isinstance(screen, DrillScreen), type(screen).__name__
    return screen


async def answer(app: RecallApp, pilot: object, text: str) -> None:
    """Clear the box, type ``text`` and press Enter; wait for the grade."""
    await pilot.press("ctrl+u")  # type: ignore[attr-defined]
    await type_text(pilot, text)
    await settle(app, pilot)
    await pilot.press("enter")  # type: ignore[attr-defined]
    await settle(app, pilot)


def test_timed_session_right_wrong_invalid_and_the_budget_running_out(
    tmp_path: Path, clock: FakeClock
) -> None:
    services = real_services(tmp_path, clock)
    app = RecallApp(services, plan=SessionPlan(minutes=1))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = drill(app)
            assert screen.card is not None and screen.card.key == "tiny/square"
            assert "⏱ 1:00" in screen_text(app)

            # right: suggested Good, Enter accepts, committed before the next card shows
            await answer(app, pilot, "x^2")
            assert screen.phase is Phase.FEEDBACK
            assert screen.feedback is not None and screen.feedback.outcome is Status.CORRECT
            clock.advance(20)
            await pilot.press("enter")
            await settle(app, pilot)
            assert services.workspace.store.review_count() == 1
            assert screen.card is not None and screen.card.key == "tiny/double"

            # invalid: costs nothing, the box stays open with the problem shown
            await answer(app, pilot, "2*(y")
            assert screen.phase is Phase.ASKING
            assert services.workspace.store.review_count() == 1
            assert "^" in screen_text(app)

            # wrong: suggested Again; 1 overrides nothing here but is the explicit key
            await answer(app, pilot, "3y")
            assert screen.feedback is not None and screen.feedback.outcome is Status.INCORRECT
            assert screen.feedback.suggested is not None and screen.feedback.suggested.key == "1"
            clock.advance(20)
            await pilot.press("1")
            await settle(app, pilot)
            assert services.workspace.store.review_count() == 2
            assert screen.card is not None and screen.card.key == "tiny/answer"

            # the budget runs out in the middle of this card: it is still finished
            clock.advance(30)
            await pilot.pause(0.6)  # the countdown redraws
            assert "0:00" in screen_text(app)
            await answer(app, pilot, "42")
            assert screen.phase is Phase.FEEDBACK
            await pilot.press("enter")
            await settle(app, pilot)

            assert isinstance(app.screen, SummaryScreen)
            summary = app.screen.summary
            run = screen.run
            assert run is not None
            log = services.workspace.store.reviews(session_id=run.info.id)
            assert summary.reviews == len(log) == 3
            assert [entry.card_key for entry in log] == [
                "tiny/square",
                "tiny/double",
                "tiny/answer",
            ]
            assert summary.cards == 3
            right_first = sum(e.verdict == "correct" for e in log)
            assert right_first == 2
            assert summary.first_try_accuracy == pytest.approx(right_first / 3)
            assert [m.key for m in summary.missed] == ["tiny/double"]
            assert summary.missed[0].answer == "3y"
            assert summary.new == 3
            assert "Missed" in screen_text(app)

    asyncio.run(flow())


def test_undo_restores_the_card_and_removes_the_review(tmp_path: Path, clock: FakeClock) -> None:
    services = real_services(tmp_path, clock)
    app = RecallApp(services, plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = drill(app)
            before = services.workspace.store.cards_by_key(["tiny/square"])["tiny/square"].state
            await answer(app, pilot, "x^2")
            await pilot.press("enter")
            await settle(app, pilot)
            assert services.workspace.store.review_count() == 1
            assert screen.card is not None and screen.card.key == "tiny/double"

            await pilot.press("ctrl+z")
            await settle(app, pilot)
            assert services.workspace.store.review_count() == 0
            after = services.workspace.store.cards_by_key(["tiny/square"])["tiny/square"].state
            assert after == before
            assert screen.card is not None and screen.card.key == "tiny/square"
            assert screen.phase is Phase.ASKING
            # and the skipped-over card is next again
            await answer(app, pilot, "x^2")
            await pilot.press("enter")
            await settle(app, pilot)
            assert screen.card is not None and screen.card.key == "tiny/double"

    asyncio.run(flow())


def test_cram_leaves_the_schedule_untouched(tmp_path: Path, clock: FakeClock) -> None:
    services = real_services(tmp_path, clock)
    app = RecallApp(services, plan=SessionPlan(minutes=10, mode=Mode.CRAM))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            before = {k: c.state for k, c in services.workspace.store.cards_by_key().items()}
            screen = drill(app)
            assert screen.card is not None
            await answer(app, pilot, RIGHT[screen.card.key])
            await pilot.press("enter")
            await settle(app, pilot)
            await answer(app, pilot, "17")  # wrong for every card of the deck
            await pilot.press("1")
            await settle(app, pilot)
            after = {k: c.state for k, c in services.workspace.store.cards_by_key().items()}
            assert after == before
            log = services.workspace.store.reviews()
            assert len(log) == 2
            assert all(entry.before is None and entry.after is None for entry in log)

    asyncio.run(flow())


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
def test_shared_decks_of_another_version_are_said_on_the_home_screen(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """A learner's login on a shared database whose sync found shared decks that are not this
    recall's (:attr:`recall.store.SyncReport.behind`): the home screen says so in one line that
    fits, with what the owner runs, beside a deck file that did not load."""
    import dataclasses

    from recall.store.store import Store

    synced = Store.sync_decks

    def behind(store: Store, decks, now=None):  # type: ignore[no-untyped-def]
        return dataclasses.replace(synced(store, decks, now), behind=("tiny",))

    monkeypatch.setattr(Store, "sync_decks", behind)
    services = real_services(tmp_path, clock, broken=True)
    app = RecallApp(services)

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            assert isinstance(app.screen, HomeScreen)
            assert app.home_data is not None
            assert app.home_data.shared_decks_behind == ("tiny",)
            lines = screen_text(app).splitlines()
            (line,) = [line for line in lines if "recall version" in line]
            assert (
                "1 shared deck from another recall version: the owner runs recall decks sync"
                in line
            )
            assert any("1 deck file did not load" in line for line in lines)

    asyncio.run(flow())


def test_a_broken_custom_deck_is_reported_while_the_rest_work(
    tmp_path: Path, clock: FakeClock
) -> None:
    services = real_services(tmp_path, clock, broken=True)
    app = RecallApp(services)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert isinstance(app.screen, HomeScreen)
            text = screen_text(app)
            assert "1 deck file did not load (1 problem): b lists them all" in text
            assert "Tiny" in text
            assert app.home_data is not None
            assert [d.id for d in app.home_data.decks] == ["tiny"]
            failure = app.home_data.failures[0]
            assert "oops" in failure.message and "answer" in failure.message

            await pilot.press("b")  # the decks screen opens on why (the failures come first)
            await settle(app, pilot)
            text = screen_text(app)
            assert "did not load" in text and "oops" in text and "broken.toml" in text

            await pilot.press("escape", "s")  # and the good deck still drills
            await settle(app, pilot)
            assert drill(app).card is not None

    asyncio.run(flow())


def test_the_preview_follows_every_keystroke(tmp_path: Path, clock: FakeClock) -> None:
    services = real_services(tmp_path, clock)
    app = RecallApp(services, plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            seen = []
            for key in ["x", "^", "2"]:
                await pilot.press(key)
                await settle(app, pilot)
                seen.append(screen_text(app))
            assert "interpreted as" in seen[0] and "x" in seen[0]
            assert "interpreted as" not in seen[1]  # "x^" is incomplete: an error, with a caret
            assert "^" in seen[1].split("your answer")[-1]
            assert "interpreted as" in seen[2]
            lines = seen[2].splitlines()
            row = next(i for i, line in enumerate(lines) if "interpreted as" in line)
            assert lines[row + 1].strip() == "2" and lines[row + 2].strip() == "x"
            assert services.workspace.store.review_count() == 0  # previews never grade or record

    asyncio.run(flow())


@pytest.mark.parametrize(
    "hostile",
    ["9^9^9^9^9", "(" * 100 + "x" + ")" * 100, "__import__('os').system('true')", "1" * 60],
)
def test_a_hostile_answer_is_refused_and_the_app_stays_responsive(
    tmp_path: Path, clock: FakeClock, hostile: str
) -> None:
    services = real_services(tmp_path, clock)
    app = RecallApp(services, plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = drill(app)
            answer_box = screen.query_one("#answer", Input)
            answer_box.value = hostile
            await settle(app, pilot)
            await pilot.press("enter")
            await settle(app, pilot)
            assert screen.feedback is None or screen.feedback.outcome is not Status.CORRECT
            assert services.workspace.store.review_count() == 0 or screen.phase is Phase.FEEDBACK
            if screen.phase is Phase.FEEDBACK:  # graded wrong: rate it and go on
                await pilot.press("1")
                await settle(app, pilot)
            # still responsive: the next answer is read and graded as usual
            card = screen.card
            assert card is not None and screen.phase is Phase.ASKING
            await answer(app, pilot, RIGHT[card.key])
            assert screen.feedback is not None and screen.feedback.outcome is Status.CORRECT

    asyncio.run(flow())


def test_a_session_left_open_is_offered_and_resumed(tmp_path: Path, clock: FakeClock) -> None:
    first = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))

    async def leave_midway() -> None:
        async with first.run_test(size=(80, 24)) as pilot:
            await settle(first, pilot)
            await answer(first, pilot, "x^2")
            clock.advance(30)
            await pilot.press("enter")
            await settle(first, pilot)
            await pilot.press("ctrl+q")  # closed mid-session: nothing asked, nothing lost
            await pilot.pause()

    asyncio.run(leave_midway())
    services = real_services(tmp_path, clock)
    second = RecallApp(services)

    async def come_back() -> None:
        async with second.run_test(size=(80, 24)) as pilot:
            await settle(second, pilot)
            assert "An unfinished session" in screen_text(second)
            await pilot.press("u")
            await settle(second, pilot)
            screen = drill(second)
            assert screen.run is not None and screen.run.reviewed() == 1
            assert screen.card is not None and screen.card.key != "tiny/square"
            assert screen.run.seconds_left() == pytest.approx(570)  # the 30 s already spent
            assert "resumed" in screen_text(second)

    asyncio.run(come_back())


def _deck_text(deck_id: str, count: int) -> str:
    cards = "".join(
        f'\n[[card]]\nid = "c{i}"\nkind = "fact"\nprompt = "{deck_id} {i}?"\nvalue = {i}\n'
        f"tolerance = {{ exact = true }}\n"
        for i in range(count)
    )
    return f'[deck]\nid = "{deck_id}"\nname = "{deck_id.title()}"\ntopic = "Testing"\n{cards}'


def test_the_home_header_counts_the_new_cards_today_will_introduce(
    tmp_path: Path, clock: FakeClock
) -> None:
    home = tmp_path / "home"
    home.mkdir(parents=True, exist_ok=True)
    # Deck order, so the two cards introduced are alpha's (the default gathers across decks).
    config = 'new_per_day = 5\nnew_card_order = "deck"\n'
    (home / "config.toml").write_text(config, encoding="utf-8")
    decks = {f"{name}.toml": _deck_text(name, 3) for name in ("alpha", "beta", "gamma")}
    services = real_services(tmp_path, clock, only=decks)
    app = RecallApp(services)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            data = app.home_data
            assert data is not None
            assert [deck.new for deck in data.decks] == [3, 3, 3]  # each deck: what it has
            assert data.new_total == 5  # the day's allowance, not 3 + 3 + 3
            assert "5 new" in screen_text(app)
            app.start_session(SessionPlan(minutes=None, cards=2))
            await settle(app, pilot)
            for _ in range(2):
                await answer(app, pilot, str(drill(app).card.card_id[1:]))  # type: ignore[union-attr]
                await pilot.press("enter")
                await settle(app, pilot)
            assert isinstance(app.screen, SummaryScreen)
            await pilot.press("escape")  # back home, recounted
            await settle(app, pilot)
            data = app.home_data
            assert data is not None
            assert [deck.new for deck in data.decks] == [1, 3, 3]
            assert data.new_total == 3  # 5 a day, 2 introduced
            assert "3 new" in screen_text(app)

    asyncio.run(flow())


def test_home_totals_respect_the_daily_allowances() -> None:
    from recall.tui.views import DeckRow, HomeData

    decks = tuple(
        DeckRow(
            id=f"d{i}", name=f"D{i}", topic="T", builtin=True, cards=40, new=20, due=15, learning=1
        )
        for i in range(17)
    )
    data = HomeData(decks=decks, new_allowance=20, review_allowance=200)
    assert data.new_total == 20  # not 17 x 20 = 340
    assert data.due_total == 17 + 200  # learning cards are not held back by the review limit
    assert HomeData(decks=decks[:1], new_allowance=20).new_total == 20
    assert HomeData(decks=decks, new_allowance=0).new_total == 0
    assert HomeData(decks=decks).new_total == 340  # no allowance known: plain sum


def test_a_deleted_deck_file_retires_its_cards_and_restoring_it_brings_them_back(
    tmp_path: Path, clock: FakeClock
) -> None:
    from recall.tui.services import Services

    decks = {"alpha.toml": _deck_text("alpha", 2), "beta.toml": _deck_text("beta", 2)}
    first = real_services(tmp_path, clock, only=decks)
    first.load()
    run = first.begin(SessionPlan(minutes=None, cards=1, deck_ids=("alpha",)))
    card = run.next_card()
    assert card is not None and card.key == "alpha/c0"
    run.session.record(verdict="correct", rating=3)
    before = first.workspace.store.cards_by_key(["alpha/c0"])["alpha/c0"]
    first.close()

    folder = tmp_path / "decks"
    saved = (folder / "alpha.toml").read_text(encoding="utf-8")
    (folder / "alpha.toml").unlink()
    (folder / "beta.toml").write_text("[deck]\nid = 'beta'\n[[card]]\nid = 'x'\n")  # now broken
    second = Services(clock=clock, deck_dirs=[folder])
    data = second.load()
    assert [deck.id for deck in data.decks] == []
    assert [Path(f.path).name for f in data.failures] == ["beta.toml"]
    cards = second.workspace.store.cards_by_key()
    assert cards["alpha/c0"].retired and cards["alpha/c1"].retired
    assert not cards["beta/c0"].retired  # failed validation: its file is still there
    assert second.workspace.store.count_due(clock() + timedelta(days=30)) == 0
    second.close()

    (folder / "alpha.toml").write_text(saved, encoding="utf-8")
    third = Services(clock=clock, deck_dirs=[folder])
    assert "alpha" in [deck.id for deck in third.load().decks]
    back = third.workspace.store.cards_by_key(["alpha/c0"])["alpha/c0"]
    assert not back.retired and back.state == before.state
    assert len(third.workspace.store.reviews(card_db_id=back.db_id)) == 1
    third.close()


def test_a_session_running_in_another_window_is_not_offered(
    tmp_path: Path, clock: FakeClock
) -> None:
    first = RecallApp(real_services(tmp_path, clock), plan=SessionPlan(minutes=10))
    second = real_services(tmp_path, clock)

    async def both_open() -> None:
        async with first.run_test(size=(80, 24)) as pilot:
            await settle(first, pilot)
            await answer(first, pilot, "x^2")
            await pilot.press("enter")
            await settle(first, pilot)
            assert drill(first).run.reviewed() == 1  # type: ignore[union-attr]
            clock.advance(3 * 3600)  # however long it has been quiet: this machine, still running
            assert second.load().unfinished is None
            await pilot.press("ctrl+q")  # the first window closes mid-session
            await pilot.pause()

    asyncio.run(both_open())
    offered = second.home().unfinished
    assert offered is not None and offered.resume_id is not None
    second.close()


def test_a_database_that_cannot_be_opened_ends_the_app_with_a_reason(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wrong --db must not look like success: the app leaves with status 2 and says why."""
    monkeypatch.setenv("RECALL_DB", "postgresql+psycopg://nobody@127.0.0.1:1/none")
    services = real_services(tmp_path, clock)
    app = RecallApp(services)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)):
            for _ in range(400):  # the load worker fails, then the app exits
                if app.return_code is not None:
                    break
                await asyncio.sleep(0.05)

    asyncio.run(flow())
    assert app.return_code == 2
