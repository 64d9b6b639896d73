"""What the normal schedule alone would reach by an exam: the baseline a followed plan is shown
against.

The same whole-day FSRS model as the exam planner (:class:`~recall.scheduling.exam_simulation.
ExamModel`, every review answered right), but with the normal rules: ``new_per_day`` new cards a
day in the given order, and a card reviewed only on the day FSRS makes it due. The predicted
recall on the exam day, per card, is what the learner would have without following a plan.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta

import fsrs

from recall.scheduling.exam_plan import ExamCard
from recall.scheduling.exam_simulation import ExamModel, as_fsrs_card


def normal_schedule_recall(
    cards: Sequence[ExamCard],
    *,
    today: date,
    exam: date,
    new_per_day: int,
    model: ExamModel,
) -> dict[str, float]:
    """Each card's predicted recall on ``exam`` under the normal schedule from ``today``
    (a card never introduced by then: 0)."""
    memory: dict[str, fsrs.Card | None] = {c.key: as_fsrs_card(c.state) for c in cards}
    waiting = [c.key for c in cards if memory[c.key] is None]
    day = today
    while day < exam:
        moment = datetime.combine(day, time(12), tzinfo=UTC)
        for key, card in memory.items():
            if card is not None and card.due.date() <= day:
                memory[key] = model.review(card, moment)
        for key in waiting[: max(0, new_per_day)]:
            memory[key] = model.review(None, moment)
        del waiting[: max(0, new_per_day)]
        day += timedelta(days=1)
    at_exam = datetime.combine(exam, time(12), tzinfo=UTC)
    return {key: model.recall(card, at_exam) for key, card in memory.items()}
