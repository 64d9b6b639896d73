"""Learners A and B drilling through the product, in one database or each alone (issue 22).

Shared by the product-level tests of several learners (imported, not a conftest): the decks (two
built-in decks every learner shares, and each learner's own custom deck ``mine``, the same id
for both), a frozen clock every layer reads, the scripted history (A and B drill the same cards
at the same moments with opposite answers), and every read the product has, taken through the
workspace and the commands' own functions as a learner would meet them.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from recall.scheduling import Rating
from recall.store import open_store
from recall.store.engine import make_engine, parse_url
from recall.workspace import Workspace

T0 = datetime(2025, 5, 5, 9, 0, tzinfo=UTC)
#: When the reads are taken: later on the script's last day (its session still resumable).
READ_AT = T0 + timedelta(days=3, hours=6)

BUILTIN_DECKS = {
    "losses": [
        ("mse", "squared error", "x^2"),
        ("mae", "twice x", "2*x"),
        ("ce", "x plus one", "x+1"),
        ("hinge", "x cubed", "x^3"),
    ],
    "optim": [("sgd", "three x", "3*x"), ("adam", "x minus one", "x-1")],
}
#: Each learner's own deck ``mine``: the same id, other cards.
CUSTOM_DECKS = {
    "A": [("one", "half x", "x/2"), ("two", "four x", "4*x")],
    "B": [("three", "x plus two", "x+2")],
}
#: A's ratings in turn; B answers the opposite at the same moment.
RATINGS = [
    Rating.Good,
    Rating.Again,
    Rating.Easy,
    Rating.Hard,
    Rating.Good,
    Rating.Good,
    Rating.Again,
]
OPPOSITE = {
    Rating.Again: Rating.Good,
    Rating.Good: Rating.Again,
    Rating.Hard: Rating.Easy,
    Rating.Easy: Rating.Hard,
}
#: Study days of the script (days after T0) and cards drilled each day.
DAYS = (0, 1, 3)
CARDS_PER_DAY = 5


def deck_toml(deck: str, cards: list[tuple[str, str, str]]) -> str:
    lines = [f'[deck]\nid = "{deck}"\nname = "{deck.title()}"\n']
    for card, prompt, answer in cards:
        lines.append(
            f'[[card]]\nid = "{card}"\nkind = "formula"\nprompt = "{prompt}"\n'
            f'answer = "{answer}"\nsymbols = {{ x = "real" }}\n'
        )
    return "\n".join(lines)


class FrozenClock:
    """The one time every layer reads (the workspace, sessions, the store, the memory model)."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@dataclass
class Learner:
    """One learner of one world: the database, their id there, their data directory and
    custom decks, and whether they answer as B (the opposite of A)."""

    name: str
    url: str
    learner_id: int
    home: Path
    decks: Path
    flip: bool

    def workspace(self, clock: FrozenClock) -> Workspace:
        return Workspace.open(
            db_url=self.url, custom_decks=self.decks, clock=clock, learner=self.learner_id
        )


@pytest.fixture(scope="session")
def worlds_parse_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One deck parse cache for every test of several learners: each deck file (the same
    bytes in every world) is checked by the formula engine once in a run."""
    return tmp_path_factory.mktemp("learner-worlds-parse-cache")


@pytest.fixture
def worlds_setup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, worlds_parse_cache: Path
) -> FrozenClock:
    """Built-in decks of our own, a frozen clock everywhere, FSRS's fuzz at its middle."""
    import recall.memory.model
    import recall.session.session
    import recall.store.memory
    import recall.store.store
    import recall.workspace

    builtin = tmp_path / "builtin"
    builtin.mkdir()
    for deck, cards in BUILTIN_DECKS.items():
        (builtin / f"{deck}.toml").write_text(deck_toml(deck, cards), encoding="utf-8")
    monkeypatch.setattr("recall.paths.builtin_decks_dir", lambda: builtin)
    monkeypatch.setattr("recall.cards.parse_cache.cache_dir", lambda: worlds_parse_cache)
    clock = FrozenClock()
    for module in (
        recall.workspace,
        recall.session.session,
        recall.store.store,
        recall.store.memory,
        recall.memory.model,
    ):
        monkeypatch.setattr(module, "utc_now", clock)
    monkeypatch.setattr("fsrs.scheduler.random", lambda: 0.5)
    return clock


def make_learner(tmp_path: Path, world: str, name: str, url: str, learner_id: int) -> Learner:
    home = tmp_path / f"home-{world}"
    decks = tmp_path / f"decks-{world}-{name}"
    decks.mkdir(parents=True)
    home.mkdir(exist_ok=True)
    (decks / "mine.toml").write_text(deck_toml("mine", CUSTOM_DECKS[name]), encoding="utf-8")
    return Learner(name, url, learner_id, home, decks, flip=name == "B")


def add_learner(url: str, learner_id: int, name: str) -> None:
    """A learner row (``recall learners add`` is another engineer's command)."""
    open_store(url).close()
    engine = make_engine(parse_url(url))
    with engine.begin() as conn:
        conn.execute(
            text("INSERT INTO learners (id, name, created_at) VALUES (:id, :name, 0)"),
            {"id": learner_id, "name": name},
        )
    engine.dispose()


