"""Exam mode: a day-by-day plan that has every card of the chosen decks ready by a date.

FSRS schedules for the long run: a card first answered right comes back in two days, then in
eleven, then in seven weeks, so a learner with an exam in three weeks would see most cards once.
This planner bends that schedule to a deadline, and says plainly when the deadline cannot be met:

* every card is reviewed at least twice, on different days, before the exam day (a new card is
  first *introduced*, on an earlier day still, so it needs three study days);
* new cards are introduced in the order given (the gathered new-card order), spread evenly over
  the days that leave room for their two reviews;
* no day takes more than the learner's daily minutes (from their pace,
  :class:`recall.scheduling.today.Pace`);
* a review FSRS asks for before the exam is kept; a required review FSRS would put after it is
  pulled in, when there is room, once half the time to its deadline has passed (spaced, not
  crammed); the last days' spare time goes to the cards weakest on the exam day.

The plan is simulated with FSRS itself (``fsrs``, the learner's parameters when given) on whole
days, as if every review were answered right; the predicted recall on the exam day is the FSRS
forgetting curve at that day for each card, averaged. A plan that cannot meet every rule is
reported infeasible with the reason and what would make it feasible (more minutes a day, a later
date, fewer cards).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from datetime import date, timedelta
from typing import Any, Final

from recall.scheduling.exam_plan import (
    REQUIRED_REVIEWS,
    ExamCard,
    ExamDay,
    ExamPlan,
    Problem,
    Remedy,
    RemedyKind,
    Shortfall,
)
from recall.scheduling.exam_simulation import ExamModel, as_fsrs_card, best_plan, fits
from recall.scheduling.today import DEFAULT_PACE, Pace

__all__ = ["ExamCard", "ExamDay", "ExamPlan", "plan_exam"]

#: Furthest exam the planner takes (beyond a year the normal schedule prepares for it).
MAX_DAYS: Final = 366
#: Most cards one plan takes.
MAX_CARDS: Final = 20_000
#: Longest daily time a suggestion may name (minutes).
MAX_MINUTES: Final = 24 * 60


def plan_exam(
    cards: Sequence[ExamCard],
    *,
    today: date,
    exam: date,
    daily_minutes: float,
    pace: Pace = DEFAULT_PACE,
    parameters: Sequence[float] | None = None,
    desired_retention: float = 0.9,
) -> ExamPlan:
    """The exam plan for ``cards`` from study day ``today`` to the exam on ``exam``.

    ``parameters`` are the learner's FSRS parameters (default: FSRS's own). Raises
    ``ValueError`` for more than :data:`MAX_CARDS` cards, an exam more than :data:`MAX_DAYS`
    days away, or a daily time that is not a positive number of minutes.
    """
    if not (math.isfinite(daily_minutes) and 0 < daily_minutes <= MAX_MINUTES):
        raise ValueError(f"daily minutes must be more than 0 and at most {MAX_MINUTES}")
    if len(cards) > MAX_CARDS:
        raise ValueError(f"an exam plan takes at most {MAX_CARDS} cards, not {len(cards)}")
    if (exam - today).days > MAX_DAYS:
        raise ValueError(
            f"the exam is more than {MAX_DAYS} days away: the normal schedule prepares for it"
        )
    model = ExamModel(parameters, desired_retention)
    plan = best_plan(cards, today, exam, daily_minutes, pace, model)
    if plan.feasible:
        return plan
    problems = _problems(plan, cards, today, exam, daily_minutes, pace)
    suggestions = _suggestions(cards, today, exam, daily_minutes, pace, model)
    return replace(plan, problems=problems, suggestions=suggestions)


# --------------------------------------------------------------------------- why not feasible


def _problems(
    plan: ExamPlan,
    cards: Sequence[ExamCard],
    today: date,
    exam: date,
    daily_minutes: float,
    pace: Pace,
) -> tuple[Problem, ...]:
    """Why ``plan`` does not meet the rules, the first reasons a learner can act on."""
    days = (exam - today).days
    new = sum(1 for c in cards if as_fsrs_card(c.state) is None)
    seen = len(cards) - new
    out: list[Problem] = []
    if days <= 0:
        return (Problem(Shortfall.EXAM_NOT_AHEAD, {"exam": exam}),)
    if new and days < REQUIRED_REVIEWS + 1:
        out.append(Problem(Shortfall.NEW_CARDS_NEED_DAYS, {"new": new, "days": days}))
    if seen and days < REQUIRED_REVIEWS:
        out.append(Problem(Shortfall.REVIEWS_NEED_DAYS, {"days": days}))
    needed = new * pace.new_card_seconds + REQUIRED_REVIEWS * len(cards) * pace.review_seconds
    available = days * daily_minutes * 60.0
    if needed > available:
        figures = {
            "cards": len(cards),
            "new": new,
            "needed_minutes": round(needed / 60),
            "new_card_seconds": pace.new_card_seconds,
            "review_seconds": pace.review_seconds,
            "days": days,
            "daily_minutes": daily_minutes,
            "available_minutes": available / 60,
        }
        out.append(Problem(Shortfall.NOT_ENOUGH_TIME, figures))
    short_keys = [k for k, n in plan.reviews_before.items() if n < REQUIRED_REVIEWS]
    if short_keys and not out:
        group, group_days = _sibling_reason(cards, short_keys, days)
        figures = {
            "short": len(short_keys),
            "cards": len(cards),
            "daily_minutes": daily_minutes,
            "sibling_group": group,
            "sibling_days": group_days,
        }
        out.append(Problem(Shortfall.CARDS_SHORT, figures))
    busy = [d for d in plan.days if d.minutes > daily_minutes]
    if busy and not out:
        worst = max(busy, key=lambda d: d.minutes)
        over: dict[str, Any] = {"day": worst.day, "minutes": worst.minutes}
        out.append(Problem(Shortfall.DAY_OVER, {**over, "daily_minutes": daily_minutes}))
    return tuple(out)


def _sibling_reason(cards: Sequence[ExamCard], short: Sequence[str], days: int) -> tuple[int, int]:
    """Whether cards fall short because of their sibling groups (one card of a group a day)
    needing more days than there are: the largest such group and the days it needs, or
    ``(0, 0)`` when that is not the reason."""
    sizes = Counter(card.group for card in cards if card.group)
    groups = {card.group for card in cards if card.key in set(short) and card.group}
    if not groups:
        return 0, 0
    largest = max(sizes[g] for g in groups)
    need = largest * (REQUIRED_REVIEWS + 1)
    if need < days:
        return 0, 0
    return largest, need


def _suggestions(
    cards: Sequence[ExamCard],
    today: date,
    exam: date,
    daily_minutes: float,
    pace: Pace,
    model: ExamModel,
) -> tuple[Remedy, ...]:
    """What would make the plan feasible: more minutes a day, a later exam, fewer new cards
    (each found by a bisection over the planner itself, so each one is a plan that works)."""
    out: list[Remedy] = []
    days = (exam - today).days
    minutes = _least(
        int(math.ceil(daily_minutes)) + 1,
        MAX_MINUTES,
        lambda m: fits(cards, today, exam, float(m), pace, model),
    )
    if minutes is not None:
        more = {"minutes": minutes, "daily_minutes": daily_minutes}
        out.append(Remedy(RemedyKind.MORE_MINUTES, more))
    later = _least(
        max(days + 1, 1),
        MAX_DAYS,
        lambda d: fits(cards, today, today + timedelta(days=d), daily_minutes, pace, model),
    )
    if later is not None:
        moved = {"exam": today + timedelta(days=later), "daily_minutes": daily_minutes}
        out.append(Remedy(RemedyKind.LATER_EXAM, moved))
    seen = [c for c in cards if as_fsrs_card(c.state) is not None]
    new = [c for c in cards if as_fsrs_card(c.state) is None]
    if new:
        fit = _most(
            0,
            len(new) - 1,
            lambda k: fits([*seen, *new[:k]], today, exam, daily_minutes, pace, model),
        )
        if fit:
            out.append(Remedy(RemedyKind.FEWER_NEW_CARDS, {"fit": fit, "new": len(new)}))
    if not out:
        out.append(Remedy(RemedyKind.FEWER_DECKS))
    return tuple(out)


def _least(low: int, high: int, works: Any) -> int | None:
    """The least value in ``low..high`` for which ``works`` holds (assumed monotone), or
    ``None``."""
    if low > high or not works(high):
        return None
    while low < high:
        middle = (low + high) // 2
        if works(middle):
            high = middle
        else:
            low = middle + 1
    return low


def _most(low: int, high: int, works: Any) -> int | None:
    """The greatest value in ``low..high`` for which ``works`` holds (assumed monotone
    decreasing), or ``None``."""
    if low > high or not works(low):
        return None
    while low < high:
        middle = (low + high + 1) // 2
        if works(middle):
            low = middle
        else:
            high = middle - 1
    return low
