"""Answers carry units: the card's own or a compatible one is converted, another kind is invalid.

The pure reader (:mod:`recall.cards.units`) on its own, then every built-in numeric and fact card
that declares a unit, graded through :func:`recall.grading.grade`: the reference with its unit,
bare, and in a compatible unit is right; a unit of another kind is invalid with a reason; the
preview reads the quantity; the reference is shown with its unit exactly once.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import pytest

from recall.cards.loader import LoadResult, load_decks
from recall.cards.model import Card, CardKind
from recall.cards.units import (
    Quantity,
    UnitMismatch,
    card_unit,
    fraction_hint,
    read_quantity,
    with_unit,
)
from recall.formula import Status, evaluate_constant
from recall.grading import Question, check_deck, grade, preview, reference_answer
from recall.paths import builtin_decks_dir
from recall.tui.presenting import reference_rendered
from recall.wording import unit_for

SEED = 7


@lru_cache(maxsize=1)
def builtin() -> LoadResult:
    result = load_decks([builtin_decks_dir()], check=check_deck)
    assert result.ok, result.errors
    return result


def card(key: str) -> Card:
    deck_id, card_id = key.split("/")
    return builtin().deck(deck_id).card(card_id)


# ----- the reader ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "unit", "number", "factor"),
    [
        ("17.6 GB", "GB", "17.6", Fraction(1)),
        ("17.6GB", "GB", "17.6", Fraction(1)),
        ("17600 MB", "GB", "17600", Fraction(1, 1000)),
        ("16 GiB", "GB", "16", Fraction(2**30, 10**9)),
        ("2 bytes", "bytes", "2", Fraction(1)),
        ("2B", "bytes", "2", Fraction(1)),
        ("4 bits", "bytes", "4", Fraction(1, 8)),
        ("16 B/param", "bytes/param", "16", Fraction(1)),
        ("330 KB per token", "MB/token", "330", Fraction(1, 1000)),
        ("5.9e23 FLOPs", "FLOPs", "5.9e23", Fraction(1)),
        ("590 ZFLOPs", "FLOPs", "590", Fraction(10**21)),
        ("28 GFLOPs per token", "FLOPs/token", "28", Fraction(10**9)),
        ("8x", "×", "8", Fraction(1)),
        ("8×", "×", "8", Fraction(1)),
        ("8 times", "×", "8", Fraction(1)),
        ("45%", "% of peak", "45", Fraction(1)),
        ("45 percent", "% of peak", "45", Fraction(1)),
        ("10% of peak", "% of peak", "10", Fraction(1)),
        ("45%", "", "45", Fraction(1, 100)),
        ("7B", "parameters", "7B", Fraction(1)),
        ("7B params", "parameters", "7B", Fraction(1)),
        ("7 billion parameters", "parameters", "7 billion", Fraction(1)),
        ("8 heads", "KV heads", "8", Fraction(1)),
        ("1.2M GPU-hours", "GPU-hours", "1.2M", Fraction(1)),
        ("20 tokens per parameter", "tokens/param", "20", Fraction(1)),
        ("1.1 bits per character", "bits/char", "1.1", Fraction(1)),
        ("3.1 radians", "rad", "3.1", Fraction(1)),
        # not units: left whole for the engine
        ("2pi", "×", "2pi", Fraction(1)),
        ("log(2)", "", "log(2)", Fraction(1)),
        ("1e-8", "", "1e-8", Fraction(1)),
        ("512k", "tokens", "512k", Fraction(1)),
    ],
)
def test_a_unit_is_read_and_converted(typed: str, unit: str, number: str, factor: Fraction) -> None:
    quantity = read_quantity(typed, unit)
    assert isinstance(quantity, Quantity), quantity
    assert (quantity.number, quantity.factor) == (number, factor)


@pytest.mark.parametrize(
    ("typed", "unit", "reason"),
    [
        ("17.6 FLOPs", "GB", "GB; FLOPs is compute"),
        ("7 GB", "parameters", "in parameters, not GB"),
        ("7 tokens", "parameters", "in parameters, not tokens"),
        ("1 nat", "bits/char", "nat is information in nats"),
        ("1e20 FLOP/s", "FLOPs", "not per second"),
        ("0.7 nats", "", "plain number, not nats"),
    ],
)
def test_a_unit_of_another_kind_is_a_mismatch(typed: str, unit: str, reason: str) -> None:
    mismatch = read_quantity(typed, unit)
    assert isinstance(mismatch, UnitMismatch)
    assert reason in mismatch.message
    assert typed[mismatch.column :].startswith(typed.split(" ")[-1][:1])


def test_a_bare_fraction_on_a_percent_card_gets_a_hint() -> None:
    bare = Quantity("0.45")
    assert fraction_hint(bare, 0.45, "% of peak", [40, 50]) == (
        "This card asks for a percentage: did you mean 45%?"
    )
    assert fraction_hint(Quantity("0.45", unit="%"), 0.45, "%", [40]) is None  # typed the %
    assert fraction_hint(bare, 0.45, "%", [0.5, 2]) is None  # 0.45% is a real reading here
    assert fraction_hint(bare, 0.45, "", [0.45]) is None  # not a percent card
    assert fraction_hint(bare, 45, "%", [40]) is None


def test_the_unit_is_written_once() -> None:
    assert with_unit("2", "bytes") == "2 bytes"
    assert with_unit("2 bytes", "bytes") == "2 bytes"
    assert with_unit("10", "% of peak") == "10% of peak"
    assert with_unit("8", "×") == "8×"
    assert with_unit("5", "") == "5"


# ----- every built-in card with a unit --------------------------------------------------------

_OTHER_KIND = {
    "memory": "FLOPs",
    "compute": "GB",
    "ratio": "GB",
    "bits": "nats",
    "nats": "bits",
    "count": "GB",
    "angle": "GB",
}


def unit_cards() -> list[Card]:
    return [c for c in builtin().cards if c.unit and c.kind in (CardKind.NUMERIC, CardKind.FACT)]


def reference_value(item: Card) -> tuple[str, float, Question]:
    """The card's reference as typed (a number or a range), one accepted value, and the
    question asked (a numeric card's values drawn from :data:`SEED`)."""
    question = Question.draw(item, SEED)
    if item.kind is CardKind.NUMERIC:
        value = evaluate_constant(question.expected)
        return f"{value:.10g}", value, question
    text = reference_answer(item)
    value = item.value if item.value is not None else sum(item.value_range or (0, 0)) / 2
    return text, value, question


def test_every_builtin_unit_is_understood() -> None:
    kinds = {c.unit: card_unit(c.unit).unit.kind for c in unit_cards()}
    assert len(kinds) >= 20
    counts = {unit for unit, kind in kinds.items() if kind == "count"}
    # everything that is not a count noun is read as a measure
    assert counts == {
        "parameters",
        "tokens",
        "steps",
        "KV heads",
        "hidden units",
        "GPU-hours",
        "tokens/param",
        "chars/token",
    }


@pytest.mark.parametrize("item", unit_cards(), ids=lambda c: c.key)
def test_the_reference_is_right_bare_and_with_its_unit(item: Card) -> None:
    text, _value, asked = reference_value(item)
    assert grade(asked, text).is_correct, text
    shown = with_unit(text, item.unit)
    verdict = grade(asked, shown)
    assert verdict.is_correct, (shown, verdict.message)


@pytest.mark.parametrize("item", unit_cards(), ids=lambda c: c.key)
def test_a_unit_of_another_kind_is_invalid_with_a_reason(item: Card) -> None:
    text, value, asked = reference_value(item)
    other = _OTHER_KIND[card_unit(item.unit).unit.kind]
    verdict = grade(asked, f"{value:.6g} {other}")
    assert verdict.status is Status.INVALID
    assert verdict.method == "unit"
    assert item.unit in verdict.message


_COMPATIBLE = {
    "GB": lambda v: f"{v * 1000:.10g} MB",
    "bytes": lambda v: f"{v * 8:.10g} bits",
    "MB/token": lambda v: f"{v * 1000:.10g} KB/token",
    "bytes/param": lambda v: f"{v:.10g} B per parameter",
    "FLOPs": lambda v: f"{v / 1e9:.10g} GFLOPs",
    "FLOPs/token": lambda v: f"{v / 1e9:.10g} GFLOP per token",
    "×": lambda v: f"{v:.10g}x",
    "parameters": lambda v: f"{v:.10g} params",
    "tokens/param": lambda v: f"{v:.10g} tokens per parameter",
    "chars/token": lambda v: f"{v:.10g} characters per token",
    "KV heads": lambda v: f"{v:.10g} heads",
    "hidden units": lambda v: f"{v:.10g} units",
    "GPU-hours": lambda v: f"{v:.10g} GPU hours",
    "bits/char": lambda v: f"{v:.10g} bits per character",
    "nats/token": lambda v: f"{v:.10g} nats per token",
    "% of peak": lambda v: f"{v:.10g} percent",
    "% of steps": lambda v: f"{v:.10g} %",
    "% extra": lambda v: f"{v:.10g}%",
    "rad": lambda v: f"{v:.10g} radians",
}


@pytest.mark.parametrize(
    "item", [c for c in unit_cards() if c.unit in _COMPATIBLE], ids=lambda c: c.key
)
def test_a_compatible_unit_is_converted(item: Card) -> None:
    _text, value, asked = reference_value(item)
    typed = _COMPATIBLE[item.unit](value)
    verdict = grade(asked, typed)
    assert verdict.is_correct, (typed, verdict.message)


@pytest.mark.parametrize("item", unit_cards(), ids=lambda c: c.key)
def test_the_preview_reads_a_quantity(item: Card) -> None:
    _text, value, _asked = reference_value(item)
    number = f"{value:.6g}"
    shown = preview(item, with_unit(number, item.unit))
    assert shown.ok, shown.message
    assert "⋅" not in shown.rendered and "*" not in shown.interpreted
    unit = unit_for(number, item.unit)  # "1 byte", "2 bytes"
    assert shown.rendered.rstrip().endswith(unit.split(" ")[-1].lstrip("%×"))


@pytest.mark.parametrize(
    "item", [c for c in unit_cards() if c.kind is CardKind.FACT], ids=lambda c: c.key
)
def test_the_reference_is_shown_with_its_unit_once(item: Card) -> None:
    shown = reference_rendered(item)
    unit = unit_for(reference_answer(item), item.unit)  # "1 byte", "16 bytes"
    assert shown.count(unit) == 1, shown
    assert grade(item, shown).is_correct


@pytest.mark.parametrize(
    "item", [c for c in unit_cards() if c.kind is CardKind.NUMERIC], ids=lambda c: c.key
)
def test_the_worked_answer_ends_in_the_unit_once(item: Card) -> None:
    worked = grade(Question.draw(item, SEED), "1").worked
    last = worked.splitlines()[-1]
    assert last.endswith(item.unit) and last.count(item.unit) == 1, last


PERCENT_FACTS = [
    c.key for c in unit_cards() if card_unit(c.unit).is_percent and c.kind is CardKind.FACT
]


@pytest.mark.parametrize("key", PERCENT_FACTS)
def test_a_fraction_inside_a_percent_cards_range_is_the_learners_meaning(key: str) -> None:
    """``0.01`` on the warmup card (0.5-2%) is 1%: right, and the message says how it was read.
    Every right value of every percent card, typed as a fraction, is graded right."""
    item = card(key)
    rights = [item.value] if item.value is not None else list(item.value_range or ())
    if item.value_range is not None:
        rights.append(sum(item.value_range) / 2)
    for right in rights:
        typed = f"{right / 100:.6g}"
        verdict = grade(item, typed)
        assert verdict.is_correct, (key, typed, verdict.message)
        if not grade(item, f"{right / 100:.6g}%").is_correct:  # not right as a percentage too
            assert "read as a fraction" in verdict.message, verdict.message


@pytest.mark.parametrize("key", PERCENT_FACTS)
def test_a_percent_card_asks_about_a_fraction_wrong_both_ways(key: str) -> None:
    item = card(key)
    low = item.value if item.value is not None else (item.value_range or (0, 0))[0]
    if low >= 1:
        wrong = low * 0.5  # below the sheet as a percentage and as a fraction
        verdict = grade(item, f"{wrong / 100:.6g}")
        assert verdict.status is Status.INVALID
        assert f"did you mean {wrong:.6g}%?" in verdict.message
    else:  # the warmup card (0.5-2%): a bare 0.5 is 0.5%, a right answer, not a fraction
        assert grade(item, f"{low:.6g}").is_correct


def test_the_issue_cases() -> None:
    assert grade(card("inference-cost/kv-bytes-fp16"), "2 bytes").is_correct
    for typed in ("8x", "8×", "8 x"):
        assert grade(card("attention-transformers/sqrt-dk-head64"), typed).is_correct
    hint = grade(card("training-scaling/mfu-good"), "0.3")
    assert hint.status is Status.INVALID and "did you mean 30%?" in hint.message
    assert grade(card("training-scaling/mfu-good"), "0.45").is_correct
    assert grade(card("optimizers/warmup-fraction"), "0.01").is_correct
    assert not grade(card("optimizers/warmup-fraction"), "0.05").is_correct
    quantity = preview(card("inference-cost/kv-cache-num"), "17.6 GB")
    assert quantity.ok and quantity.rendered == "17.6 GB"
