# ruff: noqa: F811  (pytest fixtures imported from the helper modules shadow their parameters)
"""A learner's writes stay home (issue 22): B's rows are byte-identical after A drills, undoes,
buries, suspends, optimizes, imports and ends sessions, through the workspace and the commands;
A and B drill the same card at once and neither is told it is taken; and random interleavings
of A's and B's operations (Hypothesis) never change a row of the other learner.
"""

from __future__ import annotations

import csv
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from learner_worlds import (
    T0,
    FrozenClock,
    Learner,
    add_learner,
    command,
    drill_script,
    make_learner,
    worlds_parse_cache,  # noqa: F401
    worlds_setup,  # noqa: F401
)
from sqlalchemy import text
from store_fixtures import db_url  # noqa: F401

from recall.scheduling import Rating
from recall.session import Budget
from recall.store.engine import make_engine, parse_url
from recall.store.models import PER_LEARNER_TABLES
from recall.workspace import Workspace


def rows_of(url: str, learner: int) -> dict[str, list[tuple[Any, ...]]]:
    """Every row that is ``learner``'s: their rows of each per-learner table, their own decks
    and those decks' cards, each table's rows in a fixed order, as the database returns them."""
    engine = make_engine(parse_url(url))
    found: dict[str, list[tuple[Any, ...]]] = {}
    with engine.connect() as conn:
        for table in PER_LEARNER_TABLES:
            found[table] = [
                tuple(row)
                for row in conn.execute(
                    text(f"SELECT * FROM {table} WHERE learner_id = :me ORDER BY 1, 2, 3"),
                    {"me": learner},
                )
            ]
        own = "SELECT id FROM decks WHERE owner_learner_id = :me"
        found["decks"] = [
            tuple(r)
            for r in conn.execute(
                text(f"SELECT * FROM decks WHERE id IN ({own}) ORDER BY id"), {"me": learner}
            )
        ]
        found["cards"] = [
            tuple(r)
            for r in conn.execute(
                text(f"SELECT * FROM cards WHERE deck_id IN ({own}) ORDER BY id"), {"me": learner}
            )
        ]
    engine.dispose()
    return found


