"""The summary's "answer" column as a learner reads it at 80x24: a numeric card's number at the
values they were asked, and a formula too wide for the column in one line rather than its 2-D
drawing cut into pieces. Found by trying recall as a learner (a triplet loss answered 0.95 showed
only ``max(0, d_ap - d_an + m)``; the cosine similarity's fraction was wrapped mid-drawing)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from recall.tui.app import RecallApp
from recall.tui.screens.summary import SummaryScreen
from recall.tui.views import SessionPlan, SummaryView
from tests.tui_fixtures import (
    FakeClock,
    isolate,
    real_services,
    screen_text,
    settle,
    static_text,
    type_text,
)

DECK = """\
[deck]
id = "sums"
name = "Sums"

[[card]]
id = "margin"
kind = "numeric"
prompt = "Triplet loss with margin {m}: anchor-positive {d_ap}, anchor-negative {d_an}?"
answer = "max(0, d_ap - d_an + m)"
tolerance = { absolute = 0.005 }
[card.params]
d_ap = { choices = [1.35] }
d_an = { choices = [0.4] }
m = { choices = [1.0] }

[[card]]
id = "cosine"
kind = "formula"
prompt = "Cosine similarity of a = (a_1, a_2) and b = (b_1, b_2), in components."
answer = "(a_1*b_1 + a_2*b_2)/(sqrt(a_1^2 + a_2^2)*sqrt(b_1^2 + b_2^2))"
[card.symbols]
a_1 = "positive"
a_2 = "positive"
b_1 = "positive"
b_2 = "positive"
"""

WRONG = {"margin": "0.95", "cosine": "a_1*b_1 + a_2*b_2"}


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def _missed_column(size: tuple[int, int], tmp_path: Path) -> str:
    services = real_services(tmp_path, FakeClock(), only={"sums.toml": DECK})
    app = RecallApp(services, plan=SessionPlan(minutes=10))
    shown: list[str] = []

    async def flow() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            for _ in range(2):
                card = "margin" if "Triplet" in screen_text(app) else "cosine"
                await type_text(pilot, WRONG[card])
                await pilot.press("enter")
                await settle(app, pilot)
                await pilot.press("enter")  # Again, as suggested
                await settle(app, pilot)
            await pilot.press("ctrl+l", "y")
            await settle(app, pilot)
            assert isinstance(app.screen, SummaryScreen)
            width = app.screen.query_one("#summary-missed").content_region.width
            shown.append(static_text(app.screen.query_one("#summary-missed"), width=width))

    asyncio.run(flow())
    return shown[0]


def test_a_missed_numeric_card_shows_the_number_it_asked_for(tmp_path: Path) -> None:
    text = _missed_column((80, 24), tmp_path)
    assert "1.95" in text  # max(0, 1.35 - 0.4 + 1)


def test_a_reference_too_wide_for_its_column_is_written_on_lines_not_cut(
    tmp_path: Path,
) -> None:
    text = _missed_column((80, 24), tmp_path)
    # One line, folded at the column's edge: its pieces read in order.
    joined = "".join(line.split("│")[3].strip() for line in text.splitlines() if "│" in line)
    assert "sqrt(a_1^2+a_2^2)*sqrt(b_1^2+b_2^2)" in joined.replace(" ", "")
    assert "╲╱" not in text  # no piece of a 2-D root drawn across wrapped lines


def test_a_reference_that_fits_is_still_drawn_in_two_dimensions(tmp_path: Path) -> None:
    text = _missed_column((200, 40), tmp_path)
    assert "╲╱" in text


@pytest.mark.parametrize("days", [1, 2, 6])
def test_the_streak_reads_as_a_day_streak_whatever_its_length(tmp_path: Path, days: int) -> None:
    """ "6 days streak" was the summary's wording; a streak of six days is a 6-day streak."""
    app = RecallApp(real_services(tmp_path, FakeClock()))
    shown: list[str] = []

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            view = SummaryView(reviews=3, cards=3, streak_days=days)
            app.push_screen(SummaryScreen(view, SessionPlan(minutes=10)))
            await settle(app, pilot)
            shown.append(screen_text(app))

    asyncio.run(flow())
    rows = [line.split() for line in shown[0].splitlines() if "streak" in line]
    assert rows == [[str(days), "day", "streak"]]


