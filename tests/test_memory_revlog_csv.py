"""Review-log CSV: the FSRS tools' columns, strict reading, formula-safe writing."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest

from recall.interop.review_csv import (
    COLUMNS,
    RevlogRow,
    match_cards,
    neutralise,
    read_revlog,
    restore,
    write_revlog,
)
from recall.scheduling.rating import Rating
from recall.scheduling.state import Phase

AT = datetime(2025, 3, 3, 12, 30, 15, 250000, tzinfo=UTC)
MS = 1741005015250  # AT in epoch milliseconds


def read(text: str):
    return read_revlog(io.StringIO(text))


def test_minimal_columns_as_the_fsrs_optimizer_writes_them() -> None:
    result = read(f"card_id,review_time,review_rating\nml/attention,{MS},3\n")
    assert result.problems == ()
    (row,) = result.rows
    assert (row.row, row.card_id, row.reviewed_at, row.rating) == (
        2,
        "ml/attention",
        AT,
        Rating.Good,
    )
    assert row.state is None and row.duration_ms is None


def test_optional_columns_any_order_and_a_byte_order_mark() -> None:
    text = (
        f"\ufeffreview_rating,review_duration,card_id,review_state,review_time\n1,8200,a/b,2,{MS}\n"
    )
    (row,) = read(text).rows
    assert (row.rating, row.duration_ms, row.state) == (Rating.Again, 8200, Phase.REVIEW)


def test_every_bad_row_is_reported_with_its_number_and_reason() -> None:
    text = "\n".join(
        [
            "card_id,review_time,review_rating,review_state,review_duration",
            f"ok/1,{MS},3,,",  # 2 fine
            f"bad/rating,{MS},5,,",  # 3
            f"bad/float,{MS}.5,3,,",  # 4
            "bad/seconds,1741005015,3,,",  # 5 seconds, not milliseconds
            f",{MS},3,,",  # 6 empty card id
            f"bad/state,{MS},3,7,",  # 7
            f"bad/duration,{MS},3,2,-4",  # 8
            f"bad/fields,{MS},3",  # 9
            f"ok/1,{MS},3,,",  # 10 duplicate of row 2
            "bad/exponent,1e12,3,,",  # 11
            "",  # 12 blank: skipped silently
            f"ok/2,{MS + 1},4,2,100",  # 13 fine
        ]
    )
    result = read(text)
    assert [r.row for r in result.rows] == [2, 13]
    reasons = {p.row: p.reason for p in result.problems}
    assert sorted(reasons) == [3, 4, 5, 6, 7, 8, 9, 10, 11]
    assert "not 1, 2, 3 or 4" in reasons[3]
    assert "not a whole number" in reasons[4] and "not a whole number" in reasons[11]
    assert "seconds instead of milliseconds" in reasons[5]
    assert "card_id is empty" in reasons[6]
    assert "review_state 7" in reasons[7]
    assert "negative" in reasons[8]
    assert "3 fields where the header has 5" in reasons[9]
    assert "earlier row" in reasons[10]
    assert str(result.problems[0]).startswith("row 3: ")


def test_a_file_without_the_required_columns_reads_nothing() -> None:
    result = read("card,time,grade\na,1,3\n")
    assert result.rows == ()
    (problem,) = result.problems
    assert problem.row == 1 and "card_id, review_time, review_rating" in problem.reason
    assert read("").problems[0].reason.startswith("the file is empty")


def test_rows_beyond_the_limit_are_reported_not_read() -> None:
    lines = ["card_id,review_time,review_rating"] + [f"c{i},{MS + i},3" for i in range(5)]
    result = read_revlog(io.StringIO("\n".join(lines)), max_rows=3)
    assert len(result.rows) == 3
    assert result.problems[-1].row == 5 and "more than 3 rows" in result.problems[-1].reason


def test_unmatched_cards_are_reported() -> None:
    rows = read(f"card_id,review_time,review_rating\na/1,{MS},3\nz/9,{MS},3\n").rows
    matched = match_cards(rows, {"a/1", "a/2"})
    assert [r.card_id for r in matched.rows] == ["a/1"]
    assert [(p.row, p.reason) for p in matched.unmatched] == [
        (3, "no card 'z/9' in your collection")
    ]


@pytest.mark.parametrize("danger", ["=1+1", "+1", "-2", "@SUM(A1)", "\tx", "\rx"])
def test_formulas_are_neutralised_on_export_and_restored_on_import(danger: str) -> None:
    assert neutralise(danger) == "'" + danger
    assert restore(neutralise(danger)) == danger
    out = io.StringIO()
    write_revlog([RevlogRow(2, danger + "/card", AT, Rating.Good)], out)
    cell = out.getvalue().splitlines()[1] if danger[0] not in "\t\r" else out.getvalue()
    assert f"'{danger[0]}" in cell
    (row,) = read(out.getvalue()).rows
    assert row.card_id == danger + "/card"


def test_plain_text_is_left_alone() -> None:
    assert neutralise("ml/attention") == "ml/attention"
    assert restore("'quoted") == "'quoted"  # an apostrophe before ordinary text is content


def test_round_trip_keeps_every_column() -> None:
    rows = [
        RevlogRow(2, "ml/a", AT, Rating.Hard, Phase.LEARNING, 4100),
        RevlogRow(3, "ml/b,with comma", AT, Rating.Easy, None, None),
    ]
    out = io.StringIO()
    assert write_revlog(rows, out) == 2
    assert out.getvalue().split("\r\n")[0] == ",".join(COLUMNS)
    back = read(out.getvalue())
    assert back.problems == ()
    assert back.rows == tuple(rows)
