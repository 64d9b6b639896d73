"""Counts read as a person writes them (issue 12: "the sheet says 1 bytes", "1 days"): one helper,
:mod:`recall.wording`, and a scan of the source for counts printed without it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import recall
from recall.cards.units import with_unit
from recall.wording import count_of, plural, unit_for


@pytest.mark.parametrize(
    ("count", "word", "said"),
    [
        (1, "day", "1 day"),
        (0, "day", "0 days"),
        (2, "card", "2 cards"),
        (1.0, "minute", "1 minute"),
        (1.5, "minute", "1.5 minutes"),
        (3, "entry", "3 entries"),
        (2, "match", "2 matches"),
        (2, "key", "2 keys"),
        (1, "deck file", "1 deck file"),
        (4, "deck file", "4 deck files"),
    ],
)
def test_counts(count: float, word: str, said: str) -> None:
    assert count_of(count, word) == said


def test_plural_alone() -> None:
    assert plural("review", 1) == "review" and plural("review", 7) == "reviews"


@pytest.mark.parametrize(
    ("number", "unit", "said"),
    [
        ("1", "bytes", "1 byte"),
        ("2", "bytes", "2 bytes"),
        ("1", "bits/char", "1 bit/char"),
        ("1", "KV heads", "1 KV head"),
        ("1", "GPU-hours", "1 GPU-hour"),
        ("1", "FLOPs", "1 FLOP"),
        ("1", "tokens/param", "1 token/param"),
        ("1", "GB", "1 GB"),
        ("1", "% of steps", "1% of steps"),
        ("1", "×", "1×"),
        ("1", "rad", "1 rad"),
        ("0.6 to 1.3", "bits/char", "0.6 to 1.3 bits/char"),
        ("1 byte", "bytes", "1 byte"),  # already said: not said twice
    ],
)
def test_units_agree_with_the_number(number: str, unit: str, said: str) -> None:
    assert with_unit(number, unit) == said
    assert unit_for("3", unit) == unit


#: Plural nouns that follow a printed count.
NOUNS = (
    "days|cards|reviews|decks|bytes|steps|tokens|times|files|minutes|seconds|hours|sessions|"
    "errors|problems|lines|values|answers|mistakes|leeches|words|parameters|weeks|items|"
    "entries|names|rows|points|claims"
)
_COUNT_THEN_NOUN = re.compile(rf"^ ({NOUNS})\b")

#: Counts printed with a plural that can never be one, or values that are not counts at all.
NEVER_ONE = {
    ("commands/serve.py", "path"): "a file path, then the verb 'names' (not a count)",
    ("cards/build.py", "len(raw_cards)"): "only said when over the limit of cards per file",
    ("cards/checking.py", "kind"): "a card kind's name, not a count",
    ("cards/checking.py", "owners"): "card kinds' names, not a count",
    ("commands/reviews.py", "size"): "only said for a file over the size limit",
    ("formula/diagnose.py", "name"): "a symbol's name: 'x times the reference'",
    ("formula/numeric.py", "times"): "a ratio of ten or more: said only an order of magnitude off",
    ("grading/names.py", "result.clash"): "a name the learner typed",
    ("memory/charts.py", "p.remembered_at_end"): "a column of figures in a table",
    ("interop/review_csv.py", "max_rows"): "the row limit, thousands",
    ("interop/text_import.py", "max_notes"): "only said for a file over the limit of cards",
    ("interop/apkg_read.py", "member.file_size"): "bytes, only said for a member over a limit",
    ("interop/apkg_read.py", "limit"): "the byte limit, a million or more",
    ("store/engine.py", "size"): "only said for a name over the file system's limit",
    ("toml_limits.py", "count"): "only said for a file over the size limit",
    ("tui/screens/drill.py", "leech.lapses"): "a leech has lapsed many times by definition",
}


def counts_printed_by_hand() -> list[tuple[str, str, int]]:
    root = Path(recall.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.JoinedStr):
                continue
            for value, text in zip(node.values, node.values[1:], strict=False):
                if not (isinstance(value, ast.FormattedValue) and isinstance(text, ast.Constant)):
                    continue
                if not (isinstance(text.value, str) and _COUNT_THEN_NOUN.match(text.value)):
                    continue
                expression = ast.unparse(value.value)
                if expression.rpartition(".")[2].isupper():
                    continue  # a named limit (MAX_DAYS, REQUIRED_REVIEWS): never one
                found.append((path.relative_to(root).as_posix(), expression, node.lineno))
    return found


def test_every_printed_count_goes_through_the_helper() -> None:
    by_hand = counts_printed_by_hand()
    unexplained = [(f, e, n) for f, e, n in by_hand if (f, e) not in NEVER_ONE]
    assert not unexplained, "print these with recall.wording.count_of: " + repr(unexplained)
    stale = set(NEVER_ONE) - {(f, e) for f, e, _n in by_hand}
    assert not stale, f"no longer printed by hand, drop from NEVER_ONE: {sorted(stale)}"
