"""A Question is drawn once per review, stored with it, and replayed from the log exactly."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest
from store_fixtures import FakeClock

import recall.cards.params as param_values
from recall.cards.loader import load_deck
from recall.cards.model import Card, Deck
from recall.config import Settings
from recall.errors import GradingError
from recall.formula import evaluate_constant
from recall.grading import Question, check_deck, grade
from recall.scheduling import Rating
from recall.session import Session
from recall.store import Store, open_store

FIXTURE = Path(__file__).parent / "fixtures" / "decks" / "sample" / "sample.toml"


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load_deck(FIXTURE, check=check_deck)


@pytest.fixture
def flops(deck: Deck) -> Card:
    return deck.card("training-flops")


@pytest.fixture
def store(tmp_path: Path) -> Any:
    opened = open_store(f"sqlite:///{tmp_path / 'recall.sqlite3'}")
    yield opened
    opened.close()


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every call of the parameter drawer, by seed."""
    calls: list[int] = []
    real = param_values.draw

    def counting(params: Any, seed: int) -> dict[str, int | float]:
        calls.append(seed)
        return real(params, seed)

    monkeypatch.setattr(param_values, "draw", counting)
    return calls


def right_answer(question: Question) -> str:
    return repr(float(evaluate_constant(question.expected)))


# ----- drawing -------------------------------------------------------------------------------


def test_a_seed_always_draws_the_same_question(flops: Card) -> None:
    first, again = Question.draw(flops, 42), Question.draw(flops, 42)
    assert first.seed == 42 and first.values == again.values and first.prompt == again.prompt
    assert dict(first.values) == param_values.draw(flops.params, 42)
    assert Question.draw(flops, 43).values != first.values


def test_the_prompt_shows_the_values_that_are_graded(flops: Card) -> None:
    question = Question.draw(flops, 5)
    for value in question.values.values():
        assert param_values.format_number(value) in question.prompt
    assert "{" not in question.prompt
    n, d = question.values["N"], question.values["D"]
    assert float(evaluate_constant(question.expected)) == pytest.approx(6 * n * d, rel=1e-12)
    assert grade(question, repr(6.0 * n * d)).is_correct


def test_without_a_seed_each_question_gets_a_fresh_one(flops: Card) -> None:
    seeds = {Question.draw(flops).seed for _ in range(20)}
    assert None not in seeds and len(seeds) > 15
    assert all(0 <= seed < 2**31 for seed in seeds if seed is not None)


def test_a_card_without_parameters_draws_nothing(deck: Deck, draws: list[int]) -> None:
    question = Question.draw(deck.card("sigmoid-derivative"))
    assert question.seed is None and dict(question.values) == {} and question.params is None
    assert question.prompt == deck.card("sigmoid-derivative").prompt
    cloze = next(card for card in deck.cards if str(card.kind) == "cloze")
    assert "▢" in Question.draw(cloze).prompt
    assert draws == []


def test_grading_the_question_never_draws_again(flops: Card, draws: list[int]) -> None:
    question = Question.draw(flops)
    assert len(draws) == 1
    verdict = grade(question, right_answer(question))
    wrong = grade(question, "1")
    assert verdict.is_correct and not wrong.is_correct
    assert verdict.worked == wrong.worked == question.worked
    assert question.reference == "6*N*D"
    assert len(draws) == 1  # prompt, grading, worked answer and reference all read the question


def test_a_numeric_card_cannot_be_graded_without_its_question(flops: Card) -> None:
    with pytest.raises(GradingError, match="Question"):
        grade(flops, "1e20")


