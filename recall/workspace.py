"""The application below the TUI and the commands: one learner's settings, decks and store.

A :class:`Workspace` is what the TUI, ``recall drill``, ``recall stats`` and ``recall decks``
share, so each of them sees the same decks in the same state::

    workspace = Workspace.open(db_url=args.db)     # settings, decks, store; synced and retired
    workspace.cards["losses/mse"]                  # the one card cache (sessions share it)
    session = workspace.start_session(budget=Budget.cards(10))
    figures = workspace.stats(days=30)
    workspace.close()

It owns, in one place:

* **settings**, loaded once (or handed in by the caller that already has them);
* **decks**, loaded and merged: built-in decks are checked for structure only (the test suite
  proves them with the engine, a check that costs a second at every start); custom decks get
  the full check, so a broken formula in a learner's deck is reported, never drilled. With
  ``defer_checks`` (the TUI's home screen) a custom deck no cache knows waits, none of its
  cards offered, for :meth:`Workspace.check_pending` after the first counts.
  A custom deck may not reuse a built-in deck's id;
* **syncing**: the store is brought in line with the deck files, and the cards of a deck file
  deleted since the last start are retired (history kept; they come back with the file);
* **the one card cache** (:attr:`cards`): a session is handed this very mapping, so a card
  re-read after an edit (:meth:`reload_deck`) is the card every layer sees.

Nothing heavy is imported at module level: the TUI imports this before its first frame.
The store is opened on first use, so ``recall decks list`` never touches the database.

Threads: the TUI loads in a worker and drills on the event loop; :meth:`reload` holds a lock
so two reloads never interleave. What a load or reload made (the decks, the failures, the
pending files and the card map) is one :class:`_View`, built aside and published in one
assignment, never changed in place: a reader on another thread iterating :attr:`cards` or
:attr:`decks` sees a whole old view or a whole new one, never a map changing under it.
"""

from __future__ import annotations

import threading
from collections.abc import (
    Callable,
    Collection,
    ItemsView,
    Iterator,
    KeysView,
    Mapping,
    Sequence,
    ValuesView,
)
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from recall.clock import Clock, utc_now
from recall.errors import RecallError
from recall.inert import quote

if TYPE_CHECKING:
    from recall.analytics import Stats
    from recall.cards.loader import DeckFailure, LoadResult
    from recall.cards.model import Card, Deck
    from recall.cards.parse_cache import PendingWrites
    from recall.config import Settings
    from recall.exam_follow import FollowedExam
    from recall.planning import ExamGuidance
    from recall.scheduling.exam import ExamPlan
    from recall.scheduling.new_order import NewAllowance
    from recall.scheduling.today import TodayPlan
    from recall.session import Budget, Mode, Session
    from recall.store import DeckCounts, SessionInfo, Store, StoredCard, SyncReport


def shared_decks_notice(behind: Sequence[str]) -> str:
    """The sentence for shared decks a learner's recall found out of line with its built-in
    decks (deck ids, listed by their first few): whose move it is, in either direction."""
    from recall import __version__

    names = ", ".join(quote(deck, 40) for deck in behind[:5])
    more = f" and {len(behind) - 5} more" if len(behind) > 5 else ""
    decks, differ = ("deck", "differs") if len(behind) == 1 else ("decks", "differ")
    return (
        f"The shared {decks} {names}{more} on this database {differ} from the built-in decks "
        f"of this recall ({__version__}); recall uses the database's, which only its owner "
        "updates. If this recall is the newer, ask the owner to run `recall decks sync` with "
        "it; if it is the older, upgrade recall."
    )


@dataclass(frozen=True)
class Today:
    """The study day as the home screen shows it: each deck's own counts, today's plan (the
    one ``recall today`` prints), and the day's figures."""

    #: Per deck id: the cards it holds that are new, in learning steps due today, and due
    #: reviews (:func:`recall.analytics.today_counts`: not capped by the shared allowance).
    counts: Mapping[str, DeckCounts]
    #: What a normal session over every deck drills today (:func:`recall.planning.todays_plan`).
    plan: TodayPlan
    streak_days: int
    reviewed_today: int
    #: Cards falling due on each of the next :data:`FORECAST_DAYS` days, today first
    #: (:func:`recall.analytics.due_forecast`).
    forecast: tuple[int, ...]
    #: New cards today's limit was raised by ("learn N more today").
    extra_new: int = 0
    #: A followed exam plan's line for the home screen, in words longest first (none: ``()``).
    exam: tuple[str, ...] = ()

    @property
    def new_left(self) -> int:
        """New cards today's plan still introduces (what is left of the allowances)."""
        return self.plan.counts.new

    @property
    def reviews_left(self) -> int:
        """Due reviews today's plan still holds (what the review limit lets through)."""
        return self.plan.counts.review

    @property
    def due_tomorrow(self) -> int:
        """Cards falling due tomorrow: the forecast's second day."""
        return self.forecast[1] if len(self.forecast) > 1 else 0


@dataclass(frozen=True)
class Unfinished:
    """A recent session that never ended (a crash, a closed terminal), and its reviews."""

    info: SessionInfo
    reviews: int


#: Told each step of opening in words, for a loading screen (``"Loading decks 5/17…"``).
Progress = Callable[[str], None]

#: Days of the forecast in :meth:`Workspace.today`.
FORECAST_DAYS = 14


@dataclass(frozen=True)
class EmptyScope:
    """Why a normal session over a scope would have nothing to drill, and what is left to
    offer instead (:meth:`Workspace.empty_scope`): the scope's plan for today; the new cards the
    shared daily limit holds back (what lifting it would introduce); whether a deck's own limit
    is spent with new cards waiting; the cards a session could show at all (``cards``) and of
    them the ones reviewed before (``reviewed``: what "weakest" has); the learning cards whose
    next step comes later today (``learning_later``)."""

    plan: TodayPlan
    held_back: int
    own_limit: bool
    cards: int
    reviewed: int
    learning_later: int


