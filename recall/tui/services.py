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
from dataclasses import replace
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
    """One drill session seen from the drill screen (pending the session layer)."""

    def __init__(self, services: Services, plan: SessionPlan) -> None:
        raise NotImplementedError("waiting for recall.session")


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
    return str(error)


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


_ = (time, replace, FeedbackView, Rating, SessionMode, SummaryView)