def history_file(tmp_path: Path) -> Path:
    """500 reviews made elsewhere, a day apart on each of the built-in cards: enough history
    for ``recall optimize`` to fit (and record the fit, kept or not)."""
    path = tmp_path / "history.csv"
    cards = ["losses/mse", "losses/mae", "losses/ce", "losses/hinge", "optim/sgd", "optim/adam"]
    with path.open("w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream)
        writer.writerow(["card_id", "review_time", "review_rating"])
        for day in range(84):
            for index, card in enumerate(cards):
                when = T0 - timedelta(days=200 - 2 * day, hours=index)
                rating = 1 if (day * 7 + index * 3) % 5 == 0 else 3
                writer.writerow([card, int(when.timestamp() * 1000), rating])
    return path


def test_bs_rows_stay_byte_identical_whatever_a_does(
    db_url: str, tmp_path: Path, worlds_setup: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = worlds_setup
    monkeypatch.setenv("RECALL_HOME", str(tmp_path / "server"))
    add_learner(db_url, 2, "b")
    a = make_learner(tmp_path, "shared", "A", db_url, 1)
    b = make_learner(tmp_path, "shared", "B", db_url, 2)
    drill_script([a, b], clock, tmp_path, monkeypatch)  # both have a history, B a session open
    before, a_before = rows_of(db_url, 2), rows_of(db_url, 1)
    assert all(before[table] for table in ("card_state", "review_log", "sessions", "decks"))

    clock.now = T0 + timedelta(days=3, hours=5)
    workspace = a.workspace(clock)
    session = workspace.start_session(budget=Budget.cards(4), mode="normal")
    for rating in (Rating.Good, Rating.Again, Rating.Easy):  # drills
        card = session.next_card()
        assert card is not None
        session.record(verdict="correct" if rating > 1 else "incorrect", rating=rating, seconds=5)
    assert session.undo() is not None  # undoes
    cards = workspace.store.cards_by_key()
    workspace.bury(cards["losses/ce"].db_id)  # buries
    workspace.suspend(cards["optim/sgd"].db_id)  # suspends
    session.end()  # ends a session
    workspace.learn_more_today(3)
    workspace.close()
    command(a, "reviews", "import", str(history_file(tmp_path)))  # imports
    outcome = command(a, "optimize", "--json")  # optimizes
    assert '"recorded": null' not in outcome  # a fit was really made and recorded
    after = rows_of(db_url, 1)
    for table in ("review_log", "sessions", "imported_reviews", "parameter_sets", "card_state"):
        assert after[table] != a_before[table], table  # A's writes really happened
    assert rows_of(db_url, 2) == before


def test_a_and_b_drill_the_same_card_at_once_and_neither_is_told_it_is_taken(
    db_url: str, tmp_path: Path, worlds_setup: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = worlds_setup
    monkeypatch.setenv("RECALL_HOME", str(tmp_path / "server"))
    add_learner(db_url, 2, "b")
    a = make_learner(tmp_path, "shared", "A", db_url, 1)
    b = make_learner(tmp_path, "shared", "B", db_url, 2)
    wa, wb, wa2 = a.workspace(clock), b.workspace(clock), a.workspace(clock)
    only = {"losses/mse", "losses/mae"}
    start = {"budget": Budget.cards(2), "mode": "cram", "only": only}
    sa, sb = wa.start_session(**start), wb.start_session(**start)
    first = sa.next_card()
    assert first is not None and first.key in only
    # B asks at the same moment: handed the very card A has on screen, not told it is taken
    assert sb.next_card() == first
    # a second window of A's own is (the card is on A's screen): it gets the other card
    second = wa2.start_session(**start).next_card()
    assert second is not None and second.key in only - {first.key}
    for session in (sa, sb):
        session.record(verdict="correct", rating=Rating.Good, seconds=4)
        session.end()
    for workspace in (wa, wb, wa2):
        workspace.close()


#: What one learner may do in an interleaving; each picks its card by ``pick``.
OPERATIONS = ("drill", "undo", "bury", "suspend", "unsuspend", "end", "learn more", "setting")


def apply(op: str, pick: int, workspace: Workspace, live: dict[str, Any], name: str) -> None:
    """One operation of one learner, through their workspace (and their open session)."""
    session = live.get(name)
    if op in ("drill", "undo") and session is None:
        session = live[name] = workspace.start_session(budget=Budget.until_done(), mode="normal")
    keys = sorted(workspace.store.cards_by_key())
    card = workspace.store.cards_by_key()[keys[pick % len(keys)]]
    if op == "drill":
        shown = session.next_card()
        if shown is not None:
            rating = Rating(1 + pick % 4)
            verdict = "incorrect" if rating == Rating.Again else "correct"
            session.record(verdict=verdict, rating=rating, seconds=3)
    elif op == "undo":
        session.undo()
    elif op == "bury" and not card.retired and not card.suspended:
        workspace.bury(card.db_id)
    elif op == "suspend":
        workspace.suspend(card.db_id)
    elif op == "unsuspend":
        workspace.store.set_suspended(card.db_id, False)
    elif op == "end" and session is not None:
        session.end()
        del live[name]
    elif op == "learn more":
        workspace.learn_more_today(1 + pick % 3)
    elif op == "setting":
        workspace.set_learner_setting("new_per_day", str(5 + pick))


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    steps=st.lists(
        st.tuples(st.sampled_from("AB"), st.sampled_from(OPERATIONS), st.integers(0, 20)),
        min_size=1,
        max_size=14,
    )
)
def test_random_interleavings_never_touch_the_other_learners_rows(
    worlds_setup: FrozenClock, monkeypatch: pytest.MonkeyPatch, steps: list[tuple[str, str, int]]
) -> None:
    clock = worlds_setup
    clock.now = T0
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        monkeypatch.setenv("RECALL_HOME", str(tmp / "server"))
        url = f"sqlite:///{tmp / 'shared.sqlite3'}"
        add_learner(url, 2, "b")
        learners: dict[str, Learner] = {
            "A": make_learner(tmp, "shared", "A", url, 1),
            "B": make_learner(tmp, "shared", "B", url, 2),
        }
        workspaces = {name: learner.workspace(clock) for name, learner in learners.items()}
        live: dict[str, Any] = {}
        try:
            for name, op, pick in steps:
                other = "B" if name == "A" else "A"
                theirs = rows_of(url, learners[other].learner_id)
                their_raise = workspaces[other].extra_new_today()
                clock.now += timedelta(minutes=1)
                apply(op, pick, workspaces[name], live, name)
                assert rows_of(url, learners[other].learner_id) == theirs, (name, op)
                assert workspaces[other].extra_new_today() == their_raise, (name, op)
        finally:
            for workspace in workspaces.values():
                workspace.close()
