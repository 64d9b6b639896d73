"""The recall Textual application: screens, global keys, themes, workers, and shutdown.

Layering follows Harlequin: the app knows only :mod:`recall.tui.services` (the one facade over the
engine, decks, store and session) and the plain views it returns. Anything slow (importing SymPy
and NumPy, opening the database, syncing decks, grading) runs in thread workers that post
messages back; one handler, :meth:`RecallApp.on_worker_state_changed`, reports any worker that
died, so no failure is silent and none takes the app down.

Start-up order matters for speed: the home screen is composed and painted from cheap modules
only; after that first frame the load worker imports the heavy layers and fills the counts in.
"""

from __future__ import annotations

import asyncio
import gc
import signal
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import TYPE_CHECKING, ClassVar, TypeVar

from rich.console import Console
from textual import events, work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.notifications import SeverityLevel
from textual.worker import Worker, WorkerState

from recall.inert import inert
from recall.paths import served_in_browser
from recall.tui import startup_gc
from recall.tui.messages import (
    DataChanged,
    EngineWarm,
    HomeLoaded,
    HomePrefetched,
    LoadFailed,
    WorkerFailed,
)
from recall.tui.type_ahead import TypeAhead
from recall.tui.views import HomeData, SessionPlan

if TYPE_CHECKING:
    from textual.screen import Screen

    from recall.config import Settings
    from recall.tui.services import Services

#: What a dialog opened with :meth:`RecallApp.open_typed_into` gives back.
T = TypeVar("T")

#: Modules whose import is deferred until after the first frame (asserted by a test).
HEAVY_MODULES = ("sympy", "numpy", "sqlalchemy")