def test_importing_the_question_does_not_load_the_engine() -> None:
    code = (
        "import sys\n"
        "from recall.cards.loader import load_deck\n"
        "from recall.grading import Question\n"
        f"card = load_deck({str(FIXTURE)!r}).card('training-flops')\n"
        "question = Question.draw(card, 1)\n"
        "assert question.values and question.prompt\n"
        "print(','.join(m for m in ('sympy', 'recall.formula') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


# ----- stored and replayed -------------------------------------------------------------------


def test_a_numeric_review_is_stored_and_replayed_exactly(
    deck: Deck, flops: Card, store: Store, draws: list[int]
) -> None:
    store.sync_decks([deck], now=FakeClock()())
    clock = FakeClock()
    session = Session.start(
        store, [flops], clock=clock, tz=UTC, fuzz=False, settings=Settings(new_per_day=50)
    )
    shown = session.next_card()
    assert shown is not None and shown.key == flops.key
    question = Question.draw(shown)
    verdict = grade(question, right_answer(question))
    clock.advance(12)
    session.record(
        verdict=verdict.status,
        rating=Rating.Good,
        answer=right_answer(question),
        seed=question.seed,
        params=question.params,
    )
    (entry,) = store.reviews(session_id=session.id)
    assert entry.seed == question.seed and entry.params == dict(question.values)

    replayed = Question.replay(flops, entry)
    assert replayed.prompt == question.prompt
    assert list(replayed.values.items()) == list(question.values.items())  # declaration order
    assert replayed.reference == question.reference
    assert replayed.worked == question.worked
    assert evaluate_constant(replayed.expected) == evaluate_constant(question.expected)
    assert grade(replayed, entry.answer or "").is_correct
    assert len(draws) == 1  # the replay took the logged values; nothing was drawn again


def test_a_review_logged_with_only_its_seed_is_drawn_again(flops: Card) -> None:
    class Logged:
        seed: int | None = 77
        params: dict[str, Any] | None = None

    assert Question.replay(flops, Logged()).values == Question.draw(flops, 77).values
    Logged.seed = None
    with pytest.raises(GradingError, match="cannot be replayed"):
        Question.replay(flops, Logged())


def test_logged_values_win_over_a_redraw(flops: Card) -> None:
    # The deck's ranges changed since: the log still says what the learner was shown.
    class Logged:
        seed: int | None = 3
        params: dict[str, Any] | None = {"D": 2_000_000_000, "N": 100_000_000}

    replayed = Question.replay(flops, Logged())
    assert list(replayed.values) == ["N", "D"]
    assert "100 million" in replayed.prompt and "2 billion" in replayed.prompt
    assert float(evaluate_constant(replayed.expected)) == 6 * 1e8 * 2e9


# ----- the drill screen's path -----------------------------------------------------------------

NUMERIC_DECK = """\
[deck]
id = "num"
name = "Numbers"

[[card]]
id = "flops"
kind = "numeric"
prompt = "A {N}-parameter model trains on {D} tokens. About how many FLOPs?"
answer = "6*N*D"
unit = "FLOPs"
[card.params]
N = { low = 1e8, high = 7e10, log = true, sigfigs = 2 }
D = { low = 1e9, high = 2e12, log = true, sigfigs = 2 }
"""


def test_a_drilled_numeric_card_is_recorded_with_its_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, draws: list[int]
) -> None:
    from tui_fixtures import FakeClock as TuiClock
    from tui_fixtures import isolate, real_services

    from recall.tui.views import Rating as ScreenRating
    from recall.tui.views import SessionPlan

    isolate(monkeypatch, tmp_path)
    services: Any = real_services(tmp_path, TuiClock(), only={"num.toml": NUMERIC_DECK})
    services.load()
    draws.clear()  # loading checked the template at a few seeds of its own
    run = services.begin(SessionPlan(minutes=None, cards=1))
    view = run.next_card()
    assert view is not None and len(draws) == 1
    card = services.card(view.key)
    # The prompt on screen is the one the seed draws: nothing else was drawn to make it.
    (seed,) = draws
    asked = Question.draw(card, seed)
    assert view.prompt == asked.prompt
    typed = right_answer(asked)
    feedback = run.grade(view, typed)
    assert run.grade(view, "1").worked == feedback.worked == asked.worked
    run.record(view, ScreenRating.Good, feedback)
    assert len(draws) == 2  # ours above; the run drew once for the review

    (entry,) = services.workspace.store.reviews(session_id=run.info.id)
    assert entry.seed == seed and entry.params == dict(asked.values)
    assert Question.replay(card, entry).prompt == view.prompt
    services.close()


def test_every_public_name_of_the_package_resolves() -> None:
    import recall.grading as grading

    for name in grading.__all__:
        assert getattr(grading, name) is not None, name
    with pytest.raises(AttributeError):
        _ = grading.no_such_name  # type: ignore[attr-defined]
