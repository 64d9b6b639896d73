"""A learner's review history, in the shape the FSRS optimizer reads.

The store keeps every review as a log row; FSRS learns from *items*: one card's reviews up to and
including the one being predicted, each review given as (rating, whole days since the previous
review). This module does that conversion once, so fitting, evaluation and calibration all see
the same items:

* days are **study days** (:func:`recall.scheduling.day.study_date`): a review at 01:30 with a
  rollover at 4 belongs to the evening before, the way a learner counts days;
* the first review of a card has ``delta_t = 0``; a review on the same study day as the one before
  it (a learning step) also has ``delta_t = 0``: it stays in the history, because FSRS-6 models
  same-day reviews, but it is never a *target*: there is no forgetting to predict within a day;
* off-schedule reviews (cramming, which does not move the schedule) are left out before this
  point: they would teach the model about reviews the schedule never asked for.

Nothing here imports NumPy or fsrs-rs-python at module level: the TUI imports scheduling before
its first frame.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from typing import TYPE_CHECKING, Any

from recall.scheduling.day import study_date
from recall.scheduling.rating import Rating

if TYPE_CHECKING:
    import fsrs_rs_python


@dataclass(frozen=True, slots=True)
class ReviewEvent:
    """One scheduled review: which card, when (aware UTC), and the rating (1..4).

    ``deck`` and ``topic`` are carried along for calibration per group; ``seconds`` is how long
    the answer took (kept so an export can write it as the review's duration).
    """

    card: Hashable
    reviewed_at: datetime
    rating: Rating
    seconds: float | None = None
    deck: str | None = None
    topic: str | None = None


@dataclass(frozen=True, slots=True)
class Target:
    """A review FSRS can be scored on: the card's history before it, and what happened.

    ``index`` is the position of the review in its card's history (``history[index]`` is the
    target); ``elapsed_days`` its ``delta_t``; ``recalled`` whether it was rated above Again.
    """

    card: Hashable
    index: int
    reviewed_at: datetime
    elapsed_days: int
    recalled: bool
    deck: str | None = None
    topic: str | None = None


@dataclass(frozen=True)
class CardHistory:
    """One card's scheduled reviews, oldest first, with their study-day gaps."""

    card: Hashable
    events: tuple[ReviewEvent, ...]
    delta_days: tuple[int, ...]

    def targets(self) -> list[Target]:
        """The reviews of this card that FSRS predicts: every one a day or more after the last."""
        out = []
        for index in range(1, len(self.events)):
            if self.delta_days[index] <= 0:
                continue
            event = self.events[index]
            out.append(
                Target(
                    card=self.card,
                    index=index,
                    reviewed_at=event.reviewed_at,
                    elapsed_days=self.delta_days[index],
                    recalled=int(event.rating) != Rating.Again,
                    deck=event.deck,
                    topic=event.topic,
                )
            )
        return out

    def review_pairs(self, length: int | None = None) -> list[tuple[int, int]]:
        """The first ``length`` reviews (all by default) as (rating, delta_t) pairs."""
        end = len(self.events) if length is None else length
        return [(int(self.events[i].rating), self.delta_days[i]) for i in range(end)]

    def fsrs_item(self, length: int | None = None) -> fsrs_rs_python.FSRSItem:
        """:meth:`review_pairs` as an ``FSRSItem``."""
        import fsrs_rs_python

        return fsrs_rs_python.FSRSItem(
            [fsrs_rs_python.FSRSReview(r, d) for r, d in self.review_pairs(length)]
        )


class History:
    """Every card's scheduled reviews, grouped and ordered, ready for the optimizer.

    Build it with :meth:`from_events`. ``cards`` keeps first-seen order so two runs over the
    same log produce the same items in the same order (the optimizer is seeded, so its result
    then repeats too).
    """

    def __init__(self, cards: Sequence[CardHistory]) -> None:
        self.cards: tuple[CardHistory, ...] = tuple(cards)
        self._targets: list[Target] | None = None

    @classmethod
    def from_events(
        cls, events: Iterable[ReviewEvent], rollover_hour: int = 4, tz: tzinfo | None = None
    ) -> History:
        """Group ``events`` by card, order each card's reviews by time, count study days."""
        grouped: dict[Hashable, list[ReviewEvent]] = defaultdict(list)
        for event in events:
            grouped[event.card].append(event)
        cards = []
        for card, card_events in grouped.items():
            card_events.sort(key=lambda e: e.reviewed_at)
            days: list[date] = [study_date(e.reviewed_at, rollover_hour, tz) for e in card_events]
            deltas = [0] + [(days[i] - days[i - 1]).days for i in range(1, len(days))]
            cards.append(CardHistory(card, tuple(card_events), tuple(deltas)))
        return cls(cards)

    def __len__(self) -> int:
        """How many reviews the history holds (same-day steps included)."""
        return sum(len(c.events) for c in self.cards)

    @property
    def targets(self) -> list[Target]:
        """Every predictable review, oldest first (ties keep card order)."""
        if self._targets is None:
            found = [t for card in self.cards for t in card.targets()]
            found.sort(key=lambda t: t.reviewed_at)
            self._targets = found
        return self._targets

    def by_card(self) -> Mapping[Hashable, CardHistory]:
        """Card key ─▶ its history."""
        return {c.card: c for c in self.cards}

    def items_for(self, targets: Iterable[Target]) -> list[Any]:
        """One ``FSRSItem`` per target: the card's reviews up to and including the target."""
        cards = self.by_card()
        return [cards[t.card].fsrs_item(t.index + 1) for t in targets]


def time_split(targets: Sequence[Target], test_share: float) -> tuple[list[Target], list[Target]]:
    """(earlier, later) targets: the last ``test_share`` of them by time are held out.

    Ties at the cut go to the earlier side, so no review is scored while one at the same moment
    was trained on. ``targets`` must be sorted by time (as :attr:`History.targets` is).
    """
    if not 0.0 < test_share < 1.0:
        raise ValueError(f"test_share must be between 0 and 1, not {test_share}")
    if not targets:
        return [], []
    cut = int(round(len(targets) * (1.0 - test_share)))
    cut = min(max(cut, 0), len(targets))
    while 0 < cut < len(targets) and targets[cut].reviewed_at == targets[cut - 1].reviewed_at:
        cut += 1
    return list(targets[:cut]), list(targets[cut:])
