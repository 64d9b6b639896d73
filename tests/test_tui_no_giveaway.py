"""Before grading, the drill screen shows nothing derived from the answer (issue 12, item 1).

Card ids and sources are written to find a card and often name its answer
(``activations/tanh-zero-centred``). Over every built-in card, the text shown before grading
(:func:`recall.tui.asking.asking_text`) must not contain the card's id, key or source, and every
word of the id or the answer it shows must come from the question itself: the prompt, the shown
formula, the legend of names the learner may type, or the deck (deck ids name topics). A Pilot
test then checks the drill screen draws exactly those pieces, and that notifications after undo,
bury and suspend do not name the card.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest
from textual.widgets import Static

from recall.cards.loader import load_decks
from recall.cards.model import Card, CardKind
from recall.grading import Question, check_deck, reference_answer
from recall.paths import builtin_decks_dir
from recall.tui.app import RecallApp
from recall.tui.asking import asking_header, asking_text, graded_header
from recall.tui.presenting import card_view
from recall.tui.views import CardView, SessionPlan
from tests.tui_fixtures import FakeCard, FakeServices, isolate, settle, static_text

#: Words of four letters or more: shorter ones (x, mu, log, exp) are notation, not giveaways.
_WORD = re.compile(r"[A-Za-z]{4,}")


def _words(text: str) -> set[str]:
    return {word.lower() for word in _WORD.findall(text)}


@lru_cache(maxsize=1)
def builtin() -> tuple[tuple[Card, CardView], ...]:
    result = load_decks([builtin_decks_dir()], check=check_deck)
    assert not result.failures
    pairs = []
    for deck in result.decks:
        for card in deck.cards:
            pairs.append((card, card_view(card, question=Question.draw(card, seed=12))))
    return tuple(pairs)


def _answer_text(card: Card) -> str:
    parts = [card.answer, card.model_answer, *card.accept, *card.numbers, card.source, card.note]
    if card.kind is not CardKind.EXPLAIN:
        parts.append(reference_answer(card))
    return " ".join(parts)


def _question(view: CardView) -> str:
    """What the card itself asks with: prompt, shown formula, legend, unit (the answer's form)."""
    legend = " ".join(f"{name} {meaning}" for name, meaning in view.symbols)
    return " ".join((view.prompt, view.shown, legend, view.unit, view.deck_id.replace("-", " ")))


def _question_words(view: CardView) -> set[str]:
    return _words(_question(view))


def test_every_builtin_card_is_checked() -> None:
    kinds = {card.kind for card, _ in builtin()}
    assert len(builtin()) > 500
    assert {CardKind.FORMULA, CardKind.NUMERIC, CardKind.EXPLAIN} <= kinds


@pytest.mark.parametrize("index", range(0, 8))
def test_nothing_before_grading_comes_from_the_id_or_the_answer(index: int) -> None:
    leaks = []
    pairs = builtin()
    for card, view in pairs[index::8]:
        text = asking_text(view)
        lowered = text.lower()
        for named in (card.key, card.id, card.source):
            if named and named.lower() in lowered and named.lower() not in _question(view).lower():
                leaks.append(f"{card.key}: shows {named!r}")
        giveaways = _words(card.id.replace("-", " ") + " " + _answer_text(card))
        extra = (_words(text) & giveaways) - _question_words(view)
        if extra:
            leaks.append(f"{card.key}: shows {sorted(extra)}")
    assert leaks == []


def test_the_header_names_the_card_only_after_grading() -> None:
    card = next(view for _, view in builtin() if view.card_id == "tanh-zero-centred")
    assert "tanh" not in asking_header(card) and "centred" not in asking_header(card)
    assert card.key in graded_header(card)


def _drill_services(views: list[CardView]) -> FakeServices:
    services = FakeServices()
    services._cards = lambda: [FakeCard(view, "x") for view in views]  # type: ignore[method-assign]
    return services


def _shown_before_grading(app: RecallApp) -> str:
    """The text of every drill widget on display (the answer box is empty)."""
    parts = []
    for widget in app.screen.query(Static):
        if widget.id in {"drill-plan", "drill-progress", "countdown", "preview", "feedback"}:
            continue
        if widget.display and all(a.display for a in widget.ancestors_with_self if a is not app):
            parts.append(static_text(widget, width=400))
    return "\n".join(part.strip() for part in parts if part.strip())


def test_the_drill_screen_shows_only_the_asking_text_for_every_builtin_card(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    isolate(monkeypatch, tmp_path)

    async def flow() -> None:
        views = [view for _, view in builtin()]
        app = RecallApp(_drill_services(views[:1]), plan=SessionPlan(cards=1))
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            screen = app.screen
            for view in views:
                screen._show(view)  # type: ignore[attr-defined]
                shown = _words(_shown_before_grading(app))
                expected = _words(asking_text(view))
                assert shown <= expected, (view.key, sorted(shown - expected))
                assert view.card_id.lower() not in _shown_before_grading(app).lower() or (
                    view.card_id.lower() in _question(view).lower()
                )

    asyncio.run(flow())


def test_the_header_names_the_card_after_the_verdict(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    isolate(monkeypatch, tmp_path)

    async def flow() -> None:
        view = replace(
            next(view for _, view in builtin() if view.card_id == "tanh-zero-centred"),
            kind="formula",
        )
        view = replace(view, self_rated=False, math_answer=True)
        app = RecallApp(_drill_services([view]), plan=SessionPlan(cards=1))
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            header = app.screen.query_one("#card-source", Static)
            assert "tanh" not in static_text(header)
            await pilot.press("y", "enter")
            await settle(app, pilot)
            assert view.key in static_text(header, width=400)

    asyncio.run(flow())


@pytest.mark.parametrize("keys", [("x", "enter", "1", "ctrl+z"), ("ctrl+b",), ("ctrl+n",)])
def test_notifications_do_not_name_a_card(
    keys: tuple[str, ...], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    isolate(monkeypatch, tmp_path)

    async def flow() -> None:
        views = [view for _, view in builtin() if view.deck_id == "activations"][:3]
        views = [replace(v, self_rated=False, math_answer=True, kind="formula") for v in views]
        app = RecallApp(_drill_services(views), plan=SessionPlan(cards=3))
        said: list[str] = []
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            monkeypatch.setattr(app.screen, "notify", lambda text, **kw: said.append(str(text)))
            for key in keys:
                await pilot.press(key)
                await settle(app, pilot)
        assert said, "the action said nothing"
        for text in said:
            for view in views:
                assert view.card_id not in text and view.key not in text

    asyncio.run(flow())
