"""One wording on every screen (issue 19, item 13): counts agree with their nouns ("1 answer
today"), a scope reads as a sentence ("in any deck"), reviewing ahead has one key and one name,
and keys are named one way in words (``recall.wording.key_name``: "Ctrl-O"; the footer's "^o" is
Textual's short form). Through the real screens at 80x24 and 100x30, and a scan of the source."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import pytest

import recall
from recall.tui.app import RecallApp
from recall.tui.screens.home import HomeScreen
from recall.tui.screens.today_dialogs import EmptyOfferDialog
from recall.tui.views import SessionPlan
from recall.wording import REVIEW_AHEAD, in_scope, key_name
from tests.tui_fixtures import FakeClock, isolate, real_services, screen_text, settle, type_text

SIZES = [(80, 24), (100, 30)]


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    return isolate(monkeypatch, tmp_path)


@pytest.mark.parametrize("size", SIZES)
def test_one_answer_today_is_one_answer(home: Path, tmp_path: Path, size: tuple[int, int]) -> None:
    app = RecallApp(real_services(tmp_path, FakeClock()), plan=SessionPlan(cards=1))
    seen: list[str] = []

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await type_text(pilot, "1234567")
            await settle(app, pilot)
            for key in ("enter", "1", "ctrl+l", "y", "escape"):
                await pilot.press(key)
                await settle(app, pilot)
            assert isinstance(app.screen, HomeScreen)
            seen.append(screen_text(app))

    asyncio.run(flow())
    assert "1 answer today" in seen[0] or "1 answer · " in seen[0], seen[0]
    assert "1 answers" not in seen[0]


@pytest.mark.parametrize("size", SIZES)
def test_nothing_left_reads_as_a_sentence_and_review_ahead_has_one_key(
    home: Path, tmp_path: Path, size: tuple[int, int]
) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text("new_per_day = 0\n", encoding="utf-8")
    app = RecallApp(real_services(tmp_path, FakeClock()))
    seen: list[str] = []

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            await pilot.press("s")
            await settle(app, pilot)
            assert isinstance(app.screen, EmptyOfferDialog)
            seen.append(screen_text(app))

    asyncio.run(flow())
    assert "Nothing left today in any deck" in seen[0]
    assert "in every deck" not in seen[0]


def test_review_ahead_is_one_key_and_one_name_on_home_and_in_the_offer() -> None:
    def binding(screen: type, action: str) -> tuple[str, str]:
        (found,) = [b for b in screen.BINDINGS if getattr(b, "action", "") == action]
        return found.key, found.description

    home_key, home_words = binding(HomeScreen, "weakest")
    offer_key, offer_words = binding(EmptyOfferDialog, "ahead")
    assert home_key == offer_key == "w"
    assert REVIEW_AHEAD in home_words.lower() and REVIEW_AHEAD in offer_words.lower()


def test_key_names_and_scopes() -> None:
    assert key_name("ctrl+o") == "Ctrl-O" and key_name("escape") == "Esc"
    assert key_name("f1") == "F1" and key_name("question_mark") == "?"
    assert in_scope("every deck") == "in any deck"
    assert in_scope("deck Losses") == "in deck Losses"


@pytest.mark.parametrize(
    ("key", "said"),
    [
        ("slash", "/"),
        ("minus", "-"),
        ("plus", "+"),
        ("equals_sign", "="),
        ("full_stop", "."),
        ("less_than_sign", "<"),
        ("backslash", "\\"),
        ("tab", "Tab"),
        ("shift+tab", "Shift-Tab"),
        ("ctrl+slash", "Ctrl-/"),
        ("pageup", "PgUp"),
        ("s", "s"),
    ],
)
def test_a_key_is_named_as_its_keycap_says(key: str, said: str) -> None:
    """Textual's names for punctuation keys (``equals_sign``) are not what a learner presses:
    the keys screen listed Stats' retention keys as ``minus`` and ``plus / equals_sign``."""
    assert key_name(key) == said


def test_every_key_the_help_lists_is_named_as_a_keycap() -> None:
    """No key in the keys screen is an identifier: one character, or a word with a capital."""
    from recall.tui.app import RecallApp
    from recall.tui.keys import binding_sections, bindings_of, key_label

    for _title, owner in binding_sections(RecallApp):
        for binding in bindings_of(owner):
            for said in key_label(binding.key).split(" / "):
                assert "_" not in said and (len(said) == 1 or said[0].isupper()), (
                    binding.key,
                    said,
                )


def _strings_in_source() -> list[tuple[str, int, str]]:
    root = Path(recall.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.append((path.relative_to(root).as_posix(), node.lineno, node.value))
    return found


@pytest.mark.parametrize(
    ("words", "instead"),
    [
        ("Ctrl+", "recall.wording.key_name: Ctrl-O, as the help screen says"),
        (" ahead · ", f"'{REVIEW_AHEAD}'"),
        (" answers today", "recall.wording.plural('answer', count)"),
        ("in every deck", "recall.wording.in_scope"),
    ],
)
def test_no_screen_words_these_by_hand(words: str, instead: str) -> None:
    by_hand = [(f, n) for f, n, text in _strings_in_source() if words in text and f != "wording.py"]
    assert not by_hand, f"say it with {instead}: {by_hand}"
