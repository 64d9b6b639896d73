"""Today's plan and the exam planner's inputs over a real store and the built-in decks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from recall.cards.loader import load_decks
from recall.config import Settings
from recall.paths import builtin_decks_dir
from recall.planning import exam_cards, learner_pace, ordered_new_cards, todays_plan
from recall.scheduling import Rating, Scheduler, SchedulerSettings
from recall.scheduling.exam import plan_exam
from recall.scheduling.today import DEFAULT_PACE, MIN_PACE_SAMPLE
from recall.store import ReviewInput, Store, open_store

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
SCHED = Scheduler(SchedulerSettings(enable_fuzzing=False))


@pytest.fixture(scope="module")
def decks():
    result = load_decks([builtin_decks_dir()])
    assert result.ok
    return result


@pytest.fixture
def cards(decks):
    return {card.key: card for card in decks.cards}


@pytest.fixture
def store(tmp_path: Path, decks) -> Store:
    store = open_store(f"sqlite:///{tmp_path / 'recall.sqlite3'}")
    store.sync_decks(decks.decks, NOW - timedelta(days=1))
    yield store
    store.close()


def _answer(store: Store, key: str, at: datetime, rating: Rating = Rating.Good, seconds=30.0):
    card = store.cards_by_key([key])[key]
    data = ReviewInput(rating=rating, reviewed_at=at, verdict="correct", seconds=seconds)
    return store.apply_review(card.db_id, data, lambda s: SCHED.review(card.db_id, s, rating, at))


def test_a_fresh_collection_plans_twenty_new_cards_from_at_least_eight_decks(store, cards):
    plan = todays_plan(store, cards, Settings(), NOW, tz=UTC)
    assert [card.state for card in plan.queue] == ["new"] * 20
    assert len({card.deck for card in plan.queue}) >= 8
    assert plan.new_limit.limit == 20 and plan.new_limit.spent == 0 and plan.new_limit.left == 0
    assert plan.new_waiting == len(cards) - 20
    assert plan.minutes == pytest.approx(20 * DEFAULT_PACE.new_card_seconds / 60, abs=0.05)
    data = plan.to_dict()
    assert data["pace"]["source"] == "default"
    assert all(
        item["kind"] == str(cards[f"{item['deck']}/{item['card']}"].kind) for item in data["queue"]
    )


def test_the_plan_is_stable_within_a_day_and_changes_with_the_day(store, cards):
    one = todays_plan(store, cards, Settings(), NOW, tz=UTC)
    later = todays_plan(store, cards, Settings(), NOW + timedelta(hours=5), tz=UTC)
    tomorrow = todays_plan(store, cards, Settings(), NOW + timedelta(days=1), tz=UTC)
    assert one.queue == later.queue
    assert one.queue != tomorrow.queue


def test_cards_introduced_today_are_learning_and_spend_the_allowance(store, cards):
    first = todays_plan(store, cards, Settings(), NOW, tz=UTC)
    started = [f"{c.deck}/{c.card}" for c in first.queue[:5]]
    for key in started:
        _answer(store, key, NOW, Rating.Again)  # back in a minute: learning
    plan = todays_plan(store, cards, Settings(), NOW + timedelta(minutes=2), tz=UTC)
    learning = [f"{c.deck}/{c.card}" for c in plan.queue if c.state == "learning"]
    assert sorted(learning) == sorted(started)
    assert [c.state for c in plan.queue[:5]] == ["learning"] * 5  # learning comes first
    assert plan.counts.new == 15
    assert plan.new_limit.spent == 5
    assert not {f"{c.deck}/{c.card}" for c in plan.queue if c.state == "new"} & set(started)


def test_per_deck_limits_and_a_raised_limit_for_today(store, cards):
    settings = Settings(new_per_day=10)
    plan = todays_plan(store, cards, settings, NOW, tz=UTC, deck_limits={"activations": 0})
    assert plan.counts.new == 10
    assert "activations" not in {c.deck for c in plan.queue}
    for card in plan.queue:
        _answer(store, f"{card.deck}/{card.card}", NOW)
    spent = todays_plan(store, cards, settings, NOW + timedelta(minutes=1), tz=UTC)
    assert spent.counts.new == 0 and spent.new_limit.left == 0
    more = todays_plan(store, cards, settings, NOW + timedelta(minutes=1), tz=UTC, extra_today=4)
    assert more.counts.new == 4
    assert more.new_limit.limit == 14


def test_the_learners_pace_comes_from_the_log(store, cards):
    assert not learner_pace(store).measured
    ordered = ordered_new_cards(store, cards, order="deck", seed=0)
    for card in ordered[:MIN_PACE_SAMPLE]:
        _answer(store, card.key, NOW - timedelta(days=2), seconds=50.0)
    pace = learner_pace(store)
    assert pace.measured and pace.new_card_seconds == pytest.approx(50.0)
    plan = todays_plan(store, cards, Settings(), NOW, tz=UTC)
    assert plan.pace.measured and plan.to_dict()["pace"]["source"] == "log"


def test_the_pace_reads_the_latest_answers_only_not_the_log_rows(store, cards, monkeypatch):
    """Every recount plans the day: its pace is one lean query (kind and seconds of the
    latest answers), never the full rows of weeks of log."""
    ordered = ordered_new_cards(store, cards, order="deck", seed=0)
    for index, card in enumerate(ordered[: MIN_PACE_SAMPLE + 2]):
        _answer(store, card.key, NOW - timedelta(days=400 - index), seconds=40.0)

    def no_full_rows(*args, **kwargs):
        raise AssertionError("the pace read the review log's full rows")

    monkeypatch.setattr(store, "reviews", no_full_rows)
    pace = learner_pace(store)  # the latest answers count however old (as the stats screen)
    assert pace.measured and pace.new_card_seconds == pytest.approx(40.0)
    assert todays_plan(store, cards, Settings(), NOW, tz=UTC).pace == pace


def test_exam_cards_of_one_deck_seen_ones_with_their_memory(store, cards):
    losses = [key for key in cards if key.startswith("losses/")]
    _answer(store, losses[3], NOW - timedelta(days=3))
    # "deck" order is file order; the default spreads sibling cards apart (the built-in decks
    # have siblings: cards that give each other's answers away).
    chosen = exam_cards(store, cards, decks=["losses"], order="deck")
    assert {c.key for c in chosen} == set(losses)
    assert chosen[0].key == losses[3] and not chosen[0].state.is_new
    # File order, but a sibling group's second card comes after every group's first (and so
    # on): the plan introduces a few a day in this order, and siblings never share a day.
    rest = [c.key for c in chosen[1:]]
    assert set(rest) == {k for k in losses if k != losses[3]}
    ranks = []
    seen: dict[str, int] = {}
    for key in rest:
        group = cards[key].sibling_group
        ranks.append(seen.get(group, 0) if group else 0)
        if group:
            seen[group] = seen.get(group, 0) + 1
    assert ranks == sorted(ranks)
    by_rank = [[k for k, r in zip(rest, ranks, strict=True) if r == n] for n in set(ranks)]
    file_order = [k for k in losses if k != losses[3]]
    for keys in by_rank:
        assert keys == sorted(keys, key=file_order.index)  # file order within a rank
    today = NOW.date()
    # Losses has a sibling group of 7 cards: each takes a day of its own, three times.
    plan = plan_exam(chosen, today=today, exam=today + timedelta(days=25), daily_minutes=20)
    assert plan.feasible
    assert min(plan.reviews_before.values()) >= 2


def test_exam_cards_of_a_topic(store, cards):
    topic = next(card.topic for key, card in cards.items() if key.startswith("gaussians/"))
    chosen = exam_cards(store, cards, topic=topic)
    assert chosen and {c.topic for c in chosen} == {topic}
    assert {c.deck for c in chosen} == {"gaussians"}


def test_a_ten_minute_session_drills_todays_plan_in_its_order(store, cards):
    from recall.session import Budget, Session

    moments = [NOW]

    def clock() -> datetime:
        return moments[-1]

    plan = todays_plan(store, cards, Settings(), NOW, tz=UTC)
    session = Session.start(
        store,
        list(cards.values()),
        budget=Budget.minutes(10),
        settings=Settings(),
        clock=clock,
        tz=UTC,
        fuzz=False,
    )
    drilled: list[str] = []
    while (card := session.next_card()) is not None:
        moments.append(moments[-1] + timedelta(seconds=20))
        session.record(verdict="correct", rating=Rating.Good, seconds=20)
        drilled.append(card.key)
    assert drilled[:20] == [f"{c.deck}/{c.card}" for c in plan.queue]
    assert len({key.split("/")[0] for key in drilled[:20]}) >= 8
    after = todays_plan(store, cards, Settings(), moments[-1], tz=UTC)
    assert after.new_limit.spent == 20 and after.counts.new == 0


def test_the_new_card_order_setting(store, cards):
    from recall.config import set_value
    from recall.errors import ConfigError

    settings = set_value(Settings(), "new_card_order", "Deck")
    assert settings.new_card_order == "deck"
    plan = todays_plan(store, cards, settings, NOW, tz=UTC)
    first_deck = next(iter(cards.values())).deck_id
    assert {c.deck for c in plan.queue} == {first_deck}
    with pytest.raises(ConfigError, match="gathered"):
        set_value(Settings(), "new_card_order", "alphabetical")
