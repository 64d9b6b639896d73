"""What a scope holds, decided by the workspace (not the TUI), so the TUI's offers and any
command give the same answer: whether a normal session would be empty and what is left."""

from __future__ import annotations

from pathlib import Path

from recall.scheduling import Rating
from recall.session import Budget
from recall.workspace import EmptyScope, Workspace


def _write_config(home: Path, text: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(text, encoding="utf-8")


def test_a_fresh_scope_has_cards_and_nothing_missed(isolated_recall_home: Path) -> None:
    workspace = Workspace.open()
    try:
        assert workspace.empty_scope() is None
        assert workspace.empty_scope(["activations"]) is None
        cards, reviewed = workspace.scope_cards(["activations"], None)
        assert cards == len(workspace.deck("activations").cards) and reviewed == 0  # type: ignore[union-attr]
        assert workspace.missed_last_time() is None
    finally:
        workspace.close()


def test_a_spent_daily_limit_is_an_empty_scope_with_what_a_raise_brings(
    isolated_recall_home: Path,
) -> None:
    _write_config(isolated_recall_home, 'new_per_day = 2\nnew_card_order = "deck"\n')
    workspace = Workspace.open()
    try:
        _drill(workspace, ["correct", "correct"])
        empty = workspace.empty_scope()
        assert isinstance(empty, EmptyScope)
        assert empty.plan.new_waiting > 0 and empty.held_back > 0
        assert not empty.own_limit
        raised = workspace.plan_today(more=empty.held_back)
        assert raised.counts.new == empty.held_back
        cards, reviewed = workspace.scope_cards(None, None)
        assert cards == empty.cards and reviewed == empty.reviewed == 2
        assert workspace.missed_last_time() == (0, 0)
    finally:
        workspace.close()


def test_the_cards_missed_last_time_are_counted_by_the_workspace(
    isolated_recall_home: Path,
) -> None:
    workspace = Workspace.open()
    try:
        _drill(workspace, ["incorrect", "correct", "incorrect"])
        assert workspace.missed_last_time() == (2, 2)
    finally:
        workspace.close()


def _drill(workspace: Workspace, verdicts: list[str]) -> None:
    """A finished session of ``len(verdicts)`` cards answered so (Again when missed)."""
    session = workspace.start_session(budget=Budget.cards(len(verdicts)), mode="normal")
    for verdict in verdicts:
        assert session.next_card() is not None
        rating = Rating.Easy if verdict == "correct" else Rating.Again
        session.record(verdict=verdict, rating=rating, seconds=10.0)
    session.end()
