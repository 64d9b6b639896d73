"""Mistakes are said in words wherever they are shown (issue 12: "partial-domain", "confused").

Every diagnosis kind a grader can record is found in the source (the first argument of each
``Diagnosis(...)`` and ``Part(...)``), so a new kind without words fails here; then each place
that shows mistakes (the session summary, the stats screen, ``recall stats``) is rendered with
all of them and read for the words, never the key.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rich.console import Console, RenderableType

import recall
from recall.commands.stats import render
from recall.mistakes import MISSED_POINT, MISTAKE_WORDS, mistake_words
from recall.tui.screens.stats import mistakes_table
from recall.tui.screens.summary import summary_figures
from recall.tui.views import StatsView, SummaryView


def recorded_kinds() -> set[str]:
    """Every literal kind passed to ``Diagnosis`` or ``Part`` anywhere in recall."""
    kinds: set[str] = set()
    for path in Path(recall.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in ("Diagnosis", "Part") or not node.args:
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                kinds.add(first.value)
    return kinds


def test_every_kind_a_grader_records_has_words_and_no_words_are_stale() -> None:
    kinds = recorded_kinds()
    assert {"partial-domain", "confused", "missing-term", "magnitude"} <= kinds
    # A key point left out of an explanation is recorded by the screen, not as a Diagnosis.
    assert kinds | {MISSED_POINT} == set(MISTAKE_WORDS)


def test_the_words_are_plain_english() -> None:
    for kind, words in MISTAKE_WORDS.items():
        assert words != kind
        assert not re.search(r"\w-\w|_", words), (kind, words)  # no hyphenated labels
        assert kind not in words or "-" not in kind, (kind, words)
        assert words[0].islower(), (kind, words)


def test_a_kind_from_a_newer_version_is_still_said_without_hyphens() -> None:
    assert mistake_words("left-out-bracket") == "left out bracket"


def shown(renderable: RenderableType) -> str:
    console = Console(width=1000, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


ALL = tuple((kind, index + 1) for index, kind in enumerate(sorted(MISTAKE_WORDS)))


def assert_in_words(text: str) -> None:
    for kind, _count in ALL:
        assert mistake_words(kind) in text, (kind, text)
        if kind not in mistake_words(kind):
            assert not re.search(rf"(?<![\w-]){re.escape(kind)}(?![\w-])", text), (kind, text)


def test_the_session_summary_says_mistakes_in_words() -> None:
    text = shown(summary_figures(SummaryView(reviews=3, cards=2, mistakes=ALL)))
    assert "common mistakes" in text
    assert_in_words(text)


def test_the_session_summary_says_how_often_not_a_factor() -> None:
    """``off by a factor ×1`` read as "a factor of 1" (the verdict had said "a factor of 1/3"):
    the count is said in words, as the stats screen's "times" column does."""
    text = shown(
        summary_figures(SummaryView(reviews=4, cards=3, mistakes=(("factor", 1), ("sign", 3))))
    )
    assert "off by a factor (1 time)" in text and "wrong sign (3 times)" in text
    assert "×" not in text


def test_the_stats_screen_says_mistakes_in_words() -> None:
    assert_in_words(shown(mistakes_table(StatsView(mistakes=ALL))))


def test_recall_stats_says_mistakes_in_words() -> None:
    figures = {
        "since": "2026-11-01",
        "until": "2026-12-01",
        "reviews": 3,
        "study_days": 2,
        "streak": 1,
        "retention": {"rate": None, "passed": 0, "total": 0},
        "first_try_accuracy": None,
        "due_today": 0,
        "due_tomorrow": 0,
        "due_next_7_days": 0,
        "retention_by_deck": {},
        "retention_by_topic": {},
        "mistakes": [list(item) for item in ALL],
        "forecast": [],
        "heatmap": [],
    }
    assert_in_words(render(figures))
