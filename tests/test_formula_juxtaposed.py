"""One-letter names typed side by side are their product, as the prompts write them.

The prompts write ``6ND``, ``12Ld² + Vd``, ``2PR/(P + R)``; a learner types them back the same
way. Every built-in formula answer that is a product of two or more one-letter names is typed
with those names run together (``N*D`` → ``ND``), and must be read as the product and graded
like the spaced form; a run that is a word, or that splits into the card's names in more than
one way, is still asked about.
"""

from __future__ import annotations

from functools import lru_cache

import pytest

from recall.cards.loader import load_decks
from recall.cards.model import CardKind
from recall.errors import ParseError
from recall.formula import SymbolTable, check, parse
from recall.formula.nodes import BinOp, Node, Symbol
from recall.formula.printer import to_text
from recall.grading import symbol_table
from recall.paths import builtin_decks_dir


def one_letter(name: str) -> bool:
    head = name.split("_", 1)[0]
    return len(head) == 1 and head.isalpha()


def runs(node: Node):
    """Products of two or more one-letter symbols in ``node`` (left-nested ``a*b*c``)."""
    if isinstance(node, BinOp) and node.op == "*":
        names: list[str] = []
        current: Node = node
        while (
            isinstance(current, BinOp) and current.op == "*" and isinstance(current.right, Symbol)
        ):
            names.insert(0, current.right.name)
            current = current.left
        if isinstance(current, Symbol):
            names.insert(0, current.name)
            if len(names) >= 2 and all(one_letter(n) for n in names):
                yield names
    for child in getattr(node, "args", ()) or ():
        yield from runs(child)
    if isinstance(node, BinOp):
        yield from runs(node.left)
        yield from runs(node.right)


@lru_cache(maxsize=1)
def cases() -> list[tuple[str, str, str, SymbolTable]]:
    found = []
    for deck in load_decks([builtin_decks_dir()]).decks:
        for card in deck.cards:
            if card.kind is not CardKind.FORMULA or card.params:
                continue
            table = symbol_table(card)
            tree = parse(card.answer, table).tree
            text = to_text(tree)
            for names in runs(tree):
                spaced = "*".join(names)
                if spaced in text:
                    found.append(
                        (card.key, card.answer, text.replace(spaced, "".join(names)), table)
                    )
    return found


def test_the_class_is_large() -> None:
    assert len(cases()) >= 12


@pytest.mark.parametrize("case", cases(), ids=lambda case: f"{case[0]}:{case[2]}")
def test_a_run_of_the_cards_letters_is_their_product(case) -> None:
    key, reference, typed, table = case
    verdict = check(reference, typed, table)
    assert verdict.is_correct, (key, typed, verdict.message)


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("6ND", "6*N*D"),
        ("12Ld^2 + Vd", "12*L*d^2 + V*d"),  # the exponent binds to the last letter
        ("12Ld² + Vd", "12*L*d^2 + V*d"),
        ("d(12Ld + V)", "d*(12*L*d + V)"),
        ("XW_Q", "X*W_Q"),
        ("λEfᵢPᵢ", "lambda*E*f_i*P_i"),  # subscripts as the screen shows them
    ],
)
def test_the_reading_is_shown(typed: str, read: str) -> None:
    table = SymbolTable.build(
        {n: "positive" for n in ("N", "D", "L", "d", "V", "X", "W_Q", "lambda", "E", "f_i", "P_i")}
    )
    assert parse(typed, table).to_text() == read


def test_a_slip_in_a_run_is_graded_and_marked() -> None:
    table = SymbolTable.build({n: "positive" for n in ("L", "d", "V")})
    verdict = check("12*L*d^2 + V*d", "12Ld² + 2Vd", table)
    assert str(verdict.status) == "incorrect"
    assert verdict.part is not None and verdict.part.answer_text == "2"


@pytest.mark.parametrize(
    ("typed", "names", "asked"),
    [
        ("mean", ("m", "e_1", "a", "n"), "unknown name 'mean'"),  # a word, not m·e·a·n
        ("TPFP", ("TP", "FP"), "did you mean TP*FP?"),  # longer names: asked
        ("abc", ("a", "b", "c", "ab", "bc"), "did you mean"),  # two splits: asked
    ],
)
def test_a_word_or_an_ambiguous_run_is_asked(
    typed: str, names: tuple[str, ...], asked: str
) -> None:
    table = SymbolTable.build({n: "real" for n in names})
    with pytest.raises(ParseError) as caught:
        parse(typed, table)
    assert asked in caught.value.message


@lru_cache(maxsize=1)
def letter_pairs() -> list[tuple[str, str, SymbolTable]]:
    """Two one-letter names of one built-in card, each pair once per card."""
    found = []
    for deck in load_decks([builtin_decks_dir()]).decks:
        for card in deck.cards:
            if card.kind is not CardKind.FORMULA or card.params:
                continue
            table = symbol_table(card)
            letters = sorted(n for n in table.variables if len(n) == 1 and n.isalpha())
            found += [(a, b, table) for a in letters for b in letters if a != b]
    return found


@pytest.mark.parametrize(
    "exponent", ["2^{run}", "e^-{run}", "e^+{run}", "{a}^{run} + 1", "2**{run}"]
)
def test_a_run_in_an_exponent_is_asked_about_never_split(exponent: str) -> None:
    """``2^ND`` read as ``N*D`` would be ``2^N*D`` (the exponent binds its first letter), not
    the ``2^(N*D)`` the learner meant: a run after ``^`` (or after a sign after ``^``) is
    answered with the question, as it was before runs were read, on every built-in card."""
    assert len(letter_pairs()) >= 200
    silent = []
    for a, b, table in letter_pairs():
        typed = exponent.format(run=a + b, a=a)
        try:
            parse(typed, table)
        except ParseError as error:
            if f"did you mean {a}*{b}?" not in error.message and a + b not in table.variables:
                if "did you mean" not in error.message:
                    silent.append(f"{typed}: {error.message}")
            continue
        if a + b not in table.variables:
            silent.append(f"{typed} was read silently")
    assert silent == []


def test_a_bracketed_run_in_an_exponent_is_its_product() -> None:
    table = SymbolTable.build(variables={"N": "positive", "D": "positive"}, strict=True)
    assert check("2^(N*D)", "2^(ND)", table).is_correct
    assert check("exp(-N*D)", "e^(-ND)", table).is_correct
    assert not check("exp(-N*D)", "e^-N*D", table).is_correct
    assert check("6*N*D", "6ND", table).is_correct
