"""Every deck validation error names the file, the line and the card id, with a suggestion."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from recall.cards.loader import DeckFailure, load_deck, load_decks, read_deck
from recall.cards.model import CardKind
from recall.cards.problems import DeckFileError
from recall.errors import DeckError
from recall.grading import check_deck

FIXTURES = Path(__file__).parent / "fixtures" / "decks"

HEADER = """\
[deck]
id = "t"
name = "Test"
"""


def write(tmp_path: Path, body: str, name: str = "deck.toml", header: str = HEADER) -> Path:
    path = tmp_path / name
    path.write_text(header + textwrap.dedent(body).lstrip("\n"), encoding="utf-8")
    return path


def errors_of(path: Path, *, engine: bool = True) -> list[DeckError]:
    deck, errors = read_deck(path, check=check_deck if engine else None)
    assert deck is None, "expected the deck to fail"
    return errors


def only_error(path: Path, *, engine: bool = True) -> DeckError:
    errors = errors_of(path, engine=engine)
    assert len(errors) == 1, [str(e) for e in errors]
    return errors[0]


def test_the_sample_fixture_loads_with_every_kind() -> None:
    deck = load_deck(FIXTURES / "sample" / "sample.toml", check=check_deck)
    assert deck.id == "sample"
    assert {card.kind for card in deck.cards} == set(CardKind)
    flops = deck.card("training-flops")
    assert flops.line == 26
    assert [p.name for p in flops.params] == ["N", "D"]
    # deck symbols and tags reach every card
    assert any(s.name == "x" for s in deck.card("sigmoid-derivative").symbols)
    assert deck.card("adam-bytes").tags == ("fixture",)
    assert deck.card("sigmoid-derivative").tags == ("fixture", "sheet:formula-sheet")


# Each case: the card body (after the 3-line header), a fragment of the message, the line the
# error must point at, the card id it must name, and a fragment of the suggestion.
CASES = [
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "formula"
        prompt = "p"
        answer = "x"
        hnit = "think"
        """,
        "unknown key 'hnit'",
        9,
        "a",
        "did you mean 'hint'?",
        id="unknown-key-did-you-mean",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "formula"
        prompt = "p"
        answer = "x"
        unit = "m"
        """,
        "key 'unit' is not used by formula cards",
        9,
        "a",
        "numeric, fact",
        id="key-of-another-kind",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "formula"
        prompt = "p"
        """,
        "formula card is missing 'answer'",
        4,
        "a",
        "typed syntax",
        id="missing-key",
    ),
    pytest.param(
        """
        [[card]]
        kind = "explain"
        prompt = "p"
        model_answer = "m"
        """,
        "card #1 has no 'id'",
        4,
        None,
        "unique",
        id="missing-id",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "explain"
        prompt = 3
        model_answer = "m"
        """,
        "'prompt' must be a string, not a number",
        7,
        "a",
        "quote it",
        id="wrong-type",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "explain"
        prompt = "p"
        model_answer = "m"
        tags = "one"
        """,
        "'tags' must be a list of strings",
        9,
        "a",
        "wrap it in a list",
        id="wrong-type-list",
    ),
    pytest.param(
        """
        [[card]]
        id = "Bad Id"
        kind = "explain"
        prompt = "p"
        model_answer = "m"
        """,
        "card id 'Bad Id' is not valid",
        5,
        "Bad Id",
        "'bad-id'",
        id="bad-id-syntax",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "formulla"
        prompt = "p"
        answer = "x"
        """,
        "unknown kind 'formulla'",
        6,
        "a",
        "did you mean 'formula'?",
        id="unknown-kind",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "formula"
        prompt = "p"
        answer = "x +* 2"
        """,
        "does not parse",
        8,
        "a",
        "recall help syntax",
        id="answer-does-not-parse",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "formula"
        prompt = "p"
        answer = "sigma_1^2 + mu"
        [card.symbols]
        sigma_1 = "positive"
        mu = "real"
        """,
        None,
        None,
        None,
        None,
        id="declared-symbols-are-fine",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "formula"
        prompt = "p"
        answer = "sigma_2^2 + mu"
        [card.symbols]
        sigma_1 = "positive"
        mu = "real"
        """,
        "symbol 'sigma_2' is used in answer but not declared",
        8,
        "a",
        "did you mean 'sigma_1'?",
        id="undeclared-symbol",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "formula"
        prompt = "p"
        answer = "x"
        [card.symbols]
        x = "postive"
        """,
        "bad domain",
        10,
        "a",
        "positive",
        id="bad-domain",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "formula"
        prompt = "p"
        answer = "g(x)"
        [card.symbols]
        x = "real"
        [card.functions]
        g = "sigmoidd"
        """,
        "not a builtin",
        12,
        "a",
        "unknown",
        id="bad-function-alias",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "numeric"
        prompt = "With {N} and {M}?"
        answer = "2*N"
        [card.params]
        N = { low = 1, high = 10 }
        """,
        "prompt uses {M} but no parameter 'M' is declared",
        7,
        "a",
        "[card.params]",
        id="placeholder-without-param",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "numeric"
        prompt = "With {N}?"
        answer = "2*N*K"
        [card.params]
        N = { low = 1, high = 10 }
        """,
        "'K' is used in the answer but is not a parameter",
        8,
        "a",
        "[card.params]",
        id="numeric-answer-uses-non-parameter",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "numeric"
        prompt = "With {N}?"
        answer = "1/(N - 5)"
        [card.params]
        N = { low = 1, high = 10, integer = true }
        """,
        "numeric template",
        8,
        "a",
        "narrow the parameter ranges",
        id="numeric-template-fails",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "numeric"
        prompt = "With {N}?"
        answer = "log(N)"
        [card.params]
        N = { low = -3, high = 10 }
        """,
        "numeric template",
        8,
        "a",
        "narrow",
        id="numeric-template-undefined-at-range-end",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "numeric"
        prompt = "With {N}?"
        answer = "N"
        [card.params]
        N = { low = 10, high = 1 }
        """,
        "low > high",
        10,
        "a",
        "swap",
        id="param-range-reversed",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "numeric"
        prompt = "With {N}?"
        answer = "N"
        [card.params]
        N = { low = 1, high = 10, sigfig = 2 }
        """,
        "unknown key 'sigfig'",
        10,
        "a",
        "did you mean 'sigfigs'?",
        id="param-unknown-key",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "numeric"
        prompt = "Twice?"
        answer = "2*N"
        [card.params]
        N = { low = 1, high = 10 }
        """,
        "parameter 'N' is never shown in the prompt",
        10,
        "a",
        "{N}",
        id="param-not-in-prompt",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "fact"
        prompt = "p"
        value = 1
        range = [1, 2]
        """,
        "exactly one of 'value' or 'range'",
        4,
        "a",
        "range = [0.6, 1.3]",
        id="fact-value-and-range",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "fact"
        prompt = "p"
        range = [2, 1]
        """,
        "'range' must be [low, high]",
        8,
        "a",
        "range = [0.6, 1.3]",
        id="fact-range-reversed",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "fact"
        prompt = "p"
        value = 1
        tolerance = { relative = 0.1, absolute = 2 }
        """,
        "exactly one of relative, absolute, sigfigs, exact",
        9,
        "a",
        "relative = 0.01",
        id="tolerance-two-kinds",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "fact"
        prompt = "p"
        value = 1
        tolerance = { relative = 5 }
        """,
        "relative tolerance 5",
        9,
        "a",
        "0.05 means 5%",
        id="tolerance-percent-not-fraction",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "cloze"
        text = "no blank here"
        accept = ["x"]
        """,
        "exactly one blank",
        7,
        "a",
        "{{}}",
        id="cloze-without-blank",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "cloze"
        text = "a {{}} b"
        """,
        "exactly one of 'answer'",
        4,
        "a",
        "accept",
        id="cloze-without-answer",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "reverse"
        prompt = "Name it"
        shown = "x^2"
        accept = []
        """,
        "'accept' is empty",
        9,
        "a",
        "at least one",
        id="reverse-accept-empty",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "formula"
        prompt = "p"
        answer = "x"
        identities = [
          { lhs = "x", rhs = "x" },
          { lhs = "x", rhs = "(x" },
        ]
        [card.symbols]
        x = "real"
        """,
        "rhs '(x' does not parse",
        11,
        "a",
        "recall help syntax",
        id="identity-does-not-parse-points-at-its-element",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "formula"
        prompt = "p"
        answer = "x"
        identities = [{ derivative_of = "x^2", rhs = "2*x" }]
        [card.symbols]
        x = "real"
        """,
        "derivative identity has no 'wrt'",
        9,
        "a",
        'wrt = "x"',
        id="identity-derivative-without-wrt",
    ),
    pytest.param(
        """
        [[card]]
        id = "a"
        kind = "formula"
        prompt = "p"
        answer = "x"
        identities = [{ lhs = "x", rhs = "y" }]
        [card.symbols]
        x = "real"
        """,
        "symbol 'y' is used in rhs but not declared",
        9,
        "a",
        "declare it",
        id="identity-undeclared-symbol",
    ),
]


