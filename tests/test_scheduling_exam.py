"""The exam planner (recall.scheduling.exam): feasible plans keep every rule, others say why."""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, date, datetime, timedelta

import fsrs
import pytest

from recall.planning import problem_sentence, remedy_sentence
from recall.scheduling.exam import ExamCard, ExamPlan, plan_exam
from recall.scheduling.exam_plan import RemedyKind, Shortfall
from recall.scheduling.state import CardState, Phase
from recall.scheduling.today import Pace

TODAY = date(2026, 12, 1)
PACE = Pace(review_seconds=20.0, new_card_seconds=60.0)


def _fresh(decks: int = 4, per_deck: int = 15) -> list[ExamCard]:
    """New cards, gathered across decks (one from each in turn)."""
    return [ExamCard(f"d{d}", f"c{i}", f"T{d}") for i in range(per_deck) for d in range(decks)]


def _seen(n: int, *, stability: float, days_ago: int, due_in: int) -> list[ExamCard]:
    reviewed = datetime.combine(TODAY - timedelta(days=days_ago), datetime.min.time(), UTC)
    due = datetime.combine(TODAY + timedelta(days=due_in), datetime.min.time(), UTC)
    state = CardState(
        phase=Phase.REVIEW,
        stability=stability,
        difficulty=5.0,
        due=due,
        last_review=reviewed,
        reps=4,
    )
    return [ExamCard("old", f"s{i}", "Old", state) for i in range(n)]


def _check_rules(plan: ExamPlan, cards: list[ExamCard]) -> None:
    """Every rule of a feasible plan, read back from its days (not from its own counts)."""
    assert plan.feasible, (plan.problems, plan.suggestions)
    assert plan.problems == ()
    assert len(plan.days) == (plan.exam - plan.today).days
    assert [d.day for d in plan.days] == [
        plan.today + timedelta(days=i) for i in range(len(plan.days))
    ]
    introduced: dict[str, date] = {}
    reviewed: dict[str, list[date]] = defaultdict(list)
    for day in plan.days:
        assert day.minutes <= plan.daily_minutes
        assert day.minutes == pytest.approx(
            (len(day.new) * PACE.new_card_seconds + (len(day.reviews) + len(day.weakest)) * 20)
            / 60,
            abs=0.06,
        )
        for key in day.new:
            assert key not in introduced
            introduced[key] = day.day
        for key in (*day.reviews, *day.weakest):
            reviewed[key].append(day.day)
    for card in cards:
        days = reviewed[card.key]
        assert len(days) >= 2, card.key
        assert len(set(days)) == len(days)  # twice means on two different days
        assert all(d < plan.exam for d in days)
        if card.state.phase is Phase.NEW:
            assert card.key in introduced
            assert all(d > introduced[card.key] for d in days)
        else:
            assert card.key not in introduced
    assert set(plan.recall) == {c.key for c in cards}
    assert plan.predicted_recall is not None and 0.5 < plan.predicted_recall <= 1.0


def test_fresh_collection_feasible_plan_keeps_every_rule() -> None:
    cards = _fresh()
    plan = plan_exam(
        cards, today=TODAY, exam=TODAY + timedelta(days=21), daily_minutes=15, pace=PACE
    )
    _check_rules(plan, cards)
    assert set(plan.reviews_before) == {c.key for c in cards}
    assert min(plan.reviews_before.values()) >= 2


def test_new_cards_are_spread_and_introduced_in_the_given_order() -> None:
    cards = _fresh(decks=5, per_deck=10)
    plan = plan_exam(
        cards, today=TODAY, exam=TODAY + timedelta(days=12), daily_minutes=60, pace=PACE
    )
    _check_rules(plan, cards)
    counts = [len(d.new) for d in plan.days if d.new]
    assert max(counts) - min(counts) <= 1
    assert sum(counts) == len(cards)
    assert plan.days[-1].new == () and plan.days[-2].new == ()  # room for two reviews
    order = [key for day in plan.days for key in day.new]
    assert order == [c.key for c in cards]


def test_collection_with_history_feasible_plan_keeps_every_rule() -> None:
    cards = _seen(30, stability=40.0, days_ago=10, due_in=30) + _seen(
        10, stability=3.0, days_ago=4, due_in=-1
    )
    cards = [
        *cards[:30],
        *(ExamCard("old", f"w{i}", "Old", c.state) for i, c in enumerate(cards[30:])),
    ]
    cards += _fresh(decks=2, per_deck=10)
    plan = plan_exam(
        cards, today=TODAY, exam=TODAY + timedelta(days=14), daily_minutes=20, pace=PACE
    )
    _check_rules(plan, cards)
    # The overdue cards are reviewed on the first day.
    first = set(plan.days[0].reviews)
    assert {f"old/w{i}" for i in range(10)} <= first