class RecallApp(App[int]):
    """Drill formulas with spaced repetition, from the keyboard.

    ``services`` is the facade over the lower layers (tests pass one built on a temporary data
    directory and a fake clock); ``settings`` are the learner's, read once at start (default:
    every default), and ``settings_problem`` says why the file did not read, if it did not;
    ``plan`` opens a drill session straight away (``recall drill``);
    ``after_first_paint`` is called once the home screen has been drawn, ``after_load`` once
    the load worker's data is on it, ``after_warm`` once the engine is imported (the start-up
    benchmark and the import-laziness test hook in there); ``warm_engine=False`` skips the
    engine warm-up.
    """

    CSS_PATH = "recall.tcss"
    TITLE = "recall"
    ENABLE_COMMAND_PALETTE = True
    #: Every action by name, once (loaded when the palette opens); not Textual's system
    #: commands, which would list Quit, Keys and Theme a second time.
    COMMANDS = {lambda: _commands_provider()}

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
        # Ctrl-C quits too (Textual's default only shows a hint): at once outside a session,
        # after asking in the middle of one, at once when pressed again over that question.
        Binding(
            "ctrl+c",
            "interrupt",
            "Quit (asks mid-session; twice quits at once)",
            id="app.interrupt",
            priority=True,
            show=False,
        ),
        Binding("question_mark,f1", "help", "Keys", id="app.help", priority=True),
        Binding("ctrl+t", "toggle_theme", "Theme", id="app.theme", show=False),
        Binding("ctrl+p", "command_palette", "Commands", id="app.palette", show=False),
    ]

    def __init__(
        self,
        services: Services,
        settings: Settings | None = None,
        plan: SessionPlan | None = None,
        *,
        settings_problem: str = "",
        after_first_paint: Callable[[RecallApp], None] | None = None,
        after_load: Callable[[RecallApp], None] | None = None,
        after_warm: Callable[[RecallApp], None] | None = None,
        warm_engine: bool = True,
    ) -> None:
        super().__init__()
        # A crash report is printed after the app, to sys.stderr, which the command line has
        # made inert (recall.inert.inert_output): in colour, its escape codes would come out as
        # visible "␛[31m". Plain, it reads as it is, and what it quotes stays inert.
        self.error_console = Console(markup=False, highlight=False, stderr=True, color_system=None)
        self.services = services
        if settings is None:
            from recall.config import Settings

            settings = Settings()
        self.settings = settings
        self.settings_problem = settings_problem
        self.initial_plan = plan
        self.home_data: HomeData | None = None
        #: The load worker died of an error recall did not foresee (a ``RecallError`` ends the
        #: app instead): the prefetching child's counts are not shown after that.
        self.load_failed = False
        self.first_paint_at: float | None = None
        #: SIGINT arrived before the first frame: exit as soon as it is painted.
        self._interrupted = False
        self.heavy_at_first_paint: tuple[str, ...] = ()
        self._after_first_paint = after_first_paint
        self._after_load = after_load
        self._after_warm = after_warm
        #: Seconds the engine warm-up took, once it has run.
        self.engine_warm_seconds: float | None = None
        self._warm_engine = warm_engine
        self._engine_warm = False
        self._engine_warming = False
        #: The custom decks' deferred checks are running (:meth:`check_decks`).
        self._checking_decks = False
        #: The checks' counts are on their way: write the parsed decks once they are shown.
        self._keep_checked = False
        #: What is left of the start (see :meth:`_start_part_over`).
        self._start_parts = {"warm" if warm_engine else "counts"}
        self._start_lock = threading.Lock()
        self._shutdown_done = False
        #: Ctrl-C was pressed mid-session and its question is queued (see action_interrupt).
        self._quit_question_coming = False
        #: Keys typed while a dialog with a field opens wait for its field (open_typed_into).
        self._type_ahead = TypeAhead(self, super().on_event)
        #: Drawn in a browser by ``recall serve`` (see :mod:`recall.tui.browser`).
        self.served = served_in_browser()
        #: The keys remapped from their defaults: the browser's alternatives, then the
        #: learner's ``[keys]`` (theirs win); the help lists these.
        self.keys_in_force: dict[str, str] = {}
        if self.served:
            from recall.tui.browser import BROWSER_KEYS

            self.keys_in_force.update(BROWSER_KEYS)
        if self.settings.keys:
            from recall.tui.keys import usable_keymap

            keymap, unknown = usable_keymap(self.settings.keys, type(self))
            self.keys_in_force.update(keymap)
            if unknown:  # said with the file's other problems: one notification at start
                note = "Key bindings ignored, their defaults kept: " + "; ".join(unknown)
                self.settings_problem = " ".join(filter(None, [settings_problem, note]))
        if self.keys_in_force:
            self.set_keymap(self.keys_in_force)

    # ------------------------------------------------------------------ keys typed ahead

    async def on_event(self, event: events.Event) -> None:
        if (
            isinstance(event, events.Key)
            and not event.is_forwarded
            and self._type_ahead.take(event)
        ):
            return  # handed over once the dialog opening has its field focused
        await super().on_event(event)

    def open_typed_into(self, screen: Screen[T], callback: Callable[[T | None], None]) -> None:
        """Push a dialog with a field; the keys typed after the key that opened it go to that
        field in order (:mod:`recall.tui.type_ahead`). The opening key must be a priority
        binding, so it runs as the app reads it, before the keys after it are handed out."""
        self.push_screen(screen, callback)
        self._type_ahead.hold(screen)

    # ------------------------------------------------------------------ start-up

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notification of the app and its screens (``Widget.notify`` comes here): the
        message and title made inert and never read as markup, since they often quote what
        recall did not write (an error naming a deck file, a card, a typed answer)."""
        del markup  # no notification of recall's is markup
        super().notify(
            inert(message),
            title=inert(title, one_line=True),
            severity=severity,
            timeout=timeout,
            markup=False,
        )

    def on_mount(self) -> None:
        from recall.tui.screens.home import HomeScreen
        from recall.tui.settings import theme_name

        theme = theme_name(self.settings)
        self.theme = theme if theme in self.available_themes else "textual-dark"
        if self.settings_problem:
            self.notify(self.settings_problem, severity="warning", timeout=8)
        if self.served:
            from recall.tui.browser import NOTICE

            self.notify(NOTICE, title="recall in a browser", timeout=12)
        self.push_screen(HomeScreen())
        self._install_hangup_handler()

    def interrupt(self) -> None:
        """SIGINT while the app runs (Ctrl-C before the app has the terminal, where it is a
        signal and not a key): exit with status 130, once the first screen is built. Exiting
        while the home screen was still being composed left its ``on_mount`` to fail on a
        missing widget, and Textual printed that traceback. A second SIGINT exits at once, so
        a first screen that never paints cannot hold the process."""
        if self.first_paint_at is None and not self._interrupted:
            self._interrupted = True
        else:
            self.exit(None, 130)

    def first_frame_painted(self) -> None:
        """Called by the home screen after its first refresh: now do the slow work."""
        if self.first_paint_at is not None:
            return
        self.first_paint_at = time.perf_counter()
        if self._interrupted:
            self.exit(None, 130)
            return
        self.heavy_at_first_paint = tuple(m for m in HEAVY_MODULES if m in sys.modules)
        if self._after_first_paint is not None:
            self._after_first_paint(self)
        self.load_home()

    @work(thread=True, exclusive=True, exit_on_error=False, group="load")
    def load_home(self) -> None:
        """Open the store, sync the decks and count what is due (a worker).

        The engine is warmed afterwards, in its own worker, once the counts (or the first
        prompt of ``recall drill``) are on screen: see :meth:`on_home_loaded`. At the first
        load of a start from the command line, the counts a child process computes meanwhile
        are shown if they come first (:meth:`_show_prefetched`, :mod:`recall.tui.home_prefetch`).
        """
        from recall.errors import RecallError

        if self.services.prefetch is not None and self.home_data is None:
            threading.Thread(target=self._show_prefetched, daemon=True).start()
        try:
            data = self.services.load()
        except RecallError as error:
            self.post_message(LoadFailed(str(error)))
            return
        self.post_message(HomeLoaded(data))

    def _show_prefetched(self) -> None:
        """Wait for the prefetching child's counts (a thread of its own: the wait holds no
        lock) and show them, unless the app's own load is in first. The app's load is not
        held back for them: it runs as without the child, beside it (two recall processes
        opening one database, as two windows do), so the child can bring the counts sooner
        but never the app's own load later than its CPU allows."""
        early = self.services.prefetched()
        if early is not None:
            self.post_message(HomePrefetched(early))

    @work(thread=True, exclusive=True, exit_on_error=False, group="check")
    def check_decks(self) -> None:
        """Check the custom decks the load left for later (new or edited since the last start,
        see :meth:`recall.tui.services.Services.check_pending`), then show the counts with
        their cards; once they are on screen, :meth:`keep_checked_decks` writes what was
        parsed for the next start (a worker)."""
        from recall.errors import RecallError

        data: HomeData | None = None
        try:
            data = self.services.check_pending()
        except RecallError as error:
            self.post_message(LoadFailed(str(error)))
        finally:
            self._checking_decks = False
            if data is None:
                self._start_part_over("check")
            else:
                self._keep_checked = True
                self.post_message(HomeLoaded(data))

    @work(thread=True, exclusive=True, exit_on_error=False, group="keep")
    def keep_checked_decks(self) -> None:
        """Write the decks the checks parsed into the parsed-deck cache (a worker, after their
        counts are drawn: encoding and verifying 20,000 cards takes a second, and begun at
        once it held the interpreter's lock while the counts were laid out). Still within the
        start's collector thresholds; the start's check part ends here."""
        try:
            self.services.write_parse_cache()
        finally:
            self._start_part_over("check")

    def _warm_after_paint(self) -> None:
        """Start the engine warm-up after the next frame. Importing SymPy holds the
        interpreter's lock for a third of a second; begun while the counts or the first prompt
        are still being laid out, it delays them by as much. The learner then reads the
        screen, and the first preview or grade waits for an import still running (Python's
        import lock), so nothing is graded without the engine."""
        if self._warm_engine and not self._engine_warm and not self._engine_warming:
            self._engine_warming = True
            self.call_after_refresh(self.warm_engine)

    @work(thread=True, exclusive=True, exit_on_error=False, group="warm")
    def warm_engine(self) -> None:
        """Import SymPy and NumPy and read one expression end to end, so the first preview
        and grading do not pay for the import."""
        started = time.perf_counter()
        self.services.warm()
        self._start_part_over("warm")
        self._engine_warm = True
        self.post_message(EngineWarm(time.perf_counter() - started))

    def _start_part_over(self, part: str) -> None:
        """One part of the start is over (from its thread): the engine warm-up (``"warm"``;
        without one, the first counts: ``"counts"``) or the custom decks' deferred checks
        (``"check"``). When the last is, the start is: the collector's usual rhythm again
        (:mod:`recall.tui.startup_gc`). Checking 20,000 custom cards makes a few million
        objects, and under the usual thresholds full collections took a tenth of that work.

        After a warm-up or the checks, SymPy, the decks and the store leave a few hundred
        thousand long-lived objects; moving them out of the collector's reach first stops full
        collections (tens of ms each) from landing between Enter and the verdict."""
        with self._start_lock:
            self._start_parts.discard(part)
            over = not self._start_parts
        if not over:
            return
        if part != "counts":
            gc.collect()
            gc.freeze()
        startup_gc.restore()

    def refresh_home(self) -> None:
        """Recount after a session or an edit (a worker: counts are SQL)."""
        self.load_home()

    def on_home_loaded(self, message: HomeLoaded) -> None:
        self.home_data = message.data
        from recall.tui.screens.home import HomeScreen

        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen):
                screen.show_data(message.data)
        if self._after_load is not None:
            self._after_load(self)
        if self._keep_checked:  # the checked decks' counts: now keep what was parsed
            self._keep_checked = False
            self.call_after_refresh(self.keep_checked_decks)
        if message.data.checking and not self._checking_decks:
            self._checking_decks = True
            with self._start_lock:
                self._start_parts.add("check")
            self.call_after_refresh(self.check_decks)
        if not self._warm_engine:  # no warm-up to end the start: it ends with the counts
            self._start_part_over("counts")
        if self.initial_plan is not None:  # ``recall drill``: checked as the home keys are
            plan, self.initial_plan = self.initial_plan, None
            home = next((s for s in self.screen_stack if isinstance(s, HomeScreen)), None)
            if home is not None:
                home.start_checked(plan, counts=message.data)
            else:
                self.start_session(plan)
        self._warm_after_paint()

    def on_home_prefetched(self, message: HomePrefetched) -> None:
        """The child's counts: shown on the home screen until this process's own load replaces
        them; nothing acts on them (:attr:`home_data` stays unset until then)."""
        from recall.tui.screens.home import HomeScreen

        if self.home_data is not None or self.load_failed:
            return  # the app's own counts came first, or its load failed: that is what shows
        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen):
                screen.show_data(message.data, early=True)

    def on_data_changed(self, message: DataChanged) -> None:
        """A screen changed what the home screen counts: it recounts when shown again."""
        from recall.tui.screens.home import HomeScreen

        self.log.debug(f"data changed: {message.what}")
        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen):
                screen.mark_stale()

    def on_engine_warm(self, message: EngineWarm) -> None:
        self.engine_warm_seconds = message.seconds
        if self._after_warm is not None:
            self._after_warm(self)

    def on_load_failed(self, message: LoadFailed) -> None:
        """Without its database recall can do nothing useful: leave at once, saying why, with a
        non-zero status (a wrong ``--db`` must not look like success)."""
        self.exit(return_code=2, message=f"recall: {message.message}")

    # ------------------------------------------------------------------ the one error handler

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Workers the app itself started (the load worker) report here."""
        if event.state is WorkerState.ERROR:
            self.report_worker_failure(event.worker)
            if event.worker.group == "load":
                self._home_load_failed(event.worker.error)

    def _home_load_failed(self, error: BaseException | None) -> None:
        """The load worker died of an error that is not a ``RecallError`` (those end the app,
        :meth:`on_load_failed`): the home screen says so in place of its counts and drops the
        keys that waited for them, and counts from the prefetching child, which look ready
        but that nothing could act on, are taken back and not shown again."""
        from recall.tui.screens.home import HomeScreen

        self.load_failed = True
        said = f"{type(error).__name__}: {error}" if error is not None else "the load failed"
        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen):
                screen.show_failure(said)

    def report_worker_failure(self, worker: Worker[object]) -> None:
        """The one place a dead worker is reported (every worker runs ``exit_on_error=False``).

        Screens forward their own workers' failures here (see
        :class:`recall.tui.screens.base.RecallScreen`); the owner is then told with
        :class:`WorkerFailed` so it can put its widgets back into a usable state.
        """
        error = worker.error
        self.log.error(f"worker {worker.name!r} failed: {error!r}")
        self.notify(
            f"{type(error).__name__}: {error}" if error else "A background task failed.",
            title=f"{worker.group or worker.name} failed",
            severity="error",
            timeout=10,
        )
        owner = worker.node
        if owner is not self:
            owner.post_message(WorkerFailed(worker.group, error))

    # ------------------------------------------------------------------ navigation

    def start_session(self, plan: SessionPlan, *, replace: bool = False) -> None:
        """Open a drill session for ``plan`` (the session itself is built by the drill screen),
        over the screen in front (``replace``: instead of it, as "drill the missed ones again"
        does from the summary)."""
        from recall.tui.screens.drill import DrillScreen

        if replace:
            self.switch_screen(DrillScreen(plan))
        else:
            self.push_screen(DrillScreen(plan))

    def action_help(self) -> None:
        from recall.tui.keys import keys_table
        from recall.tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss()
            return
        self.push_screen(
            HelpScreen(keys_table(self.keys_in_force, type(self), browser=self.served), self.screen)
        )

    def action_toggle_theme(self) -> None:
        """Switch between the light and dark looks, and keep the choice for the next start."""
        from recall.tui.settings import save_theme

        self.theme = "textual-light" if self.current_theme.dark else "textual-dark"
        problem = save_theme(self.current_theme.dark)
        if problem:
            self.notify(problem, title="The theme was not saved", severity="warning", timeout=6)

    def action_interrupt(self) -> None:
        """Ctrl-C: quit, but ask first while a session is being drilled (its reviews stay
        saved either way). Ctrl-C over that question quits at once, so a learner who means it
        presses twice; Ctrl-Q never asks. The app is always quittable."""
        from recall.tui.screens.dialogs import ConfirmDialog
        from recall.tui.screens.drill import DrillScreen

        if isinstance(self.screen, ConfirmDialog) and self.screen.purpose == "quit":
            self._quit_now()
            return
        if self._quit_question_coming:
            self._quit_now()  # pressed twice before the question could be drawn
            return
        drilling = [s for s in self.screen_stack if isinstance(s, DrillScreen) and s.in_progress]
        if not drilling or drilling[-1].run is None:
            self._quit_now()
            return
        # Not pushed at once: an Enter typed just before Ctrl-C may still wait in the answer
        # box's queue, and a key is read by the screen on top when it is handled, so the
        # question would take that Enter as "go back" and the answer would never be graded.
        # Queued behind it, the question comes after the answer is sent (its verdict arrives
        # under the question).
        self._quit_question_coming = True
        (self.focused or self.screen).call_later(self._ask_to_quit)

    def _ask_to_quit(self) -> None:
        from recall.tui.screens.dialogs import ConfirmDialog
        from recall.tui.screens.drill import DrillScreen

        self._quit_question_coming = False
        drilling = [s for s in self.screen_stack if isinstance(s, DrillScreen) and s.in_progress]
        run = drilling[-1].run if drilling else None
        if run is None:
            self._quit_now()  # the key before it ended the session: nothing to ask about
            return
        question = ConfirmDialog.quit_mid_session(run.reviewed(), drilling[-1]._has_pending())
        self.push_screen(question, self._after_quit_asked)

    def _after_quit_asked(self, yes: bool | None) -> None:
        if yes:
            self._quit_now()

    def _quit_now(self) -> None:
        self.shutdown()
        self.exit(0)

    async def action_quit(self) -> None:
        """Leave: anything graded but not yet rated is recorded first, then the store closes."""
        self.shutdown()
        self.exit(0)

    # ------------------------------------------------------------------ shutdown

    def shutdown(self) -> None:
        """Save what is pending, let go of an unfinished session (the next window offers to
        resume it) and close the store; safe to call more than once."""
        if self._shutdown_done:
            return
        self._shutdown_done = True
        from recall.errors import RecallError
        from recall.tui.screens.drill import DrillScreen

        for screen in self.screen_stack:
            if isinstance(screen, DrillScreen):
                screen.save_pending()
                try:
                    screen.let_go()
                except RecallError as error:  # the store went away; a dead owner is offered too
                    self.log.error(f"could not let go of the session: {error}")
        self.services.close()

    def on_unmount(self) -> None:
        self.shutdown()

    def _install_hangup_handler(self) -> None:
        """Closing the terminal sends SIGHUP (SIGTERM from some managers): exit as if asked."""
        if sys.platform == "win32":
            return
        try:
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGHUP, signal.SIGTERM):
                loop.add_signal_handler(sig, self._exit_on_signal)
        except (NotImplementedError, RuntimeError, ValueError):
            pass  # not the main thread (tests run the app inside pytest's loop)
        self._resume_only_after_suspend()

    def _resume_only_after_suspend(self) -> None:
        """Textual's driver restarts the terminal on *every* SIGCONT, even one after no Ctrl-Z:
        a closing terminal sends SIGCONT with SIGHUP, and a restart once quitting has begun
        starts a second input thread that nobody stops, so the process never ends (spinning on
        the dead terminal). Pass SIGCONT on only after a suspension, and never once shut down."""
        on_suspend, on_resume = signal.getsignal(signal.SIGTSTP), signal.getsignal(signal.SIGCONT)
        if not (callable(on_suspend) and callable(on_resume)):
            return  # a headless driver (tests) installs none
        suspended = threading.Event()

        def suspend(signum: int, frame: FrameType | None) -> None:
            suspended.set()
            on_suspend(signum, frame)

        def resume(signum: int, frame: FrameType | None) -> None:
            if suspended.is_set() and not self._shutdown_done:
                suspended.clear()
                on_resume(signum, frame)

        try:
            signal.signal(signal.SIGTSTP, suspend)
            signal.signal(signal.SIGCONT, resume)
        except ValueError:
            pass  # not the main thread

    def _exit_on_signal(self) -> None:
        self.shutdown()
        self.exit(0)


def _commands_provider() -> type:
    from recall.tui.commands import RecallCommands

    return RecallCommands


if TYPE_CHECKING:
    from recall.tui.screens.base import RecallAppApi

    def _gives_the_screens_what_they_use(app: RecallApp) -> RecallAppApi:
        return app  # checked by mypy: the screens reach the app only through this protocol