@pytest.mark.parametrize(("body", "message", "line", "card_id", "suggestion"), CASES)
def test_each_validation_error_is_located(
    tmp_path: Path,
    body: str,
    message: str | None,
    line: int | None,
    card_id: str | None,
    suggestion: str | None,
) -> None:
    path = write(tmp_path, body)
    if message is None:
        assert load_deck(path, check=check_deck).cards
        return
    error = only_error(path)
    assert message in error.message
    assert error.path == str(path)
    assert error.line == line
    assert error.card_id == card_id
    assert suggestion is not None and error.suggestion and suggestion in error.suggestion
    rendered = str(error)
    assert rendered.startswith(f"{path}:{line}: ")
    if card_id:
        assert f"card '{card_id}': " in rendered


def test_duplicate_ids_point_at_the_second_and_name_the_first(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        [[card]]
        id = "same"
        kind = "explain"
        prompt = "p"
        model_answer = "m"

        [[card]]
        id = "same"
        kind = "explain"
        prompt = "q"
        model_answer = "n"
        """,
    )
    error = only_error(path)
    assert error.message == "duplicate card id 'same'"
    assert error.line == 11
    assert error.card_id == "same"
    assert "the first is at line 4" in (error.suggestion or "")


def test_all_errors_of_a_file_are_collected_in_file_order(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        [[card]]
        id = "one"
        kind = "formula"
        prompt = "p"
        answer = "x +"

        [[card]]
        id = "two"
        kind = "fact"
        prompt = "p"

        [[card]]
        id = "three"
        kind = "explain"
        prompt = "p"
        model_answer = "m"
        colour = "blue"
        """,
    )
    errors = errors_of(path)
    assert [(e.card_id, e.line) for e in errors] == [("one", 8), ("two", 10), ("three", 20)]


