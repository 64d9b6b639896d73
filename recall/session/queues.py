"""Which card comes next: the session's queue, built once per mode and checked before each card.

* ``normal``: the due reviews allowed today and the new cards allowed today, interleaved
  (:func:`recall.scheduling.build_queue`), one card per sibling group; learning cards are not
  queued but come back through :meth:`SessionQueue.learning_due` as their steps fall due;
* ``cram``: every drillable card of the session's decks, in a shuffle seeded by the session id
  (a resumed session keeps its order);
* ``weakest``: the N reviewed cards least likely to be recalled now;
* ``missed``: the cards failed in the last finished session.

A queued card may have changed since the queue was built (buried by a sibling, reviewed from
another window, suspended, today's allowance spent elsewhere). So a card is checked at the
moment it is shown, in this order: it is first *claimed* in the store (a card another window has
on screen is passed over and tried again at the end), and only then read again
(:meth:`SessionQueue.fit_to_show`): due, and not reviewed by anyone else since this session last
knew it. Checking before claiming left a gap: the other window could answer the card and let go
of it between the check and the claim, and the card was shown twice. A learning card another
window has just answered is not shown here ahead of its step (learn-ahead is for this session's
own cards); once its step is due, either window may take it.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping
from datetime import datetime, timedelta, tzinfo
from typing import TYPE_CHECKING

from recall.cards.model import Card
from recall.config import Settings
from recall.scheduling.day import today_bounds
from recall.scheduling.queue import build_queue, drop_siblings, remaining
from recall.scheduling.rating import Rating
from recall.scheduling.state import Phase
from recall.session.mode import Mode
from recall.session.new_cards import todays_new

if TYPE_CHECKING:
    from recall.scheduling.fsrs_adapter import Scheduler
    from recall.store import SessionInfo, Store, StoredCard

#: How far ahead a learning card may be shown when nothing else is left (Anki's default).
LEARN_AHEAD = timedelta(minutes=20)
#: Most cards one session queues up front (a learner with no daily limits set).
MAX_QUEUE = 100_000
#: The store keeps times to the millisecond (a review's time reads back truncated).
_STORED_PRECISION = timedelta(milliseconds=1)
#: Extra rows fetched with the due reviews for the learning cards mixed in with them.
LEARNING_HEADROOM = 1_000


def missed_last_time(store: Store) -> list[str] | None:
    """The keys of the cards rated Again in the last finished session (of any mode), in the
    order first missed; ``None`` when no session has finished yet. What ``missed`` drills,
    and what the home screen asks before offering it."""
    last = store.last_finished_session(mode=None)
    if last is None:
        return None
    keys: list[str] = []
    for entry in store.reviews(session_id=last.id):
        if entry.rating == Rating.Again and entry.card_key not in keys:
            keys.append(entry.card_key)
    return keys


class SessionQueue:
    """The cards waiting in one session (``pending``, by ``deck/card`` key), and the store's
    latest view of each card it has handed out (``stored``).

    Only cards in ``cards`` (the loaded deck content) are ever queued: a card the store knows
    but no deck file holds any more cannot be shown.
    """

    def __init__(
        self,
        store: Store,
        cards: Mapping[str, Card],
        info: SessionInfo,
        mode: Mode,
        *,
        settings: Settings,
        scheduler: Scheduler,
        tz: tzinfo | None,
    ) -> None:
        self.store = store
        self.cards = cards
        self.info = info
        self.mode = mode
        self.settings = settings
        self.scheduler = scheduler
        self.tz = tz
        self.decks = info.decks or None
        self.topic = info.topic
        self.pending: deque[str] = deque()
        self.stored: dict[str, StoredCard] = {}
        self.skipped_learning: set[str] = set()  # learning cards skipped: shown after the others
        self.held_elsewhere: list[str] = []  # queued cards on screen in another window
        #: Due reviews by how likely they are to be forgotten now, weakest first (the last days
        #: before a followed exam), instead of by due time.
        self.weakest_first = False
        #: Reviewed cards drilled today although not due yet (a followed exam plan's reviews),
        #: after the due ones.
        self.ahead: frozenset[str] = frozenset()
        #: The new cards to introduce today in place of the session's own choice (a followed
        #: exam plan's), or ``None``.
        self.introduce: tuple[str, ...] | None = None
        # When each card this session knows of was last reviewed, as far as it knows (at the
        # build, or by its own review): a later review in the store was made elsewhere.
        self.known_reviews: dict[str, datetime | None] = {}
        self.built_at: datetime | None = None

    def build(self, now: datetime, skip: Collection[str]) -> None:
        """Fill the queue for the session's mode, leaving out the keys in ``skip``."""
        self.store.release_buried(now)
        self.built_at = now
        if self.mode is Mode.NORMAL:
            keys = self._normal(now)
        elif self.mode is Mode.CRAM:
            keys = self._cram()
        elif self.mode is Mode.WEAKEST:
            keys = self._weakest(now, self.info.mode_count or 20)
        else:
            keys = self._missed()
        self.pending = deque(k for k in keys if k not in skip)
        self.known_reviews = {key: card.state.last_review for key, card in self.stored.items()}

    def note_reviewed(self, key: str, card: StoredCard) -> None:
        """This session reviewed ``key`` (or took its review back): ``card`` is its state now."""
        self.stored[key] = card
        self.known_reviews[key] = card.state.last_review

    def reviewed_elsewhere(self, key: str, fresh: StoredCard) -> bool:
        """Whether the store holds a review of ``key`` this session did not make or know of:
        another window answered it since this session last looked."""
        last = fresh.state.last_review
        if last is None:
            return False
        if key in self.known_reviews:
            known = self.known_reviews[key]
            # The store keeps milliseconds: this session's own review reads back a little early.
            return known is None or abs(last - known) >= _STORED_PRECISION
        return self.built_at is not None and last >= self.built_at

    def _loaded(self, cards: Iterable[StoredCard]) -> list[StoredCard]:
        out = []
        for card in cards:
            if card.key in self.cards:
                self.stored[card.key] = card
                out.append(card)
        return out

    def _normal(self, now: datetime) -> list[str]:
        start, end = today_bounds(now, self.settings.day_rollover_hour, self.tz)
        introduced, reviewed = self.store.introduced_and_reviewed(start)
        new_left = remaining(self.settings.new_per_day, introduced)
        reviews_left = remaining(self.settings.reviews_per_day, reviewed)
        # due_cards mixes learning cards (shown by next_card as they fall due) with reviews:
        # ask for the reviews allowed plus room for the learning cards among them.
        due = self._loaded(
            self.store.due_cards(
                end,
                limit=min(reviews_left, MAX_QUEUE) + LEARNING_HEADROOM,
                decks=self.decks,
                topic=self.topic,
            )
        )
        reviews = [c for c in due if c.state.phase is Phase.REVIEW]
        if self.ahead:
            queued = {c.key for c in due}
            wanted = [key for key in sorted(self.ahead) if key not in queued and key in self.cards]
            reviews += [
                c
                for c in self._loaded(self.store.cards_by_key(wanted).values())
                if c.state.phase is Phase.REVIEW and self._drillable(c)
            ]
        if self.weakest_first:
            reviews.sort(key=lambda c: self.scheduler.retrievability(c.state, now))
        if self.ahead:
            # A followed plan's reviews first: of two siblings, the one the plan chose stays
            # (the sort is stable: weakest first within each part).
            reviews.sort(key=lambda c: c.key not in self.ahead)
        reviews = reviews[:reviews_left]
        # A new card whose sibling is drilled today would be buried by it: it waits a day.
        today = [c for c in due if c.state.phase is not Phase.REVIEW] + reviews
        busy = {group for c in today if (group := _group_of(c)) is not None}
        if self.introduce is not None:
            chosen = self.store.cards_by_key([k for k in self.introduce if k in self.cards])
            new = [
                c
                for c in self._loaded(chosen[k] for k in self.introduce if k in chosen)
                if c.state.is_new and self._drillable(c)
            ][: min(new_left, MAX_QUEUE)]
            # The plan's introductions come first: a sibling's review waits for another day
            # (the plan made tomorrow counts it), or the card would never be introduced.
            introduced_groups = {g for c in new if (g := _group_of(c)) is not None}
            reviews = [c for c in reviews if _group_of(c) not in introduced_groups]
        else:
            new = self._loaded(
                todays_new(
                    self.store,
                    self.cards,
                    self.settings,
                    now,
                    tz=self.tz,
                    decks=self.decks,
                    topic=self.topic,
                    busy_groups=busy,
                )
            )[: min(new_left, MAX_QUEUE)]
        queue = drop_siblings(build_queue([], reviews, new), _group_of)
        return [c.key for c in queue]

    def _cram(self) -> list[str]:
        stored = self._loaded(self.store.cards_by_key(self.cards).values())
        keys = sorted(c.key for c in stored if self._drillable(c))
        random.Random(self.info.id).shuffle(keys)
        return keys

    def _weakest(self, now: datetime, count: int) -> list[str]:
        """The ``count`` reviewed cards least likely to be recalled now (new cards have no
        memory to be weak in)."""
        import numpy as np

        memory = self.store.memory(decks=self.decks, topic=self.topic)
        reviewed = ~np.isnan(memory.stability)
        ids = memory.card_db_ids[reviewed]
        r = self.scheduler.retrievability_many(
            memory.stability[reviewed], memory.elapsed_days(now)[reviewed]
        )
        by_id = {c.db_id: c for c in self._loaded(self.store.cards_by_key(self.cards).values())}
        order = [int(ids[i]) for i in np.argsort(r, kind="stable") if int(ids[i]) in by_id]
        return [by_id[i].key for i in order][:count]

    def _missed(self) -> list[str]:
        keys = missed_last_time(self.store) or []
        stored = self._loaded(self.store.cards_by_key(keys).values())
        usable = {c.key for c in stored if self._drillable(c)}
        return [k for k in keys if k in usable]

    def _drillable(self, card: StoredCard) -> bool:
        """In the session's decks and topic, and neither retired nor suspended."""
        return (
            (self.decks is None or card.deck in self.decks)
            and (self.topic is None or card.topic == self.topic)
            and not card.retired
            and not card.suspended
        )

    def still_due(self, key: str, now: datetime) -> bool:
        """Whether queued card ``key`` may still be shown now (its state read again)."""
        stored = self.store.card(self.stored[key].db_id)
        self.stored[key] = stored
        if stored.retired or stored.suspended or stored.buried_until is not None:
            return False
        if not self.mode.on_schedule:
            return True
        start, end = today_bounds(now, self.settings.day_rollover_hour, self.tz)
        state = stored.state
        if state.is_new:
            limit, spent = self.settings.new_per_day, 0
        elif state.phase is Phase.REVIEW and (
            (state.due is not None and state.due < end) or key in self.ahead
        ):
            limit, spent = self.settings.reviews_per_day, 1
        else:
            # Learning and relearning cards come back through learning_due when their step
            # is due; from the queue they would be shown again before it.
            return False
        # The queue was sized when the session began; another window or process may have
        # spent today's allowance since, so the log decides, not the queue.
        return remaining(limit, self.store.introduced_and_reviewed(start)[spent]) > 0

    def fit_to_show(self, key: str, now: datetime, until: datetime | None = None) -> bool:
        """Whether ``key``, claimed for this session a moment ago, may be shown: read again
        from the store now that no other window can take it. A queued card (``until`` is
        ``None``) must be :meth:`still_due` and not reviewed elsewhere since; a learning card
        must still be learning and due by ``until``, and when that is ahead of ``now``
        (learn-ahead) not reviewed elsewhere since (another window's fresh answer is not
        asked again here before its step is due)."""
        if until is None:
            if not self.still_due(key, now):
                return False
            # Off the schedule (cram, weakest, missed) a card is asked whatever its state.
            return not (self.mode.on_schedule and self.reviewed_elsewhere(key, self.stored[key]))
        fresh = self.store.card(self.stored[key].db_id)
        self.stored[key] = fresh
        state = fresh.state
        if fresh.retired or fresh.suspended or fresh.buried_until is not None:
            return False
        if state.phase not in (Phase.LEARNING, Phase.RELEARNING) or state.due is None:
            return False
        if state.due > until:
            return False
        return until <= now or not self.reviewed_elsewhere(key, fresh)

    def learning_due(self, until: datetime, skip: Collection[str] = ()) -> str | None:
        """The first learning or relearning card due by ``until`` that is not in ``skip``."""
        for card in self._loaded(
            self.store.due_cards(
                until,
                limit=20 + len(skip),
                decks=self.decks,
                topic=self.topic,
                learning_only=True,
            )
        ):
            if card.key not in skip:
                return card.key
        return None

    def next_key(
        self,
        now: datetime,
        claim: Callable[[str], bool] = lambda key: True,
        release: Callable[[str], None] = lambda key: None,
    ) -> str | None:
        """The card to show now, or ``None`` when nothing is left: in a normal session a
        learning card whose step is due comes first, then the queue, then skipped learning
        cards, then queued cards another window was showing (if free now), then steps due
        within :data:`LEARN_AHEAD`.

        ``claim(key)`` claims a card for this session; a card it refuses (on screen in another
        window) is passed over: a queued one is held back in ``held_elsewhere`` and tried again
        once the queue is done, by when the other window has usually answered it. A claimed
        card is then read again (:meth:`fit_to_show`); one that no longer fits is let go
        (``release(key)``) and passed over."""
        refused: set[str] = set()
        later = self.skipped_learning

        def take(key: str, until: datetime | None) -> bool | None:
            """Claimed and fit: True; on screen elsewhere: None; claimed but unfit: False."""
            if not claim(key):
                return None
            if self.fit_to_show(key, now, until):
                return True
            release(key)
            return False

        def learning(until: datetime, skip: Collection[str]) -> str | None:
            while (key := self.learning_due(until, skip={*skip, *refused})) is not None:
                if take(key, until):
                    return key
                refused.add(key)
            return None

        key: str | None = None
        if self.mode.on_schedule:
            key = learning(now, later)
        while key is None and self.pending:
            candidate = self.pending.popleft()
            if not self.still_due(candidate, now):
                continue  # cheap first look; the claimed card is read again in take()
            taken = take(candidate, None)
            if taken:
                key = candidate
            elif taken is None:
                self.held_elsewhere.append(candidate)
        # The queue is done: skipped learning cards due now, the cards another window had
        # (if free now), then steps coming up soon.
        if key is None and self.mode.on_schedule:
            key = learning(now, ())
        if key is None:
            key = self._held_now_free(now, take)
        if key is None and self.mode.on_schedule:
            key = learning(now + LEARN_AHEAD, ())
        if key is not None:
            later.discard(key)
        return key

    def _held_now_free(
        self, now: datetime, take: Callable[[str, datetime | None], bool | None]
    ) -> str | None:
        """The first card held back for another window that may now be shown here (cards
        answered there meanwhile are dropped: :meth:`fit_to_show` no longer holds)."""
        for candidate in list(self.held_elsewhere):
            if not self.still_due(candidate, now):
                self.held_elsewhere.remove(candidate)
                continue
            taken = take(candidate, None)
            if taken is not None:
                self.held_elsewhere.remove(candidate)
            if taken:
                return candidate
        return None

    def ask_later(self, key: str, now: datetime) -> bool:
        """Put skipped card ``key`` back, to be asked after the others; ``False`` (nothing
        changed) when nothing else is left to ask."""
        state = self.stored[key].state
        learning = self.mode.on_schedule and state.phase in (Phase.LEARNING, Phase.RELEARNING)
        others = self.pending or (
            self.mode.on_schedule
            and self.learning_due(now + LEARN_AHEAD, skip={key, *self.skipped_learning})
        )
        if not others:
            return False
        if learning:  # learning cards return through learning_due: hold it back there
            self.skipped_learning.add(key)
        else:
            self.pending.append(key)
        return True


def _group_of(card: StoredCard) -> tuple[str, str] | None:
    return (card.deck, card.sibling_group) if card.sibling_group else None


__all__ = ["LEARNING_HEADROOM", "LEARN_AHEAD", "MAX_QUEUE", "SessionQueue"]
