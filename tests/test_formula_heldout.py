"""The engine on a held-out set of learner answers nobody had graded (issue 18, items 2-4, 8).

``tests/data/engine_heldout.jsonl`` holds 960 answers over 322 built-in formula, numeric and
cloze cards, written by hand in the notations learners type (Unicode, ASCII words, LaTeX,
implicit products, bare calls, vulgar fractions, dropped indices, ``y =`` prefixes, units,
percent forms) and labelled before any was graded with what a careful examiner says: *correct*,
*incorrect* (for a near miss, ``mark``: the text of the part at fault) or *invalid* (a truly
ambiguous reading, or a form the card's prompt rules out). Each answer is graded through
``recall check --card``'s path (seed 7 for numeric cards).

Every verdict must be the label's, except the few listed in :data:`VERDICTS_LEFT` (each with
the reason it is left): the list is exact, so a fix shows up here and the list shrinks. For a
near miss with a mark, the marked part must lie on the mark (or the engine's whole-answer
diagnosis must describe it), the message must describe the marked part, and a message to a
learner who typed σ must say σ; :data:`MARKS_LEFT` lists the near misses marked elsewhere or
not at all.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from recall.commands.card_check import find_card, grade_on_card
from recall.formula.compare import SAME_ERROR, WHOLE_ANSWER

DATA = Path(__file__).parent / "data" / "engine_heldout.jsonl"
SEED = 7

#: Verdicts the engine still gets wrong, and why they are left.
VERDICTS_LEFT = {
    "held-015": "sech is not a builtin (adding one means a reach guard and a hostile class)",
    "held-101": "clip(ρ, lo, hi) is not a builtin; the card says to write it with min and max",
    "held-391": (
        "PPL = e^L: the prompt says 'Perplexity' and names no label, and a left side is dropped "
        "only when it is the card's label (invalid, at no cost)"
    ),
    "held-438": "FN on the precision card: a name of a sibling card is unknown, not graded wrong",
    "held-440": "FP on the recall card: the same",
    "held-443": "TP on the false-positive-rate card: the same",
    "held-527": "β_1 on Adam's second-moment card: the same (asked 'did you mean β_2?')",
    "held-701": "1 − α_t on a cloze whose card declares β_t only: the deck, not the engine",
    "held-797": "0.5759 nats on a numeric card whose prompt says 'natural log', not 'nats'",
}

#: Near misses whose marked part is not the part at fault, and why they are left.
MARKS_LEFT = {
    "held-030": "a missing factor has no place to mark; the message names it (x)",
    "held-040": "a missing factor (β inside σ): named in the message, not marked",
    "held-043": "a sign flipped inside a product of three factors: no diagnosis, no part",
    "held-052": "a missing term in the denominator: named, not marked",
    "held-220": "σ missing from the normaliser: 'an extra factor of σ', not marked",
    "held-415": "a missing |r| is read as a partial domain (whole answer)",
    "held-471": "the missing + 1 inside log2(…) is named, not marked",
    "held-513": "the missing - η β v inside grad(…) is named, not marked",
    "held-599": "a missing |w| is read as a partial domain (whole answer)",
    "held-641": "α^k for α^(k+1) is diagnosed as a missing term + 1",
}


def load() -> list[dict[str, Any]]:
    with DATA.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


LINES = load()


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> dict[str, Any]:
    from recall.workspace import Workspace

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RECALL_HOME", str(tmp_path_factory.mktemp("home")))
        workspace = Workspace.open(None, db_url=None, custom_decks=None, sync=False)
        verdicts = {}
        for line in LINES:
            card = find_card(workspace, line["card"])
            verdicts[line["id"]] = grade_on_card(workspace, card, line["answer"], SEED)[1]
        return verdicts


def test_the_set_is_large_and_varied() -> None:
    assert len(LINES) >= 300
    assert len({line["card"] for line in LINES}) >= 120
    assert len({line["id"] for line in LINES}) == len(LINES)
    assert set(Counter(line["expect"] for line in LINES)) == {"correct", "incorrect", "invalid"}
    forms = Counter(line["form"] for line in LINES)
    assert min(forms["unicode"], forms["ascii"]) >= 200 and forms["latex"] >= 10
    assert sum(1 for line in LINES if line.get("mark")) >= 100


def test_every_verdict_is_the_examiners(graded) -> None:
    wrong = {}
    for line in LINES:
        status = str(graded[line["id"]].status)
        if status != line["expect"]:
            wrong[line["id"]] = f"{line['answer']!r}: {status}, {graded[line['id']].message}"
    assert sorted(set(wrong) - set(VERDICTS_LEFT)) == [], [wrong[k] for k in wrong]
    assert sorted(set(VERDICTS_LEFT) - set(wrong)) == []  # fixed: take it off the list


SUBSCRIPTS = dict(zip("₀₁₂₃ᵢⱼₜ", ["_0", "_1", "_2", "_3", "_i", "_j", "_t"], strict=True))


def normalised(text: str) -> tuple[str, list[int]]:
    """``text`` without spaces, ``*``, brackets and bars, with √ for sqrt, π for pi, - for −, ^2
    for ², _1 for ₁ and nothing for abs; and where each kept character came from."""
    out: list[str] = []
    where: list[int] = []
    index = 0
    while index < len(text):
        char, step = text[index], 1
        before = text[index - 1 : index]
        if text.startswith("sqrt", index):
            put, step = "√", 4
        elif text.startswith("abs", index) and not before.isalpha():
            put, step = "", 3
        elif text.startswith("pi", index) and not before.isalpha():
            put, step = "π", 2
        elif char == "−":
            put = "-"
        elif char == "²":
            put = "^2"
        elif char in SUBSCRIPTS:
            put = SUBSCRIPTS[char]
        elif char in " *·()|":
            put = ""
        else:
            put = char
        for kept in put:
            out.append(kept)
            where.append(index)
        index += step
    return "".join(out), where


def constant_term(text: str) -> bool:
    """A part with no name of the card in it (``+ 1``, ``log(2)``): a constant term."""
    pattern = r"(?:[\s\d.+\-*/^()]|\b(?:log|ln|exp|sqrt|pi|π|e)\b)+"
    return bool(text) and re.fullmatch(pattern, text) is not None


def on_the_mark(interpreted: str, span: tuple[int, int], mark: str) -> bool:
    """Whether ``span`` of the "read as" text lies on an occurrence of ``mark`` in it (an
    insertion point inside it counts), and is not the whole answer when the mark is less."""
    text, where = normalised(interpreted)
    wanted, _ = normalised(mark)
    start, end = span
    if start == 0 and end >= len(interpreted.rstrip()) and len(wanted) < len(text) - 2:
        return False
    for found in re.finditer(re.escape(wanted), text):
        first, last = where[found.start()], where[found.end() - 1] + 1
        if (start == end and first <= start <= last) or (start < last and first < end):
            return True
    return False


def test_the_marked_part_is_the_part_at_fault(graded) -> None:
    misplaced = {}
    for line in LINES:
        verdict = graded[line["id"]]
        if not line.get("mark") or str(verdict.status) != "incorrect":
            continue
        part = verdict.part
        span = None if part is None else part.answer_span
        if span is None or not on_the_mark(verdict.interpreted, span, line["mark"]):
            misplaced[line["id"]] = f"{line['answer']!r}: {span} in {verdict.interpreted!r}"
    assert sorted(set(misplaced) - set(MARKS_LEFT)) == [], misplaced
    assert sorted(set(MARKS_LEFT) - set(misplaced)) == []  # fixed: take it off the list


def test_the_message_describes_the_marked_part(graded) -> None:
    mismatched = []
    for line in LINES:
        verdict = graded[line["id"]]
        part, diagnosis = verdict.part, verdict.diagnosis
        if str(verdict.status) != "incorrect" or part is None or part.answer_span is None:
            continue
        assert diagnosis is not None, line["id"]
        whole = part.answer_span == (0, len(verdict.interpreted))
        names = diagnosis.message.split(" are swapped")[0].split(" and ")
        flipped = diagnosis.message.split(" where 1 - ")[0]
        same = (
            diagnosis.kind == part.kind
            or part.kind in SAME_ERROR.get(diagnosis.kind, ())
            or (whole and diagnosis.kind in WHOLE_ANSWER)
            or (diagnosis.kind == "swapped" and any(n in part.answer_text for n in names))
            or (diagnosis.kind == "complement" and flipped in part.answer_text)
            or (diagnosis.kind == "additive" and constant_term(part.answer_text))
        )
        if not same or not verdict.message.startswith(diagnosis.message):
            mismatched.append(f"{line['id']}: {diagnosis.kind}/{part.kind}: {verdict.message}")
    assert mismatched == []


def test_a_learner_who_typed_sigma_reads_sigma(graded) -> None:
    spelled = []
    for line in LINES:
        typed = line["answer"]
        if "σ" not in typed or "sigma" in typed or "\\" in typed:
            continue
        verdict = graded[line["id"]]
        echoed = f"{verdict.message} {verdict.interpreted}"
        if str(verdict.status) != "correct" and re.search(r"\bsigma|sigmoid", echoed):
            spelled.append(f"{line['id']}: {echoed}")
    assert spelled == []


def test_no_wrong_answer_is_credited_and_no_right_one_marked_wrong(graded) -> None:
    """The two errors that cost the learner, counted without the list of verdicts left: an
    answer labelled incorrect or invalid graded correct (false credit), and one labelled
    correct graded incorrect (a lapse for a right answer). The review that found the wrong
    labels credited counted, over the non-numeric answers, 443 right answers credited, 304
    incorrect and 20 invalid graded so, 11 incorrect and 4 correct graded invalid; the 120 right
    answers on numeric cards (seed 7) are credited too."""
    credited = [
        k for k, line in BY_ID.items() if line["expect"] != "correct" and graded[k].is_correct
    ]
    lapsed = [
        k
        for k, line in BY_ID.items()
        if line["expect"] == "correct" and str(graded[k].status) == "incorrect"
    ]
    assert credited == [] and lapsed == []
    agree = Counter(
        line["expect"] for k, line in BY_ID.items() if str(graded[k].status) == line["expect"]
    )
    assert agree["correct"] >= 443 + 120 and agree["incorrect"] >= 304 and agree["invalid"] >= 20


BY_ID = {line["id"]: line for line in LINES}
