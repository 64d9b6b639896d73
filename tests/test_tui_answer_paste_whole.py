"""A paste into the answer box is never cut without a word, driven with Pilot at 80x24 and
100x30: an explanation pasted over several lines keeps all of them (joined by spaces), and a
paste longer than the box takes is refused with a message saying why.

Seen in tmux (``paste-buffer -p``): a two-line explanation kept its first line only, so the point
the second line made was graded missed; a 3,000-character paste changed nothing and said nothing.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual import events

from recall.tui.app import RecallApp
from recall.tui.screens.drill import MAX_ANSWER, DrillScreen
from recall.tui.views import SessionPlan
from recall.tui.widgets.answer_input import AnswerInput
from tests.tui_fixtures import FakeClock, isolate, real_services, settle, type_text

SIZES = [(80, 24), (100, 30)]

EXPLAIN_DECK = """\
[deck]
id = "why"
name = "Why"

[[card]]
id = "why-warmup"
kind = "explain"
prompt = "Why warm the learning rate up?"
model_answer = "The second-moment estimate is noisy at first, so steps are too large."

[[card.points]]
say = "The second-moment estimate rests on few gradients at first."
words = ["second moment noisy|unreliable"]

[[card.points]]
say = "Steps are then too large and the loss spikes."
words = ["steps|updates too large", "loss spike|spikes"]
"""

FORMULA_DECK = """\
[deck]
id = "one"
name = "One"

[[card]]
id = "square"
kind = "formula"
prompt = "Type x squared."
answer = "x^2"
[card.symbols]
x = "real"
"""


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate(monkeypatch, tmp_path)


def pasted(
    tmp_path: Path, size: tuple[int, int], deck: str, typed: str, paste: str
) -> tuple[str, list[str]]:
    """The box's value after typing ``typed`` then pasting ``paste``, and the notifications."""
    app = RecallApp(
        real_services(tmp_path, FakeClock(), only={"deck.toml": deck}),
        plan=SessionPlan(minutes=10),
    )
    seen: list[tuple[str, list[str]]] = []

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, DrillScreen)
            await type_text(pilot, typed)
            app.post_message(events.Paste(paste))  # how the driver hands a paste to the app
            await settle(app, pilot)
            notes = [str(n.message) for n in app._notifications]
            seen.append((screen.query_one("#answer", AnswerInput).value, notes))

    asyncio.run(main())
    return seen[0]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    ("typed", "paste", "expected"),
    [
        (
            "",
            "The second moment is noisy at first.\nSo updates are too large.\n",
            "The second moment is noisy at first. So updates are too large.",
        ),
        ("Early on: ", "the estimate\r\n  is noisy\n\nand steps too large", None),
        ("", "one line only", "one line only"),
    ],
)
def test_an_explanation_pasted_over_several_lines_keeps_every_line(
    tmp_path: Path, size: tuple[int, int], typed: str, paste: str, expected: str | None
) -> None:
    value, _notes = pasted(tmp_path, size, EXPLAIN_DECK, typed, paste)
    if expected is None:
        expected = typed + " ".join(line.strip() for line in paste.splitlines() if line.strip())
    assert value == expected


@pytest.mark.parametrize("size", SIZES)
def test_a_formula_pasted_over_lines_keeps_the_first_line(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """A formula box still takes the first line of a paste (a copied line with its newline)."""
    assert pasted(tmp_path, size, FORMULA_DECK, "", "x^2\nsecond line")[0] == "x^2"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("deck", [FORMULA_DECK, EXPLAIN_DECK], ids=["formula", "explain"])
@pytest.mark.parametrize("extra", [1, 1000])
def test_a_paste_longer_than_the_box_takes_is_refused_with_a_message(
    tmp_path: Path, size: tuple[int, int], deck: str, extra: int
) -> None:
    value, notes = pasted(tmp_path, size, deck, "x+", "x+" * ((MAX_ANSWER + extra) // 2))
    assert value == "x+"  # nothing of it pasted: a cut formula or explanation is another one
    assert any("not pasted" in note.lower() and str(MAX_ANSWER) in note for note in notes), notes


@pytest.mark.parametrize("size", SIZES)
def test_a_paste_that_just_fits_is_pasted(tmp_path: Path, size: tuple[int, int]) -> None:
    value, notes = pasted(tmp_path, size, FORMULA_DECK, "x", "+1" * ((MAX_ANSWER - 1) // 2))
    assert len(value) <= MAX_ANSWER
    assert value == "x" + "+1" * ((MAX_ANSWER - 1) // 2)
    assert not any("pasted" in note.lower() for note in notes), notes
