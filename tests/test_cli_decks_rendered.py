"""``recall decks show DECK --rendered``: a deck as the drill screen shows it, through the CLI.

Each card's pieces must be the drill screen's own: the prompt with a numeric card's values drawn
from the given seed (``Question.draw``), the reference rendered, the worked answer, an explain
card's model answer.
"""

from __future__ import annotations

import re

import pytest

from recall.cards.loader import load_decks
from recall.cli import main
from recall.grading import Question
from recall.paths import builtin_decks_dir
from recall.tui.presenting import reference_rendered


def _show(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["decks", "show", *argv]) == 0
    return capsys.readouterr().out


def _deck(deck_id: str):  # noqa: ANN202 - a Deck
    return load_decks([builtin_decks_dir()]).deck(deck_id)


def _block(out: str, key: str) -> str:
    """The lines printed for one card (up to the next card's header)."""
    start = out.index(f"━━ {key} ")
    end = out.find("\n━━ ", start + 1)
    return out[start : end if end >= 0 else len(out)]


@pytest.mark.parametrize("seed", [0, 3, 41])
def test_numeric_cards_show_the_seeds_values_and_the_worked_answer(
    capsys: pytest.CaptureFixture[str], seed: int
) -> None:
    out = _show(capsys, "inference-cost", "--rendered", "--seed", str(seed))
    assert f"rendered with seed {seed}" in out.splitlines()[0]
    numeric = [card for card in _deck("inference-cost").cards if str(card.kind) == "numeric"]
    assert numeric
    for card in numeric:
        block = _block(out, card.key)
        question = Question.draw(card, seed)
        before, after = block.split("── after grading")
        assert " ".join(question.prompt.split()) in " ".join(before.split())
        for line in question.worked.splitlines():
            assert line.strip() in after


def test_every_card_is_listed_with_its_reference_or_model_answer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    deck = _deck("losses")
    out = _show(capsys, "losses", "--rendered")
    headers = re.findall(r"^━━ (\S+) \[", out, flags=re.MULTILINE)
    assert headers == [card.key for card in deck.cards]
    for card in deck.cards:
        after = _block(out, card.key).split("── after grading")[1]
        if str(card.kind) == "explain":
            assert "model answer" in after
            assert card.model_answer.split()[0] in after
        else:
            reference = reference_rendered(card)
            assert all(line.strip() in after for line in reference.splitlines() if line.strip())


def test_the_reference_comes_only_after_grading(capsys: pytest.CaptureFixture[str]) -> None:
    """No line of a formula card's rendered reference is printed before its "after grading"."""
    out = _show(capsys, "activations", "--rendered")
    checked = 0
    for card in _deck("activations").cards:
        if str(card.kind) != "formula":
            continue
        before = _block(out, card.key).split("── after grading")[0]
        lines = [line.strip() for line in reference_rendered(card).splitlines()]
        distinctive = [line for line in lines if len(line.replace(" ", "")) >= 6]
        assert not [line for line in distinctive if line in before], card.key
        checked += bool(distinctive)
    assert checked >= 5
