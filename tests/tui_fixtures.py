"""Helpers for the TUI tests: a fake clock, isolated data directories, small decks, and an
in-memory stand-in for the services facade.

``FakeServices`` exists for the few tests about the screens' own behaviour that must not depend
on the lower layers (a worker that dies, a grader that is slow): it implements the same methods
as :class:`recall.tui.services.Services` over a list of cards, and it is never used by the app
itself. Flows that matter (sessions, undo, cram, broken decks) run on the real services.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from recall.tui.views import (
    CardView,
    DeckRow,
    FeedbackView,
    HomeData,
    PreviewView,
    Rating,
    SessionPlan,
    StatsView,
    SummaryView,
)
from recall.verdicts import Status

#: A fixed moment every test clock starts from (a Tuesday, in UTC).
EPOCH = datetime(2025, 3, 4, 9, 0, tzinfo=UTC)


class FakeClock:
    """A clock tests move by hand: ``clock()`` is now, ``clock.advance(seconds)`` moves it."""

    def __init__(self, start: datetime = EPOCH) -> None:
        self.now = start
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        with self._lock:
            return self.now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now = self.now + timedelta(seconds=seconds)


SMALL_DECK = """\
[deck]
id = "tiny"
name = "Tiny"
topic = "Testing"
description = "Three cards for the TUI tests."

[[card]]
id = "square"
kind = "formula"
prompt = "The square of x."
answer = "x^2"
hint = "Multiply x by itself."
symbols = { x = { domain = "real", meaning = "any number" } }

[[card]]
id = "double"
kind = "formula"
prompt = "Twice y."
answer = "2*y"
symbols = { y = { domain = "real", meaning = "any number" } }

[[card]]
id = "answer"
kind = "fact"
prompt = "The answer to everything?"
value = 42
tolerance = { exact = true }
"""

BROKEN_DECK = """\
[deck]
id = "broken"
name = "Broken"

[[card]]
id = "oops"
kind = "formula"
prompt = "This card has no answer."
"""


EXPLAIN_DECK = """\
[deck]
id = "talk"
name = "Talk"
topic = "Testing"

[[card]]
id = "why-ce"
kind = "explain"
prompt = "Why is cross-entropy the classification loss?"
model_answer = "It is the negative log-likelihood of the right class."
numbers = ["H(p,q) = H(p) + KL(p||q)"]
"""


def write_deck(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------- fake facade


@dataclass
class FakeCard:
    view: CardView
    answer: str


@dataclass
class FakeRun:
    """A session over a list of cards with a budget in cards; grading compares text."""

    plan: SessionPlan
    cards: list[FakeCard]
    grade_delay: threading.Event | None = None
    fail_grading: bool = False
    recorded: list[tuple[str, Rating]] = field(default_factory=list)
    _index: int = 0
    _paused: bool = False

    def next_card(self) -> CardView | None:
        if self._index >= len(self.cards):
            return None
        return self.cards[self._index].view

    def preview(self, card: CardView, text: str) -> PreviewView:
        if "(" in text and ")" not in text:
            return PreviewView(text, ok=False, message="missing ')'", column=len(text))
        return PreviewView(text, ok=True, rendered=f"⟨{text}⟩")

    def grade(self, card: CardView, text: str, hinted: bool = False) -> FeedbackView:
        if self.grade_delay is not None:
            self.grade_delay.wait(5)
        if self.fail_grading:
            raise RuntimeError("grader exploded")
        expected = next(c.answer for c in self.cards if c.view.key == card.key)
        if "(" in text and ")" not in text:
            return FeedbackView(
                Status.INVALID, text, "Can't read that", "missing ')'", error_column=len(text)
            )
        ok = text.replace(" ", "") == expected
        return FeedbackView(
            Status.CORRECT if ok else Status.INCORRECT,
            text,
            "Correct" if ok else "Not quite",
            reference=expected,
            suggested=(Rating.Hard if hinted else Rating.Good) if ok else Rating.Again,
        )

    def record(
        self, card: CardView, rating: Rating, feedback: FeedbackView | None, hinted: bool = False
    ) -> None:
        self.recorded.append((card.key, rating))
        self._index += 1

    def undo(self) -> CardView | None:
        if not self.recorded:
            return None
        self.recorded.pop()
        self._index -= 1
        return self.cards[self._index].view

    def skip(self) -> None:
        self.cards.append(self.cards.pop(self._index))

    bury = suspend = skip

    def reload(self, card: CardView) -> CardView | None:
        return card

    def pause(self, reason: str = "pause") -> None:
        self._paused = True

    def resume(self, reason: str = "pause") -> None:
        self._paused = False

    def paused(self) -> bool:
        return self._paused

    def time_up(self) -> bool:
        return False

    def mark_hint(self) -> None:
        pass

    def mark_answered(self) -> None:
        pass  # no clock: the fake's summary has no times

    def ask_again(self) -> None:
        pass

    def hinted(self) -> bool:
        return False

    def seconds_left(self) -> float | None:
        return None

    def cards_left(self) -> int | None:
        return len(self.cards) - self._index

    def budget_spent(self) -> bool:
        return False

    def reviewed(self) -> int:
        return len(self.recorded)

    def finish(self) -> SummaryView:
        right = sum(1 for _, r in self.recorded if r is not Rating.Again)
        return SummaryView(
            reviews=len(self.recorded), first_try_correct=right, first_try_total=len(self.recorded)
        )


class FakeServices:
    """The facade's methods over two in-memory formula cards."""

    def __init__(self) -> None:
        self.closed = False
        self.runs: list[FakeRun] = []
        self.grade_delay: threading.Event | None = None
        self.fail_grading = False
        #: No prefetching child, as in every start that is not the command line's.
        self.prefetch = None

    def prefetched(self) -> HomeData | None:
        return None

    def _cards(self) -> list[FakeCard]:
        base = CardView(
            key="t/a",
            deck_id="t",
            card_id="a",
            kind="formula",
            prompt="Type x squared.",
            symbols=(("x", "real"),),
            hint="x times x",
        )
        return [
            FakeCard(base, "x^2"),
            FakeCard(replace(base, key="t/b", card_id="b", prompt="Type 2y."), "2y"),
        ]

    def warm(self) -> None:
        pass

    def load(self) -> HomeData:
        deck = DeckRow(id="t", name="Test", topic="Testing", builtin=True, cards=2, new=2)
        return HomeData(decks=(deck,))

    def empty_offer(self, plan: SessionPlan) -> None:
        """Both cards are new today: no session here is empty."""
        return None

    def begin(self, plan: SessionPlan) -> FakeRun:
        run = FakeRun(plan, self._cards(), self.grade_delay, self.fail_grading)
        self.runs.append(run)
        return run

    def stats(self) -> StatsView:
        return StatsView()

    def cards(self, deck_id: str | None, search: str = "") -> tuple[CardView, ...]:
        return tuple(c.view for c in self._cards())

    def reference(self, card: CardView) -> str:
        return ""

    def close(self) -> None:
        self.closed = True


