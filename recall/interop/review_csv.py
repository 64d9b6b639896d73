"""Review logs as CSV, in the format the FSRS tools exchange.

The columns are those of the FSRS optimizer's review-log schema:

=================  ==========================================================  =========
column             meaning                                                     required
=================  ==========================================================  =========
``card_id``        the card (recall writes its ``deck/card`` key)              yes
``review_time``    when, in milliseconds since the Unix epoch (UTC)            yes
``review_rating``  1 Again, 2 Hard, 3 Good, 4 Easy                             yes
``review_state``   the card's phase before the review: 0 New, 1 Learning,      no
                   2 Review, 3 Relearning
``review_duration`` milliseconds spent on the review                           no
=================  ==========================================================  =========

Reading is strict and says why: every row that cannot be used is reported with its row number
(the header is row 1) and the reason, and is never repaired by guessing. Matching rows to the
learner's cards is a separate step (:func:`match_cards`), so an unknown card id is reported as
unmatched rather than dropped silently.

Writing neutralises spreadsheet formulas: a text field that starts with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return gets a leading apostrophe, so opening the file in a spreadsheet
shows the text instead of running it. Reading takes the apostrophe off again when it stands
before one of those characters, so recall's own exports round-trip.

Sizes are bounded (:data:`MAX_ROWS`, :data:`MAX_FIELD`, and the csv module's own field limit),
because the file is the learner's input and may be anything. Row numbers count records the way
a spreadsheet counts rows (a quoted field spanning lines is still one row).
"""

from __future__ import annotations

import csv
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO

from recall.scheduling.rating import Rating
from recall.scheduling.review_row import RevlogRow
from recall.scheduling.state import Phase

COLUMNS = ("card_id", "review_time", "review_rating", "review_state", "review_duration")
REQUIRED = ("card_id", "review_time", "review_rating")
#: Rows read at most; the rest of a longer file is reported, not read.
MAX_ROWS = 2_000_000
#: Characters per field at most (a card id is far shorter).
MAX_FIELD = 1_000
#: Characters per line at most: five fields at their limit fit many times over. A longer line
#: (a file with no line breaks) ends the reading, so it is never held in memory whole.
MAX_LINE = 64 * 1024
#: Review times must lie in [2000-01-01, 2200-01-01): outside is a unit mistake (seconds for
#: milliseconds) or garbage.
EARLIEST_MS = 946_684_800_000
LATEST_MS = 7_258_118_400_000
#: A review lasting longer than a day is not a duration anyone measured.
MAX_DURATION_MS = 86_400_000
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True, slots=True)
class RowProblem:
    """A row that was not used, and why (``row`` 1 is the header)."""

    row: int
    reason: str

    def __str__(self) -> str:
        return f"row {self.row}: {self.reason}"


@dataclass(frozen=True)
class RevlogRead:
    """What :func:`read_revlog` found: usable rows and the problems, both in file order."""

    rows: tuple[RevlogRow, ...] = ()
    problems: tuple[RowProblem, ...] = ()


@dataclass(frozen=True)
class Matched:
    """Rows whose card id is one of the learner's cards, and the rows that are not."""

    rows: tuple[RevlogRow, ...] = ()
    unmatched: tuple[RowProblem, ...] = field(default_factory=tuple)


