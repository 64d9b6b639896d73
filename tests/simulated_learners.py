"""Simulated learners with known memory parameters, for the fitting and calibration tests.

A learner *is* a set of FSRS-6 parameters: their true memory. They study a collection that is
scheduled the way recall schedules it (by ``scheduler_parameters``, the defaults unless told),
but whether they recall a card is drawn from their *true* forgetting curve. A fit that works
recovers parameters closer to the truth than the defaults; a learner whose truth *is* the
defaults gives the fit nothing to improve.

Everything is seeded (``random.Random(seed)``), so a test sees the same history every run. The
benchmarks import this module too (big histories live there, small ones here).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import fsrs_rs_python

from recall.scheduling.history import ReviewEvent
from recall.scheduling.rating import Rating

DEFAULTS: tuple[float, ...] = tuple(fsrs_rs_python.DEFAULT_PARAMETERS)

#: A learner who forgets much faster than FSRS assumes: small first stabilities, slow growth,
#: and a steeper curve. Scheduled with the defaults, they recall far less than 90 %.
FORGETFUL: tuple[float, ...] = (
    0.05,
    0.2,
    0.5,
    2.0,
    *DEFAULTS[4:8],
    1.0,
    *DEFAULTS[9:20],
    0.5,
)

START = datetime(2025, 1, 6, 12, tzinfo=UTC)
FIRST_RATINGS = (0.2, 0.1, 0.5, 0.2)  # Again, Hard, Good, Easy on a card's first showing
PASS_RATINGS = (0.15, 0.7, 0.15)  # Hard, Good, Easy when recalled


def recall_probability(parameters: Sequence[float], stability: float, elapsed: int) -> float:
    """FSRS-6's power forgetting curve (the decay is the last parameter)."""
    decay = -parameters[20]
    factor = 0.9 ** (1.0 / decay) - 1.0
    return float((1.0 + factor * elapsed / stability) ** decay)


def _draw(rng: random.Random, weights: Sequence[float], ratings: Sequence[Rating]) -> Rating:
    return rng.choices(list(ratings), weights=list(weights))[0]


def _pick(states: fsrs_rs_python.NextStates, rating: Rating) -> fsrs_rs_python.ItemState:
    return {
        Rating.Again: states.again,
        Rating.Hard: states.hard,
        Rating.Good: states.good,
        Rating.Easy: states.easy,
    }[rating]


def simulate_history(
    true_parameters: Sequence[float],
    *,
    cards: int = 60,
    days: int = 120,
    new_per_day: int = 4,
    seed: int = 0,
    desired_retention: float = 0.9,
    scheduler_parameters: Sequence[float] = DEFAULTS,
    seconds: float = 12.0,
    decks: Sequence[str] = ("deck",),
    start: datetime = START,
) -> list[ReviewEvent]:
    """A seeded review log of one learner: one review per card per study day, noon UTC."""
    rng = random.Random(seed)
    truth = fsrs_rs_python.FSRS(list(true_parameters))
    schedule = fsrs_rs_python.FSRS(list(scheduler_parameters))
    events: list[ReviewEvent] = []
    true_state: dict[int, fsrs_rs_python.MemoryState] = {}
    sched_state: dict[int, fsrs_rs_python.MemoryState] = {}
    due: dict[int, int] = {}
    last: dict[int, int] = {}
    introduced = 0
    for day in range(days):
        moment = start + timedelta(days=day)
        todays = sorted(card for card, when in due.items() if when <= day)
        for card in todays:
            elapsed = day - last[card]
            p = recall_probability(true_parameters, true_state[card].stability, elapsed)
            if rng.random() < p:
                rating = _draw(rng, PASS_RATINGS, (Rating.Hard, Rating.Good, Rating.Easy))
            else:
                rating = Rating.Again
            true_state[card] = _pick(
                truth.next_states(true_state[card], desired_retention, elapsed), rating
            ).memory
            chosen = _pick(
                schedule.next_states(sched_state[card], desired_retention, elapsed), rating
            )
            sched_state[card] = chosen.memory
            due[card] = day + max(1, round(chosen.interval))
            last[card] = day
            events.append(_event(card, moment, rating, seconds, decks, rng))
        for _ in range(new_per_day):
            if introduced >= cards:
                break
            card = introduced
            introduced += 1
            rating = _draw(rng, FIRST_RATINGS, tuple(Rating))
            true_state[card] = _pick(truth.next_states(None, desired_retention, 0), rating).memory
            chosen = _pick(schedule.next_states(None, desired_retention, 0), rating)
            sched_state[card] = chosen.memory
            due[card] = day + max(1, round(chosen.interval))
            last[card] = day
            events.append(_event(card, moment, rating, seconds, decks, rng))
    return events


def _event(
    card: int,
    moment: datetime,
    rating: Rating,
    seconds: float,
    decks: Sequence[str],
    rng: random.Random,
) -> ReviewEvent:
    deck = decks[card % len(decks)]
    jitter = timedelta(seconds=card)  # distinct times within the day, in card order
    return ReviewEvent(
        card=f"{deck}/c{card}",
        reviewed_at=moment + jitter,
        rating=rating,
        seconds=seconds * (0.5 + rng.random()),
        deck=deck,
        topic=f"topic{card % 3}",
    )
