"""``recall today`` and ``recall exam`` through the real entry point, on a fresh home and on one
with history (RECALL_HOME is a fresh folder for every test: see conftest)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from recall.cli import main
from recall.clock import utc_now
from recall.scheduling import Rating
from recall.session import Budget
from recall.workspace import Workspace


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    return status, capsys.readouterr().out


def _drill(cards: int) -> list[str]:
    """Answer ``cards`` cards of a normal session right, as a learner would."""
    workspace = Workspace.open()
    try:
        session = workspace.start_session(budget=Budget.cards(cards), mode="normal")
        done = []
        while (card := session.next_card()) is not None:
            session.record(verdict="correct", rating=Rating.Good, seconds=25.0)
            done.append(card.key)
        session.end()
        return done
    finally:
        workspace.close()


def test_today_json_on_a_fresh_home_spans_at_least_eight_decks(capsys) -> None:
    status, out = _run(capsys, "today", "--json")
    assert status == 0
    plan = json.loads(out)
    queue = plan["queue"]
    assert len(queue) == 20
    assert all(set(item) == {"deck", "card", "kind", "state"} for item in queue)
    assert {item["state"] for item in queue} == {"new"}
    assert len({item["deck"] for item in queue}) >= 8
    assert plan["limits"]["new"] == {"limit": 20, "spent": 0, "left": 0}
    assert plan["minutes"] > 0 and plan["pace"]["source"] == "default"
    assert sum(c["new"] for c in plan["counts"]["decks"].values()) == 20


def test_today_changes_nothing_and_a_session_drills_its_queue(capsys) -> None:
    _status, first = _run(capsys, "today", "--json")
    _status, again = _run(capsys, "today", "--json")
    assert json.loads(first)["queue"] == json.loads(again)["queue"]
    planned = [f"{q['deck']}/{q['card']}" for q in json.loads(first)["queue"]]
    assert _drill(5) == planned[:5]
    _status, after = _run(capsys, "today", "--json")
    plan = json.loads(after)
    assert plan["limits"]["new"]["spent"] == 5
    assert plan["counts"]["total"]["new"] == 15
    assert plan["counts"]["total"]["learning"] == 5  # back on their 10-minute step today


def test_today_text(capsys) -> None:
    status, out = _run(capsys, "today")
    assert status == 0
    assert "20 new" in out and "in drill order:" in out
    assert "more new cards wait" in out


def test_exam_on_a_fresh_home_feasible_for_one_deck(capsys) -> None:
    exam = (utc_now() + timedelta(days=21)).date().isoformat()
    status, out = _run(capsys, "exam", exam, "--deck", "losses", "--minutes", "15", "--json")
    plan = json.loads(out)
    assert status == 0 and plan["feasible"] is True
    assert plan["problems"] == []
    reviewed: dict[str, int] = {}
    for day in plan["days"]:
        assert day["minutes"] <= 15
        for key in day["cards"]["reviews"] + day["cards"]["weakest"]:
            reviewed[key] = reviewed.get(key, 0) + 1
    assert len(reviewed) == plan["cards"] and min(reviewed.values()) >= 2
    assert all(key.startswith("losses/") for key in reviewed)
    assert 0.5 < plan["predicted_recall"] <= 1


def test_exam_with_too_few_days_says_why(capsys) -> None:
    status, out = _run(capsys, "exam", "+2", "--minutes", "600")
    assert status == 1
    assert "Not feasible" in out and "3 study days" in out
    assert "move the exam to" in out
    assert "recall exam --deck ID (repeatable) or --topic T plans for fewer cards." in out


def test_exam_with_too_few_minutes_names_the_minutes_that_fit(capsys) -> None:
    # One deck: every deck in 14 days does not fit at any daily time, since a sibling group
    # (cards that give each other's answers away) takes one card a day (the next test).
    deck = ("--deck", "retrieval-evaluation")
    status, out = _run(capsys, "exam", "+14", *deck, "--minutes", "1")
    assert status == 1
    assert "minutes in all" in out
    line = next(s for s in out.splitlines() if "minutes a day instead of 1" in s)
    minutes = line.split("study ")[1].split(" minutes")[0]
    status, out = _run(capsys, "exam", "+14", *deck, "--minutes", minutes, "--json")
    assert status == 0 and json.loads(out)["feasible"] is True


def test_siblings_are_kept_on_different_days_and_a_group_too_large_for_the_date_is_said(
    capsys,
) -> None:
    status, out = _run(capsys, "exam", "+30", "--deck", "metrics", "--minutes", "600", "--json")
    plan = json.loads(out)
    from recall.workspace import Workspace

    workspace = Workspace.open(sync=False)
    group = {c.key: c.sibling_group for c in workspace.cards.values() if c.deck_id == "metrics"}
    workspace.close()
    for day in plan["days"]:
        cards = [*day["cards"]["new"], *day["cards"]["reviews"], *day["cards"]["weakest"]]
        groups = [group[key] for key in cards if group.get(key)]
        assert len(groups) == len(set(groups)), day["day"]  # one card of a group a day
    status, out = _run(capsys, "exam", "+20", "--deck", "metrics", "--minutes", "600")
    assert status == 1
    assert "give each other's answers away" in out


def test_exam_on_a_home_with_history(capsys) -> None:
    seen = _drill(20)
    status, out = _run(capsys, "exam", "+25", "--topic", "Losses", "--minutes", "20", "--json")
    plan = json.loads(out)
    assert status == 0 and plan["feasible"], plan["problems"]
    introduced = {key for day in plan["days"] for key in day["cards"]["new"]}
    studied = {key for key in seen if key.startswith("losses/")}
    assert studied and not introduced & studied  # seen cards are reviewed, not learned again
    assert plan["pace"]["source"] == "log"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["exam", "soon"], "is not a date"),
        (["exam", "+14", "--deck", "nope"], "no deck nope"),
        (["exam", "+400"], "more than 366 days"),
        (["exam", "+14", "--topic", "Nothing at all"], "no cards to prepare"),
    ],
)
def test_exam_refuses_bad_arguments_plainly(capsys, argv, message) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_one_day_shortfall_is_said_in_grammar(capsys) -> None:
    """ "1 day at 10 minutes give 10" was what `recall exam` said the day before an exam."""
    status, out = _run(capsys, "exam", "+1")
    assert status == 1
    line = next(s for s in out.splitlines() if "minutes in all" in s)
    assert line.endswith("and 1 day at 10 minutes gives 10")
    status, out = _run(capsys, "exam", "+3")
    line = next(s for s in out.splitlines() if "minutes in all" in s)
    assert line.endswith("and 3 days at 10 minutes give 30")


def test_a_one_card_exam_plan_says_one_new_card(capsys, tmp_path) -> None:
    """ "Feasible: 1 new cards introduced" was what `recall exam` said for a deck of one card."""
    folder = tmp_path / "one"
    folder.mkdir()
    (folder / "one.toml").write_text(
        '[deck]\nid = "one"\nname = "One"\n\n'
        '[[card]]\nid = "a"\nkind = "fact"\nprompt = "A?"\nvalue = 1\n',
        encoding="utf-8",
    )
    status, out = _run(capsys, "--decks", str(folder), "exam", "+10", "--deck", "one")
    assert status == 0
    assert "Feasible: 1 new card introduced, and every card reviewed" in out
