"""Near-miss diagnoses speak the learner's names, in the learner's case.

Two classes of slip: a sentence that starts with a symbol capitalised it (``y`` became ``Y``,
another symbol), and on a card with a shorthand (``y_hat = w*x``) the part named came from the
expanded answer, so the learner read about ``w``, which they never typed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

import pytest

from recall.cards.loader import load_decks
from recall.cards.model import Card, CardKind
from recall.formula import SymbolTable, check
from recall.formula.definitions import expand_definitions
from recall.formula.nodes import BinOp, Call, Negate, Node, Symbol, walk
from recall.formula.parser import parse
from recall.formula.printer import to_text
from recall.formula.shorthand import sentence_case
from recall.grading import check_deck, grade, symbol_table
from recall.paths import builtin_decks_dir

# Words the diagnosis sentences are made of; a one-letter variable named like one (``a``) is
# not counted as "named" when it stands as that word.
_PROSE = {"a", "an", "the", "of", "in", "is", "to", "not", "one", "or", "by", "be", "as"}


@pytest.mark.parametrize("name", ["y", "x_j", "sigma", "alpha", "mu", "w"])
@pytest.mark.parametrize("reference", ["q*z", "(q + z)*z", "sqrt(q)*z"])
def test_a_diagnosis_never_changes_the_case_of_a_symbol(name: str, reference: str) -> None:
    table = SymbolTable.build({name: "positive", "q": "positive", "z": "positive"}, {})
    verdict = check(reference, f"{name}*z", table)
    assert verdict.diagnosis is not None, verdict.message
    message = verdict.diagnosis.message
    words = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", message)
    assert name in words, message
    assert name[0].upper() + name[1:] not in words, message


@pytest.mark.parametrize(
    ("message", "shown"),
    [
        ("y should be w*x - y", "y should be w*x - y"),
        ("sigma belongs in the denominator", "sigma belongs in the denominator"),
        ("the factor y should be x", "The factor y should be x"),
        ("a term is missing: + b", "A term is missing: + b"),
    ],
)
def test_sentence_case_capitalises_words_only(message: str, shown: str) -> None:
    assert sentence_case(message) == shown


def test_the_coordinate_gradient_diagnoses_in_the_learners_names() -> None:
    card = _card("gradients/linreg-grad-coordinate")
    typed_y_hat = grade(card, "y_hat*x_j")
    assert typed_y_hat.diagnosis is not None
    assert "w" not in _named(typed_y_hat.diagnosis.message, card)
    typed_y = grade(card, "y*x_j")
    assert typed_y.diagnosis is not None
    assert "Y" not in typed_y.diagnosis.message
    assert "y_hat - y" in typed_y.diagnosis.message, typed_y.diagnosis.message


@lru_cache(maxsize=1)
def _cards() -> tuple[Card, ...]:
    return tuple(load_decks([builtin_decks_dir()], check=check_deck).cards)


def _card(key: str) -> Card:
    return next(card for card in _cards() if card.key == key)


def _shorthand_cards() -> list[Card]:
    return [
        card
        for card in _cards()
        if card.kind is CardKind.FORMULA and any(s.equals for s in card.symbols)
    ]


def _named(message: str, card: Card) -> set[str]:
    """The card's variables a message names (prose words aside)."""
    declared = {s.name for s in card.symbols}
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", message)) - _PROSE
    return words & declared


def _symbols(text: str, table: SymbolTable) -> set[str]:
    return {n.name for n in walk(parse(text, table).tree) if isinstance(n, Symbol)}


def _mutants(node: Node, names: list[str]) -> Iterator[Node]:
    """``node`` with one slip: a variable for another, or a sign flipped."""
    if isinstance(node, Symbol):
        yield from (Symbol(other) for other in names if other != node.name)
    elif isinstance(node, Negate):
        yield node.operand
        yield from (Negate(m) for m in _mutants(node.operand, names))
    elif isinstance(node, BinOp):
        if node.op in "+-":
            yield BinOp("-" if node.op == "+" else "+", node.left, node.right)
        yield from (BinOp(node.op, m, node.right) for m in _mutants(node.left, names))
        yield from (BinOp(node.op, node.left, m) for m in _mutants(node.right, names))
    elif isinstance(node, Call):
        for index, arg in enumerate(node.args):
            for m in _mutants(arg, names):
                args = node.args[:index] + (m,) + node.args[index + 1 :]
                yield Call(node.name, args, node.shown)


