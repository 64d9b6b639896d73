"""An exam date that drives the days (issue 23): a followed plan sets each study day's new cards
and retention, is made again every day from what was done, switches to reviews only (weakest
first) on the last days, and lets go after the exam. A simulated learner follows one for 30 days
with days skipped, and reaches the plan's coverage on the date."""

from __future__ import annotations

import random
from collections import Counter
from datetime import timedelta

import pytest

from recall.cli import main
from recall.clock import utc_now
from recall.exam_follow import exam_file, load_followed
from recall.scheduling.day import study_date
from recall.scheduling.exam_plan import FINAL_DAYS
from recall.scheduling.rating import Rating
from recall.scheduling.state import ReviewKind
from recall.session import Budget
from recall.workspace import Workspace
from tests.store_fixtures import FakeClock

DECKS = ("alignment", "generative-models")  # sibling groups of 4 at most
SKIPPED = {3, 4, 10, 17}  # study days (from 0) the learner does not open recall


def _drill_day(workspace: Workspace) -> Counter[str]:
    """One day's normal session, every card answered right (the plan's own assumption: a
    lapse brings reviews the plan did not count, which a plan made the next day takes on)."""
    done: Counter[str] = Counter()
    session = workspace.start_session(budget=Budget.cards(1000), mode="normal")
    while (card := session.next_card()) is not None:
        session.record(verdict="correct", rating=Rating.Good, seconds=20.0)
        done[card.deck_id] += 1
        workspace.clock.advance(seconds=20)  # type: ignore[attr-defined]
    session.end()
    return done


def test_a_learner_following_a_plan_with_skipped_days_is_ready_on_the_date(
    capsys: pytest.CaptureFixture[str],
) -> None:
    clock = FakeClock()
    workspace = Workspace.open(clock=clock)
    random.seed(7)  # FSRS's interval fuzz draws from the global generator
    try:
        plan = workspace.follow_exam("+30", decks=DECKS, minutes=20)
        assert plan.feasible, plan.problems
        cards = set(plan.reviews_before)
        rows = []
        for day_index in range(30):
            guidance = workspace.exam_guidance()
            assert guidance is not None
            today = study_date(clock(), workspace.settings.day_rollover_hour)
            allowance = workspace.day_settings()
            # Only the plan's decks bring new cards; its retention is the one used.
            assert allowance.deck_new_limits.get("gradients") == 0
            assert allowance.new_per_day == (0 if guidance.review_only else guidance.today.new)
            assert guidance.review_only == (guidance.days_left <= FINAL_DAYS)
            done = Counter() if day_index in SKIPPED else _drill_day(workspace)
            rows.append(
                (today, guidance.today.new, guidance.today.behind, guidance.review_only, done)
            )
            clock.now = clock.now.replace(hour=9, minute=0) + timedelta(days=1)
        # The day-by-day counts, for a person reading the test's output.
        with capsys.disabled():
            print("\nday         planned new  behind  reviews-only  drilled")
            for today, new, behind, last, done in rows:
                print(f"{today}  {new:>11}  {behind:>6}  {str(last):>12}  {sum(done.values()):>7}")
        # A skipped day is absorbed: the day after it is behind, and the plan catches up.
        after_skip = [r for r in rows if (r[0] - rows[0][0]).days - 1 in SKIPPED]
        assert any(r[2] > 0 for r in after_skip)
        # Coverage on the exam day: every card of the plan introduced and reviewed at least
        # twice on days after its introduction, none from other decks.
        entries = workspace.store.reviews()
        introduced = {e.card_key for e in entries if e.kind is ReviewKind.NEW}
        assert cards <= introduced
        assert {key.partition("/")[0] for key in introduced} <= set(DECKS)
        review_days: dict[str, set[object]] = {}
        first_day: dict[str, object] = {}
        for e in entries:
            day = study_date(e.reviewed_at, workspace.settings.day_rollover_hour)
            first_day.setdefault(e.card_key, day)
            if day != first_day[e.card_key]:
                review_days.setdefault(e.card_key, set()).add(day)
        short = [key for key in cards if len(review_days.get(key, ())) < 2]
        assert not short, (len(short), len(cards), short[:20])
        # After the exam the normal schedule is back by itself.
        clock.now += timedelta(days=2)
        assert workspace.exam_guidance() is None
        assert workspace.day_settings() == workspace.settings
    finally:
        workspace.close()


def test_recall_exam_follow_and_stop(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["exam", "+40", "--minutes", "60", "--follow"]) == 0
    out = capsys.readouterr().out
    assert "Following this plan until" in out
    assert "normal schedule" in out and "following the plan" in out  # the per-deck forecast
    today = study_date(utc_now(), 4)
    assert exam_file().exists()
    assert main(["today"]) == 0
    assert "Exam in 40 days: on track" in capsys.readouterr().out
    assert main(["exam", "--stop"]) == 0
    assert "back to the normal schedule" in capsys.readouterr().out
    assert load_followed(today) is None


def test_an_infeasible_plan_is_not_followed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["exam", "+3", "--minutes", "1", "--follow"]) == 1
    assert "Not followed" in capsys.readouterr().out
    assert not exam_file().exists()


def test_a_damaged_file_means_no_plan_is_followed() -> None:
    exam_file().parent.mkdir(parents=True, exist_ok=True)
    exam_file().write_text('{"exam": "2030-01-01", "retention": 7}', encoding="utf-8")
    workspace = Workspace.open(sync=False)
    try:
        assert workspace.exam_guidance() is None
    finally:
        workspace.close()
