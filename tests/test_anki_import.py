"""``recall anki import`` on collections recall did not write, and on bad packages.

The collections are built by hand (``tests/anki_packages.py``) in Anki's schema-11 layout, so
these tests need no Anki wheel: notes of other note types (formula backs in MathJax and
``$…$``, HTML, a cloze, plain text), FSRS and SM-2 cards, revlog rows that are and are not
reviews. Bad packages must be refused with one line and exit 2, with nothing written.
"""

from __future__ import annotations

import json
import sqlite3
import struct
import sys
import zipfile
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from recall.cli import main
from recall.interop.anki_days import DayClock, clock_for_export
from recall.interop.anki_schema import TABLES
from recall.scheduling.state import Phase
from recall.store import open_store
from recall.store.memory import MemoryModelStore
from tests.anki_packages import BASIC, CLOZE, Card, Collection, build_collection, card_id, package

NOW = datetime.now(UTC)
CRT = 1_700_000_000
CLOCK = DayClock(crt=CRT, offset_minutes_west=0, rollover=4)
TODAY = CLOCK.day_number(NOW)
LRT = int((NOW - timedelta(days=7)).timestamp())
T = int((NOW - timedelta(days=20)).timestamp() * 1000)
DAY_MS = 86_400_000


def spec() -> Collection:
    notes = [
        (11, BASIC, ["Sigmoid", r"\(\frac{1}{1+e^{-x}}\)"], " sigmoid "),
        (12, BASIC, ["Pythagoras", "$a^2 + b^2$"], ""),
        (
            13,
            BASIC,
            [
                "Why warmup?",
                "Early Adam <b>second-moment</b> estimates are noisy &amp; big<br>steps\r\n"
                "diverge <img src='x.png'>",
            ],
            "",
        ),
        (14, CLOZE, ["BatchNorm normalises over the {{c1::batch}} dimension", ""], ""),
        (15, BASIC, ["MSE", "mean squared error"], ""),
    ]
    fsrs = json.dumps({"s": 12.5, "d": 5.25, "dr": 0.9, "lrt": LRT})
    cards = [
        Card(11, type=2, queue=2, due=TODAY + 5, ivl=12, reps=3, data=fsrs),
        Card(12, type=2, queue=2, due=TODAY + 3, ivl=4, reps=3),
        Card(13),
        Card(14, type=1, queue=1, due=int(NOW.timestamp()) + 600, reps=1, left=1001),
        Card(15, type=2, queue=-1, due=TODAY - 2, ivl=9, reps=4, lapses=1, data=fsrs),
    ]
    revlog = [
        (T, card_id(1), 3, -600, 0, 0, 5000, 0),
        (T + DAY_MS, card_id(1), 3, 4, -600, 0, 4000, 0),
        (T + 6 * DAY_MS, card_id(1), 3, 12, 4, 0, 3000, 1),
        (T + 7 * DAY_MS, card_id(1), 0, 20, 12, 0, 0, 4),  # set due date by hand
        (T + 100, card_id(2), 3, -600, 0, 2500, 6000, 0),
        (T + DAY_MS + 100, card_id(2), 3, 1, -600, 2500, 6000, 0),
        (T + 3 * DAY_MS + 100, card_id(2), 2, 4, 1, 2500, 6000, 1),
        (T + 200, card_id(3), 3, 0, 0, 0, 1000, 3),  # cram: changed nothing
        (T + 300, card_id(5), 4, 9, 3, 2500, 2000, 3),  # filtered deck, rescheduled
    ]
    return Collection(crt=CRT, offset_west=0, notes=notes, cards=cards, revlog=revlog)


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


@pytest.fixture
def apkg(tmp_path: Path) -> Path:
    database = build_collection(tmp_path / "collection.anki2", spec())
    return package(tmp_path / "ml.apkg", database, media={"x.png": b"\x89PNG"})


def _cards(home: Path) -> dict:
    store = open_store(f"sqlite:///{home / 'recall.sqlite3'}")
    try:
        return {c.key: c for c in store.cards_by_key().values() if c.deck.startswith("anki")}
    finally:
        store.close()


