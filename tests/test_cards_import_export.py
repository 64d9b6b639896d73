"""CSV/TSV import (Anki text export, Quizlet export, plain CSV), export, and round trips."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from pathlib import Path

import pytest

from recall.cards.loader import load_deck
from recall.cards.model import Card, CardKind
from recall.cards.writer import card_to_dict, deck_to_toml, toml_string
from recall.errors import DeckError
from recall.grading import check_deck
from recall.interop.json_deck import read_json_deck
from recall.interop.text_export import back_text, front_text, to_csv, to_json
from recall.interop.text_import import choose_kind, notes_to_deck, read_notes

FIXTURE = Path(__file__).parent / "fixtures" / "decks" / "sample" / "sample.toml"

# What Anki (2.1.55+) writes for File › Export › "Notes in Plain Text" with "include HTML",
# "include tags", "include deck name", "include notetype name" and "include unique identifier".
ANKI_EXPORT = (
    "#separator:tab\n"
    "#html:true\n"
    "#guid column:1\n"
    "#notetype column:2\n"
    "#deck column:3\n"
    "#tags column:6\n"
    "f<K!2z+Qs%\tBasic\tML::Formulas\tWhat does MSE stand for?\t"
    "mean squared error\tlosses regression\n"
    "Bv]4,Ow1(y\tBasic\tML::Formulas\t"
    '"Adam memory per parameter<br>(mixed precision, bytes)"\t16\toptimizers\n'
    "c9#Lk?TnW!\tBasic\tML::Formulas\tWhy divide the logits by &radic;d<sub>k</sub>?\t"
    '"<div>Keeps the logit variance near 1,</div>'
    '<div>so the softmax does not saturate.</div>"\tattention\n'
    "Xy7&mQ2@pl\tCloze\tML::Formulas\tBatchNorm normalises over the {{c1::batch::which axis?}} "
    "dimension\t\tnormalization\n"
    "Qq0~aa1$zz\tBasic\tML::Formulas\tTypical CFG scale\t7.5\tdiffusion\n"
)


def test_anki_export_headers_columns_html_and_tags() -> None:
    imported = read_notes(ANKI_EXPORT, source="ml.txt")
    assert imported.format == "anki" and imported.separator == "\t"
    assert [n.front for n in imported.notes] == [
        "What does MSE stand for?",
        "Adam memory per parameter\n(mixed precision, bytes)",
        "Why divide the logits by √dk?",
        "BatchNorm normalises over the {{c1::batch::which axis?}} dimension",
        "Typical CFG scale",
    ]
    assert (
        imported.notes[2].back
        == "Keeps the logit variance near 1,\nso the softmax does not saturate."
    )
    assert imported.notes[0].tags == ("losses", "regression")
    assert imported.notes[0].note_id == "f<K!2z+Qs%"


def test_anki_notes_become_the_right_kinds(tmp_path: Path) -> None:
    imported = read_notes(ANKI_EXPORT)
    deck = notes_to_deck(imported.notes, deck_id="ml", name="ML", source="ml.txt")
    kinds = [card.kind for card in deck.cards]
    assert kinds == [
        CardKind.REVERSE,
        CardKind.FACT,
        CardKind.EXPLAIN,
        CardKind.CLOZE,
        CardKind.FACT,
    ]
    mse, adam, why, cloze, cfg = deck.cards
    assert mse.shown == "What does MSE stand for?" and mse.accept == ("mean squared error",)
    assert adam.value == 16
    assert why.model_answer.startswith("Keeps the logit variance")
    assert cloze.text == "BatchNorm normalises over the {{}} dimension"
    assert cloze.accept == ("batch",) and cloze.hint == "which axis?"
    assert cfg.value == 7.5
    assert len({card.id for card in deck.cards}) == 5  # ids from the guids, unique
    # what import writes is a valid deck, with the engine checks on
    path = tmp_path / "ml.toml"
    path.write_text(deck_to_toml(deck), encoding="utf-8")
    assert [c.id for c in load_deck(path, check=check_deck).cards] == [c.id for c in deck.cards]


def test_anki_comma_separator_with_columns_header() -> None:
    text = (
        "#separator:comma\n#html:false\n#columns:Front,Back,Tags\n#tags column:3\n"
        '"Softmax, shifted by c",Unchanged,activations\n'
        "Chinchilla tokens per parameter,20,scaling\n"
    )
    notes = read_notes(text).notes
    assert (notes[0].front, notes[0].back, notes[0].tags) == (
        "Softmax, shifted by c",
        "Unchanged",
        ("activations",),
    )
    assert notes[1].back == "20"


def test_anki_semicolon_separator() -> None:
    text = "#separator:semicolon\n#html:false\nfront one;back one\nfront two;back two\n"
    notes = read_notes(text).notes
    assert [(n.front, n.back) for n in notes] == [
        ("front one", "back one"),
        ("front two", "back two"),
    ]


QUIZLET_TAB = (
    "Sigmoid\t1/(1+e^-x), squashes to (0, 1)\n"
    "Cross-entropy\tnegative log-likelihood of the right class, averaged over the data\n"
    "Adam beta1\t0.9\n"
)


def test_quizlet_tab_and_newline() -> None:
    imported = read_notes(QUIZLET_TAB, source="q.txt")
    assert imported.format == "quizlet"
    assert [(n.front, n.back) for n in imported.notes] == [
        ("Sigmoid", "1/(1+e^-x), squashes to (0, 1)"),
        ("Cross-entropy", "negative log-likelihood of the right class, averaged over the data"),
        ("Adam beta1", "0.9"),
    ]
    deck = notes_to_deck(imported.notes, deck_id="q", name="Q")
    assert [c.kind for c in deck.cards] == [CardKind.EXPLAIN, CardKind.EXPLAIN, CardKind.FACT]


def test_quizlet_comma_and_semicolon() -> None:
    text = "GELU,x times Phi(x);ReLU,max(0, x);LoRA rank,16"
    notes = read_notes(text).notes
    assert [(n.front, n.back) for n in notes] == [
        ("GELU", "x times Phi(x)"),
        ("ReLU", "max(0, x)"),
        ("LoRA rank", "16"),
    ]


def test_quizlet_explicit_separators() -> None:
    text = "a - alpha | b - beta"
    notes = read_notes(text, fmt="quizlet", field_sep="-", card_sep="|").notes
    assert [(n.front, n.back) for n in notes] == [("a", "alpha"), ("b", "beta")]


def test_nothing_to_import_is_an_error() -> None:
    with pytest.raises(DeckError):
        read_notes("no separator anywhere", fmt="quizlet")


@pytest.mark.parametrize(
    ("back", "kind"),
    [
        ("16", CardKind.FACT),
        ("3e-4", CardKind.FACT),
        ("40%", CardKind.FACT),
        ("1,000", CardKind.FACT),
        ("Kullback-Leibler divergence", CardKind.REVERSE),
        ("x^2 + 1", CardKind.EXPLAIN),
        ("It is the expected surprise.", CardKind.EXPLAIN),
        ("", CardKind.EXPLAIN),
    ],
)
def test_kind_choice_is_conservative(back: str, kind: CardKind) -> None:
    from recall.interop.text_import import Note

    assert choose_kind(Note("front", back)) is kind


# ----- export --------------------------------------------------------------------------------


def test_csv_export_is_anki_readable_and_imports_back() -> None:
    deck = load_deck(FIXTURE, check=check_deck)
    text = to_csv(deck)
    assert text.startswith(
        "#separator:comma\n#html:false\n#columns:id,front,back,tags,kind,recall\n"
    )
    body = [line for line in text.splitlines(keepends=True) if not line.startswith("#")]
    rows = list(csv.reader(io.StringIO("".join(body))))
    assert len(rows) == len(deck.cards)
    again = read_notes(text)
    assert [n.note_id for n in again.notes] == [c.id for c in deck.cards]
    assert [n.front for n in again.notes] == [front_text(c) for c in deck.cards]
    assert [n.back for n in again.notes] == [back_text(c) for c in deck.cards]
    assert again.notes[0].tags == ("fixture", "sheet:formula-sheet")
    reimported = notes_to_deck(again.notes, deck_id="sample-copy", name="Copy")
    assert [c.id for c in reimported.cards] == [c.id for c in deck.cards]


def _tables(cards: tuple[Card, ...]) -> list[dict[str, object]]:
    return [card_to_dict(card) for card in cards]


def test_csv_export_then_import_keeps_every_kind_and_its_content() -> None:
    deck = load_deck(FIXTURE, check=check_deck)
    assert {str(c.kind) for c in deck.cards} == {
        "formula",
        "numeric",
        "fact",
        "reverse",
        "cloze",
        "explain",
    }
    again = notes_to_deck(read_notes(to_csv(deck)).notes, deck_id="sample-copy", name="Copy")
    assert [c.kind for c in again.cards] == [c.kind for c in deck.cards]
    assert _tables(again.cards) == _tables(deck.cards)
    assert {c.deck_id for c in again.cards} == {"sample-copy"}


def test_csv_without_the_recall_column_still_honours_a_kind_the_text_can_make() -> None:
    # A spreadsheet user deleted the last column: the kind column still chooses fact/explain/
    # reverse where the text allows it, and a formula without its symbols stays self-rated.
    text = (
        "#separator:comma\n#html:false\n#columns:id,front,back,tags,kind\n"
        "a,Sigmoid range,(0 1),,explain\n"
        "b,Chinchilla tokens per parameter,20,,explain\n"
        "c,Name of the loss,cross entropy,,explain\n"
        "d,The sigmoid,1/(1+exp(-x)),,formula\n"
        "e,A number,not a number,,fact\n"
    )
    kinds = [c.kind for c in notes_to_deck(read_notes(text).notes, deck_id="t", name="T").cards]
    # "fact" with no number falls back to the automatic choice (a short name: reverse)
    assert kinds == [CardKind.EXPLAIN] * 4 + [CardKind.REVERSE]
    reverse = text.replace("cross entropy,,explain", "cross entropy,,reverse")
    kinds = [c.kind for c in notes_to_deck(read_notes(reverse).notes, deck_id="t", name="T").cards]
    assert kinds[2] is CardKind.REVERSE


def test_a_recall_column_that_is_not_a_valid_card_is_refused_with_the_builders_reason() -> None:
    text = (
        "#separator:tab\n#html:false\n#columns:id\tfront\tback\ttags\tkind\trecall\n"
        'x\tq\ta\t\tformula\t{"id": "x", "kind": "formula", "prompt": "q"}\n'
    )
    with pytest.raises(DeckError) as caught:
        notes_to_deck(read_notes(text).notes, deck_id="t", name="T")
    assert "answer" in str(caught.value)


def test_json_export_reads_back_as_the_same_deck() -> None:
    deck = load_deck(FIXTURE, check=check_deck)
    again = read_json_deck(to_json(deck), source="sample.json")
    assert again.id == deck.id and again.name == deck.name
    assert _tables(again.cards) == _tables(deck.cards)
    renamed = read_json_deck(to_json(deck), deck_id="other", name="Other")
    assert renamed.id == "other" and {c.deck_id for c in renamed.cards} == {"other"}


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "not a recall deck export"),
        ('{"format": 9, "deck": {"id": "a", "name": "A"}, "cards": []}', "format 9"),
        ('{"format": 1, "deck": {"id": "a", "name": "A"}, "cards": [3]}', "must be an object"),
    ],
)
def test_json_that_is_not_a_deck_export_is_refused(text: str, reason: str) -> None:
    with pytest.raises(DeckError) as caught:
        read_json_deck(text)
    assert reason in str(caught.value)


def test_json_export_is_lossless() -> None:
    deck = load_deck(FIXTURE, check=check_deck)
    data = json.loads(to_json(deck))
    assert data["format"] == 1
    assert data["deck"]["id"] == "sample"
    cards = {c["id"]: c for c in data["cards"]}
    assert cards["training-flops"]["params"]["N"] == {
        "low": 100000000,
        "high": 70000000000,
        "log": True,
        "sigfigs": 2,
        "meaning": "parameters",
    }
    assert cards["english-entropy"]["range"] == [0.6, 1.3]
    assert cards["adam-bytes"]["tolerance"] == {"exact": True}
    assert cards["sigmoid-derivative"]["identities"][0]["derivative_of"] == "sigma(x)"
    assert cards["name-mse"]["reference"].startswith("mean squared error")
    assert cards["why-ce"]["key"] == "sample/why-ce"


def test_toml_writer_round_trips_the_sample(tmp_path: Path) -> None:
    deck = load_deck(FIXTURE, check=check_deck)
    path = tmp_path / "copy.toml"
    path.write_text(deck_to_toml(deck, comment="a copy"), encoding="utf-8")
    copy = load_deck(path, check=check_deck)

    def content(card: Card) -> Card:
        return dataclasses.replace(card, line=0, path="")

    assert [content(c) for c in copy.cards] == [content(c) for c in deck.cards]
    assert [c.content_hash() for c in copy.cards] == [c.content_hash() for c in deck.cards]


@pytest.mark.parametrize(
    "text",
    [
        "plain",
        'with "quotes"',
        "back\\slash \\frac{1}{2}",
        "it's \\x",
        'two\nlines\\ and """ end"',
        "tab\there",
        "ünïcödé σ",
        "\x01control",
    ],
)
def test_toml_strings_round_trip(text: str) -> None:
    import tomllib

    assert tomllib.loads(f"v = {toml_string(text)}")["v"] == text
