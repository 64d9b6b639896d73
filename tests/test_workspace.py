"""The workspace: settings read once, decks loaded, merged, synced and retired, one card cache,
and the commands that share it (through the real entry point, :func:`recall.cli.main`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from recall.cli import main
from recall.workspace import Workspace

DECK = """\
[deck]
id = "mine"
name = "Mine"

[[card]]
id = "one"
kind = "formula"
prompt = "x squared"
answer = "x^2"
symbols = { x = "real" }

[[card]]
id = "two"
kind = "formula"
prompt = "twice x"
answer = "2*x"
symbols = { x = "real" }
"""


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RECALL_HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    return tmp_path / "home"


def _stats(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main([*argv, "stats", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _forecast_total(figures: dict[str, object]) -> int:
    return sum(n for _day, n in figures["forecast"])  # type: ignore[attr-defined, misc]


def test_recall_stats_after_a_deck_file_is_deleted_no_longer_counts_its_cards(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from recall.session import Budget

    folder = tmp_path / "custom"
    folder.mkdir()
    (folder / "mine.toml").write_text(DECK, encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"
    argv = ["--db", url, "--decks", str(folder)]

    # Two reviewed cards of the deck, both graduated to a review a few days out.
    workspace = Workspace.open(db_url=url, custom_decks=folder)
    session = workspace.start_session(budget=Budget.until_done(), mode="normal", decks=["mine"])
    for _ in range(2):
        card = session.next_card()
        assert card is not None and card.deck_id == "mine"
        session.record(verdict="correct", rating=4)
    workspace.close()

    before = _stats(argv, capsys)
    assert _forecast_total(before) == 2
    assert "RECALL_DB" not in os.environ and "RECALL_DECKS" not in os.environ  # passed down

    (folder / "mine.toml").unlink()
    after = _stats(argv, capsys)
    assert _forecast_total(after) == 0
    assert after["reviews"] == before["reviews"] == 2  # the history is kept

    (folder / "mine.toml").write_text(DECK, encoding="utf-8")
    assert _forecast_total(_stats(argv, capsys)) == 2  # the cards come back with the file


def test_the_database_given_with_db_is_the_one_used(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'given.sqlite3'}"
    _stats(["--db", url], capsys)
    assert (tmp_path / "given.sqlite3").is_file()
    assert not (home / "recall.sqlite3").exists()


def test_a_custom_deck_may_not_take_a_builtin_decks_id(home: Path, tmp_path: Path) -> None:
    from recall.cards.loader import load_decks
    from recall.paths import builtin_decks_dir

    taken = load_decks([builtin_decks_dir()]).decks[0]
    folder = tmp_path / "custom"
    folder.mkdir()
    (folder / "copy.toml").write_text(DECK.replace('"mine"', f'"{taken.id}"'), encoding="utf-8")
    workspace = Workspace.open(custom_decks=folder, sync=False)
    assert [deck.path for deck in workspace.decks if deck.id == taken.id] == [taken.path]
    [failure] = workspace.failures
    assert failure.path.endswith("copy.toml")
    assert f"deck id '{taken.id}' is already used by" in str(failure.errors[0])
    # the error names the line of the file's [deck] id, like every other deck error
    id_line = next(
        n
        for n, line in enumerate(DECK.splitlines(), 1)
        if line.startswith("id =") and "mine" in line
    )
    assert failure.errors[0].line == id_line


def test_without_sync_only_the_deck_files_are_read(home: Path, tmp_path: Path) -> None:
    folder = tmp_path / "custom"
    folder.mkdir()
    (folder / "mine.toml").write_text(DECK, encoding="utf-8")
    workspace = Workspace.open(custom_decks=folder, sync=False)
    assert {"mine/one", "mine/two"} <= set(workspace.cards)
    assert not (home / "recall.sqlite3").exists()  # recall decks list never opens the database


def test_the_settings_file_is_read_once_per_start(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``recall drill`` reads the settings, and the app and its workspace reuse them."""
    from recall import config
    from recall.tui import launch

    (home / "config.toml").write_text("session_minutes = 7\n", encoding="utf-8")
    reads: list[Path | None] = []
    real = config.load_settings

    def counting(path: Path | None = None, **options: list[str]) -> config.Settings:
        reads.append(path)
        return real(path, **options)

    monkeypatch.setattr(config, "load_settings", counting)
    started: list[object] = []

    def run_app(**kwargs: object) -> int:
        app = launch.build_app(**kwargs)  # type: ignore[arg-type]
        app.services.load()  # what the load worker does after the first frame
        started.append(app)
        app.services.close()
        return 0

    monkeypatch.setattr(launch, "run_app", run_app)
    (tmp_path / "none").mkdir()
    assert main(["--decks", str(tmp_path / "none"), "drill", "--cards", "3"]) == 0
    assert len(started) == 1 and len(reads) == 1
    app = started[0]
    assert app.settings.session_minutes == 7  # type: ignore[attr-defined]
    assert app.services.workspace.settings is app.settings  # type: ignore[attr-defined]


