"""While an exam plan for one topic is followed, ``recall today`` and the home screen list the
new cards the session will introduce: the plan's own.

Seen in a real terminal: after ``recall exam +21 --follow --topic Gradients`` the session
introduced ten Gradients cards (the plan's), while ``recall today`` and the home screen's Today
column showed ten new cards spread over ten decks, one of them Gradients. A plan for ``--deck``
agreed only because the other decks' new-card limits are set to 0; a topic is not a set of decks
(a card's own topic wins over its deck's), so the plan's list is what both must use.
"""

from __future__ import annotations

import pytest

from recall.scheduling.rating import Rating
from recall.scheduling.state import ReviewKind
from recall.session import Budget
from recall.workspace import Workspace
from tests.store_fixtures import FakeClock


@pytest.mark.parametrize(
    "scope", [{"topic": "Gradients"}, {"decks": ("gradients",)}], ids=["topic", "deck"]
)
def test_today_lists_the_new_cards_the_followed_plan_introduces(scope: dict[str, object]) -> None:
    workspace = Workspace.open(clock=FakeClock())
    try:
        plan = workspace.follow_exam("+21", minutes=10, **scope)  # type: ignore[arg-type]
        assert plan.feasible, plan.problems
        guidance = workspace.exam_guidance()
        assert guidance is not None and guidance.today.introduce

        today = workspace.plan_today()
        listed = [f"{p.deck}/{p.card}" for p in today.queue if p.state == "new"]
        session = workspace.start_session(budget=Budget.cards(1000), mode="normal")
        while session.next_card() is not None:
            session.record(verdict="correct", rating=Rating.Good, seconds=20.0)
            workspace.clock.advance(seconds=20)  # type: ignore[attr-defined]
        session.end()
        entries = workspace.store.reviews()
        introduced = {e.card_key for e in entries if e.kind is ReviewKind.NEW}

        assert listed == list(guidance.today.introduce)
        assert set(listed) == introduced
        assert set(today.by_deck) == {"gradients"}
    finally:
        workspace.close()