EXPLAIN_DECK = """\
[deck]
id = "talk"
name = "Talk"

[[card]]
id = "why-ce"
kind = "explain"
prompt = "Say it out loud: why cross-entropy?"
model_answer = \"\"\"For each example the loss is minus the log of the probability the model gives
the right class, so minimising it is maximum likelihood. It splits into the entropy of the labels,
which does not depend on the parameters, plus the KL divergence from the labels to the model, so
minimising one minimises the other. It has no upper bound: an example the model is confidently
wrong about can dominate a batch, which label smoothing and gradient clipping guard against.\"\"\"

[[card.points]]
say = "The loss is the negative log-probability of the right class: minimising it is the MLE."
words = ["maximum likelihood", "mle"]

[[card.points]]
say = "Cross-entropy splits into the entropy of the labels plus the KL from them to the model."
words = ["entropy plus kl", "kl divergence"]

[[card.points]]
say = "Failure mode: no upper bound, so one confidently wrong prediction can dominate a batch."
words = ["unbounded", "no upper bound"]
"""


def test_an_explanation_missed_lists_its_points_once_each_indented_as_a_list(
    tmp_path: Path,
) -> None:
    """The summary of a half explanation at 80x24 printed the whole model answer down an
    18-column cell (30 lines) above the key points left out, whose second lines started under
    the ✗ instead of under the text."""
    services = real_services(tmp_path, FakeClock(), only={"talk.toml": EXPLAIN_DECK})
    app = RecallApp(services, plan=SessionPlan(minutes=10))
    shown: list[str] = []

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await type_text(pilot, "Minimising it is maximum likelihood.")
            await pilot.press("enter")
            await settle(app, pilot)
            await pilot.press("enter")  # Again, as suggested (1 of 3)
            await settle(app, pilot)
            await pilot.press("ctrl+l", "y")
            await settle(app, pilot)
            assert isinstance(app.screen, SummaryScreen)
            for name in ("#summary-missed", "#summary-points"):
                widget = app.screen.query_one(name)
                shown.append(static_text(widget, width=widget.content_region.width))

    asyncio.run(flow())
    missed, points = shown
    assert "confidently wrong about" not in missed  # the model answer, said by the points below
    answer_column = " ".join(
        line.split("│")[3].strip() for line in missed.splitlines() if line.count("│") == 4
    )
    assert answer_column.strip() == "its key points left out: below"
    assert len(missed.splitlines()) <= 10
    lines = points.splitlines()
    starts = [i for i, line in enumerate(lines) if line.lstrip().startswith("✗")]
    assert len(starts) == 2
    text_column = lines[starts[0]].index("✗") + 2
    for i, line in enumerate(lines):
        if i > starts[0] and i not in starts and line.strip():
            assert len(line) - len(line.lstrip()) == text_column, line


def test_the_breakdown_under_the_reviews_says_it_counts_cards(tmp_path: Path) -> None:
    """Found by trying recall as a learner: "8 reviews" above "7 / 0 / 0 / 0  new / learning /
    review / relearn" read as seven of eight reviews; the breakdown counts cards, by how each
    was first seen in the session."""
    app = RecallApp(real_services(tmp_path, FakeClock()))
    shown: list[str] = []

    async def flow() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            view = SummaryView(reviews=8, cards=7, new=6, learning=1)
            app.push_screen(SummaryScreen(view, SessionPlan(minutes=10)))
            await settle(app, pilot)
            shown.append(screen_text(app))

    asyncio.run(flow())
    row = next(line for line in shown[0].splitlines() if "relearn" in line)
    assert row.split() == [
        "6",
        "/",
        "1",
        "/",
        "0",
        "/",
        "0",
        "cards:",
        "new",
        "/",
        "learning",
        "/",
        "review",
        "/",
        "relearn",
    ]