def screen_text(app: object) -> str:
    """What the terminal shows right now, as plain text lines (for assertions and debugging)."""
    update = app.screen._compositor.render_full_update()  # type: ignore[attr-defined]
    lines = []
    for chops in update.strips:
        lines.append("".join(strip.text for strip in chops).rstrip())
    return "\n".join(lines)


# ---------------------------------------------------------------------------- app harness


def isolate(monkeypatch: object, tmp_path: Path) -> Path:
    """Point every recall path at ``tmp_path`` (RECALL_HOME) and drop outside overrides."""
    monkeypatch.setenv("RECALL_HOME", str(tmp_path / "home"))  # type: ignore[attr-defined]
    monkeypatch.delenv("RECALL_DB", raising=False)  # type: ignore[attr-defined]
    monkeypatch.delenv("RECALL_DECKS", raising=False)  # type: ignore[attr-defined]
    monkeypatch.delenv("RECALL_THEME", raising=False)  # type: ignore[attr-defined]
    return tmp_path / "home"


def real_services(
    tmp_path: Path, clock: FakeClock, *, broken: bool = False, only: dict[str, str] | None = None
) -> object:
    """The real facade on a fresh database, over the small test deck (and a broken one), or
    over ``only`` (file name → deck text)."""
    from recall.tui.services import Services

    decks = tmp_path / "decks"
    for name, text in (only or {"tiny.toml": SMALL_DECK}).items():
        write_deck(decks, name, text)
    if broken:
        write_deck(decks, "broken.toml", BROKEN_DECK)
    return Services(clock=clock, deck_dirs=[decks])


async def settle(app: object, pilot: object) -> None:
    """Wait until every worker has finished and the screen has caught up with the messages."""
    import asyncio

    for _ in range(3):
        await asyncio.wait_for(app.workers.wait_for_complete(), timeout=60)  # type: ignore[attr-defined]
        await pilot.pause()  # type: ignore[attr-defined]


async def type_text(pilot: object, text: str) -> None:
    """Press each character of ``text`` (spaces included)."""
    keys = ["space" if c == " " else c for c in text]
    await pilot.press(*keys)  # type: ignore[attr-defined]


def static_text(widget: object, width: int = 100) -> str:
    """The plain text of a ``Static``'s content (visible on screen or not)."""
    from rich.console import Console

    console = Console(width=width, record=True, color_system=None)
    console.print(widget.content)  # type: ignore[attr-defined]
    return console.export_text()