def test_notes_schedules_and_history_come_in(
    apkg: Path, isolated_recall_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["anki", "import", str(apkg)]) == 0
    out = capsys.readouterr().out
    deck_file = isolated_recall_home / "decks" / "anki-ml-formulas.toml"
    assert deck_file.is_file()
    from recall.cards.loader import load_deck
    from recall.grading import check_deck

    deck = load_deck(deck_file, check=check_deck)
    by_id = {c.id: c for c in deck.cards}
    assert str(by_id["n11"].kind) == "formula"
    assert {s.name for s in by_id["n11"].symbols} == {"x"}
    assert by_id["n11"].tags == ("sigmoid",)
    assert str(by_id["n12"].kind) == "formula"
    assert {s.name for s in by_id["n12"].symbols} == {"a", "b"}
    assert str(by_id["n13"].kind) == "explain"
    assert by_id["n13"].model_answer == (
        "Early Adam second-moment estimates are noisy & big\nsteps\ndiverge"
    )
    assert str(by_id["n14"].kind) == "cloze"
    assert str(by_id["n15"].kind) == "explain"  # words, not a product of names
    assert "1 media file skipped" in out
    assert "  x.png\n" in out
    assert "a manual change of the due date" in out
    assert "a cram review" in out

    cards = _cards(isolated_recall_home)
    fsrs = cards["anki-ml-formulas/n11"].state
    assert fsrs.phase is Phase.REVIEW
    assert (fsrs.stability, fsrs.difficulty) == (12.5, 5.25)
    assert fsrs.last_review == datetime.fromtimestamp(LRT, tz=UTC)
    assert fsrs.due == CLOCK.day_start(TODAY + 5)
    assert (fsrs.reps, fsrs.lapses) == (3, 0)
    sm2 = cards["anki-ml-formulas/n12"].state
    assert sm2.phase is Phase.REVIEW and sm2.stability is not None and sm2.difficulty is not None
    assert sm2.due == CLOCK.day_start(TODAY + 3)
    assert "1 rebuilt from SM-2 history" in out
    assert cards["anki-ml-formulas/n13"].state.phase is Phase.NEW
    learning = cards["anki-ml-formulas/n14"].state
    assert learning.phase is Phase.LEARNING
    assert learning.due == datetime.fromtimestamp(int(NOW.timestamp()) + 600, tz=UTC)
    assert cards["anki-ml-formulas/n15"].suspended

    store = open_store(f"sqlite:///{isolated_recall_home / 'recall.sqlite3'}")
    try:
        imported = MemoryModelStore(store).imported_reviews()
    finally:
        store.close()
    got = sorted((r.card_key[-3:], r.rating, r.state, r.duration_ms) for r in imported)
    assert got == sorted(
        [
            ("n11", 3, 0, 5000),
            ("n11", 3, 1, 4000),
            ("n11", 3, 2, 3000),
            ("n12", 3, 0, 6000),
            ("n12", 3, 1, 6000),
            ("n12", 2, 2, 6000),
            ("n15", 4, 2, 2000),
        ]
    )


def test_importing_the_same_file_twice_changes_nothing(
    apkg: Path, isolated_recall_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["anki", "import", str(apkg)]) == 0
    capsys.readouterr()
    deck_file = isolated_recall_home / "decks" / "anki-ml-formulas.toml"
    text = deck_file.read_text()
    states = {k: (c.state, c.suspended) for k, c in _cards(isolated_recall_home).items()}
    assert main(["anki", "import", str(apkg)]) == 0
    out = capsys.readouterr().out
    assert "0 reviews imported, 7 already there" in out
    assert "schedules: 0 adopted" in out
    assert deck_file.read_text() == text
    assert {k: (c.state, c.suspended) for k, c in _cards(isolated_recall_home).items()} == states
    assert "nothing changed" in out