@contextmanager
def at_home(learner: Learner, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The learner's data directory (config, today's raise on their own database)."""
    with monkeypatch.context() as patch:
        patch.setenv("RECALL_HOME", str(learner.home))
        yield


def rating_for(learner: Learner, turn: int) -> Rating:
    rating = RATINGS[turn % len(RATINGS)]
    return OPPOSITE[rating] if learner.flip else rating


def import_file(learner: Learner, tmp_path: Path) -> Path:
    """A review-log CSV of reviews made elsewhere on built-in cards, the learner's own."""
    path = tmp_path / f"imported-{learner.name}-{learner.url.rsplit('/', 1)[-1]}.csv"
    with path.open("w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream)
        writer.writerow(["card_id", "review_time", "review_rating"])
        for day in range(4):
            rating = 1 + (day + (2 if learner.flip else 0)) % 4
            when = T0 - timedelta(days=30 - 5 * day)
            writer.writerow(["losses/hinge", int(when.timestamp() * 1000), rating])
    return path


def command(learner: Learner, *argv: str) -> str:
    """A command's own function run for ``learner`` (``args.learner_id`` chooses them, as the
    command line's learner option does); its standard output."""
    from recall.cli import build_parser

    args = build_parser().parse_args(["--db", learner.url, "--decks", str(learner.decks), *argv])
    args.learner_id = learner.learner_id
    out = io.StringIO()
    with redirect_stdout(out):
        status = args.func(args)
    assert status in (0, None), out.getvalue()
    return out.getvalue()


def drill_script(
    together: list[Learner], clock: FrozenClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The scripted history, the learners of ``together`` turn about at each moment: a session
    a study day, each card answered (A by :data:`RATINGS`, B the opposite), a raise of the day's
    limit, an import; on the last day a bury, a suspension, an undo, and the session left
    unfinished (to be resumed)."""
    from recall.session import Budget

    workspaces = {}
    for learner in together:
        with at_home(learner, monkeypatch):
            clock.now = T0
            workspaces[learner.name] = learner.workspace(clock)
    turn = 0
    for day in DAYS:
        clock.now = T0 + timedelta(days=day)
        sessions = {}
        for learner in together:
            with at_home(learner, monkeypatch):
                workspace = workspaces[learner.name]
                if day == DAYS[-1]:
                    workspace.learn_more_today(2 if learner.flip else 1)
                sessions[learner.name] = workspace.start_session(
                    budget=Budget.cards(CARDS_PER_DAY), mode="normal"
                )
        for _step in range(CARDS_PER_DAY):
            clock.now += timedelta(seconds=20)
            for learner in together:  # at the same moment, the same card or not
                with at_home(learner, monkeypatch):
                    session = sessions[learner.name]
                    card = session.next_card()
                    if card is None:
                        continue
                    rating = rating_for(learner, turn)
                    session.record(
                        verdict="incorrect" if rating == Rating.Again else "correct",
                        rating=rating,
                        seconds=12,
                        answer=f"{card.key} as {learner.name}",
                    )
            turn += 1
        for learner in together:
            with at_home(learner, monkeypatch):
                session = sessions[learner.name]
                workspace = workspaces[learner.name]
                if day != DAYS[-1]:
                    session.end()
                    continue
                session.undo()
                cards = workspace.store.cards_by_key()
                workspace.bury(cards["optim/sgd" if learner.flip else "optim/adam"].db_id)
                workspace.suspend(cards["mine/three" if learner.flip else "mine/two"].db_id)
                session.release()  # left unfinished: the next start offers to resume it
                command(learner, "reviews", "import", str(import_file(learner, tmp_path)))
    for workspace in workspaces.values():
        workspace.close()


def plain(value: Any) -> Any:
    """A read as plain data with the database's own row ids left out (a shared database gives
    B's rows their own turns in every id sequence)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: plain(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if f.name not in ("id", "db_id", "session_id", "card_db_id")
        }
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def reads(learner: Learner, clock: FrozenClock, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Every read the product has, for ``learner`` at :data:`READ_AT`, the last few writing:
    the resumed session's next card, its review and undo, and an optimizer run."""
    from recall.memory import model as memory_model

    clock.now = READ_AT
    found: dict[str, Any] = {}
    with at_home(learner, monkeypatch):
        workspace = learner.workspace(clock)
        try:
            store = workspace.store
            found["due queue"] = [c.key for c in store.due_cards(READ_AT, limit=50)]
            found["new queue"] = [c.key for c in store.new_cards(limit=50)]
            found["cards"] = plain(store.cards_by_key())
            today = workspace.today()
            found["home counts"] = plain(dict(today.counts))
            found["home"] = plain(dataclasses.replace(today, counts={}))
            found["plan today"] = today.plan.to_dict()
            found["extra new"] = workspace.extra_new_today()
            found["decks"] = plain(store.deck_sizes())
            history = memory_model.load_history(store, workspace.settings)
            found["optimizer input"] = [
                (card.card, plain(list(card.events)), card.delta_days) for card in history.cards
            ]
            unfinished = workspace.unfinished()
            assert unfinished is not None, "the script left a session to resume"
            found["resume"] = plain(unfinished)
            session = workspace.recover_session(unfinished.info.id)
            assert session is not None
            found["resume queue"] = (session.cards_done, session.queue_length)
            card = session.next_card()
            assert card is not None
            session.record(verdict="correct", rating=Rating.Good, seconds=9)
            undone = session.undo()
            found["undo target"] = (card.key, None if undone is None else undone.key)
            found["after undo"] = plain(store.cards_by_key([card.key]))
            session.end()
        finally:
            workspace.close()
        export = learner.home / "export.csv"
        found["today"] = json.loads(command(learner, "today", "--json", "--all"))
        found["stats"] = json.loads(command(learner, "stats", "--json"))
        found["plan"] = json.loads(command(learner, "plan", "--json"))
        found["exam"] = json.loads(command(learner, "exam", "+10", "--json"))
        command(learner, "reviews", "export", str(export))
        found["reviews export"] = export.read_text(encoding="utf-8")
        found["optimize"] = json.loads(command(learner, "optimize", "--json"))
    return found
