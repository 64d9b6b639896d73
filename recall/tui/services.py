"""The one place the TUI talks to the lower layers: decks, engine, grading, store, session.

Screens call these methods and get plain views back (:mod:`recall.tui.views`); they never see a
database row, a SymPy object or a scheduler state. Every import of a heavy layer happens inside a
method, so importing this module costs nothing before the first frame.

Threads: :meth:`Services.load` runs in the app's load worker; :meth:`DrillRun.preview` and
:meth:`DrillRun.grade` run in preview and grading workers (pure engine work, no database); every
other call (recording, undo, counts) runs on the event loop, so the store is never used from two
threads at once by the TUI.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recall.tui.card_writer import CardDraft, write_card
from recall.tui.views import (
    CardView,
    DeckFailure,
    DeckRow,
    FeedbackView,
    HomeData,
    PreviewView,
    Rating,
    SessionMode,
    SessionPlan,
    StatsView,
    SummaryView,
)

if TYPE_CHECKING:
    from recall.cards.loader import LoadResult
    from recall.cards.model import Card
    from recall.store import Store

Clock = Callable[[], datetime]

#: Days shown by the forecast line on the home screen.
FORECAST_DAYS = 14


def utc_now() -> datetime:
    return datetime.now(UTC)


class Services:
    """The facade. ``clock`` is the time source for everything (tests pass a fake one);
    ``deck_dirs`` overrides where decks are loaded from (default: built-in, then custom);
    ``db_url`` overrides the database (default: ``RECALL_DB`` or the SQLite file)."""

    def __init__(
        self,
        clock: Clock | None = None,
        deck_dirs: Sequence[Path] | None = None,
        db_url: str | None = None,
    ) -> None:
        self.clock: Clock = clock or utc_now
        self.deck_dirs = list(deck_dirs) if deck_dirs is not None else None
        self.db_url = db_url
        self._store: Store | None = None
        self._loaded: LoadResult | None = None
        self._cards: dict[str, Card] = {}
        self._lock = threading.Lock()
        self._settings: Any = None
        self.closed = False

    # ------------------------------------------------------------------ loading

    def load(self) -> HomeData:
        """Load and sync the decks, open the store, and count (called from a worker)."""
        from recall.config import load_settings
        from recall.errors import ConfigError

        with self._lock:
            try:
                self._settings = load_settings()
            except ConfigError:
                from recall.config import Settings

                self._settings = Settings()
            result = self._load_decks()
            store = self._open_store()
            store.sync_decks(result.decks, self.clock())
            self._loaded = result
            self._cards = {card.key: card for card in result.cards}
            return self._home_data()

    def warm(self) -> None:
        """Import SymPy and the engine and read one expression end to end, so the first
        preview and grading do not pay for the import (called from a worker)."""
        _warm_engine()

    def _load_decks(self) -> LoadResult:
        """Built-in decks are checked for structure only (the test suite verifies them with the
        engine, and that check costs a second at every start); custom decks get the full check,
        so a broken formula in a learner's deck is reported here, not in the middle of a drill.
        """
        from recall.cards.loader import DeckFailure as LoaderFailure
        from recall.cards.loader import LoadResult, load_decks
        from recall.errors import DeckError
        from recall.paths import builtin_decks_dir, custom_decks_dir

        if self.deck_dirs is not None:
            return load_decks(self.deck_dirs)
        builtin = load_decks([builtin_decks_dir()], engine=False)
        custom = load_decks([custom_decks_dir()], engine=True)
        taken = {deck.id: deck.path for deck in builtin.decks}
        decks = list(builtin.decks)
        failures = list(builtin.failures) + list(custom.failures)
        for deck in custom.decks:
            if deck.id in taken:
                error = DeckError(
                    f"deck id '{deck.id}' is already used by {taken[deck.id]}",
                    path=deck.path,
                    suggestion="give this deck another id",
                )
                failures.append(LoaderFailure(deck.path, (error,)))
                continue
            decks.append(deck)
        return LoadResult(tuple(decks), tuple(failures))

    def _open_store(self) -> Store:
        if self._store is None:
            from recall.store import open_store

            self._store = open_store(self.db_url)
        return self._store

    @property
    def store(self) -> Store:
        if self._store is None:
            raise RuntimeError("the store is opened by Services.load() first")
        return self._store

    @property
    def settings(self) -> Any:
        if self._settings is None:
            from recall.config import Settings

            self._settings = Settings()
        return self._settings

    def card(self, key: str) -> Card:
        return self._cards[key]

    def home(self) -> HomeData:
        """Recount without reloading the decks."""
        return self._home_data()

    def _home_data(self) -> HomeData:
        from recall.scheduling import study_date, today_bounds

        assert self._loaded is not None
        now = self.clock()
        rollover = self.settings.day_rollover_hour
        start, end = today_bounds(now, rollover)
        introduced, _reviewed = self.store.introduced_and_reviewed(start)
        new_left = max(0, self.settings.new_per_day - introduced)
        counts = {c.deck: c for c in self.store.deck_counts(now, end, new_limit=new_left)}
        rows = []
        for deck in self._loaded.decks:
            count = counts.get(deck.id)
            rows.append(
                DeckRow(
                    id=deck.id,
                    name=deck.name,
                    topic=deck.topic or deck.name,
                    builtin=deck.builtin,
                    cards=len(deck.cards),
                    new=count.new if count else 0,
                    learning=count.learning if count else 0,
                    due=count.due if count else 0,
                    path=deck.path,
                    description=deck.description,
                )
            )
        failures = []
        for failure in self._loaded.failures:
            first = failure.errors[0] if failure.errors else None
            failures.append(
                DeckFailure(
                    path=failure.path,
                    message="\n".join(_error_line(e) for e in failure.errors) or "did not load",
                    line=getattr(first, "line", None),
                    card_id=getattr(first, "card_id", None),
                )
            )
        review_days = [
            study_date(t, rollover) for t in self.store.review_times(start - timedelta(days=400))
        ]
        today = study_date(now, rollover)
        forecast = [0] * FORECAST_DAYS
        for due in self.store.due_times(start + timedelta(days=FORECAST_DAYS)):
            index = max(0, (study_date(due, rollover) - today).days)
            if index < FORECAST_DAYS:
                forecast[index] += 1
        return HomeData(
            decks=tuple(rows),
            failures=tuple(failures),
            streak_days=_streak(set(review_days), today),
            reviewed_today=sum(1 for d in review_days if d == today),
            forecast=tuple(forecast),
            database=self.db_url or "",
        )

    # ------------------------------------------------------------------ sessions

    def begin(self, plan: SessionPlan) -> DrillRun:
        """Start a drill session for ``plan``."""
        return DrillRun(self, plan)

    # ------------------------------------------------------------------ browsing decks

    def cards(self, deck_id: str | None, search: str = "") -> tuple[CardView, ...]:
        """Cards of one deck (or all), filtered by a case-insensitive search of id, prompt,
        answer and tags."""
        from recall.tui.presenting import card_view

        if self._loaded is None:
            return ()
        needle = search.lower().strip()
        out = []
        for deck in self._loaded.decks:
            if deck_id and deck.id != deck_id:
                continue
            for card in deck.cards:
                if needle and needle not in _haystack(card):
                    continue
                out.append(card_view(card))
        return tuple(out)

    def reference(self, card: CardView) -> str:
        """The card's reference answer, rendered."""
        from recall.tui.presenting import reference_rendered

        return reference_rendered(self._cards[card.key]) if card.key in self._cards else ""

    def custom_deck_ids(self) -> tuple[str, ...]:
        if self._loaded is None:
            return ()
        return tuple(deck.id for deck in self._loaded.decks if not deck.builtin)

    def draft_of(self, card: CardView) -> CardDraft | None:
        """The form's draft of a custom card (``None`` for kinds the form does not edit)."""
        original = self._cards.get(card.key)
        if original is None or str(original.kind) not in ("formula", "fact", "reverse", "explain"):
            return None
        kind = str(original.kind)
        answer = original.answer
        if kind == "fact":
            answer = "" if original.value is None else f"{original.value:g}"
        return CardDraft(
            deck_id=original.deck_id,
            id=original.id,
            kind=kind,
            prompt=original.prompt,
            answer=answer,
            accept=original.accept,
            shown=original.shown,
            model_answer=original.model_answer,
            hint=original.hint,
            symbols={s.name: s.domain for s in original.symbols},
        )

    def preview_draft(self, draft: CardDraft) -> PreviewView | None:
        """The form's live preview of the answer (math kinds only)."""
        from recall.errors import RecallError
        from recall.formula import SymbolTable, preview

        text = draft.answer
        if draft.kind not in ("formula", "fact") or not text.strip():
            return None
        try:
            table = SymbolTable.build(variables=draft.symbols) if draft.kind == "formula" else None
        except RecallError as error:
            return PreviewView(text=text, ok=False, message=f"symbols: {error}")
        from recall.tui.presenting import preview_view

        return preview_view(text, preview(text, table, numeric=draft.kind == "fact"))

    def save_card(self, draft: CardDraft, line: int | None) -> list[str]:
        """Write the card into its custom deck and validate the deck with the real loader.

        Returns the errors (and restores the file) when the deck would no longer load; an empty
        list means saved.
        """
        from recall.cards.loader import read_deck
        from recall.paths import custom_decks_dir

        problems = _draft_problems(draft)
        if problems:
            return problems
        path = self._deck_path(draft.deck_id) or custom_decks_dir() / f"{draft.deck_id}.toml"
        existed = path.exists()
        old = write_card(path, draft, line)
        deck, errors = read_deck(path)
        if deck is None:
            if existed:
                path.write_text(old, encoding="utf-8")
            else:
                path.unlink()
            return [_error_line(e) for e in errors]
        return []

    def _deck_path(self, deck_id: str) -> Path | None:
        if self._loaded is None:
            return None
        for deck in self._loaded.decks:
            if deck.id == deck_id and not deck.builtin and deck.path:
                return Path(deck.path)
        return None

    # ------------------------------------------------------------------ stats

    def stats(self) -> StatsView:
        """The stats screen's figures, from the review log."""
        from recall.scheduling import study_date

        now = self.clock()
        rollover = self.settings.day_rollover_hour
        since = now - timedelta(days=26 * 7)
        facts = self.store.review_facts(since, now + timedelta(seconds=1))
        days: dict[Any, int] = {}
        by_deck: dict[str, list[int]] = {}
        by_topic: dict[str, list[int]] = {}
        mistakes: dict[str, int] = {}
        for reviewed_at, _kind, rating, verdict, diagnosis, deck, topic in facts:
            day = study_date(reviewed_at, rollover)
            days[day] = days.get(day, 0) + 1
            passed = 1 if rating > 1 else 0
            by_deck.setdefault(deck, []).append(passed)
            by_topic.setdefault(topic or deck, []).append(passed)
            if verdict == "incorrect":
                mistakes[diagnosis or "wrong answer"] = (
                    mistakes.get(diagnosis or "wrong answer", 0) + 1
                )
        today = study_date(now, rollover)
        forecast = [0] * 30
        start = now - timedelta(days=1)
        for due in self.store.due_times(start + timedelta(days=31)):
            index = max(0, (study_date(due, rollover) - today).days)
            if index < 30:
                forecast[index] += 1
        return StatsView(
            heatmap=tuple(sorted(days.items())),
            forecast=tuple(forecast),
            retention_by_deck=tuple(
                (k, sum(v) / len(v), len(v)) for k, v in sorted(by_deck.items())
            ),
            retention_by_topic=tuple(
                (k, sum(v) / len(v), len(v)) for k, v in sorted(by_topic.items())
            ),
            mistakes=tuple(sorted(mistakes.items(), key=lambda kv: -kv[1])[:10]),
            total_reviews=self.store.review_count(),
            streak_days=_streak(set(days), today),
        )

    # ------------------------------------------------------------------ shutdown

    def close(self) -> None:
        """Close the store (every review is already committed)."""
        self.closed = True
        if self._store is not None:
            self._store.close()
            self._store = None