def test_a_later_package_adds_only_its_new_reviews(
    apkg: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same collection exported later, with one more answer: that review alone is added,
    the seven it shares with the first are already there, and the import does not say nothing
    changed."""
    assert main(["anki", "import", str(apkg)]) == 0
    capsys.readouterr()
    later = spec()
    later.revlog.append((T + 9 * DAY_MS, card_id(1), 3, 30, 12, 0, 2500, 1))
    (tmp_path / "later").mkdir()
    newer = package(
        tmp_path / "later" / "ml.apkg", build_collection(tmp_path / "later.anki2", later)
    )
    assert main(["anki", "import", str(newer)]) == 0
    out = capsys.readouterr().out
    assert "1 review imported, 7 already there" in out
    assert "nothing changed" not in out


def test_every_count_a_repeat_import_prints_is_what_that_run_did(
    apkg: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A repeat import adopts no schedule, so it says nothing was rebuilt from SM-2 history
    (the first import rebuilt one); a later package with a newer review of that SM-2 card
    adopts and rebuilds it alone, and one with a newer review of an FSRS card adopts it
    without a rebuild. Every line of the repeat import counts this run's work only."""
    assert main(["anki", "import", str(apkg)]) == 0
    assert "schedules: 4 adopted (1 rebuilt from SM-2 history), 0 kept" in capsys.readouterr().out
    assert main(["anki", "import", str(apkg)]) == 0
    out = capsys.readouterr().out
    assert "rebuilt" not in out
    assert "schedules: 0 adopted, 4 kept (recall's were as new or newer)" in out
    assert "wrote" not in out
    assert "0 reviews imported, 7 already there" in out
    assert "nothing changed" in out

    for card, extra in [(2, "sm2"), (1, "fsrs")]:
        later = spec()
        at = T + 15 * DAY_MS  # after every review and FSRS review time of the first package
        later.revlog.append((at, card_id(card), 3, 30, 12, 2500, 2500, 1))
        if extra == "fsrs":
            memory = {"s": 20.0, "d": 5.0, "dr": 0.9, "lrt": at // 1000}
            later.cards[card - 1].data = json.dumps(memory)
        folder = tmp_path / f"later-{extra}"
        folder.mkdir()
        newer = package(folder / "ml.apkg", build_collection(folder / "c.anki2", later))
        assert main(["anki", "import", str(newer)]) == 0
        out = capsys.readouterr().out
        rebuilt = " (1 rebuilt from SM-2 history)" if extra == "sm2" else ""
        assert f"schedules: 1 adopted{rebuilt}, 3 kept" in out
        assert "1 review imported, 7 already there" in out


def test_the_skipped_count_counts_every_row_the_reviews_of_cards_not_imported_included(
    tmp_path: Path, isolated_recall_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Reviews of a card the package no longer holds (Anki keeps a deleted card's revlog)
    are skipped rows like the manual and cram ones: three of them and those two are five
    rows skipped, not three (the summary line used to count as one row)."""
    gone = card_id(9)
    with_deleted = spec()
    with_deleted.revlog += [(T + 400 + n, gone, 3, 1, 0, 2500, 1000, 1) for n in range(3)]
    apkg = package(tmp_path / "d.apkg", build_collection(tmp_path / "d.anki2", with_deleted))
    assert main(["anki", "import", str(apkg)]) == 0
    out = capsys.readouterr().out
    assert "5 revlog rows skipped:\n" in out
    assert "\n  3 reviews of cards whose notes were not imported" in out
    assert "7 reviews imported" in out


def test_force_on_an_unchanged_deck_file_says_nothing_was_rewritten(
    apkg: Path, isolated_recall_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--force`` over a deck file that is already what the import writes neither rewrites
    it nor claims to, and the import says nothing changed; over an edited file it rewrites it
    and says "rewrote"."""
    assert main(["anki", "import", str(apkg)]) == 0
    capsys.readouterr()
    deck_file = isolated_recall_home / "decks" / "anki-ml-formulas.toml"
    text, before = deck_file.read_text(), deck_file.stat()
    assert main(["anki", "import", "--force", str(apkg)]) == 0
    out = capsys.readouterr().out
    assert "wrote" not in out
    assert f"kept 5 cards (1 cloze, 2 explain, 2 formula) in {deck_file}: already what" in out
    assert "nothing changed" in out
    after = deck_file.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)

    deck_file.write_text(text.replace('prompt = "MSE"', 'prompt = "Mean squared error?"'))
    assert main(["anki", "import", "--force", str(apkg)]) == 0
    out = capsys.readouterr().out
    assert f"rewrote 5 cards (1 cloze, 2 explain, 2 formula) in {deck_file}" in out
    assert "nothing changed" not in out
    assert deck_file.read_text() == text


#: Decks the engine checked, by deck id (:func:`counted_engine_checks`).
CHECKED: Counter[str] = Counter()


def counted_engine_checks(built, problems):  # noqa: ANN001, ANN201
    """The engine's deck checks, counted: a module-level function, so the parse cache names
    it and caches its results as it does the real check's."""
    from recall.grading.checks import check_deck

    CHECKED[built.deck.id] += 1
    check_deck(built, problems)


@pytest.mark.parametrize("deck_cache", ["on", "off"])
def test_a_generated_deck_is_checked_once_with_the_deck_cache_on_or_off(
    deck_cache: str,
    apkg: Path,
    isolated_recall_home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The engine's checks run once on the deck the first import writes: before it is
    written, and loading the written bytes takes that result, with ``RECALL_NO_DECK_CACHE=1``
    as with the cache on. A file changed after it was checked is checked again."""
    import recall.grading
    from recall.cards.loader import check_deck_text, read_deck

    if deck_cache == "off":
        monkeypatch.setenv("RECALL_NO_DECK_CACHE", "1")
    monkeypatch.setattr(recall.grading, "check_deck", counted_engine_checks)
    CHECKED.clear()
    assert main(["anki", "import", str(apkg)]) == 0
    assert "wrote 5 cards" in capsys.readouterr().out
    assert CHECKED["anki-ml-formulas"] == 1

    deck_file = isolated_recall_home / "decks" / "anki-ml-formulas.toml"
    text = deck_file.read_text().replace('prompt = "MSE"', 'prompt = "Mean squared error?"')
    assert check_deck_text(text, deck_file, check=counted_engine_checks)[0] is not None
    deck_file.write_text(text.replace("Mean squared", "The mean squared"))
    CHECKED.clear()
    deck, errors = read_deck(deck_file, check=counted_engine_checks)
    assert deck is not None and not errors
    assert CHECKED["anki-ml-formulas"] == 1  # not the bytes checked: checked again


def test_a_repeat_import_knows_its_deck_files_without_converting_the_notes_again(
    apkg: Path,
    isolated_recall_home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The deck file's stamp names what it was made from and its text: the same package again
    is recognised without converting a note (which would raise here)."""
    import recall.anki_import as anki_import

    assert main(["anki", "import", str(apkg)]) == 0
    first = capsys.readouterr().out
    deck_file = isolated_recall_home / "decks" / "anki-ml-formulas.toml"
    text = deck_file.read_text()

    def no_conversion(notes):  # noqa: ANN001, ANN202
        raise AssertionError("the notes were converted again")

    monkeypatch.setattr(anki_import, "_note_tables", no_conversion)
    assert main(["anki", "import", str(apkg)]) == 0
    out = capsys.readouterr().out
    assert "nothing changed" in out
    assert first.splitlines()[0].replace("wrote", "kept") == out.splitlines()[0]
    assert deck_file.read_text() == text


@pytest.mark.parametrize("edit", ["card", "stamp"])
def test_a_generated_deck_file_the_learner_edited_is_kept(
    edit: str, apkg: Path, isolated_recall_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An edited card means the file is no longer what the import makes: it is left as the
    learner has it, and the import says so. An edited stamp only costs the shortcut: the notes
    are converted again and the text compared, which finds it the same."""
    from recall.anki_import import STAMP

    assert main(["anki", "import", str(apkg)]) == 0
    capsys.readouterr()
    deck_file = isolated_recall_home / "decks" / "anki-ml-formulas.toml"
    text = deck_file.read_text()
    if edit == "card":
        edited = text.replace('prompt = "MSE"', 'prompt = "Mean squared error?"')
    else:
        edited = text.replace(f"# {STAMP} ", f"# {STAMP} 0")
    assert edited != text
    deck_file.write_text(edited)
    assert main(["anki", "import", str(apkg)]) == 0
    out = capsys.readouterr().out
    differs = "differs from this import and was left as it is" in out
    assert differs == (edit == "card")
    assert ("nothing changed" in out) == (edit == "stamp")
    assert deck_file.read_text() == edited


def test_a_newer_state_in_recall_is_kept(
    apkg: Path, isolated_recall_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from recall.scheduling import Rating, Scheduler, SchedulerSettings
    from recall.store import ReviewInput
    from recall.verdicts import Status

    assert main(["anki", "import", str(apkg)]) == 0
    store = open_store(f"sqlite:///{isolated_recall_home / 'recall.sqlite3'}")
    sched = Scheduler(SchedulerSettings(enable_fuzzing=False))
    try:
        card = store.cards_by_key(["anki-ml-formulas/n11"])["anki-ml-formulas/n11"]
        store.apply_review(
            card.db_id,
            ReviewInput(Rating.Good, NOW, Status.CORRECT, 2.0),
            lambda s: sched.review(card.db_id, s, Rating.Good, NOW),
        )
        drilled = store.card(card.db_id).state
    finally:
        store.close()
    assert main(["anki", "import", str(apkg)]) == 0
    assert _cards(isolated_recall_home)["anki-ml-formulas/n11"].state == drilled


def test_the_compressed_format_is_read_and_needs_zstandard(
    tmp_path: Path,
    isolated_recall_home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("zstandard", reason="the anki extra (zstandard) is not installed")
    database = build_collection(tmp_path / "c.anki21b", spec())
    target = package(tmp_path / "new.colpkg", database, member="collection.anki21b")
    # the stub Anki writes beside it must be ignored
    with zipfile.ZipFile(target, "a") as archive:
        archive.writestr("collection.anki2", b"SQLite format 3\x00 stub")
    monkeypatch.setitem(sys.modules, "zstandard", None)
    before = snapshot(isolated_recall_home) if isolated_recall_home.exists() else {}
    assert main(["anki", "import", str(target)]) == 2
    err = capsys.readouterr().err
    assert "pip install 'recall[anki]'" in err and len(err.strip().splitlines()) == 1
    after = snapshot(isolated_recall_home) if isolated_recall_home.exists() else {}
    assert after == before
    monkeypatch.delitem(sys.modules, "zstandard")
    assert main(["anki", "import", str(target)]) == 0
    assert "7 reviews imported" in capsys.readouterr().out


# ----- bad packages: one line, exit 2, nothing written -----------------------------------------


def _zip_bomb(path: Path) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("collection.anki2", b"\0" * (64 * 1024 * 1024))
    return path


def _not_sqlite(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("collection.anki2", b"this is not a database at all" * 100)
    return path


def _bad_revlog(path: Path) -> Path:
    damaged = spec()
    damaged.revlog.append((T + 999, card_id(1), 9, 1, 0, 0, 100, 1))
    return package(path, build_collection(path.with_suffix(".db"), damaged))


def _huge_member(path: Path) -> Path:
    """A zip whose directory says its collection is 2 GB (the bytes are a few)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("collection.anki2", b"SQLite format 3\x00")
    data = bytearray(path.read_bytes())
    central = data.rfind(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 24, 2 * 1024**3)
    struct.pack_into("<I", data, 22, 2 * 1024**3)
    path.write_bytes(bytes(data))
    return path


def _not_a_zip(path: Path) -> Path:
    path.write_bytes(b"SQLite format 3\x00" + b"\0" * 100)
    return path


def _no_collection(path: Path) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("media", "{}")
    return path


def _control_characters(path: Path) -> Path:
    hostile = spec()
    hostile.notes[0] = (11, BASIC, ["Sigmoid\x1b]52;c;aGk=\x07", "x"], "")
    return package(path, build_collection(path.with_suffix(".db"), hostile))


def _empty_tables(path: Path) -> Path:
    db = path.with_suffix(".db")
    with sqlite3.connect(db) as connection:
        connection.executescript("CREATE TABLE col (id integer);")
    return package(path, db)


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (_not_a_zip, "not a zip file"),
        (_zip_bomb, "zip bomb"),
        (_huge_member, "2,147,483,648 bytes"),
        (_not_sqlite, "not an SQLite database"),
        (_bad_revlog, "ease 9 is not 0 to 4"),
        (_no_collection, "holds no Anki collection"),
        (_control_characters, "U+001B (ESC)"),
        (_empty_tables, "not an Anki collection"),
    ],
    ids=lambda v: getattr(v, "__name__", "")[:30],
)
def test_a_bad_package_gets_one_line_and_exit_2_with_nothing_written(
    make,
    reason: str,
    tmp_path: Path,
    isolated_recall_home: Path,  # noqa: ANN001
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = make(tmp_path / "bad.apkg")
    isolated_recall_home.mkdir(parents=True, exist_ok=True)
    before = snapshot(isolated_recall_home)
    assert main(["anki", "import", str(source)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and reason in lines[0], captured.err
    assert "\x1b" not in captured.err
    assert snapshot(isolated_recall_home) == before


def test_the_day_numbering_converts_both_ways() -> None:
    clock = DayClock(crt=CRT, offset_minutes_west=-600, rollover=4)  # UTC+10
    for number in (0, 1, 400, 1000):
        start = clock.day_start(number)
        assert clock.day_number(start) == number
        assert clock.day_number(start - timedelta(seconds=1)) == number - 1
    exported = clock_for_export(NOW)
    today = exported.day_number(NOW)
    assert today in (364, 365)  # a year back, counted in days starting at 4 am
    assert exported.day_start(today) <= NOW < exported.day_start(today + 1)


def test_the_schema_is_anki_s_schema_11() -> None:
    with sqlite3.connect(":memory:") as db:
        db.executescript(TABLES)
        tables = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert tables == {"col", "notes", "cards", "revlog", "graves"}


def test_a_formula_the_engine_refuses_becomes_a_self_rated_card(
    apkg: Path,
    isolated_recall_home: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from recall.grading import checks

    original = checks.check_card

    def refusing(item, problems):  # noqa: ANN001, ANN202
        if item.card.id == "n12" and str(item.card.kind) == "formula":
            problems.add("a check the engine failed", card_id="n12")
        return original(item, problems)

    monkeypatch.setattr(checks, "check_card", refusing)
    assert main(["anki", "import", str(apkg)]) == 0
    text = (isolated_recall_home / "decks" / "anki-ml-formulas.toml").read_text()
    from recall.cards.loader import load_deck

    deck = load_deck(isolated_recall_home / "decks" / "anki-ml-formulas.toml")
    by_id = {c.id: c for c in deck.cards}
    assert str(by_id["n12"].kind) == "explain"
    assert by_id["n12"].model_answer == "a^2 + b^2"
    assert str(by_id["n11"].kind) == "formula"
    assert text.startswith("# Imported by `recall anki import`")


def _control_in_a_tag(path: Path) -> Path:
    hostile = spec()
    hostile.notes[1] = (12, BASIC, ["Pythagoras", "$a^2 + b^2$"], " ok \x9b31m ")
    return package(path, build_collection(path.with_suffix(".db"), hostile))


def test_a_control_character_in_a_tag_is_refused(
    tmp_path: Path, isolated_recall_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _control_in_a_tag(tmp_path / "tag.apkg")
    assert main(["anki", "import", str(source)]) == 2
    err = capsys.readouterr().err
    assert "U+009B (CSI)" in err and "\x9b" not in err
    assert not (isolated_recall_home / "decks").exists()


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["anki", "export", "sample", "out.txt"], "ending in .apkg"),
        (["anki", "export", "nope", "out.apkg"], "no deck 'nope'"),
        (["anki", "export", "no/such/folder/out.apkg"], "is not a folder"),
    ],
)
def test_export_refuses_what_it_cannot_write(
    argv: list[str],
    reason: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert reason in err and len(err.strip().splitlines()) == 1
    assert not list(tmp_path.glob("*.apkg"))


def test_export_reads_the_decks_folder_the_global_option_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    folder = tmp_path / "my-decks"
    folder.mkdir()
    shutil.copy(Path(__file__).parent / "fixtures" / "decks" / "sample" / "sample.toml", folder)
    target = tmp_path / "out.apkg"
    assert main(["--decks", str(folder), "anki", "export", "sample", str(target)]) == 0
    assert "wrote 9 cards and 0 reviews from 1 deck" in capsys.readouterr().out
    with zipfile.ZipFile(target) as archive:
        (tmp_path / "c.db").write_bytes(archive.read("collection.anki2"))
    with sqlite3.connect(tmp_path / "c.db") as db:
        keys = {flds.split("\x1f")[2] for (flds,) in db.execute("SELECT flds FROM notes")}
    assert len(keys) == 9 and all(key.startswith("sample/") for key in keys)


def _invisible_tag(path: Path) -> Path:
    hostile = spec()
    hostile.notes[2] = (13, BASIC, ["Why warmup?", "because"], " warm\u200bup ")
    return package(path, build_collection(path.with_suffix(".db"), hostile))


def test_a_note_the_deck_rules_refuse_leaves_nothing_written(
    tmp_path: Path, isolated_recall_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a zero-width character in a tag (an id): the deck builder's rule, after the package read
    source = _invisible_tag(tmp_path / "tag.apkg")
    assert main(["anki", "import", str(source)]) == 2
    assert "U+200B" in capsys.readouterr().err
    assert not (isolated_recall_home / "decks").exists()
    assert not (isolated_recall_home / "recall.sqlite3").exists()
