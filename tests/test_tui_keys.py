"""Keys, help, palette, themes, remapping, pause, hints, explain cards, leaving and failures."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from rich.console import Console

from recall.store import open_store
from recall.tui.app import RecallApp
from recall.tui.commands import RecallCommands
from recall.tui.keys import binding_sections, bindings_of, keys_table
from recall.tui.screens.dialogs import PauseDialog
from recall.tui.screens.drill import DrillScreen, Phase
from recall.tui.screens.help import HelpScreen
from recall.tui.screens.home import HomeScreen
from recall.tui.screens.stats import StatsScreen
from recall.tui.screens.summary import SummaryScreen
from recall.tui.settings import read_settings, theme_name
from recall.tui.views import Rating, SessionPlan
from recall.verdicts import Status
from tests.tui_fixtures import (
    EXPLAIN_DECK,
    FakeClock,
    FakeServices,
    isolate,
    real_services,
    screen_text,
    settle,
    type_text,
)


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    return isolate(monkeypatch, tmp_path)


def table_text(keymap: dict[str, str]) -> str:
    console = Console(width=200, record=True, color_system=None)
    console.print(keys_table(keymap, RecallApp))
    return console.export_text()


def test_every_binding_has_an_id_and_the_help_lists_every_one(home: Path) -> None:
    text = table_text({})
    ids = []
    for _title, owner in binding_sections(RecallApp):
        for binding in bindings_of(owner):
            assert binding.id, f"{owner.__name__} binds {binding.key} without an id"
            ids.append(binding.id)
            assert binding.id in text
    assert len(ids) == len(set(ids)), "binding ids must be unique"


def test_keys_are_remapped_from_the_config_file(home: Path, tmp_path: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text('[keys]\n"drill.hint" = "f3"\n', encoding="utf-8")
    settings, _problem = read_settings()
    assert settings.keys == {"drill.hint": "f3"}
    assert "F3" in table_text(settings.keys)
    services = real_services(tmp_path, FakeClock())
    app = RecallApp(services, settings, plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            await pilot.press("ctrl+g")  # the old key does nothing now
            await pilot.pause()
            assert not screen.hinted
            await pilot.press("f3")
            await pilot.pause()
            assert screen.hinted and "Multiply x by itself" in screen_text(app)

    asyncio.run(flow())


def test_a_broken_config_file_is_reported_and_the_defaults_used(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text("[keys\n", encoding="utf-8")
    settings, problem = read_settings()
    assert settings.keys == {}
    assert "config.toml" in problem


def test_the_command_palette_reaches_every_action_of_the_screen(home: Path) -> None:
    app = RecallApp(FakeServices())

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            provider = RecallCommands(app.screen)
            names = {name for name, _help, _run in provider._commands()}
            for binding in bindings_of(HomeScreen):
                assert binding.description in names
            assert {"Quit", "Keys"} <= names
            await pilot.press("ctrl+p")
            await pilot.pause()
            await type_text(pilot, "Stats")
            await pilot.pause(0.5)
            await pilot.press("enter")
            await settle(app, pilot)
            assert isinstance(app.screen, StatsScreen)

    asyncio.run(flow())


def test_help_opens_with_question_mark_and_with_f1_while_typing(home: Path) -> None:
    app = RecallApp(FakeServices(), plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            await pilot.press("f1")  # the answer box takes "?" as a character
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            assert "app.help" in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is screen and screen.query_one("#answer").value == ""
            await type_text(pilot, "x^2")
            await pilot.press("enter")
            await settle(app, pilot)
            assert screen.phase is Phase.FEEDBACK
            await pilot.press("question_mark")  # once graded, "?" is a key again
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)

    asyncio.run(flow())


def test_light_and_dark_themes(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECALL_THEME", "light")
    settings, problem = read_settings()
    app = RecallApp(FakeServices(), settings, settings_problem=problem)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.theme == "textual-light"
            await pilot.press("ctrl+t")
            await pilot.pause()
            assert app.theme == "textual-dark"

    asyncio.run(flow())


def test_pause_stops_the_clock_and_can_end_the_session(home: Path, tmp_path: Path) -> None:
    clock = FakeClock()
    services = real_services(tmp_path, clock)
    app = RecallApp(services, plan=SessionPlan(minutes=1))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen) and screen.run is not None
            clock.advance(10)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, PauseDialog)
            clock.advance(600)  # a long break costs nothing
            assert screen.run.seconds_left() == pytest.approx(50)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, DrillScreen)
            clock.advance(5)
            assert screen.run.seconds_left() == pytest.approx(45)
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("e")  # end from the pause dialog: straight to the summary
            await settle(app, pilot)
            assert isinstance(app.screen, SummaryScreen)
            assert app.screen.summary.reviews == 0

    asyncio.run(flow())


def test_a_hinted_right_answer_is_suggested_hard(home: Path, tmp_path: Path) -> None:
    services = real_services(tmp_path, FakeClock())
    app = RecallApp(services, plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            await pilot.press("ctrl+g")
            await type_text(pilot, "x*x")
            await pilot.press("enter")
            await settle(app, pilot)
            assert screen.feedback is not None
            assert screen.feedback.outcome is Status.CORRECT
            assert screen.feedback.suggested is Rating.Hard
            await pilot.press("enter")
            await settle(app, pilot)
            entry = services.workspace.store.reviews()[-1]
            assert entry.hint_used and entry.rating == 2

    asyncio.run(flow())


def test_explain_cards_reveal_with_space_and_are_self_rated(home: Path, tmp_path: Path) -> None:
    services = real_services(tmp_path, FakeClock(), only={"talk.toml": EXPLAIN_DECK})
    app = RecallApp(services, plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            assert screen.phase is Phase.REVEAL
            assert "negative log-likelihood" not in screen_text(app)
            await pilot.press("space")
            await pilot.pause()
            assert screen.phase is Phase.REVEALED
            assert "negative log-likelihood" in screen_text(app)
            await pilot.press("enter")  # nothing to accept: no rating is suggested
            await settle(app, pilot)
            assert screen.phase is Phase.REVEALED and not services.workspace.store.reviews()
            await pilot.press("4")
            await settle(app, pilot)
            entry = services.workspace.store.reviews()[-1]
            assert entry.verdict == "self" and entry.rating == 4 and entry.suggested is None

    asyncio.run(flow())


def test_skip_bury_and_suspend(home: Path, tmp_path: Path) -> None:
    services = real_services(tmp_path, FakeClock())
    app = RecallApp(services, plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen) and screen.card is not None
            assert screen.card.key == "tiny/square"
            await pilot.press("ctrl+s")
            await settle(app, pilot)
            assert screen.card.key == "tiny/double"
            await pilot.press("ctrl+b")
            await settle(app, pilot)
            assert screen.card.key == "tiny/answer"
            await pilot.press("ctrl+n")
            await settle(app, pilot)
            assert screen.card.key == "tiny/square"  # the skipped card comes back
            cards = services.workspace.store.cards_by_key()
            assert cards["tiny/double"].buried_until is not None
            assert cards["tiny/answer"].suspended
            assert services.workspace.store.review_count() == 0

    asyncio.run(flow())


def test_ctrl_c_quits_and_saves_a_graded_answer(home: Path, tmp_path: Path) -> None:
    services = real_services(tmp_path, FakeClock())
    app = RecallApp(services, plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await type_text(pilot, "x^2")
            await pilot.press("enter")
            await settle(app, pilot)
            assert isinstance(app.screen, DrillScreen) and app.screen.phase is Phase.FEEDBACK
            # Mid-session Ctrl-C asks first; pressed twice it quits at once (issue 11 item 3).
            await pilot.press("ctrl+c", "ctrl+c")
            await pilot.pause()

    asyncio.run(flow())
    assert app.return_value == 0
    assert services.closed
    store = open_store()
    try:
        log = store.reviews()
        assert [(e.card_key, e.rating, e.suggested) for e in log] == [("tiny/square", 3, 3)]
    finally:
        store.close()


def test_a_grading_worker_that_dies_is_reported_and_the_card_can_be_retried(home: Path) -> None:
    services = FakeServices()
    services.fail_grading = True
    app = RecallApp(services, plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            await type_text(pilot, "x^2")
            await pilot.press("enter")
            await settle(app, pilot)
            assert screen.phase is Phase.ASKING
            assert any("grader exploded" in str(n.message) for n in app._notifications)
            services.runs[0].fail_grading = False
            await pilot.press("enter")
            await settle(app, pilot)
            assert screen.phase is Phase.FEEDBACK

    asyncio.run(flow())


def test_skipping_a_learning_card_shows_another_card_not_the_same_one(
    home: Path, tmp_path: Path
) -> None:
    clock = FakeClock()
    services = real_services(tmp_path, clock)
    app = RecallApp(services, plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen) and screen.card is not None
            await type_text(pilot, "x^3")  # wrong: square goes into learning, due in a minute
            await pilot.press("enter")
            await settle(app, pilot)
            await pilot.press("enter")  # accept Again
            await settle(app, pilot)
            assert screen.card.key == "tiny/double"
            clock.advance(120)
            await type_text(pilot, "2y")
            await pilot.press("enter")
            await settle(app, pilot)
            await pilot.press("enter")
            await settle(app, pilot)
            assert screen.card.key == "tiny/square"  # its learning step is due
            await pilot.press("ctrl+s")
            await settle(app, pilot)
            assert screen.card.key == "tiny/answer"  # not the skipped card straight back
            assert services.workspace.store.review_count() == 2

    asyncio.run(flow())


def test_a_wrong_answer_cannot_be_rated_hard(home: Path, tmp_path: Path) -> None:
    from textual.widgets import Static

    services = real_services(tmp_path, FakeClock())
    app = RecallApp(services, plan=SessionPlan(minutes=10))

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            await type_text(pilot, "x^3")
            await pilot.press("enter")
            await settle(app, pilot)
            assert screen.feedback is not None
            assert screen.feedback.outcome is Status.INCORRECT
            # The rating row (below the scrolling verdict): Hard struck through.
            bar = screen.query_one("#rating-row", Static).content
            hard = bar.plain.index("2 Hard")
            assert any(
                span.start <= hard < span.end and "strike" in str(span.style) for span in bar.spans
            )
            await pilot.press("2")
            await settle(app, pilot)
            assert screen.phase is Phase.FEEDBACK and screen.card is not None
            assert screen.card.key == "tiny/square"  # still on the same card
            assert services.workspace.store.review_count() == 0
            notices = [str(n.message) for n in app._notifications]
            assert any("never rated Hard" in n for n in notices)
            assert not any("not saved" in n for n in notices)
            await pilot.press("1")
            await settle(app, pilot)
            assert [(e.rating, e.verdict) for e in services.workspace.store.reviews()] == [
                (1, "incorrect")
            ]

    asyncio.run(flow())


def test_time_in_the_editor_does_not_count_against_the_budget(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import contextlib

    from recall.tui import editor as editor_module

    clock = FakeClock()
    services = real_services(tmp_path, clock)
    app = RecallApp(services, plan=SessionPlan(minutes=10))
    opened: list[list[str]] = []

    def editor(command: list[str], check: bool) -> None:
        opened.append(command)
        clock.advance(300)  # five minutes fixing the card

    monkeypatch.setattr(editor_module.subprocess, "run", editor)
    monkeypatch.setattr(app, "suspend", contextlib.nullcontext)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen) and screen.run is not None
            clock.advance(20)
            assert screen.run.seconds_left() == pytest.approx(580)
            await pilot.press("ctrl+e")
            await settle(app, pilot)
            assert opened and opened[0][-1].endswith("tiny.toml")
            assert screen.run.seconds_left() == pytest.approx(580)  # the editor cost nothing
            assert not screen.run.session.paused  # and the clock runs again
            clock.advance(10)
            assert screen.run.seconds_left() == pytest.approx(570)

    asyncio.run(flow())


def test_the_theme_comes_from_the_config_file_and_ctrl_t_saves_it(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from recall import config

    assert theme_name(read_settings()[0]) == "textual-dark"  # the default
    app = RecallApp(FakeServices(), read_settings()[0])

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.theme == "textual-dark"
            await pilot.press("ctrl+t")
            await pilot.pause()
            assert app.theme == "textual-light"

    asyncio.run(flow())
    assert config.load_settings().theme == "light"  # saved
    assert theme_name(read_settings()[0]) == "textual-light"  # and used at the next start
    monkeypatch.setenv("RECALL_THEME", "dark")
    assert theme_name(read_settings()[0]) == "textual-dark"  # the environment still wins


def test_toggling_the_theme_leaves_a_broken_config_file_alone(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text("new_per_day = = 3\n", encoding="utf-8")
    settings, problem = read_settings()
    app = RecallApp(FakeServices(), settings, settings_problem=problem)

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+t")
            await pilot.pause()
            assert app.theme == "textual-light"  # switched for this run
            assert any(
                n.title == "The theme was not saved" and "config.toml" in n.message
                for n in app._notifications
            )

    asyncio.run(flow())
    assert (home / "config.toml").read_text(encoding="utf-8") == "new_per_day = = 3\n"