@pytest.mark.parametrize("only", [False, True], ids=["every card", "chosen cards"])
def test_a_card_edited_mid_session_is_the_card_the_session_asks_and_sums_up(
    home: Path, tmp_path: Path, only: bool
) -> None:
    """One card cache: the workspace re-reads an edited deck file, and the running session (which
    holds the same mapping, not a copy) asks and summarises the edited card."""
    from recall.session import Budget

    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "mine.toml").write_text(DECK, encoding="utf-8")
    workspace = Workspace.open(deck_dirs=[folder])
    session = workspace.start_session(
        budget=Budget.until_done(), mode="cram", only=["mine/one"] if only else None
    )
    card = session.next_card()
    assert card is not None and card.prompt in ("x squared", "twice x")
    assert card.key == "mine/one" or not only
    rewritten = {"mine/one": "x times x", "mine/two": "x plus x"}

    edited = DECK.replace('"x squared"', '"x times x"').replace('"twice x"', '"x plus x"')
    (folder / "mine.toml").write_text(edited, encoding="utf-8")
    assert workspace.reload_deck(folder / "mine.toml") is not None
    assert session.current is workspace.card(card.key)
    assert session.current.prompt == rewritten[card.key]

    session.record(verdict="incorrect", rating=1)
    [missed] = session.end().missed
    assert missed.key == card.key and missed.prompt == rewritten[card.key]
    workspace.close()


def test_the_deck_folder_given_with_decks_is_the_one_used(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "mine.toml").write_text(DECK, encoding="utf-8")
    assert main(["--decks", str(folder), "decks", "list"]) == 0
    assert "Mine" in capsys.readouterr().out
    assert main(["--decks", str(folder), "decks", "new", "Fresh ideas"]) == 0
    assert (folder / "fresh-ideas.toml").is_file()
    assert not (home / "decks").exists()
    assert "RECALL_DECKS" not in os.environ


@pytest.mark.parametrize(
    ("behind", "expected"),
    [
        (("losses",), "The shared deck losses on this database differs from"),
        (("losses", "optim"), "The shared decks losses, optim on this database differ from"),
        (
            tuple(f"d{i}" for i in range(7)),
            "The shared decks d0, d1, d2, d3, d4 and 2 more on this database differ from",
        ),
        (("evil\x1b[2J",), "The shared deck evil"),
    ],
)
def test_the_shared_decks_notice_names_them_and_whose_move_it_is(
    behind: tuple[str, ...], expected: str
) -> None:
    from recall import __version__
    from recall.workspace import shared_decks_notice

    notice = shared_decks_notice(behind)
    assert notice.startswith(expected)
    assert f"this recall ({__version__})" in notice
    assert "ask the owner to run `recall decks sync`" in notice and "upgrade recall" in notice
    assert "\x1b" not in notice