def test_a_header_inside_a_multiline_string_does_not_shift_lines(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '''
        [[card]]
        id = "first"
        kind = "explain"
        prompt = "p"
        model_answer = """
        [[card]]
        id = "not-a-card"
        """

        [[card]]
        id = "second"
        kind = "explain"
        prompt = "p"
        model_answr = "m"
        ''',
    )
    errors = errors_of(path)
    assert {(e.card_id, e.line) for e in errors} == {("second", 13), ("second", 17)}


def test_deck_header_problems(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        [deck]
        id = "Not OK"
        nam = "x"

        [[card]]
        id = "a"
        kind = "explain"
        prompt = "p"
        model_answer = "m"
        """,
        header="",
    )
    errors = errors_of(path, engine=False)
    messages = {e.message: e for e in errors}
    assert messages["unknown key 'nam' in [deck]"].suggestion == "did you mean 'name'?"
    assert messages["unknown key 'nam' in [deck]"].line == 3
    assert messages["[deck] is missing 'name'"].line == 1
    assert messages["deck id 'Not OK' is not valid"].line == 2


def test_invalid_toml_reports_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, '\n[[card]]\nid = "a\n')
    error = only_error(path)
    assert error.message.startswith("not valid TOML")
    assert error.line == 5
    assert error.path == str(path)


def test_a_file_without_a_deck_table(tmp_path: Path) -> None:
    path = write(tmp_path, '[[card]]\nid = "a"\n', header="")
    error = only_error(path, engine=False)
    assert "no [deck] table" in error.message


def test_one_broken_deck_never_stops_the_others(tmp_path: Path) -> None:
    good = (FIXTURES / "sample" / "sample.toml").read_text(encoding="utf-8")
    (tmp_path / "a-good.toml").write_text(good, encoding="utf-8")
    write(tmp_path, '\n[[card]]\nid = "x"\nkind = "nope"\n', name="b-broken.toml")
    result = load_decks([tmp_path], check=check_deck)
    assert [deck.id for deck in result.decks] == ["sample"]
    assert len(result.failures) == 1
    failure = result.failures[0]
    assert isinstance(failure, DeckFailure)
    assert failure.path.endswith("b-broken.toml")
    assert "unknown kind 'nope'" in str(failure)


def test_deck_ids_must_be_unique_across_folders(tmp_path: Path) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    first.mkdir()
    second.mkdir()
    sample = (FIXTURES / "sample" / "sample.toml").read_text(encoding="utf-8")
    (first / "sample.toml").write_text(sample, encoding="utf-8")
    (second / "copy.toml").write_text(sample, encoding="utf-8")
    result = load_decks([first, second], check=check_deck)
    assert len(result.decks) == 1
    (clash,) = result.errors
    assert "deck id 'sample' is already used by" in clash.message
    assert clash.line == 3
    assert clash.path and clash.path.endswith("copy.toml")


def test_missing_folders_are_skipped_quietly(tmp_path: Path) -> None:
    result = load_decks([tmp_path / "nowhere"], check=check_deck)
    assert result.decks == () and result.failures == ()


def test_load_deck_raises_with_every_error(tmp_path: Path) -> None:
    path = write(tmp_path, '\n[[card]]\nid = "a"\nkind = "formula"\n')
    with pytest.raises(DeckFileError) as info:
        load_deck(path, check=check_deck)
    assert len(info.value.errors) == 2  # no prompt, no answer
    assert "missing 'prompt'" in str(info.value) and "missing 'answer'" in str(info.value)


def test_structure_only_loading_skips_the_engine(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
        [[card]]
        id = "a"
        kind = "formula"
        prompt = "p"
        answer = "x +* 2"
        """,
    )
    assert load_deck(path).card("a").answer == "x +* 2"
    deck, errors = read_deck(path, check=check_deck)  # the engine check is what rejects it
    assert deck is None and "does not parse" in errors[0].message


