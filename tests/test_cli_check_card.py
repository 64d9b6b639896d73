"""``recall check --card DECK/CARD ANSWER``: graded through the real entry point, as the drill
screen grades (the card as loaded, its question drawn from the seed, its declared names)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recall.cli import main
from recall.formula import evaluate_constant
from recall.grading import Question
from recall.workspace import Workspace

DECK = """\
[deck]
id = "mine"
name = "Mine"

[deck.symbols]
x = { domain = "positive", meaning = "a positive number" }

[[card]]
id = "log-of-square"
kind = "formula"
prompt = "log(x^2) for positive x, as a multiple of log(x)."
answer = "2*log(x)"

[[card]]
id = "flops"
kind = "numeric"
prompt = "A {N}-parameter model on {D} tokens: training FLOPs?"
answer = "6*N*D"
unit = "FLOPs"
tolerance = { relative = 0.05 }
[card.params]
N = { low = 1e8, high = 7e10, log = true, sigfigs = 2 }
D = { low = 1e9, high = 2e12, log = true, sigfigs = 2 }

[[card]]
id = "name-mse"
kind = "reverse"
prompt = "Name this loss."
shown = '\\frac{1}{n}\\sum_i (\\hat y_i - y_i)^2'
accept = ["mean squared error", "MSE"]

[[card]]
id = "name-mae"
kind = "reverse"
prompt = "Name this loss."
shown = '\\frac{1}{n}\\sum_i |\\hat y_i - y_i|'
accept = ["mean absolute error", "MAE"]
"""


@pytest.fixture
def decks(tmp_path: Path) -> Path:
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "mine.toml").write_text(DECK, encoding="utf-8")
    return folder


def _json(capsys, *argv: str) -> tuple[int, dict]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


def test_a_custom_cards_declared_domain_is_used(decks, capsys) -> None:
    # log(x^2) = 2 log(x) only because the deck declares x positive.
    code, data = _json(
        capsys, "--decks", str(decks), "check", "--card", "mine/log-of-square", "log(x^2)", "--json"
    )
    assert (code, data["verdict"], data["card"]) == (0, "correct", "mine/log-of-square")
    code, data = _json(
        capsys, "--decks", str(decks), "check", "--card", "mine/log-of-square", "log(x)", "--json"
    )
    assert (code, data["verdict"]) == (1, "incorrect")


def test_an_undeclared_name_is_invalid(decks, capsys) -> None:
    code, data = _json(
        capsys, "--decks", str(decks), "check", "--card", "mine/log-of-square", "2*log(y)", "--json"
    )
    assert (code, data["verdict"]) == (2, "invalid")


def test_a_numeric_card_draws_the_drill_screens_values_from_the_seed(decks, capsys) -> None:
    card = Workspace.open(deck_dirs=[decks], sync=False).card("mine/flops")
    question = Question.draw(card, 7)
    right = float(evaluate_constant(question.expected))
    code, data = _json(
        capsys,
        "--decks",
        str(decks),
        "check",
        "--card",
        "mine/flops",
        repr(right * 1.04),
        "--seed",
        "7",
        "--json",
    )
    assert (code, data["verdict"]) == (0, "correct")  # within the card's 5%
    assert data["seed"] == 7
    assert data["values"] == dict(question.values)
    assert data["prompt"] == question.prompt
    assert data["worked"] == question.worked
    code, data = _json(
        capsys,
        "--decks",
        str(decks),
        "check",
        "--card",
        "mine/flops",
        repr(right * 1.2),
        "--seed",
        "7",
        "--json",
    )
    assert (code, data["verdict"]) == (1, "incorrect")


def test_reverse_cards_match_names_and_never_forgive_toward_a_neighbour(decks, capsys) -> None:
    assert main(["--decks", str(decks), "check", "--card", "mine/name-mse", "mse"]) == 0
    assert "mine/name-mse" in capsys.readouterr().out
    # One letter from MSE, but it is the neighbouring card's answer: not forgiven.
    code, data = _json(
        capsys, "--decks", str(decks), "check", "--card", "mine/name-mse", "MAE", "--json"
    )
    assert code == 1 and data["verdict"] == "incorrect"


def test_a_builtin_card_is_graded_with_its_prompt_shown(capsys) -> None:
    code = main(["check", "--card", "activations/sigmoid", "1/(1+exp(-x))"])
    out = capsys.readouterr().out
    assert code == 0
    assert "activations/sigmoid" in out and "exp" in out


def test_human_output_names_the_wrong_part(decks, capsys) -> None:
    code = main(["--decks", str(decks), "check", "--card", "mine/log-of-square", "3*log(x)"])
    out = capsys.readouterr().out
    assert code == 1
    assert "read as: 3*log(x)\n         ^  this part" in out
    assert "reference: 2*log(x)" in out


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("mine/log-of-sqare", "did you mean 'log-of-square'?"),
        ("mien/flops", "did you mean 'mine'?"),
        ("flops", "DECK/CARD"),
    ],
)
def test_an_unknown_card_is_a_clear_error(decks, spec, said, capsys) -> None:
    code = main(["--decks", str(decks), "check", "--card", spec, "1"])
    err = capsys.readouterr().err
    assert code == 2
    assert said in err
    assert "Traceback" not in err


def test_the_card_is_the_reference(decks, capsys) -> None:
    assert main(["--decks", str(decks), "check", "--card", "mine/flops", "1", "2"]) == 2
    assert "only ANSWER" in capsys.readouterr().err
    assert main(["check", "1", "1", "--seed", "3"]) == 2
    assert "--seed needs --card" in capsys.readouterr().err


def test_an_unknown_name_lists_the_names_the_card_shows(capsys) -> None:
    """inference-cost/param-count shows L, N, V, d; the deck also declares D (training tokens),
    which this card never shows: the message offers only what the card shows, while D, a
    deck-wide name, is still read (as a wrong term, not an unknown name)."""
    code = main(["check", "--card", "inference-cost/param-count", "12*L*d^2 + V*d + Q"])
    out = capsys.readouterr().out
    assert code == 2  # invalid: not a readable answer
    assert "unknown name 'Q' (this question's names: L, N, V, d)" in out
    code = main(["check", "--card", "inference-cost/param-count", "12*L*d^2 + V*d + D"])
    out = capsys.readouterr().out
    assert "verdict: incorrect" in out and "unknown name" not in out


def test_every_formula_card_offers_its_legend_names() -> None:
    """Over every built-in card with a typed-math answer: the names an unknown-name message
    lists are the names of the card's legend, no more and no fewer."""
    import re

    from recall.cards.loader import load_decks
    from recall.errors import ParseError
    from recall.formula.names import canonical_name
    from recall.formula.parser import parse
    from recall.grading import symbol_table
    from recall.paths import builtin_decks_dir
    from recall.tui.presenting import card_view, takes_math

    checked = narrower = 0
    for card in load_decks([builtin_decks_dir()]).cards:
        if not takes_math(card) or card.params:
            continue
        table = symbol_table(card)
        with pytest.raises(ParseError) as raised:
            parse("zqzqzq", table)
        listed = re.search(r"this question's names: ([^)]*)\)", str(raised.value))
        assert listed, (card.key, str(raised.value))
        legend = sorted(canonical_name(name) for name, _ in card_view(card).symbols)
        assert listed.group(1) == (", ".join(legend) or "none"), card.key
        checked += 1
        narrower += len(legend) < len(table.variables)
    assert checked > 200 and narrower > 20  # many cards' decks declare names they never show