class Workspace:
    """One learner's settings, decks and store, opened with :meth:`open`.

    ``deck_dirs`` loads exactly these folders, every deck fully checked (tests and tools);
    without it decks come from the built-in folder and the custom one (``custom_decks``, else
    :func:`recall.paths.custom_decks_dir`). ``db_url`` is the database (default: ``RECALL_DB``
    or the SQLite file in the data directory); ``learner`` the learner whose reviews, custom
    decks and settings these are, by id or name (``None``: the one :func:`recall.store.open_store`
    picks: ``RECALL_LEARNER``, else the learner who logged in, else learner 1);
    ``clock`` the time source for everything.

    On a database several learners share (:meth:`shared_database`), the settings a learner set
    there apply over ``config.toml``'s (when the store opens) and today's raise of the new-card
    limit is kept there, the learner's own; on a learner's own database both stay in the data
    directory.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        deck_dirs: Sequence[Path] | None = None,
        custom_decks: Path | None = None,
        db_url: str | None = None,
        clock: Clock | None = None,
        learner: int | str | None = None,
        defer_cache_writes: bool = False,
        defer_checks: bool = False,
    ) -> None:
        self.settings = settings
        self.clock: Clock = clock or utc_now
        self.db_url = db_url
        self.learner = learner
        self._shared: bool | None = None
        #: The settings before the learner's own in a shared database were applied.
        self._file_settings = settings
        self._deck_dirs = list(deck_dirs) if deck_dirs is not None else None
        self._custom_decks = custom_decks
        self._store: Store | None = None
        #: Set by :meth:`close`: the store is never opened again.
        self._closed = False
        #: What the last :meth:`sync` did (``None``: not synced yet).
        self.last_sync: SyncReport | None = None
        #: The one card cache, by key: it reads the current view, so sessions holding it see
        #: every reload, and each reload publishes a whole new view (:class:`_CardCache`).
        self._cards = _CardCache()
        self._lock = threading.Lock()
        #: Parsed-deck cache entries not written yet (``defer_cache_writes``: the TUI writes
        #: them once its first screen has its counts, see :meth:`write_parse_cache`).
        self._cache_writes: PendingWrites | None = None
        if defer_cache_writes:
            from recall.cards.parse_cache import PendingWrites

            self._cache_writes = PendingWrites()
        #: Leave custom deck files never checked before out of every load and reload, for
        #: :meth:`check_pending` (``defer_checks``).
        self._defer_checks = defer_checks

    @classmethod
    def open(
        cls,
        settings: Settings | None = None,
        deck_dirs: Sequence[Path] | None = None,
        db_url: str | None = None,
        *,
        custom_decks: Path | None = None,
        clock: Clock | None = None,
        sync: bool = True,
        progress: Progress | None = None,
        learner: int | str | None = None,
        defer_cache_writes: bool = False,
        defer_checks: bool = False,
    ) -> Workspace:
        """Load the settings (unless given: a caller that read them already passes them),
        load the decks and, with ``sync``, open the store and bring it in line with them.

        Raises :class:`recall.errors.ConfigError` for a settings file that does not read, and
        :class:`recall.errors.StoreError` for a database that cannot be opened. Decks that fail
        to load do not raise: they are listed in :attr:`failures`. ``progress`` is told each
        step in words ("Loading decks 5/17…"), for a loading screen. With
        ``defer_cache_writes``, decks parsed afresh are put in the parsed-deck cache only when
        :meth:`write_parse_cache` (or :meth:`close`) is called: a first start shows its counts
        sooner.

        With ``defer_checks``, a custom deck file that was never checked before (no entry in
        the parsed-deck or failure cache: a first start, a new or edited deck) is not read now:
        it is listed in :attr:`pending`, none of its cards is loaded, synced, counted or
        offered, and :meth:`check_pending` reads it with the engine's checks later (the TUI
        does so after its first screen). Built-in decks are never deferred.
        """
        if settings is None:
            from recall.config import load_settings

            settings = load_settings()
        workspace = cls(
            settings,
            deck_dirs=deck_dirs,
            custom_decks=custom_decks,
            db_url=db_url,
            clock=clock,
            learner=learner,
            defer_cache_writes=defer_cache_writes,
            defer_checks=defer_checks,
        )
        if sync:
            workspace.reload(progress=progress)
        else:
            workspace._load_decks(progress, defer=defer_checks)
        return workspace

    # ------------------------------------------------------------------ decks

    @property
    def _loaded(self) -> LoadResult | None:
        """What the last load or reload made (``None``: nothing loaded yet)."""
        return self._cards.view.loaded

    def _publish(self, loaded: LoadResult, cards: dict[str, Card]) -> None:
        """Make ``loaded`` and its card map the current view, in one assignment (under
        :attr:`_lock`). The caller hands ``cards`` over, built for this view alone: neither is
        changed afterwards."""
        self._cards.view = _View(loaded, MappingProxyType(cards))

    @property
    def loaded(self) -> LoadResult:
        """What the last load or reload made, whole: its decks, failures and pending files
        from one load (a reader on another thread that lists all three reads them here)."""
        from recall.cards.loader import LoadResult

        return self._loaded or LoadResult((), ())

    @property
    def decks(self) -> tuple[Deck, ...]:
        """Every deck that loaded, built-in first."""
        return self._loaded.decks if self._loaded is not None else ()

    @property
    def failures(self) -> tuple[DeckFailure, ...]:
        """Deck files that did not load, with their errors."""
        return self._loaded.failures if self._loaded is not None else ()

    @property
    def pending(self) -> tuple[str, ...]:
        """Custom deck files left unread until :meth:`check_pending` (``defer_checks``)."""
        return self._loaded.pending if self._loaded is not None else ()

    def check_pending(self, progress: Progress | None = None) -> int:
        """Read the deck files in :attr:`pending` with the engine's checks (the slow part, not
        holding the workspace), then reload and sync every deck as :meth:`reload` does, with
        nothing deferred any more: the decks that pass join the others, in file order, and
        the files that fail are listed in :attr:`failures` with every error (file, line,
        card). How many files were pending. Safe from a worker thread."""
        from recall.cards.loader import read_deck

        pending = self.pending
        check = _engine_checks()
        with self._cache_writes_held():  # written with the others' (write_parse_cache)
            for done, path in enumerate(pending, 1):
                if progress is not None:
                    progress(f"Checking custom decks {done}/{len(pending)}…")
                read_deck(path, builtin=False, check=check)  # this process keeps the result
        if pending:
            with self._lock:
                if not self._closed:  # closed meanwhile: the app quit, nothing is kept
                    self._reload_held(progress, defer=False)  # an edit is checked here
        return len(pending)

    @property
    def cards(self) -> Mapping[str, Card]:
        """The one card cache, by card key (``deck/card``): it follows every reload, and each
        iteration of it (keys, values, items) walks one whole view."""
        return self._cards

    def _card_view(self) -> Mapping[str, Card]:
        """The cards as they are now, a map no reload changes: what a reader that iterates
        them and then looks some up works on."""
        return self._cards.view.cards

    def card(self, key: str) -> Card:
        """A loaded card by key; raises ``KeyError`` for a card no deck has."""
        return self._cards[key]

    @property
    def deck_names(self) -> Mapping[str, str]:
        """Each loaded deck's name as listed beside the others, by deck id: a name two decks
        share is followed by the id (:func:`recall.cards.deck_names.shown_deck_names`)."""
        from recall.cards.deck_names import shown_deck_names

        return shown_deck_names(self.decks)

    def deck(self, deck_id: str) -> Deck | None:
        """The loaded deck with that id, if any."""
        return next((deck for deck in self.decks if deck.id == deck_id), None)

    def neighbour_names(self, card: Card) -> tuple[str, ...]:
        """Names the other cards of ``card``'s deck accept: a reverse or word-cloze answer's
        typo is never forgiven toward one of them (the drill screen and ``recall check --card``
        pass these to :func:`recall.grading.grade` as ``others``)."""
        if not card.accept:
            return ()
        deck = self.deck(card.deck_id)
        if deck is None:
            return ()
        return tuple(name for other in deck.cards if other.id != card.id for name in other.accept)

    def folders(self) -> list[Path]:
        """Where decks are loaded from: the override, or the built-in and custom folders."""
        if self._deck_dirs is not None:
            return list(self._deck_dirs)
        return [self._builtin_folder(), self.custom_folder()]

    def custom_folder(self) -> Path:
        """The folder a new custom deck is written to."""
        if self._custom_decks is not None:
            return self._custom_decks
        if self._deck_dirs:
            return self._deck_dirs[-1]
        from recall.paths import custom_decks_dir

        return custom_decks_dir()

    def reload(self, progress: Progress | None = None, *, defer: bool | None = None) -> None:
        """Re-read every deck file and bring the store in line (new cards, edits, vanished
        decks retired); ``progress`` as for :meth:`open`. ``defer``: leave custom deck files
        no cache knows for :meth:`check_pending` (default: as the workspace was opened, so the
        home screen's reloads defer a deck edited meanwhile too)."""
        with self._lock:
            self._refuse_closed()
            self._reload_held(progress, defer=self._defer_checks if defer is None else defer)

    def _reload_held(self, progress: Progress | None, *, defer: bool) -> None:
        """:meth:`reload`'s work, :attr:`_lock` held."""
        self._load_decks(progress, defer=defer, syncing=True)
        if self._closed:
            return  # closed while loading (the app quit while a worker checked decks)
        if progress is not None:
            progress("Opening the database…" if self._store is None else "Syncing the decks…")
        self.sync()

    def _refuse_closed(self) -> None:
        """Raise :class:`recall.errors.StoreError` once :meth:`close` was called."""
        if self._closed:
            from recall.errors import StoreError

            raise StoreError("this workspace is closed: its store is not opened again")

    def sync(self) -> SyncReport:
        """Bring the store in line with the loaded decks, and retire the cards of deck files
        deleted since (a deck that failed to load still has its file and is left alone); what
        was done, the vanished decks' cards among the retired (also kept as :attr:`last_sync`)."""
        store = self.store
        now = self.clock()
        report = store.sync_decks(self.decks, now)
        keep = {deck.id for deck in self.decks}
        vanished = store.retire_vanished_decks(self.folders(), keep=keep, now=now)
        if vanished.retired:
            from dataclasses import replace

            report = replace(report, retired=report.retired + vanished.retired)
        self.last_sync = report
        return report

    @property
    def shared_decks_notice(self) -> str | None:
        """What to tell the learner when the last sync found shared decks on a shared database
        that differ from this recall's built-in decks (:attr:`SyncReport.behind`): a learner's
        login never writes them, so recall uses the database's version; ``None`` when none."""
        behind = self.last_sync.behind if self.last_sync is not None else ()
        return shared_decks_notice(behind) if behind else None

    def reload_deck(self, path: str | Path) -> Deck | None:
        """Re-read one deck file after an edit and sync it; ``None`` (the old cards stay) when
        the file no longer loads (or lies outside the folders decks are loaded from). A file
        that was not loaded as it is (pending, failed, new, or its deck id changed) is read
        with the others by a whole :meth:`reload` instead, so it leaves :attr:`pending` or
        :attr:`failures` and the deck id rule of :func:`recall.cards.loader.load_decks`
        applies to it as to every load."""
        import os
        from dataclasses import replace

        from recall.cards.loader import read_deck
        from recall.grading import check_deck

        self._refuse_closed()
        builtin = Path(path).resolve().is_relative_to(self._builtin_folder().resolve())
        deck, _errors = read_deck(path, builtin=builtin, check=check_deck)
        where = os.path.realpath(path)
        with self._lock:
            view = self._cards.view
            loaded = view.loaded
            held = (
                next(
                    (d for d in loaded.decks if d.id == deck.id and d.path == deck.path),
                    None,
                )
                if loaded is not None and deck is not None
                else None
            )
            if held is None:
                known = loaded is not None and any(
                    os.path.realpath(p) == where
                    for p in (*loaded.pending, *(f.path for f in loaded.failures))
                )
                if deck is None and not known:
                    return None
            else:
                assert loaded is not None and deck is not None
                cards = dict(view.cards)
                cards.update((fresh.key, fresh) for fresh in deck.cards)
                decks = tuple(deck if d is held else d for d in loaded.decks)
                self._publish(replace(loaded, decks=decks), cards)
        if held is None:
            self.reload()  # the file joins the decks, or the failures, as any load would
            return self.deck(deck.id) if deck is not None else None
        assert deck is not None
        self.store.sync_decks([deck], self.clock())
        return deck

    def _builtin_folder(self) -> Path:
        from recall.paths import builtin_decks_dir

        return builtin_decks_dir()

    def write_parse_cache(self) -> int:
        """Write the parsed-deck cache entries held back by ``defer_cache_writes`` (a worker
        may call this); how many were written."""
        return self._cache_writes.write() if self._cache_writes is not None else 0

    def _load_decks(
        self, progress: Progress | None = None, *, defer: bool = False, syncing: bool = False
    ) -> None:
        with self._cache_writes_held():
            self._read_decks(progress, defer=defer, syncing=syncing)

    def _deck_holder(self, syncing: bool) -> Callable[[str], str | None]:
        """Who holds a deck id two files claim (:func:`recall.cards.loader.load_decks`): the
        file its deck came from in this workspace's last load, else (when this load syncs, so
        the store is opened anyway) the file the store last synced the learner's deck from."""

        def holder(deck_id: str) -> str | None:
            loaded = self._loaded
            held = next((d for d in loaded.decks if d.id == deck_id), None) if loaded else None
            if held is not None:
                return held.path
            if syncing and not self._closed:
                return self.store.own_deck_path(deck_id)
            return None

        return holder

    @contextmanager
    def _cache_writes_held(self) -> Iterator[None]:
        """Inside, in this thread, decks parsed afresh wait for :meth:`write_parse_cache`
        (``defer_cache_writes``); without it they are written as they are parsed."""
        if self._cache_writes is None:
            yield
            return
        from recall.cards.parse_cache import writes_deferred

        with writes_deferred(self._cache_writes):
            yield

    def _read_decks(
        self, progress: Progress | None = None, *, defer: bool = False, syncing: bool = False
    ) -> None:
        from recall.cards.loader import (
            DeckFailure,
            LoadResult,
            deck_files,
            deck_id_line,
            load_decks,
        )
        from recall.errors import DeckError

        if progress is not None:
            progress("Loading decks…")

        def files_done(before: int, total: int) -> Callable[[int, int], None] | None:
            if progress is None:
                return None
            return lambda done, _n: progress(f"Loading decks {before + done}/{total}…")

        if self._deck_dirs is not None:
            total = sum(len(deck_files(d)) for d in self._deck_dirs)
            result = load_decks(
                self._deck_dirs,
                check=_engine_checks(),
                progress=files_done(0, total),
                holder=self._deck_holder(syncing),
            )
        else:
            builtin_dir, custom_dir = self.folders()
            first = len(deck_files(builtin_dir)) if progress is not None else 0
            total = first + (len(deck_files(custom_dir)) if progress is not None else 0)
            builtin = load_decks([builtin_dir], progress=files_done(0, total))
            # The engine's checks (and the grading package) only when there are custom decks.
            custom_check = _engine_checks() if deck_files(custom_dir) else None
            custom = load_decks(
                [custom_dir],
                check=custom_check,
                progress=files_done(first, total),
                defer=defer,
                holder=self._deck_holder(syncing),
            )
            taken = {deck.id: deck.path for deck in builtin.decks}
            decks = list(builtin.decks)
            failures = list(builtin.failures) + list(custom.failures)
            for deck in custom.decks:
                if deck.id in taken:
                    error = DeckError(
                        f"deck id '{quote(deck.id)}' is already used by {taken[deck.id]}",
                        path=deck.path,
                        line=deck_id_line(Path(deck.path)),
                        suggestion="give this deck another id",
                    )
                    failures.append(DeckFailure(deck.path, (error,)))
                    continue
                decks.append(deck)
            result = LoadResult(tuple(decks), tuple(failures), custom.pending)
        self._publish(result, {card.key: card for card in result.cards})

    # ------------------------------------------------------------------ the store

    @property
    def store(self) -> Store:
        """The store, opened (created or upgraded) on first use, for :attr:`learner`; on a
        shared database the settings the learner set there apply from then on."""
        if self._store is None:
            self._refuse_closed()
            from recall.store import open_store

            store = open_store(self.db_url, learner=self.learner)
            self._file_settings = self.settings
            try:
                self.settings = self._learner_settings(store)
            except BaseException:
                store.close()
                raise
            self._store = store
        return self._store

    def shared_database(self) -> bool:
        """Whether several learners share the database (PostgreSQL, or more than one learner;
        :meth:`recall.store.learner_settings.LearnerSettings.shared`), asked once."""
        return self._shared_store(self.store)

    def _shared_store(self, store: Store) -> bool:
        if self._shared is None:
            from recall.store.learner_settings import LearnerSettings

            self._shared = LearnerSettings(store).shared()
        return self._shared

    def _learner_settings(self, store: Store) -> Settings:
        """The settings with the values the learner set in a shared database applied over
        them (validated as ``recall config set`` validates them; a value that no longer reads
        is a :class:`recall.errors.ConfigError`, as a bad ``config.toml`` is)."""
        if not self._shared_store(store):
            return self._file_settings
        from recall.config import set_value
        from recall.errors import ConfigError
        from recall.store.learner_settings import LearnerSettings
        from recall.store.models import EXTRA_NEW_KEY

        settings = self._file_settings
        for key, text in LearnerSettings(store).values().items():
            if key == EXTRA_NEW_KEY:
                continue
            try:
                settings = set_value(settings, key, text)
            except ConfigError as error:
                raise ConfigError(f"the database's settings of this learner: {error}") from None
        return settings

    def set_learner_setting(
        self, key: str, text: str | None, *, known_actions: Collection[str] | None = None
    ) -> Settings:
        """Set ``key`` from the text a person typed (``None``: back to ``config.toml``'s) for
        this learner in a shared database, validated first; the settings now in force. Raises
        :class:`recall.errors.ConfigError` for a bad value or a database that is not shared
        (a learner's own settings are ``config.toml``)."""
        from recall.config import set_value
        from recall.errors import ConfigError
        from recall.store.learner_settings import LearnerSettings
        from recall.store.models import EXTRA_NEW_KEY

        if not self.shared_database():
            raise ConfigError("this database is not shared: settings live in config.toml")
        if key == EXTRA_NEW_KEY:
            raise ConfigError(f"unknown setting {quote(key)}")
        if text is not None:
            set_value(self.settings, key, text, known_actions=known_actions)  # validates
        store = self.store
        LearnerSettings(store).set(key, text)
        self.settings = self._learner_settings(store)
        return self.settings

    def today(self, forecast_days: int = FORECAST_DAYS) -> Today:
        """Each deck's own counts, today's plan over every deck, the streak, the reviews done
        today and the forecast of cards falling due."""
        from recall.analytics import current_streak, due_forecast, today_counts
        from recall.scheduling import today_bounds

        now = self.clock()
        rollover = self.settings.day_rollover_hour
        start, _end = today_bounds(now, rollover)
        counts = today_counts(self.store, now, self.settings)
        forecast = due_forecast(self.store, now, rollover, days=max(forecast_days, 2))
        return Today(
            counts=counts.decks,
            plan=self.plan_today(now=now),
            streak_days=current_streak(self.store, now, rollover),
            reviewed_today=len(self.store.review_millis(start)),
            forecast=tuple(n for _day, n in forecast[:forecast_days]),
            extra_new=self.extra_new_today(now),
            exam=tuple(guidance.headers()) if (guidance := self.exam_guidance(now)) else (),
        )

    def plan_today(
        self,
        decks: Collection[str] | None = None,
        topic: str | None = None,
        *,
        now: datetime | None = None,
        more: int = 0,
    ) -> TodayPlan:
        """What a normal session over every deck (or ``decks``, or ``topic``) drills today:
        ``recall today``'s plan, with today's raised limit and the per-deck limits.
        ``more``: as if today's limit were raised by that many more (what a raise would
        unlock, asked before offering one)."""
        from recall.planning import todays_plan

        now = now or self.clock()
        guidance = self.exam_guidance(now)
        return todays_plan(
            self.store,
            self._card_view(),
            self.day_settings(now),
            now,
            extra_today=self.extra_new_today(now) + max(0, more),
            decks=decks,
            topic=topic,
            introduce=guidance.today.new_cards if guidance is not None else None,
        )

    def new_allowance_today(self) -> NewAllowance:
        """What is left of today's new-card limits: the shared one (today's raise included)
        and each deck's own (``[deck_new_limits]``)."""
        from recall.scheduling import today_bounds
        from recall.session.new_cards import new_allowance

        now = self.clock()
        start, _end = today_bounds(now, self.settings.day_rollover_hour)
        allowance, _introduced = new_allowance(
            self.store, self.day_settings(now), start, extra_today=self.extra_new_today(now)
        )
        return allowance

    # ------------------------------------------------------------------ what a scope holds

    def empty_scope(
        self, decks: Sequence[str] | None = None, topic: str | None = None
    ) -> EmptyScope | None:
        """``None`` when a normal session over ``decks`` (or ``topic``, or every deck) has cards
        to drill now; else why not, and what is left (:class:`EmptyScope`).

        The scope's plan is :meth:`plan_today`, the queue the session builds, so "nothing to
        drill" here is the session's own answer, asked before it starts; the TUI's offers and
        any command ask the same question here."""
        decks = decks or None
        today = self.plan_today(decks, topic)
        later = self.learning_later(today, decks, topic)
        if today.queue and not later:
            return None
        usable, reviewed = self.scope_cards(decks, topic)
        allowance = self.new_allowance_today()
        own_spent = [d for d in decks or () if allowance.per_deck.get(d, 1) <= 0]
        shared_spent = allowance.total <= 0
        held_back = 0
        if shared_spent and not own_spent and today.new_waiting:
            # Not ``new_waiting``: some of those wait for a deck's own limit or a sibling
            # buried today, which no raise of the shared limit brings. Plan the scope as if
            # the limit were lifted and count what it would introduce.
            lifted = self.plan_today(decks, topic, more=today.new_waiting)
            held_back = lifted.counts.new
        return EmptyScope(
            plan=today,
            held_back=held_back,
            own_limit=bool(own_spent) and today.new_waiting > 0,
            cards=usable,
            reviewed=reviewed,
            learning_later=later,
        )

    def scope_cards(self, decks: Sequence[str] | None, topic: str | None) -> tuple[int, int]:
        """(cards that can be drilled, of them the ones reviewed before) in ``decks`` (or
        ``topic``, or every deck): whether cram and "weakest" have anything to show."""
        keys = [
            key
            for key, card in self._card_view().items()
            if (not decks or card.deck_id in decks) and (topic is None or card.topic == topic)
        ]
        usable = self._drillable(keys)
        return len(usable), sum(1 for c in usable if not c.state.is_new)

    def missed_last_time(self) -> tuple[int, int] | None:
        """(cards the last finished session missed, of them the ones that can be drilled now):
        whether "missed last time" has anything to show; ``None`` when no session has
        finished."""
        from recall.session.queues import missed_last_time

        keys = missed_last_time(self.store)
        if keys is None:
            return None
        cards = self._card_view()
        return len(keys), len(self._drillable([k for k in keys if k in cards]))

    def learning_later(
        self, today: TodayPlan, decks: Sequence[str] | None, topic: str | None
    ) -> int:
        """When today's plan holds only learning cards and none is due soon enough for a
        session to show it (their steps come later today), how many there are; else 0."""
        from datetime import timedelta

        from recall.session.queues import LEARN_AHEAD

        if not today.queue or any(card.state != "learning" for card in today.queue):
            return 0
        soon = self.clock() + LEARN_AHEAD + timedelta(seconds=1)
        due = self.store.due_cards(soon, limit=1, decks=decks, topic=topic, learning_only=True)
        return 0 if due else len(today.queue)

    def _drillable(self, keys: Sequence[str]) -> list[StoredCard]:
        """The stored cards of ``keys`` that a session may show (neither retired nor
        suspended)."""
        stored = self.store.cards_by_key(keys).values()
        return [c for c in stored if not c.retired and not c.suspended]

    def plan_exam(
        self,
        date_text: str,
        *,
        decks: Collection[str] = (),
        topic: str | None = None,
        minutes: float | None = None,
    ) -> ExamPlan:
        """``recall exam``'s plan to be ready by the date written in ``date_text``
        (``2026-12-24``, ``+14``, ``3w``) for ``decks`` (or ``topic``, or every deck), at
        ``minutes`` a day (default: ``session_minutes``). Nothing is changed.

        Raises :class:`recall.errors.ConfigError` for a date that does not read, one too far
        away, an unknown deck, or nothing to prepare."""
        from recall.errors import ConfigError
        from recall.planning import parse_exam_date
        from recall.scheduling.day import study_date
        from recall.scheduling.exam import MAX_DAYS
        from recall.wording import count_of

        settings = self.settings
        now = self.clock()
        today = study_date(now, settings.day_rollover_hour)
        try:
            exam = parse_exam_date(date_text, today)
        except ValueError as error:
            raise ConfigError(str(error)) from None
        if exam <= today:
            ago = count_of((today - exam).days, "day")
            when = "today" if exam == today else f"{ago} ago (today is {today.isoformat()})"
            raise ConfigError(
                f"the exam date {exam.isoformat()} is {when}: no day is left to plan; "
                "give a day after today, e.g. +14 or 3w"
            )
        if (exam - today).days > MAX_DAYS:
            raise ConfigError(
                f"the exam is more than {MAX_DAYS} days away: the normal schedule prepares for "
                "it (`recall today`)"
            )
        known = {deck.id for deck in self.decks}
        unknown = sorted(set(decks) - known)
        if unknown:
            raise ConfigError(
                f"no deck {', '.join(unknown)}; the decks are: {', '.join(sorted(known))}"
            )
        followed = self._followed_as_asked(exam, decks, topic)
        if followed is None:
            return self._exam_plan(today, exam, decks=decks, topic=topic, minutes=minutes)
        plan = self._exam_plan(
            today,
            exam,
            decks=decks,
            topic=topic,
            minutes=minutes or followed.minutes,
            retention=followed.retention,
            adopted=followed.adopted,
        )
        return self._with_todays_new(plan)

    def _followed_as_asked(
        self, exam: date, decks: Collection[str], topic: str | None
    ) -> FollowedExam | None:
        """The followed exam plan when it is the one asked for (same exam day, decks and
        topic), else ``None``."""
        guidance = self.exam_guidance()
        if guidance is None:
            return None
        followed = guidance.followed
        if (followed.exam, followed.decks, followed.topic) != (exam, tuple(sorted(decks)), topic):
            return None
        return followed

    def _with_todays_new(self, plan: ExamPlan) -> ExamPlan:
        """``plan`` (the followed one) with today's new cards those today's plan introduces.

        The planner, made again from the cards' states now, knows nothing of the day's limit:
        after a session it would plan more new cards for today than the day has left, and before
        it fewer than the day's limit allows when cards of other decks were introduced. Today's
        row is what :meth:`plan_today` (the session's own queue) introduces, so ``recall exam``,
        its dialog, ``recall today`` and the home screen show one count."""
        from dataclasses import replace

        if not plan.days or plan.days[0].day != plan.today:
            return plan
        queue = self.plan_today().queue
        new = tuple(f"{card.deck}/{card.card}" for card in queue if card.state == "new")
        return replace(plan, days=(replace(plan.days[0], new=new), *plan.days[1:]))

    def _exam_plan(
        self,
        today: date,
        exam: date,
        *,
        decks: Collection[str] = (),
        topic: str | None = None,
        minutes: float | None = None,
        retention: float | None = None,
        adopted: date | None = None,
    ) -> ExamPlan:
        """The exam plan from study day ``today`` (see :meth:`plan_exam`); ``retention`` is the
        desired retention it plans for (default: the learner's); ``adopted``: the day a
        followed plan began, whose reviews since count towards it."""
        from dataclasses import replace

        from recall.errors import ConfigError
        from recall.planning import exam_cards, learner_pace
        from recall.scheduling.exam import plan_exam
        from recall.scheduling.exam_baseline import normal_schedule_recall
        from recall.scheduling.exam_simulation import ExamModel

        settings = self.settings
        done = None
        if adopted is not None:
            from recall.planning import reviews_done
            from recall.scheduling.day import day_start

            rollover = settings.day_rollover_hour
            done = reviews_done(self.store, day_start(adopted, rollover), rollover)
        cards = exam_cards(
            self.store,
            self._card_view(),
            decks=decks,
            topic=topic,
            seed=today.toordinal(),
            done=done,
        )
        if not cards:
            raise ConfigError(
                f"no cards to prepare{f' in topic {quote(repr(topic))}' if topic else ''}"
            )
        scheduler = settings.scheduler_settings()
        retention = retention or scheduler.desired_retention
        plan = plan_exam(
            cards,
            today=today,
            exam=exam,
            daily_minutes=minutes or settings.session_minutes,
            pace=learner_pace(self.store),
            parameters=scheduler.parameters,
            desired_retention=retention,
        )
        baseline = normal_schedule_recall(
            cards,
            today=today,
            exam=exam,
            new_per_day=max(0, settings.new_per_day),
            model=ExamModel(scheduler.parameters, scheduler.desired_retention),
        )
        return replace(plan, baseline=baseline)

    # ------------------------------------------------------------------ a followed exam plan

    def follow_exam(
        self,
        date_text: str,
        *,
        decks: Collection[str] = (),
        topic: str | None = None,
        minutes: float | None = None,
    ) -> ExamPlan:
        """Adopt the exam plan for ``date_text`` (see :meth:`plan_exam`): until that day the
        new cards and retention of each day come from it, made again each study day. A plan
        that is not feasible is returned and not followed."""
        from recall.exam_follow import FollowedExam, save_followed
        from recall.planning import cumulative_new

        plan = self.plan_exam(date_text, decks=decks, topic=topic, minutes=minutes)
        if plan.feasible:
            save_followed(
                FollowedExam(
                    exam=plan.exam,
                    adopted=plan.today,
                    retention=self.settings.desired_retention,
                    decks=tuple(sorted(decks)),
                    topic=topic,
                    minutes=minutes,
                    target=cumulative_new(plan),
                ),
                self._exam_file(),
            )
            return self._with_todays_new(plan)
        return plan

    def _exam_file(self) -> Path:
        """Where this learner's followed exam plan is kept: ``exam.json`` in the data
        directory, or one file per learner there when the database is shared (the apps
        ``recall serve`` starts for several learners share one data directory)."""
        from recall.exam_follow import exam_file

        path = exam_file()
        if not self.shared_database():
            return path
        return path.with_name(f"{path.stem}-learner-{self.store.learner_id}{path.suffix}")

    def stop_following_exam(self) -> bool:
        """Back to the normal schedule; whether a plan was followed."""
        from recall.exam_follow import stop_following

        return stop_following(self._exam_file())

    def exam_guidance(self, now: datetime | None = None) -> ExamGuidance | None:
        """Today's guidance from the followed exam plan, or ``None`` when none is followed (or
        its exam day has passed). Worked out once a study day and kept, so every place that
        asks that day hears the same."""
        from recall.exam_follow import load_followed, save_followed
        from recall.planning import ExamGuidance, day_guidance
        from recall.scheduling.day import study_date

        now = now or self.clock()
        today = study_date(now, self.settings.day_rollover_hour)
        followed = load_followed(today, self._exam_file())
        if followed is None:
            return None
        guidance = followed.guidance
        if guidance is None or guidance.day != today:
            plan = self._exam_plan(
                today,
                followed.exam,
                decks=followed.decks,
                topic=followed.topic,
                minutes=followed.minutes,
                retention=followed.retention,
                adopted=followed.adopted,
            )
            guidance = day_guidance(self.store, self.settings, followed, plan, now)
            followed = followed.with_guidance(guidance)
            try:
                save_followed(followed, self._exam_file())
            except RecallError:
                pass  # worked out again next time: the learner loses nothing
        return ExamGuidance(followed, guidance)

    def extra_new_today(self, now: datetime | None = None) -> int:
        """New cards today's limit was raised by ("learn N more today"; 0 on a fresh day)."""
        from recall.extra_new import extra_new
        from recall.scheduling.day import study_date

        day = study_date(now or self.clock(), self.settings.day_rollover_hour)
        if self.shared_database():
            from recall.extra_new import raise_from_text
            from recall.store.learner_settings import LearnerSettings
            from recall.store.models import EXTRA_NEW_KEY

            return raise_from_text(LearnerSettings(self.store).values().get(EXTRA_NEW_KEY), day)
        return extra_new(day)

    def learn_more_today(self, count: int) -> int:
        """Raise today's new-card limit by ``count`` (today only); the day's raise in all.
        Sessions started from now on, and today's plan, introduce that many more."""
        from recall.extra_new import add_extra_new
        from recall.scheduling.day import study_date

        day = study_date(self.clock(), self.settings.day_rollover_hour)
        if self.shared_database():
            from recall.extra_new import raise_from_text, raised_text
            from recall.store.learner_settings import LearnerSettings
            from recall.store.models import EXTRA_NEW_KEY

            raised_text(None, day, count)  # a bad count is refused before the database
            kept = LearnerSettings(self.store).update(
                EXTRA_NEW_KEY, lambda old: raised_text(old, day, count)
            )
            return raise_from_text(kept, day)
        return add_extra_new(day, count)

    def session_settings(self) -> Settings:
        """The settings a session starts with: the learner's, with today's raised new-card
        limit (a session reads ``new_per_day`` for today's allowance)."""
        from dataclasses import replace

        settings = self.day_settings()
        extra = self.extra_new_today()
        if not extra or settings.new_per_day < 0:
            return settings
        return replace(settings, new_per_day=settings.new_per_day + extra)

    def day_settings(self, now: datetime | None = None) -> Settings:
        """The settings today runs on: the learner's, or, while an exam plan is followed, with
        today's new cards (none on its last days, none from decks it does not cover) and its
        retention."""
        guidance = self.exam_guidance(now)
        if guidance is None:
            return self.settings
        return guidance.settings(self.settings, [deck.id for deck in self.decks])

    def stats(self, days: int = 30, forecast_days: int = 30) -> Stats:
        """Review figures over the last ``days`` study days (``recall stats``, the stats
        screen)."""
        from recall.analytics import compute_stats

        return compute_stats(
            self.store,
            days=days,
            now=self.clock(),
            rollover_hour=self.settings.day_rollover_hour,
            forecast_days=forecast_days,
        )

    def bury(self, card_id: int) -> None:
        """Hide a card until the next study day."""
        from recall.scheduling import today_bounds

        _start, tomorrow = today_bounds(self.clock(), self.settings.day_rollover_hour)
        self.store.bury([card_id], tomorrow)

    def suspend(self, card_id: int) -> None:
        """Take a card out of every queue until it is unsuspended."""
        self.store.set_suspended(card_id, True)

    # ------------------------------------------------------------------ sessions

    def unfinished(self, now: datetime | None = None) -> Unfinished | None:
        """A recent session that never ended, nobody is drilling, and that has reviews."""
        # What Session.unfinished asks, without importing the session facade (its queues,
        # recording and summary): the home screen asks this at every start.
        from recall.session.ownership import Owner, latest_resumable

        info = latest_resumable(self.store, now or self.clock(), Owner.this_process())
        if info is None:
            return None
        done = len(self.store.reviews(session_id=info.id))
        return Unfinished(info, done) if done else None

    def start_session(
        self,
        *,
        budget: Budget,
        mode: Mode | str,
        weakest_n: int = 20,
        decks: Collection[str] | None = None,
        topic: str | None = None,
        only: Collection[str] | None = None,
    ) -> Session:
        """Begin a drill session over the workspace's cards (``only``: just these keys)."""
        from recall.session import Session

        cards: Mapping[str, Card] = self._cards
        if only is not None:
            cards = _Only(self._cards, frozenset(only))
        guidance = self.exam_guidance()
        return Session.start(
            self.store,
            cards,
            budget=budget,
            mode=mode,
            weakest_n=weakest_n,
            decks=decks,
            topic=topic,
            settings=self.session_settings(),
            clock=self.clock,
            weakest_first=guidance is not None and guidance.review_only,
            ahead=guidance.today.ahead if guidance is not None and mode == "normal" else (),
            introduce=guidance.today.new_cards if guidance is not None else None,
        )

    def recover_session(self, session_id: int) -> Session | None:
        """Take over an unfinished session; ``None`` when it cannot be (it has ended, or
        another window is drilling it)."""
        from recall.session import Session

        return Session.recover(
            self.store,
            self._cards,
            session_id=session_id,
            settings=self.session_settings(),
            clock=self.clock,
        )

    # ------------------------------------------------------------------ the end

    def close(self) -> None:
        """Close the store (every review is already committed) and write what the parsed-deck
        cache still holds back; safe to call twice. A closed workspace never opens its store
        again: a reload under way (a check worker's) finishes its loading and skips its sync,
        and anything asking for the store afterwards gets a :class:`recall.errors.StoreError`."""
        self._closed = True
        self.write_parse_cache()
        with self._lock:  # a reload holding the store finishes with it first
            if self._store is not None:
                self._store.close()
                self._store = None

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed


def _engine_checks() -> Callable[..., None]:
    """The engine's deck checks (:func:`recall.grading.check_deck`), imported when a deck
    needs them."""
    from recall.grading import check_deck as engine_checks

    return engine_checks


@dataclass(frozen=True)
class _View:
    """What one load or reload made: the load's result and its cards by key. Published whole
    (:meth:`Workspace._publish`) and never changed afterwards."""

    loaded: LoadResult | None
    cards: Mapping[str, Card]


class _CardCache(Mapping[str, "Card"]):
    """The workspace's one card map, read through to the current :class:`_View`: sessions
    hold this object and see a card re-read after an edit, while each reload swaps in a new
    view instead of changing one, so an iteration begun on one view ends on it."""

    def __init__(self) -> None:
        self.view = _View(None, MappingProxyType({}))

    def __getitem__(self, key: str) -> Card:
        return self.view.cards[key]

    def __contains__(self, key: object) -> bool:
        return key in self.view.cards

    def __iter__(self) -> Iterator[str]:
        return iter(self.view.cards)

    def __len__(self) -> int:
        return len(self.view.cards)

    def keys(self) -> KeysView[str]:
        return self.view.cards.keys()

    def values(self) -> ValuesView[Card]:
        return self.view.cards.values()

    def items(self) -> ItemsView[str, Card]:
        return self.view.cards.items()


class _Only(Mapping[str, "Card"]):
    """The cards of ``cache`` whose key is in ``keys``, read through (not a copy), so a session
    over a few chosen cards still sees a card re-read after an edit."""

    def __init__(self, cache: Mapping[str, Card], keys: frozenset[str]) -> None:
        self._cache = cache
        self._keys = keys

    def __getitem__(self, key: str) -> Card:
        if key not in self._keys:
            raise KeyError(key)
        return self._cache[key]

    def __iter__(self) -> Iterator[str]:
        return (key for key in self._cache if key in self._keys)

    def __len__(self) -> int:
        return sum(1 for _ in self)