class DrillRun:
    """One drill session as the drill screen sees it.

    Built on the store and the scheduler: the queue (learning, then reviews interleaved with
    new cards, one card per sibling group), the time or card budget on a pausable clock, each
    review committed by :meth:`Store.apply_review` before the next card is asked, undo through
    the log, and the summary computed from the session's log rows. Cram, weakest-N and missed
    sessions log their reviews without a schedule, so the schedule is untouched.
    """

    def __init__(self, services: Services, plan: SessionPlan) -> None:
        from recall.scheduling import Scheduler

        self.services = services
        self.plan = plan
        self.store = services.store
        self.clock = services.clock
        settings = services.settings
        self.scheduled = plan.mode is SessionMode.REVIEW
        self.scheduler = Scheduler(settings.scheduler_settings())
        now = self.clock()
        budget_kind, budget_value = _budget(plan)
        self.info = self.store.start_session(
            now,
            budget_kind=budget_kind,
            budget_value=budget_value,
            mode=_MODE_NAMES[plan.mode],
            mode_count=plan.cards if plan.mode is SessionMode.WEAKEST else None,
            decks=plan.deck_ids,
            topic=plan.topic,
        )
        self._paused_at: datetime | None = None
        self._paused_total = timedelta()
        self._started = now
        self._seeds: dict[str, int] = {}
        self._stored: dict[str, Any] = {}
        self._shown_at: float = 0.0
        self._history: list[tuple[int, str]] = []  # (review id, card key), this session's
        self._again_once: set[str] = set()
        self.finished = False
        self.queue: list[str] = self._build_queue(now)

    # ------------------------------------------------------------------ the queue

    def _build_queue(self, now: datetime) -> list[str]:
        from recall.scheduling import build_queue, drop_siblings, today_bounds

        plan = self.plan
        decks = plan.deck_ids or None
        known = self.services._cards
        if plan.card_keys:
            return [key for key in plan.card_keys if key in known]
        if plan.mode is SessionMode.MISSED:
            return self._missed_last_time()
        if plan.mode is SessionMode.CRAM:
            return [
                key
                for key, card in known.items()
                if (decks is None or card.deck_id in decks)
                and (plan.topic is None or self._topic_of(card) == plan.topic)
            ]
        if plan.mode is SessionMode.WEAKEST:
            return self._weakest(plan.cards or 20, decks)
        settings = self.services.settings
        start, _end = today_bounds(now, settings.day_rollover_hour)
        introduced, reviewed = self.store.introduced_and_reviewed(start)
        due = self.store.due_cards(
            now, limit=max(0, settings.reviews_per_day - reviewed), decks=decks, topic=plan.topic
        )
        new = self.store.new_cards(
            limit=max(0, settings.new_per_day - introduced), decks=decks, topic=plan.topic
        )
        learning = [c for c in due if c.state.phase in (1, 3)]
        reviews = [c for c in due if c.state.phase == 2]
        ordered = drop_siblings(build_queue(learning, reviews, new), lambda c: c.sibling_group)
        for stored in ordered:
            self._stored[stored.card_key] = stored
        return [c.card_key for c in ordered if c.card_key in known]

    def _topic_of(self, card: Card) -> str:
        loaded = self.services._loaded
        deck = next((d for d in loaded.decks if d.id == card.deck_id), None) if loaded else None
        return card.topic or (deck.topic or deck.name if deck else "")

    def _weakest(self, count: int, decks: list[str] | None | tuple[str, ...]) -> list[str]:
        ids, stabilities, last_reviews = self.store.memory(decks=decks, topic=self.plan.topic)
        if not ids:
            return []
        now = self.clock()
        elapsed = [max(0, (now - last).days) if last else 0 for last in last_reviews]
        odds = self.scheduler.retrievability_many(stabilities, elapsed)
        by_id = {c.id: c for c in self.store.cards_by_key().values()}
        ranked = sorted(zip(odds, ids, strict=True), key=lambda pair: pair[0])
        keys = [by_id[card_id].card_key for _odds, card_id in ranked if card_id in by_id]
        return [key for key in keys if key in self.services._cards][:count]

    def _missed_last_time(self) -> list[str]:
        last = self.store.last_finished_session(mode=None)
        if last is None:
            return []
        keys: list[str] = []
        for entry in self.store.reviews(session_id=last.id):
            if entry.verdict == "incorrect" and entry.card_key not in keys:
                keys.append(entry.card_key)
        return [key for key in keys if key in self.services._cards]

    def next_card(self) -> CardView | None:
        """The next card to ask (``None`` when the queue is empty); starts its timer."""
        import random

        from recall.tui.presenting import card_view

        while self.queue:
            key = self.queue.pop(0)
            card = self.services._cards.get(key)
            if card is None:
                continue
            stored = self._stored.get(key) or self.store.cards_by_key([key]).get(key)
            if stored is None or stored.retired or (self.scheduled and stored.suspended):
                continue
            self._stored[key] = stored
            if card.params and key not in self._seeds:
                self._seeds[key] = random.SystemRandom().randrange(2**31)
            self._current = key
            self._shown_at = self.elapsed()
            return card_view(card, seed=self._seeds.get(key), new=stored.state.is_new)
        return None

    # ------------------------------------------------------------------ engine work (threads)

    def preview(self, card: CardView, text: str) -> PreviewView:
        """How the answer box reads (parse and render only; safe in a worker thread)."""
        from recall.grading import preview
        from recall.tui.presenting import preview_view, takes_math

        original = self.services.card(card.key)
        if not takes_math(original):
            return preview_view(text, None)
        return preview_view(text, preview(original, text))

    def grade(self, card: CardView, text: str, hinted: bool = False) -> FeedbackView:
        """Grade ``text`` (safe in a worker thread: the engine only, no database)."""
        from recall.errors import GradingError
        from recall.grading import grade, rating_verdict
        from recall.scheduling import suggest_rating
        from recall.tui.presenting import feedback_view
        from recall.tui.views import Outcome

        original = self.services.card(card.key)
        started = time.perf_counter()
        try:
            verdict = grade(
                original, text, seed=self._seeds.get(card.key), others=self._others(original)
            )
        except GradingError as error:
            return FeedbackView(
                outcome=Outcome.INVALID,
                answer=text,
                headline="This card cannot be graded",
                diagnosis=f"{error} (Ctrl-S skips it; Ctrl-E opens its file)",
            )
        elapsed_ms = (time.perf_counter() - started) * 1000
        seconds = self.elapsed() - self._shown_at
        stored = self._stored.get(card.key)
        mature = bool(stored and stored.state.is_mature)
        suggested = suggest_rating(rating_verdict(verdict), seconds, hinted, mature)
        rating = None if suggested is None else _RATINGS[int(suggested)]
        return feedback_view(original, text, verdict, rating, elapsed_ms)

    def _others(self, card: Card) -> tuple[str, ...]:
        if not card.accept:
            return ()
        loaded = self.services._loaded
        deck = next((d for d in loaded.decks if d.id == card.deck_id), None) if loaded else None
        if deck is None:
            return ()
        return tuple(name for other in deck.cards if other.id != card.id for name in other.accept)

    # ------------------------------------------------------------------ recording

    def record(
        self,
        card: CardView,
        rating: Rating,
        feedback: FeedbackView | None,
        hinted: bool = False,
    ) -> None:
        """Log the review and store the next state, committed before this returns."""
        from recall.scheduling import Rating as FsrsRating
        from recall.scheduling import today_bounds
        from recall.store import ReviewInput

        now = self.clock()
        stored = self._stored.get(card.key) or self.store.cards_by_key([card.key])[card.key]
        value = FsrsRating(list(Rating).index(rating) + 1)
        verdict = "self" if feedback is None else str(feedback.outcome)
        review = ReviewInput(
            rating=int(value),
            reviewed_at=now,
            verdict=verdict,
            seconds=max(0.0, self.elapsed() - self._shown_at),
            suggested=None
            if feedback is None or feedback.suggested is None
            else list(Rating).index(feedback.suggested) + 1,
            diagnosis=(feedback.diagnosis_kind or None) if feedback else None,
            answer=feedback.answer if feedback else None,
            hint_used=hinted,
            seed=self._seeds.get(card.key),
            session_id=self.info.id,
        )
        if self.scheduled:
            _start, tomorrow = today_bounds(now, self.services.settings.day_rollover_hour)
            applied = self.store.apply_review(
                stored.id,
                review,
                lambda state: self.scheduler.review(stored.id, state, value, now),
                bury_siblings_until=tomorrow,
            )
            self._stored[card.key] = applied.card
            # A card still in (re)learning comes back in this session once its step is due.
            if applied.card.state.phase in (1, 3) and card.key not in self.queue:
                self.queue.append(card.key)
        else:
            applied = self.store.apply_review(stored.id, review, None)
            if rating is Rating.AGAIN and card.key not in self._again_once:
                self._again_once.add(card.key)  # a missed card is asked once more in cram
                self.queue.append(card.key)
        self._history.append((applied.entry.id, card.key))

    def undo(self, current: CardView | None) -> CardView | None:
        """Undo this session's last review and return that card to ask again (``current``, if
        any, goes back to the front of the queue)."""
        from recall.tui.presenting import card_view

        if not self._history:
            return None
        review_id, key = self._history.pop()
        restored = self.store.undo_review(review_id)
        self._stored[key] = restored
        if current is not None and current.key != key:
            self.queue.insert(0, current.key)
        if key in self.queue:
            self.queue.remove(key)
        self._current = key
        self._shown_at = self.elapsed()
        card = self.services.card(key)
        return card_view(card, seed=self._seeds.get(key), new=restored.state.is_new)

    def skip(self, card: CardView) -> None:
        """Put the card at the back of this session's queue (nothing is recorded)."""
        if len(self.queue) > 0:
            self.queue.append(card.key)

    def bury(self, card: CardView) -> None:
        """Hide the card until the next study day."""
        from recall.scheduling import today_bounds

        _start, tomorrow = today_bounds(self.clock(), self.services.settings.day_rollover_hour)
        stored = self._stored.get(card.key) or self.store.cards_by_key([card.key])[card.key]
        self.store.bury([stored.id], tomorrow)

    def suspend(self, card: CardView) -> None:
        """Take the card out of every queue until it is unsuspended."""
        stored = self._stored.get(card.key) or self.store.cards_by_key([card.key])[card.key]
        self._stored[card.key] = self.store.set_suspended(stored.id, True)

    def reload(self, card: CardView) -> CardView | None:
        """Re-read the card's deck file after an edit (the old card is kept if it broke)."""
        from recall.cards.loader import read_deck
        from recall.tui.presenting import card_view

        if not card.path:
            return None
        deck, _errors = read_deck(card.path, builtin=card.path.startswith(str(_builtin_dir())))
        if deck is None:
            return None
        for fresh in deck.cards:
            self.services._cards[fresh.key] = fresh
        self.store.sync_decks([deck], self.clock())
        if card.key not in self.services._cards:
            return None
        stored = self._stored.get(card.key)
        new = bool(stored and stored.state.is_new)
        return card_view(self.services.card(card.key), seed=self._seeds.get(card.key), new=new)

    # ------------------------------------------------------------------ the budget

    def elapsed(self) -> float:
        """Seconds of drilling so far, pauses excluded."""
        now = self._paused_at or self.clock()
        return (now - self._started - self._paused_total).total_seconds()

    def pause(self) -> None:
        if self._paused_at is None:
            self._paused_at = self.clock()

    def resume(self) -> None:
        if self._paused_at is not None:
            self._paused_total += self.clock() - self._paused_at
            self._paused_at = None

    @property
    def paused(self) -> bool:
        return self._paused_at is not None

    def seconds_left(self) -> float | None:
        if self.plan.minutes is None:
            return None
        return max(0.0, self.plan.minutes * 60 - self.elapsed())

    def cards_left(self) -> int | None:
        if self.plan.cards is None:
            return None
        return max(0, self.plan.cards - self.reviewed())

    def budget_spent(self) -> bool:
        """Time or cards used up (checked between cards: the current card is always finished)."""
        seconds, cards = self.seconds_left(), self.cards_left()
        return (seconds is not None and seconds <= 0) or (cards is not None and cards <= 0)

    def reviewed(self) -> int:
        return len(self._history)

    # ------------------------------------------------------------------ the end

    def finish(self) -> SummaryView:
        """End the session (recorded in the store) and compute its summary from the log."""
        if not self.finished:
            self.resume()
            self.store.end_session(self.info.id, self.clock())
            self.finished = True
        return self.summary()

    def summary(self) -> SummaryView:
        from recall.scheduling import study_date, today_bounds
        from recall.tui.presenting import reference_rendered
        from recall.tui.views import MissedCard

        entries = self.store.reviews(session_id=self.info.id)
        kinds = [e.kind for e in entries]
        first: dict[str, Any] = {}
        for entry in entries:
            first.setdefault(entry.card_key, entry)
        graded_first = [e for e in first.values() if e.verdict in ("correct", "incorrect")]
        missed: list[MissedCard] = []
        mistakes: dict[str, int] = {}
        for entry in entries:
            if entry.verdict != "incorrect":
                continue
            if entry.diagnosis:
                mistakes[entry.diagnosis] = mistakes.get(entry.diagnosis, 0) + 1
            if any(m.key == entry.card_key for m in missed):
                continue
            card = self.services._cards.get(entry.card_key)
            missed.append(
                MissedCard(
                    key=entry.card_key,
                    prompt=card.prompt if card else entry.card_key,
                    answer=entry.answer or "",
                    reference=reference_rendered(card) if card else "",
                )
            )
        seconds = sorted(e.seconds for e in entries)
        median = seconds[len(seconds) // 2] if seconds else 0.0
        if seconds and len(seconds) % 2 == 0:
            median = (seconds[len(seconds) // 2 - 1] + seconds[len(seconds) // 2]) / 2
        now = self.clock()
        rollover = self.services.settings.day_rollover_hour
        _start, end = today_bounds(now, rollover)
        due_tomorrow = len(self.store.due_times(end + timedelta(days=1))) - len(
            self.store.due_times(end)
        )
        due_week = len(self.store.due_times(end + timedelta(days=7)))
        days = {study_date(t, rollover) for t in self.store.review_times(now - timedelta(days=400))}
        return SummaryView(
            reviews=len(entries),
            new=kinds.count(0),
            review=kinds.count(2) + kinds.count(1),
            relearn=kinds.count(3),
            first_try_correct=sum(1 for e in graded_first if e.verdict == "correct"),
            first_try_total=len(graded_first),
            median_seconds=median,
            elapsed_seconds=self.elapsed(),
            missed=tuple(missed),
            mistakes=tuple(sorted(mistakes.items(), key=lambda kv: -kv[1])[:5]),
            due_tomorrow=due_tomorrow,
            due_week=due_week,
            streak_days=_streak(days, study_date(now, rollover)),
            mode=str(self.plan.mode),
        )


_MODE_NAMES = {
    SessionMode.REVIEW: "normal",
    SessionMode.CRAM: "cram",
    SessionMode.WEAKEST: "weakest",
    SessionMode.MISSED: "missed",
}
_RATINGS = {1: Rating.AGAIN, 2: Rating.HARD, 3: Rating.GOOD, 4: Rating.EASY}


def _budget(plan: SessionPlan) -> tuple[str, float | None]:
    if plan.minutes is not None:
        return "minutes", float(plan.minutes)
    if plan.cards is not None:
        return "cards", float(plan.cards)
    return "due", None


def _builtin_dir() -> Path:
    from recall.paths import builtin_decks_dir

    return builtin_decks_dir()


def _warm_engine() -> None:
    """Import SymPy, NumPy and the engine, and read one expression end to end."""
    import numpy  # noqa: F401 - the scheduler's retrievability (weakest N, stats) uses it

    from recall.formula import SymbolTable, parse, render

    table = SymbolTable.build(variables={"x": "real"})
    render(parse("sqrt(x^2 + 1)/2", table), table)


def _streak(days: set[Any], today: Any) -> int:
    """Consecutive study days with reviews ending today (or yesterday, if none yet today)."""
    day = today if today in days else today - timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= timedelta(days=1)
    return count


def _error_line(error: BaseException) -> str:
    """A deck error without its path (the screens show the file name once, beside it)."""
    from recall.errors import DeckError

    if not isinstance(error, DeckError):
        return str(error)
    text = f"line {error.line}: " if error.line is not None else ""
    if error.card_id:
        text += f"card '{error.card_id}': "
    text += error.message
    if error.suggestion:
        text += f" ({error.suggestion})"
    return text


def _haystack(card: Card) -> str:
    return " ".join(
        (card.key, card.prompt, card.answer, card.text, card.model_answer, " ".join(card.tags))
    ).lower()


def _draft_problems(draft: CardDraft) -> list[str]:
    """What the loader would not explain well for a form (empty fields)."""
    problems = []
    if not draft.deck_id:
        problems.append("deck id: required")
    if not draft.id:
        problems.append("card id: required")
    if not draft.prompt:
        problems.append("prompt: required")
    if draft.kind in ("formula", "fact") and not draft.answer:
        problems.append("answer: required")
    if draft.kind == "reverse" and not draft.accept:
        problems.append("answer: give at least one accepted name")
    if draft.kind == "explain" and not draft.model_answer:
        problems.append("answer: the model answer is required")
    return problems
