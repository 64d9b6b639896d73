"""Limits before work (issue 17, item 7): an import over the deck limits is refused before it is
parsed, nothing is written unless the whole deck is valid, and a review-log import streams.

Timings are printed by ``benchmarks/bench_import_limits.py``; these tests assert the refusals,
that nothing was written, and that memory does not grow with a review log's length.
"""

from __future__ import annotations

import io
import tracemalloc
from pathlib import Path

import pytest
from store_fixtures import db_url  # noqa: F401 - the fixture: a fresh database per backend

from recall.cli import main
from recall.interop.text_import import MAX_NOTES


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("RECALL_HOME", str(home))
    monkeypatch.delenv("RECALL_DB", raising=False)
    monkeypatch.delenv("RECALL_DECKS", raising=False)
    return home


def _written(home: Path) -> list[str]:
    """Every file under the data directory's decks folder (temporary files included)."""
    decks = home / "decks"
    return sorted(str(p.relative_to(decks)) for p in decks.rglob("*")) if decks.exists() else []


def _csv(path: Path, rows: int, width: int = 0) -> Path:
    pad = "x" * width
    with path.open("w", encoding="utf-8") as out:
        out.writelines(f"front {i} {pad},back {i}\n" for i in range(rows))
    return path


def test_a_million_row_csv_is_refused_with_nothing_written(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _csv(tmp_path / "million.csv", 1_000_000)
    assert main(["decks", "import", str(source)]) == 2
    err = capsys.readouterr().err
    assert "MiB" in err and "at most 4 MiB" in err, err
    assert _written(home) == []


def test_too_many_rows_in_a_small_file_are_refused_at_the_first_row_past_the_limit(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for fmt, text in (
        ("csv", "".join(f'"q{i}","a{i}"\n' for i in range(MAX_NOTES + 1))),
        ("anki", "#separator:tab\n" + "".join(f"q{i}\ta{i}\n" for i in range(MAX_NOTES + 1))),
        ("quizlet", "".join(f"q{i}\ta{i}\n" for i in range(MAX_NOTES + 1))),
    ):
        source = tmp_path / f"many.{fmt}.txt"
        source.write_text(text, encoding="utf-8")
        assert main(["decks", "import", str(source), "--format", fmt]) == 2
        err = capsys.readouterr().err
        assert f"more than {MAX_NOTES:,} cards" in err, (fmt, err)
        assert _written(home) == []


def test_a_deck_over_the_size_limit_is_refused_before_it_is_written(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under the input limits (1,500 rows, 1.5 MB) but the deck it makes is over 1 MiB: this
    used to be written and then refused, left in the decks folder to break every start."""
    source = _csv(tmp_path / "wide.csv", 1_500, width=1_000)
    assert source.stat().st_size < 4 << 20
    assert main(["decks", "import", str(source)]) == 2
    err = capsys.readouterr().err
    assert "over the 1 MiB limit" in err, err
    assert _written(home) == []


def test_an_accepted_import_is_written_whole(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _csv(tmp_path / "fine.csv", MAX_NOTES)
    assert main(["decks", "import", str(source)]) == 0
    assert f"imported {MAX_NOTES} cards" in capsys.readouterr().out
    assert _written(home) == ["fine.toml"]


def _revlog(rows: int, card: str = "ghost/card") -> str:
    lines = ["card_id,review_time,review_rating"]
    lines += [f"{card},{1_700_000_000_000 + i * 1000},3" for i in range(rows)]
    return "\n".join(lines) + "\n"


def test_a_review_log_import_keeps_a_bounded_report(home: Path) -> None:
    """Every unusable row is counted, but only the first thousand are kept with their reason."""
    from recall.memory import model as memory_model
    from recall.store import open_store

    store = open_store(f"sqlite:///{home / 'r.sqlite3'}")
    try:
        report = memory_model.import_reviews(store, io.StringIO(_revlog(5_000)))
    finally:
        store.close()
    assert report.added == 0
    assert report.problem_count == 5_000
    assert len(report.problems) == memory_model.KEPT_PROBLEMS
    assert report.problems[0].row == 2 and "no card" in report.problems[0].reason


def test_a_review_log_import_streams(home: Path) -> None:
    """Memory does not grow with the file: the peak for 40,000 rows stays near that for 4,000
    (the old reader held every row, ~1 kB each: 1.16 GB for a million)."""
    from recall.memory import model as memory_model
    from recall.store import open_store

    store = open_store(f"sqlite:///{home / 'r.sqlite3'}")
    peaks = []
    try:
        for rows in (4_000, 40_000):
            stream = io.StringIO(_revlog(rows))  # the input itself is not the reader's memory
            tracemalloc.start()
            try:
                report = memory_model.import_reviews(store, stream)
                peaks.append(tracemalloc.get_traced_memory()[1])
            finally:
                tracemalloc.stop()
            assert report.problem_count == rows
    finally:
        store.close()
    small, large = peaks
    assert large < small * 3, f"peak {small / 1e6:.1f} MB for 4,000 rows, {large / 1e6:.1f} MB"


def test_review_rows_for_known_cards_are_stored_in_batches(db_url: str) -> None:  # noqa: F811
    """Rows past one batch all arrive, each once; a second import finds them already there
    (SQLite, and PostgreSQL when ``RECALL_TEST_PG_URL`` is set)."""
    from recall.cards.model import Card, CardKind, Deck
    from recall.memory import model as memory_model
    from recall.store import open_store
    from recall.store.memory import IMPORT_BATCH

    store = open_store(db_url)
    try:
        card = Card(deck_id="d", id="c", kind=CardKind.FORMULA, prompt="p", answer="x")
        store.sync_decks([Deck(id="d", name="D", cards=(card,))])
        rows = IMPORT_BATCH * 2 + 7
        text = _revlog(rows, card="d/c") + _revlog(3, card="d/c").split("\n", 1)[1]
        report = memory_model.import_reviews(store, io.StringIO(text))
        assert (report.added, report.already_there, report.problem_count) == (rows, 3, 0)
        again = memory_model.import_reviews(store, io.StringIO(text))
        assert (again.added, again.already_there) == (0, rows + 3)
    finally:
        store.close()


def test_a_review_log_line_without_end_is_never_held_whole(home: Path, tmp_path: Path) -> None:
    """A 20 MB line (no line breaks) ends the reading after 64 kB: it is reported, not loaded."""
    from recall.interop.review_csv import MAX_LINE
    from recall.memory import model as learner_model
    from recall.store import open_store

    source = tmp_path / "one-line.csv"
    with source.open("w", encoding="utf-8") as out:
        out.write("card_id,review_time,review_rating\n")
        out.write("d/c,1700000000000,3\n")
        out.write("x" * 20_000_000)
    store = open_store(f"sqlite:///{home / 'r.sqlite3'}")
    try:
        with source.open(encoding="utf-8", newline="") as stream:
            tracemalloc.start()
            try:
                report = learner_model.import_reviews(store, stream)
                peak = tracemalloc.get_traced_memory()[1]
            finally:
                tracemalloc.stop()
    finally:
        store.close()
    reasons = [problem.reason for problem in report.problems]
    assert any(f"longer than {MAX_LINE:,} characters" in reason for reason in reasons), reasons
    assert peak < 5_000_000, f"peak {peak / 1e6:.1f} MB"


@pytest.mark.parametrize("depth", [40, 900, 200_000])
def test_a_deeply_nested_json_import_is_refused_before_it_is_parsed(
    depth: int, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """200,000 levels used to end in a RecursionError traceback; any nesting deeper than a deck
    can hold is refused with a sentence, nothing written."""
    source = tmp_path / "deep.json"
    source.write_text('{"format": 1, "cards": [], "deck": ' + "[" * depth + "]" * depth + "}")
    assert main(["decks", "import", str(source)]) == 2
    assert "nest deeper than 32 levels" in capsys.readouterr().err
    assert _written(home) == []


def test_a_csv_field_over_the_csv_modules_limit_is_refused_by_row(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 200 kB quoted field (over the csv module's 128 kB) used to end in a traceback."""
    source = tmp_path / "big.csv"
    source.write_text('"front","back"\n"q","a"\n"' + "x" * 200_000 + '","b"\n', encoding="utf-8")
    assert main(["decks", "import", str(source)]) == 2
    err = capsys.readouterr().err
    assert "row 3 is not readable as CSV" in err, err
    assert "Traceback" not in err
    assert _written(home) == []
