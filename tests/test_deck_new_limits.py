"""Per-deck new-card limits under the daily one (``[deck_new_limits]``, issue 11 item 1): read
and written by the settings, honoured by ``recall today`` and by a session alike."""

from __future__ import annotations

import json

import pytest

from recall import config
from recall.cli import main
from recall.errors import ConfigError
from recall.paths import config_file
from recall.scheduling import Rating
from recall.session import Budget
from recall.workspace import Workspace


def _write_config(text: str) -> None:
    path = config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_the_table_reads_writes_and_round_trips() -> None:
    _write_config("new_per_day = 12\n\n[deck_new_limits]\nactivations = 2\nlosses = 0\n")
    settings = config.load_settings()
    assert settings.deck_new_limits == {"activations": 2, "losses": 0}
    changed = config.set_value(settings, "deck_new_limits.metrics", "3")
    assert config.get_value(changed, "deck_new_limits.metrics") == 3
    config.save_settings(config.reset_value(changed, "deck_new_limits.losses"))
    again = config.load_settings()
    assert again.deck_new_limits == {"activations": 2, "metrics": 3}
    assert again.new_per_day == 12


@pytest.mark.parametrize(
    "text",
    [
        "deck_new_limits = 3\n",
        '[deck_new_limits]\n"Not An Id" = 2\n',
        "[deck_new_limits]\nlosses = -1\n",
        "[deck_new_limits]\nlosses = 2.5\n",
        "[deck_new_limits]\nlosses = true\n",
        '[deck_new_limits]\nlosses = "2"\n',
        "[deck_new_limits]\nlosses = 10001\n",
        "[deck_new_limits]\nlosses = { a = 1 }\n",
    ],
)
def test_a_bad_table_is_refused_naming_the_file_and_the_deck(text: str) -> None:
    _write_config(text)
    with pytest.raises(ConfigError) as error:
        config.load_settings()
    assert str(config_file()) in str(error.value)
    assert "deck_new_limits" in str(error.value)


@pytest.mark.parametrize("key,value", [("deck_new_limits.Bad Id", "2"), ("deck_new_limits.x", "y")])
def test_setting_a_bad_limit_changes_nothing(key: str, value: str) -> None:
    with pytest.raises(ConfigError, match="nothing was changed"):
        config.set_value(config.Settings(), key, value)


def test_recall_config_sets_a_decks_limit_and_recall_today_honours_it(capsys) -> None:
    assert main(["config", "deck_new_limits.activations", "1"]) == 0
    assert main(["config", "new_card_order", "deck"]) == 0  # activations first: it is held
    capsys.readouterr()
    assert main(["today", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    decks = [item["deck"] for item in plan["queue"] if item["state"] == "new"]
    assert len(decks) == 20  # the daily limit is still filled, from the other decks
    assert decks.count("activations") == 1


def test_a_session_introduces_no_more_of_a_deck_than_its_limit() -> None:
    _write_config('new_card_order = "deck"\n\n[deck_new_limits]\nactivations = 2\n')
    workspace = Workspace.open()
    try:
        first = workspace.plan_today()
        planned = [f"{c.deck}/{c.card}" for c in first.queue if c.state == "new"]
        session = workspace.start_session(budget=Budget.cards(40), mode="normal")
        introduced: list[str] = []
        while (card := session.next_card()) is not None:
            if card.key not in introduced:
                introduced.append(card.key)
            session.record(verdict="correct", rating=Rating.Easy, seconds=10.0)
        session.end()
        assert introduced == planned  # the session drills the plan, in its order
        assert sum(1 for key in introduced if key.startswith("activations/")) == 2
        after = workspace.plan_today()
        assert not [c for c in after.queue if c.deck == "activations" and c.state == "new"]
    finally:
        workspace.close()


def test_recall_today_shows_todays_raise_apart_from_the_daily_limit(capsys) -> None:
    workspace = Workspace.open()
    try:
        assert workspace.learn_more_today(5) == 5
    finally:
        workspace.close()
    assert main(["today", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["new_extra_today"] == 5
    assert plan["limits"]["new"]["limit"] == 25
    assert plan["counts"]["total"]["new"] == 25
    assert main(["today"]) == 0
    assert "new cards: 20 a day + 5 today, 0 done" in capsys.readouterr().out


def test_the_offer_to_learn_more_counts_only_what_a_raise_brings() -> None:
    """With the shared limit spent, "learn N more" must not count cards a deck's own limit
    (or a sibling buried today) still holds back: a raise of the offered count brings exactly
    that many new cards into today's plan, so the session it starts is never empty."""
    from recall.tui.services import Services
    from recall.tui.views import SessionPlan

    _write_config(
        'new_per_day = 2\nnew_card_order = "deck"\n\n[deck_new_limits]\nactivations = 1\n'
    )
    services = Services()
    services.load()
    try:
        workspace = services.workspace
        session = workspace.start_session(budget=Budget.cards(2), mode="normal")
        while session.next_card() is not None:
            session.record(verdict="correct", rating=Rating.Easy, seconds=10.0)
        session.end()
        waiting = workspace.plan_today().new_waiting
        offer = services.empty_offer(SessionPlan(minutes=10))
        assert offer is not None and 0 < offer.held_back < waiting
        raised = workspace.plan_today(more=offer.held_back)
        assert raised.counts.new == offer.held_back
        assert not [c for c in raised.queue if c.deck == "activations" and c.state == "new"]
    finally:
        services.close()
