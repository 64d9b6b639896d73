"""``recall decks …`` end to end, through :func:`recall.cli.main`."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from recall.cards.loader import load_deck
from recall.cli import main
from recall.grading import check_deck

FIXTURE = Path(__file__).parent / "fixtures" / "decks" / "sample" / "sample.toml"


@pytest.fixture
def custom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An isolated data directory whose custom decks folder holds the sample deck."""
    monkeypatch.setenv("RECALL_HOME", str(tmp_path / "home"))
    decks = tmp_path / "decks"
    decks.mkdir()
    shutil.copy(FIXTURE, decks / "sample.toml")
    monkeypatch.setenv("RECALL_DECKS", str(decks))
    return decks


def test_list_shows_builtin_and_custom_decks_and_failures(
    custom: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (custom / "broken.toml").write_text('[deck]\nid = "b"\nname = "B"\n[[card]]\nid = "x"\n')
    assert main(["decks", "list"]) == 0
    out = capsys.readouterr().out
    assert "sample" in out and "(custom)" in out
    assert "failed to load" in out
    assert "broken.toml:4: card 'x': card has no 'kind'" in out
    assert main(["decks", "list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ids = {d["id"] for d in data["decks"]}
    assert "sample" in ids
    assert len(data["failures"]) == 1


def test_validate_exit_status_and_error_lines(
    custom: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["decks", "validate", str(custom / "sample.toml")]) == 0
    assert "1 ok (9 cards)" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text(
        '[deck]\nid = "bad"\nname = "Bad"\n\n[[card]]\nid = "f"\nkind = "formula"\n'
        'prompt = "p"\nanswer = "x + y"\n[card.symbols]\nx = "real"\n'
    )
    assert main(["decks", "validate", str(bad)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out == [
        f"{_rel(bad)}:9: card 'f': symbol 'y' is used in answer but not declared "
        '(declare it under [card.symbols], e.g. y = "real" (or as a function under '
        "[card.functions]))"
    ]
    assert main(["decks", "validate", str(tmp_path / "nothing-here")]) == 1


def test_validate_identities_flag_catches_a_false_claim(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claim = tmp_path / "claim.toml"
    claim.write_text(
        '[deck]\nid = "c"\nname = "C"\n\n[[card]]\nid = "wrong"\nkind = "formula"\n'
        'prompt = "p"\nanswer = "x"\nidentities = [{ lhs = "log(x^2)", rhs = "2*log(x)" }]\n'
        '[card.symbols]\nx = "real"\n'
    )
    assert main(["decks", "validate", str(claim)]) == 0
    assert main(["decks", "validate", "--identities", str(claim)]) == 1
    out = capsys.readouterr().out
    assert "card 'wrong': identity #1 does not hold" in out


def test_new_writes_a_valid_template(custom: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["decks", "new", "My Losses"]) == 0
    path = custom / "my-losses.toml"
    written = load_deck(path, check=check_deck)
    assert written.id == "my-losses" and written.name == "My Losses"
    assert written.cards == ()  # the examples are commented out: nothing goes live
    # Uncommented, the examples are a valid deck with one card of every kind.
    head, said, examples = path.read_text(encoding="utf-8").partition("and edit it.\n")
    assert said, "the template says how to bring an example to life"
    examples = re.sub(r"^# (?!#)", "", examples, flags=re.MULTILINE)
    path.write_text(head + said + examples, encoding="utf-8")
    deck = load_deck(path, check=check_deck)
    assert {str(c.kind) for c in deck.cards} == {
        "formula",
        "numeric",
        "fact",
        "reverse",
        "cloze",
        "explain",
    }
    assert "#" in path.read_text().splitlines()[0]  # commented
    capsys.readouterr()
    assert main(["decks", "validate", "--identities", str(path)]) == 0
    assert main(["decks", "new", "My Losses"]) == 2  # refuses to overwrite
    assert "already exists" in capsys.readouterr().err


@pytest.mark.parametrize("how", ["--id", "name"])
def test_new_refuses_a_builtin_decks_id(
    how: str, custom: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A deck written with a built-in deck's id would be skipped at every load."""
    from recall.cards.loader import builtin_deck_ids

    taken = sorted(builtin_deck_ids())[0]
    argv = ["decks", "new", "Mine", "--id", taken] if how == "--id" else ["decks", "new", taken]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"deck id '{taken}' is a built-in deck's" in err
    assert f"--id my-{taken}" in err
    assert not (custom / f"{taken}.toml").exists()


def test_a_failed_deck_file_is_counted_in_words_that_agree(
    custom: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (custom / "broken.toml").write_text("[deck\n", encoding="utf-8")
    assert main(["decks", "list"]) == 0
    assert "1 deck file failed to load and was skipped:" in capsys.readouterr().out
    (custom / "broken2.toml").write_text("[deck\n", encoding="utf-8")
    assert main(["decks", "list"]) == 0
    assert "2 deck files failed to load and were skipped:" in capsys.readouterr().out


def test_a_new_deck_puts_nothing_in_todays_plan_until_a_card_is_written(
    custom: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 19, item 12: the template's six examples did enter today's plan at once."""
    assert main(["decks", "new", "My Losses"]) == 0
    capsys.readouterr()
    assert main(["today", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert not [item for item in plan["queue"] if item["deck"] == "my-losses"]
    assert main(["decks", "validate", str(custom / "my-losses.toml")]) == 0
    assert "0 cards" in capsys.readouterr().err


def test_show_text_and_json(custom: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["decks", "show", "sample"]) == 0
    out = capsys.readouterr().out
    assert "[numeric] training-flops" in out
    assert "answer: 6*N*D" in out
    assert "x: real — any real number" in out
    assert main(["decks", "show", "sample", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["cards"]) == 9
    assert main(["decks", "show", "sampel"]) == 2
    assert "did you mean 'sample'?" in capsys.readouterr().err


def test_import_then_list_then_export(
    custom: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "quizlet_ml.txt"
    source.write_text(
        "Sigmoid range\t(0, 1)\nChinchilla ratio\t20\nWhy warmup?\tEarly Adam "
        "second-moment estimates are noisy, so big steps early can diverge.\n"
    )
    assert main(["decks", "import", str(source)]) == 0
    out = capsys.readouterr().out
    assert "imported 3 cards (1 explain, 1 fact, 1 reverse)" in out
    written = custom / "quizlet-ml.toml"
    assert load_deck(written, check=check_deck).name == "Quizlet ml"
    assert main(["decks", "import", str(source)]) == 2  # exists
    assert (
        main(
            ["decks", "import", str(source), "--id", "ml2", "--name", "ML two", "--kind", "explain"]
        )
        == 0
    )
    kinds = {str(c.kind) for c in load_deck(custom / "ml2.toml", check=check_deck).cards}
    assert kinds == {"explain"}
    capsys.readouterr()
    assert main(["decks", "list"]) == 0
    assert "quizlet-ml" in capsys.readouterr().out
    target = tmp_path / "out.csv"
    assert main(["decks", "export", "quizlet-ml", "--format", "csv", "--output", str(target)]) == 0
    assert target.read_text().startswith("#separator:comma")
    assert main(["decks", "export", "sample", "--format", "json"]) == 0
    exported = capsys.readouterr().out
    assert json.loads(exported)["deck"]["id"] == "sample"
    # The JSON export is importable, every kind kept (auto-detected, or --format json).
    as_json = tmp_path / "sample.json"
    as_json.write_text(exported)
    assert main(["decks", "import", str(as_json), "--id", "sample-back"]) == 0
    assert "imported 9 cards" in capsys.readouterr().out
    original = load_deck(custom / "sample.toml", check=check_deck)
    back = load_deck(custom / "sample-back.toml", check=check_deck)
    assert [c.kind for c in back.cards] == [c.kind for c in original.cards]
    assert main(["decks", "import", str(as_json), "--format", "json", "--id", "s3"]) == 0


def _rel(path: Path) -> str:
    import os

    relative = os.path.relpath(path)
    return relative if not relative.startswith("..") else str(path)