def _near_misses(card: Card, limit: int = 10) -> list[str]:
    table = symbol_table(card)
    names = sorted(table.variables)
    short = parse(card.answer, table).tree
    long = expand_definitions(short, table)
    out: list[str] = []
    for tree in (short, long):
        for mutant in _mutants(tree, names):
            text = to_text(mutant)
            if text not in out:
                out.append(text)
            if len(out) >= limit * (1 if tree is short else 2):
                break
    return out


def test_there_are_shorthand_cards_to_check() -> None:
    assert len(_shorthand_cards()) >= 3


@pytest.mark.parametrize("card", _shorthand_cards(), ids=lambda card: card.key)
def test_shorthand_cards_diagnose_only_names_the_learner_or_reference_used(card: Card) -> None:
    table = symbol_table(card)
    reference_names = {
        n.name for n in walk(parse(card.answer, table).tree) if isinstance(n, Symbol)
    }
    diagnosed = 0
    for answer in _near_misses(card):
        verdict = grade(card, answer)
        if verdict.diagnosis is None:
            continue
        diagnosed += 1
        typed = _symbols(answer, table)
        stray = _named(verdict.diagnosis.message, card) - typed - reference_names
        assert not stray, f"{answer!r}: {verdict.diagnosis.message}"
        first = verdict.diagnosis.message.split(" ", 1)[0]
        assert first.lower() not in {s.name.lower() for s in card.symbols} or first in (
            typed | reference_names
        ), f"{answer!r}: {verdict.diagnosis.message}"
    assert diagnosed, "no near miss was diagnosed: the test checks nothing"


@pytest.mark.parametrize(
    ("answer", "marked"),
    [("(y_hat - y)*x", "x"), ("(y_hat + y)*x_j", "y"), ("y*x_j", "y"), ("y_hat*x_j", None)],
)
def test_the_marked_part_is_in_the_answer_as_typed(answer: str, marked: str | None) -> None:
    """The part's path is found with shorthands expanded; the mark is on the typed text, and
    nothing is marked when the part lies inside an expanded shorthand."""
    verdict = grade(_card("gradients/linreg-grad-coordinate"), answer)
    assert verdict.part is not None, verdict.message
    span = verdict.part.answer_span
    shown = None if span is None else verdict.interpreted[span[0] : span[1]]
    assert shown == marked, verdict.message


@pytest.mark.parametrize("card", _shorthand_cards(), ids=lambda card: card.key)
def test_shorthand_cards_mark_a_readable_piece_of_the_typed_answer(card: Card) -> None:
    table = symbol_table(card)
    for answer in _near_misses(card):
        verdict = grade(card, answer)
        if verdict.part is None or verdict.part.answer_span is None:
            continue
        start, end = verdict.part.answer_span
        piece = verdict.interpreted[start:end].lstrip("+- ")
        assert _symbols(piece, table) <= _symbols(answer, table), (answer, piece)


@pytest.mark.parametrize(
    ("reference", "typed", "variables"),
    [
        ("rel/log2(i + 1)", "rel/log2(i)", {"rel": "nonnegative integer", "i": "positive integer"}),
        ("a*x/(1 + y)", "a*x/y", {"a": "nonnegative", "x": "real", "y": "positive"}),
        ("w*(1 + x^2)", "w*(1 + x)", {"w": "nonnegative", "x": "real"}),
    ],
)
def test_where_both_sides_vanish_is_no_evidence_of_a_partial_domain(
    reference: str, typed: str, variables: dict[str, str]
) -> None:
    """A factor that can be 0 makes the answer and the reference both 0 there; that is not
    'Right only when rel < 0' (rel is never negative), nor any claim about where it is right."""
    verdict = check(reference, typed, SymbolTable.build(variables))
    assert str(verdict.status) == "incorrect"
    assert not verdict.message.startswith("Right only when"), verdict.message
