"""Only regular files are opened (issue 17, item 5): a FIFO, a device or a symlink loop where a
deck, the config file or an import is expected is refused with the reason, never blocked on,
never read, never skipped without a word."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from recall.cards.loader import load_decks
from recall.regular_files import NotARegularFile, open_regular, read_regular
from tests.tui_fixtures import SMALL_DECK, FakeClock, real_services, screen_text, settle

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")

#: A hung command fails the test after this long (a FIFO opened for reading blocks forever).
TIMEOUT = 60


def _recall(home: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RECALL_HOME": str(home), "NO_COLOR": "1"}
    env.pop("RECALL_DB", None)
    env.pop("RECALL_DECKS", None)
    return subprocess.run(
        [sys.executable, "-c", "from recall.cli import main; raise SystemExit(main())", *args],
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,  # TimeoutExpired fails the test: the command hung
        check=False,
    )


def _hostile_folder(folder: Path) -> None:
    """A good deck beside a FIFO, a link to /dev/zero, a symlink loop and a broken link."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tiny.toml").write_text(SMALL_DECK, encoding="utf-8")
    os.mkfifo(folder / "fifo.toml")
    (folder / "zero.toml").symlink_to("/dev/zero")
    (folder / "loop.toml").symlink_to(folder / "loop.toml")
    (folder / "gone.toml").symlink_to(folder / "nowhere")


EXPECTED_REASONS = {
    "fifo.toml": "FIFO",
    "zero.toml": "character device",
    "loop.toml": "symbolic links",
    "gone.toml": "No such file",
}


def test_a_fifo_as_config_toml_is_refused_not_waited_on(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    os.mkfifo(home / "config.toml")
    result = _recall(home, "config", "show")
    assert result.returncode != 0
    assert "config.toml" in result.stderr and "FIFO" in result.stderr, result.stderr


def test_config_toml_linked_to_dev_zero_is_refused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").symlink_to("/dev/zero")
    result = _recall(home, "config", "show")
    assert result.returncode != 0
    assert "character device" in result.stderr, result.stderr


def test_the_decks_folder_reports_what_it_cannot_open(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    _hostile_folder(decks)
    result = load_decks([decks])
    assert [deck.id for deck in result.decks] == ["tiny"]
    reasons = {Path(f.path).name: str(f) for f in result.failures}
    assert set(reasons) == set(EXPECTED_REASONS)
    for name, reason in EXPECTED_REASONS.items():
        assert reason in reasons[name], reasons[name]


def test_the_cli_names_each_unreadable_deck_file_and_why(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    _hostile_folder(decks)
    result = _recall(tmp_path / "home", "--decks", str(decks), "decks", "list")
    out = result.stdout + result.stderr
    assert "Tiny" in out
    for name, reason in EXPECTED_REASONS.items():
        said = [line for line in out.splitlines() if f"{name}: cannot read the file" in line]
        assert said and reason in said[0], out
    validate = _recall(tmp_path / "home", "decks", "validate", str(decks))
    assert validate.returncode == 1
    for name in EXPECTED_REASONS:
        assert name in validate.stdout + validate.stderr


def test_the_tui_deck_problems_name_them(tmp_path: Path) -> None:
    from recall.tui.app import RecallApp

    services = real_services(tmp_path, FakeClock())
    decks = tmp_path / "decks"
    os.mkfifo(decks / "fifo.toml")
    (decks / "zero.toml").symlink_to("/dev/zero")
    app = RecallApp(services)

    async def flow() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            assert app.home_data is not None
            assert [d.id for d in app.home_data.decks] == ["tiny"]
            messages = {Path(f.path).name: f.message for f in app.home_data.failures}
            assert "FIFO" in messages["fifo.toml"]
            assert "character device" in messages["zero.toml"]
            assert "2 deck files did not load" in screen_text(app)
            await pilot.press("b")  # the decks screen lists each, by name
            await settle(app, pilot)
            text = screen_text(app)
            assert "fifo.toml" in text and "zero.toml" in text

    asyncio.run(asyncio.wait_for(flow(), timeout=TIMEOUT))


def test_imports_refuse_a_fifo(tmp_path: Path) -> None:
    fifo = tmp_path / "cards.csv"
    os.mkfifo(fifo)
    home = tmp_path / "home"
    result = _recall(home, "decks", "import", str(fifo))
    assert result.returncode != 0 and "FIFO" in result.stderr, result.stderr
    assert not (home / "decks").exists() or not any((home / "decks").iterdir())
    result = _recall(home, "reviews", "import", str(fifo))
    assert result.returncode != 0 and "FIFO" in result.stderr, result.stderr


def test_open_regular_checks_the_descriptor_too(tmp_path: Path) -> None:
    """The check is made on the open descriptor as well: a FIFO is never read, and a regular
    file reads as it is (bounded reads stop one byte past the limit)."""
    regular = tmp_path / "x.toml"
    regular.write_bytes(b"a" * 100)
    assert read_regular(regular, 10) == b"a" * 11
    with open_regular(regular) as file:
        assert file.read() == b"a" * 100
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    with pytest.raises(NotARegularFile) as caught:
        open_regular(fifo)
    assert "FIFO" in str(caught.value)
    with pytest.raises(NotARegularFile):
        open_regular(tmp_path)


def _returns_within(call, seconds: float = 20.0) -> object:  # noqa: ANN001
    """``call()``'s result, failing the test if it has not returned within ``seconds`` (a read
    blocked on a FIFO never would)."""
    import threading

    result: list[object] = []
    worker = threading.Thread(target=lambda: result.append(call()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), "blocked (a FIFO opened for reading?)"
    return result[0]


def test_a_fifo_in_the_caches_is_never_waited_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from recall.cards import parse_cache
    from recall.tui.shown_cache import ShownCache

    monkeypatch.setenv("RECALL_HOME", str(tmp_path))
    monkeypatch.delenv(parse_cache.DISABLE_VARIABLE, raising=False)
    raw = SMALL_DECK.encode()
    key = parse_cache.entry_key(raw, builtin=False, check=None)
    assert key is not None
    parse_cache.cache_dir().mkdir(parents=True)
    os.mkfifo(parse_cache.cache_dir() / f"{key}.json")
    loaded = _returns_within(lambda: parse_cache.load(raw, "x.toml", builtin=False, check=None))
    assert loaded is None
    shown = ShownCache(tmp_path / "cache")
    shown.folder.mkdir(parents=True, exist_ok=True)
    os.mkfifo(shown.path)
    assert _returns_within(shown._read) == {}  # noqa: SLF001
