"""What recall creates is private (issue 17, item 8): files 0600 and folders 0700 on POSIX,
whatever the umask (the database, its backups, config.toml, exports, imported and new decks,
the data folder); a file that already exists keeps its mode."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from recall.cli import main

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX modes")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(params=[0o022, 0o000], ids=["umask-022", "umask-000"])
def home(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """A data directory that does not exist yet, two levels down, under a permissive umask."""
    home = tmp_path / "data" / "recall"
    monkeypatch.setenv("RECALL_HOME", str(home))
    monkeypatch.delenv("RECALL_DB", raising=False)
    monkeypatch.delenv("RECALL_DECKS", raising=False)
    old = os.umask(request.param)
    try:
        yield home
    finally:
        os.umask(old)


def test_the_data_folder_and_the_database_are_private(home: Path) -> None:
    from recall.store import open_store

    store = open_store()
    try:
        store.sync_decks([])
    finally:
        store.close()
    assert mode(home) == 0o700
    assert mode(home.parent) == 0o700  # every folder recall made on the way
    databases = list(home.glob("recall.sqlite3*"))
    assert databases, list(home.iterdir())
    for file in databases:
        assert mode(file) == 0o600, file


def test_a_database_backup_is_private(home: Path) -> None:
    from recall.paths import ensure_data_dir
    from recall.store import open_store
    from recall.store.schema import backup_sqlite

    ensure_data_dir()
    store = open_store()
    store.close()
    backup = backup_sqlite(home / "recall.sqlite3", "0001")
    assert mode(backup) == 0o600


def test_config_and_todays_raise_are_private(home: Path) -> None:
    from recall.config import Settings, save_settings
    from recall.extra_new import add_extra_new, extra_file

    path = save_settings(Settings(new_per_day=7))
    assert mode(path) == 0o600 and mode(path.parent) == 0o700
    add_extra_new(date(2026, 1, 1), 3)
    assert mode(extra_file()) == 0o600


def test_exports_imports_and_new_decks_are_private(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "exported.csv"
    assert main(["decks", "export", "activations", "--format", "csv", "-o", str(out)]) == 0
    assert mode(out) == 0o600
    source = tmp_path / "cards.csv"
    source.write_text("front,back\nEpoch,one pass\n", encoding="utf-8")
    assert main(["decks", "import", str(source)]) == 0
    imported = home / "decks" / "cards.toml"
    assert mode(imported) == 0o600 and mode(imported.parent) == 0o700
    assert main(["decks", "new", "Fresh deck"]) == 0
    assert mode(home / "decks" / "fresh-deck.toml") == 0o600
    reviews = tmp_path / "reviews.csv"
    assert main(["reviews", "export", str(reviews)]) == 0
    assert mode(reviews) == 0o600
    capsys.readouterr()


def test_a_file_that_exists_keeps_its_mode(home: Path, tmp_path: Path) -> None:
    from recall.paths import open_private_for_writing, write_atomically

    shared = tmp_path / "shared.toml"
    shared.write_text("old", encoding="utf-8")
    shared.chmod(0o644)
    write_atomically(shared, "new")
    assert shared.read_text(encoding="utf-8") == "new" and mode(shared) == 0o644
    with open_private_for_writing(shared) as file:
        file.write("newer")
    assert mode(shared) == 0o644
    fresh = tmp_path / "fresh.txt"
    with open_private_for_writing(fresh) as file:
        file.write("x")
    assert mode(fresh) == 0o600
