"""Plain CSV imports read as written (issue 17, item 8): a ``front,back[,tags]`` header names the
columns instead of becoming a card, and quoted CSV is not taken for Quizlet's unquoted export."""

from __future__ import annotations

import pytest

from recall.interop.text_import import read_notes


@pytest.mark.parametrize(
    "header",
    ["front,back", "Front,Back,Tags", "term,definition", "question,answer,tags", " front , back "],
)
def test_a_header_row_names_the_columns(header: str) -> None:
    tags = ",t1 t2" if header.lower().count(",") == 2 else ""
    imported = read_notes(f"{header}\nWhat is 2+2?,4{tags}\nCapital of France,Paris{tags}\n")
    assert imported.format == "csv"
    assert [(n.front, n.back) for n in imported.notes] == [
        ("What is 2+2?", "4"),
        ("Capital of France", "Paris"),
    ]
    if tags:
        assert all(n.tags == ("t1", "t2") for n in imported.notes)
    assert any("column names" in warning for warning in imported.warnings)


def test_header_columns_in_another_order_are_followed() -> None:
    imported = read_notes("back\tfront\ttags\n4\tWhat is 2+2?\tmath\n", fmt="csv")
    assert [(n.front, n.back, n.tags) for n in imported.notes] == [("What is 2+2?", "4", ("math",))]


def test_a_first_row_that_is_a_card_stays_a_card() -> None:
    imported = read_notes("front of the card,its back\nsecond,two\n", fmt="csv")
    assert [n.front for n in imported.notes] == ["front of the card", "second"]


@pytest.mark.parametrize(
    "text",
    [
        'Learning rate,"a step size, usually small"\nEpoch,"one pass, all data"\n',
        'front,back\n"Adam, the optimizer","adaptive moments"\n',
        'Epoch,one pass\n"Batch, mini",a subset\n',
        'Loss\t"the objective, minimised"\n',
    ],
)
def test_quoted_csv_is_read_as_csv_not_quizlet(text: str) -> None:
    imported = read_notes(text)
    assert imported.format == "csv"
    assert all('"' not in n.front and '"' not in n.back for n in imported.notes)
    assert any("," in n.front or "," in n.back for n in imported.notes)


def test_quizlet_exports_are_still_quizlet() -> None:
    imported = read_notes("Epoch\tone pass over the data\nBatch\ta subset, drawn at random\n")
    assert imported.format == "quizlet"
    assert [n.back for n in imported.notes] == [
        "one pass over the data",
        "a subset, drawn at random",
    ]