def neutralise(text: str) -> str:
    """``text`` made safe to open in a spreadsheet (a leading apostrophe before a formula)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def restore(text: str) -> str:
    """The inverse of :func:`neutralise` for text it produced."""
    if text.startswith("'") and text[1:].startswith(FORMULA_STARTS):
        return text[1:]
    return text


def _integer(text: str, what: str) -> int:
    """A plain decimal integer (digits, optional leading minus): no floats, no exponents."""
    body = text.strip()
    digits = body[1:] if body.startswith("-") else body
    if not digits.isdigit() or not digits.isascii() or len(digits) > 18:
        raise ValueError(f"{what} {text!r} is not a whole number")
    return int(body)


def _parse(number: int, values: dict[str, str]) -> RevlogRow:
    card_id = restore(values["card_id"].strip())
    if not card_id:
        raise ValueError("card_id is empty")
    millis = _integer(values["review_time"], "review_time")
    if not EARLIEST_MS <= millis < LATEST_MS:
        raise ValueError(
            f"review_time {millis} is not milliseconds between 2000 and 2200 "
            "(seconds instead of milliseconds?)"
        )
    rating_value = _integer(values["review_rating"], "review_rating")
    if rating_value not in (1, 2, 3, 4):
        raise ValueError(f"review_rating {rating_value} is not 1, 2, 3 or 4")
    state: Phase | None = None
    raw_state = (values.get("review_state") or "").strip()
    if raw_state:
        state_value = _integer(raw_state, "review_state")
        if state_value not in (0, 1, 2, 3):
            raise ValueError(f"review_state {state_value} is not 0, 1, 2 or 3")
        state = Phase(state_value)
    duration: int | None = None
    raw_duration = (values.get("review_duration") or "").strip()
    if raw_duration:
        duration = _integer(raw_duration, "review_duration")
        if not 0 <= duration <= MAX_DURATION_MS:
            raise ValueError(f"review_duration {duration} ms is negative or longer than a day")
    return RevlogRow(
        row=number,
        card_id=card_id,
        reviewed_at=datetime.fromtimestamp(millis / 1000.0, tz=UTC),
        rating=Rating(rating_value),
        state=state,
        duration_ms=duration,
    )


def read_revlog(stream: Iterable[str], max_rows: int = MAX_ROWS) -> RevlogRead:
    """Parse a review-log CSV. Never raises for bad content: problems are returned. A row with
    the same card and time as an earlier one is a problem. Holds every row in memory: for a
    file of any size, :func:`iter_revlog` streams."""
    rows: list[RevlogRow] = []
    problems: list[RowProblem] = []
    seen: set[tuple[str, datetime]] = set()
    for item in iter_revlog(stream, max_rows):
        if isinstance(item, RowProblem):
            problems.append(item)
            continue
        key = (item.card_id, item.reviewed_at)
        if key in seen:
            problems.append(RowProblem(item.row, "the same card and time as an earlier row"))
            continue
        seen.add(key)
        rows.append(item)
    return RevlogRead(tuple(rows), tuple(problems))


def iter_revlog(
    stream: Iterable[str], max_rows: int = MAX_ROWS
) -> Iterator[RevlogRow | RowProblem]:
    """Parse a review-log CSV row by row, yielding each usable row or the problem with it, in
    file order; memory stays that of one row whatever the file's size. Never raises for bad
    content. A row repeating an earlier one is not detected here (the store counts it as
    already there)."""
    too_long: list[int] = []
    reader = csv.reader(_bounded_lines(stream, too_long))
    try:
        header = next(reader, None)
    except (csv.Error, UnicodeDecodeError) as error:
        yield RowProblem(1, f"not a CSV text file: {error}")
        return
    if header is None:
        yield RowProblem(1, "the file is empty: expected a header row")
        return
    # Spreadsheets often start a UTF-8 file with a byte-order mark.
    names = [name.strip().lstrip("\ufeff").lower() for name in header]
    missing = [name for name in REQUIRED if name not in names]
    if missing:
        yield RowProblem(
            1,
            f"the header lacks {', '.join(missing)} (expected columns: {', '.join(COLUMNS)})",
        )
        return
    number = 1
    counted = 0
    while True:
        try:
            record = next(reader)
        except StopIteration:
            if too_long:
                yield RowProblem(
                    number + 1,
                    f"a line longer than {MAX_LINE:,} characters: the rest was not read",
                )
            break
        except csv.Error as error:
            number += 1
            counted += 1
            yield RowProblem(number, f"unreadable CSV: {error}")
            continue
        except UnicodeDecodeError:
            yield RowProblem(number + 1, "not UTF-8 text from here on: the rest was not read")
            break
        number += 1
        if not any(cell.strip() for cell in record):
            continue
        if counted >= max_rows:
            yield RowProblem(number, f"more than {max_rows} rows: the rest was not read")
            break
        counted += 1
        if len(record) != len(names):
            yield RowProblem(number, f"{len(record)} fields where the header has {len(names)}")
            continue
        if any(len(cell) > MAX_FIELD for cell in record):
            yield RowProblem(number, f"a field longer than {MAX_FIELD} characters")
            continue
        try:
            yield _parse(number, dict(zip(names, record, strict=True)))
        except ValueError as error:
            yield RowProblem(number, str(error))


def _bounded_lines(stream: Iterable[str], too_long: list[int]) -> Iterator[str]:
    """The lines of ``stream``, each read with at most :data:`MAX_LINE` characters held: the
    first longer line ends them (and is noted in ``too_long``)."""
    readline = getattr(stream, "readline", None)
    if readline is None:
        lines: Iterator[str] = iter(stream)
    else:
        lines = iter(lambda: readline(MAX_LINE + 1), "")
    for line in lines:
        if len(line) > MAX_LINE:
            too_long.append(len(line))
            return
        yield line


def match_cards(rows: Iterable[RevlogRow], known: Collection[str]) -> Matched:
    """Split ``rows`` into those whose ``card_id`` is in ``known`` and the unmatched ones."""
    matched: list[RevlogRow] = []
    unmatched: list[RowProblem] = []
    for row in rows:
        if row.card_id in known:
            matched.append(row)
        else:
            unmatched.append(RowProblem(row.row, f"no card {row.card_id!r} in your collection"))
    return Matched(tuple(matched), tuple(unmatched))


def write_revlog(rows: Iterable[RevlogRow], stream: IO[str]) -> int:
    """Write ``rows`` with a header (all five columns); returns how many rows were written.

    Lines end in CRLF as RFC 4180 says, which also makes the csv module quote a field holding a
    lone carriage return; open a file for it with ``newline=""``.
    """
    writer = csv.writer(stream)
    writer.writerow(COLUMNS)
    count = 0
    for row in rows:
        writer.writerow(
            (
                neutralise(row.card_id),
                round(row.reviewed_at.timestamp() * 1000),
                int(row.rating),
                "" if row.state is None else int(row.state),
                "" if row.duration_ms is None else row.duration_ms,
            )
        )
        count += 1
    return count