def test_the_last_days_review_the_weakest() -> None:
    cards = _fresh(decks=3, per_deck=10)
    plan = plan_exam(
        cards, today=TODAY, exam=TODAY + timedelta(days=10), daily_minutes=120, pace=PACE
    )
    _check_rules(plan, cards)
    weakest = [key for day in plan.days[-2:] for key in day.weakest]
    assert weakest
    assert all(not day.weakest for day in plan.days[:-2])


def test_predicted_recall_follows_the_learners_parameters() -> None:
    cards = _fresh(decks=2, per_deck=10)
    exam = TODAY + timedelta(days=20)
    default = plan_exam(cards, today=TODAY, exam=exam, daily_minutes=3, pace=PACE)
    forgetful = list(fsrs.scheduler.DEFAULT_PARAMETERS)
    forgetful[0:4] = [0.1, 0.2, 0.4, 1.0]  # much lower initial stability
    mine = plan_exam(
        cards, today=TODAY, exam=exam, daily_minutes=3, pace=PACE, parameters=forgetful
    )
    assert default.feasible and mine.feasible
    assert mine.predicted_recall < default.predicted_recall - 1e-3


def test_too_few_days_says_why_and_names_a_date() -> None:
    cards = _fresh(decks=2, per_deck=3)
    plan = plan_exam(
        cards, today=TODAY, exam=TODAY + timedelta(days=2), daily_minutes=600, pace=PACE
    )
    assert not plan.feasible
    (problem,) = [p for p in plan.problems if p.kind is Shortfall.NEW_CARDS_NEED_DAYS]
    assert problem.figures == {"new": 6, "days": 2}
    sentence = problem_sentence(problem)
    assert "6 cards are new" in sentence and "3 study days" in sentence and "2 days" in sentence
    (moved,) = [r for r in plan.suggestions if r.kind is RemedyKind.LATER_EXAM]
    later = moved.figures["exam"]
    assert later == TODAY + timedelta(days=3)
    assert later.isoformat() in remedy_sentence(moved)
    _check_rules(plan_exam(cards, today=TODAY, exam=later, daily_minutes=600, pace=PACE), cards)


def test_too_few_minutes_says_why_and_every_suggestion_works() -> None:
    cards = _fresh(decks=4, per_deck=20)
    exam = TODAY + timedelta(days=7)
    plan = plan_exam(cards, today=TODAY, exam=exam, daily_minutes=10, pace=PACE)
    assert not plan.feasible
    assert any(p.kind is Shortfall.NOT_ENOUGH_TIME for p in plan.problems)
    remedies = {r.kind: r for r in plan.suggestions}
    text = " | ".join(remedy_sentence(r) for r in plan.suggestions)
    minutes = remedies[RemedyKind.MORE_MINUTES].figures["minutes"]
    assert f"study {minutes} minutes a day" in text
    _check_rules(plan_exam(cards, today=TODAY, exam=exam, daily_minutes=minutes, pace=PACE), cards)
    assert not plan_exam(
        cards, today=TODAY, exam=exam, daily_minutes=minutes - 1, pace=PACE
    ).feasible
    later = remedies[RemedyKind.LATER_EXAM].figures["exam"]
    _check_rules(plan_exam(cards, today=TODAY, exam=later, daily_minutes=10, pace=PACE), cards)
    fewer_new = remedies[RemedyKind.FEWER_NEW_CARDS].figures
    fit = fewer_new["fit"]
    assert fewer_new["new"] == 80 and f"{fit} of the 80 new ones fit" in text
    fewer = cards[:fit]
    _check_rules(plan_exam(fewer, today=TODAY, exam=exam, daily_minutes=10, pace=PACE), fewer)


def test_an_exam_today_or_past_is_refused_plainly() -> None:
    plan = plan_exam(_fresh(1, 2), today=TODAY, exam=TODAY, daily_minutes=30, pace=PACE)
    assert not plan.feasible
    (problem,) = plan.problems
    assert problem.kind is Shortfall.EXAM_NOT_AHEAD
    assert "not after today" in problem_sentence(problem)


def test_bounds() -> None:
    with pytest.raises(ValueError):
        plan_exam(_fresh(1, 1), today=TODAY, exam=TODAY + timedelta(days=400), daily_minutes=10)
    with pytest.raises(ValueError):
        plan_exam(_fresh(1, 1), today=TODAY, exam=TODAY + timedelta(days=4), daily_minutes=0)
    with pytest.raises(ValueError):
        plan_exam(
            _fresh(1, 1), today=TODAY, exam=TODAY + timedelta(days=4), daily_minutes=float("nan")
        )


def test_json_shape() -> None:
    cards = _fresh(decks=2, per_deck=2)
    data = plan_exam(cards, today=TODAY, exam=TODAY + timedelta(days=5), daily_minutes=30).to_dict()
    assert data["feasible"] is True
    assert data["cards"] == 4
    assert len(data["days"]) == 5
    assert sum(day["new"] for day in data["days"]) == 4
    assert set(data["recall_by_deck"]) == {"d0", "d1"}