def test_a_symbol_defined_by_an_expression_is_graded_in_either_spelling(tmp_path) -> None:
    from recall.cards.loader import read_deck

    path = tmp_path / "eq.toml"
    path.write_text(
        '[deck]\nid = "eq"\nname = "Eq"\n\n[[card]]\nid = "beta-form"\nkind = "formula"\n'
        'prompt = "Forward variance"\nanswer = "beta_t*x"\n[card.symbols]\n'
        'alpha_t = "(0, 1)"\nbeta_t = { domain = "(0, 1)", equals = "1 - alpha_t" }\n'
        'x = "real"\n\n[[card]]\nid = "bad-def"\nkind = "formula"\nprompt = "p"\nanswer = "b"\n'
        '[card.symbols]\nb = { domain = "real", equals = "zz + 1" }\n'
    )
    deck, errors = read_deck(path, check=check_deck)
    assert len(errors) == 1
    assert "'zz' is used in the definition of 'b'" in str(errors[0])
    assert ":21:" in str(errors[0]) or "bad-def" in str(errors[0])
    assert deck is None or deck.card("beta-form")


def test_definitions_reach_the_grader(tmp_path) -> None:
    from recall.cards.loader import read_deck
    from recall.grading import grade

    path = tmp_path / "eq.toml"
    path.write_text(
        '[deck]\nid = "eq"\nname = "Eq"\n\n[[card]]\nid = "beta-form"\nkind = "formula"\n'
        'prompt = "Forward variance"\nanswer = "beta_t*x"\n[card.symbols]\n'
        'alpha_t = "(0, 1)"\nbeta_t = { domain = "(0, 1)", equals = "1 - alpha_t" }\n'
        'x = "real"\n'
    )
    deck, errors = read_deck(path, check=check_deck)
    assert errors == [] and deck is not None
    card = deck.card("beta-form")
    assert grade(card, "(1 - alpha_t)*x").is_correct
    assert not grade(card, "alpha_t*x").is_correct


def test_an_answer_the_renderer_cannot_build_is_still_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deck check no longer draws each answer (the drawing falls back to one line on a
    printer error), but what :func:`recall.formula.render` would raise on is still a located
    error: the SymPy tree it draws cannot be built."""
    from recall.formula.expression import Expression

    def broken(self: Expression, *, evaluate: bool = True) -> object:
        raise ValueError("no tree for this")

    monkeypatch.setattr(Expression, "to_sympy", broken)
    path = write(
        tmp_path,
        """
        [[card]]
        id = "f"
        kind = "formula"
        prompt = "p"
        answer = "x + 1"
        symbols = { x = "real" }
        """,
    )
    error = only_error(path)
    assert "answer does not render: no tree for this" in error.message
    assert (error.line, error.card_id) == (8, "f")  # the answer's line


@pytest.mark.parametrize(
    "text", ["x + 1", "(a-b)^2/c", "sqrt(sqrt(sqrt(sqrt(sqrt(sqrt(sqrt(sqrt(sqrt(x)))))))))"]
)
def test_the_check_and_the_renderer_agree(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`check_drawable` raises exactly when :func:`render` does, drawn or too big to
    draw, and returns the one-line text the drawing falls back to."""
    from recall.formula import parse, render
    from recall.formula.expression import Expression
    from recall.formula.render import check_drawable

    expression = parse(text)
    assert render(expression).strip()
    assert check_drawable(expression) == expression.to_text()

    def broken(self: Expression, *, evaluate: bool = True) -> object:
        raise OSError("no tree")

    monkeypatch.setattr(Expression, "to_sympy", broken)
    failures = []
    for call in (render, check_drawable):
        try:
            call(expression)
        except OSError:
            failures.append(call.__name__)
    too_big = text.startswith("sqrt")  # drawn on one line: no SymPy tree is built
    assert failures == ([] if too_big else ["render", "check_drawable"])
