"""Fault suite, the settings file (issue 10, item 10, and the config limits of item 4).

A value that would make ``config.toml`` unreadable is refused when it is written; a file that
is broken anyway (by hand, by another tool) is reported with its line, and the app still opens
on the defaults.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.fault_helpers import Terminal, recall_command, recall_env, run_recall


@pytest.mark.parametrize(
    ("action", "suggested"),
    [
        ("drill.hnt", "drill.hint"),  # a typo
        ("hint", "drill.hint"),  # the screen left out
        ("Home.Quit", "home.quit"),  # the wrong case
        ("decks.nothing_like_it", ""),  # nothing close: no guess, still refused
    ],
)
def test_a_binding_for_an_action_that_does_not_exist_is_refused(
    tmp_path: Path, action: str, suggested: str
) -> None:
    home = tmp_path / "home"
    done = run_recall(["config", f"keys.{action}", "f3"], home)
    assert done.returncode == 2, done.stdout
    assert f"'{action}' is not an action id" in done.stderr
    assert "nothing was changed" in done.stderr and "Traceback" not in done.stderr
    if suggested:
        assert f"did you mean {suggested}" in done.stderr, done.stderr
    else:
        assert "did you mean" not in done.stderr
    assert not (home / "config.toml").exists()


def test_every_action_the_help_lists_can_be_bound_and_a_stale_one_reset(tmp_path: Path) -> None:
    from recall.tui.app import RecallApp
    from recall.tui.keys import binding_sections, bindings_of

    home = tmp_path / "home"
    listed = [b.id for _t, owner in binding_sections(RecallApp) for b in bindings_of(owner)]
    for action in (listed[0], listed[-1], "help.close", "drill.hint"):
        done = run_recall(["config", f"keys.{action}", "f9"], home)
        assert done.returncode == 0, done.stderr
    # An override written by an older version (or by hand) can still be removed.
    with open(home / "config.toml", "a", encoding="utf-8") as config:
        config.write('"gone.action" = "f8"\n')
    done = run_recall(["config", "--reset", "keys.gone.action"], home)
    assert done.returncode == 0, done.stderr
    assert "gone.action" not in (home / "config.toml").read_text(encoding="utf-8")


def test_the_app_keeps_the_defaults_for_bindings_it_cannot_use_and_says_which(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    from recall.tui.launch import build_app
    from recall.tui.screens.decks import DecksScreen
    from recall.tui.screens.home import HomeScreen
    from recall.tui.screens.stats import StatsScreen
    from tests.tui_fixtures import isolate, settle

    home = isolate(monkeypatch, tmp_path)
    home.mkdir()
    (home / "config.toml").write_text(
        'theme = "light"\n[keys]\n"drill.hnt" = "f3"\n"home.decks" = "f3 x"\n"home.stats" = "g"\n',
        encoding="utf-8",
    )
    app = build_app()  # the start path `recall` takes: it reads the file itself

    async def flow() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(app, pilot)
            assert app.theme == "textual-light"  # the rest of the file still counts
            notices = [str(n.message) for n in app._notifications if "ignored" in str(n.message)]
            assert len(notices) == 1, notices
            assert "drill.hnt" in notices[0] and "did you mean drill.hint" in notices[0]
            assert "home.decks" in notices[0] and "'f3 x'" in notices[0]
            assert "home.stats" not in notices[0]
            await pilot.press("g")  # the good override works
            await settle(app, pilot)
            assert isinstance(app.screen, StatsScreen)
            await pilot.press("escape")
            await settle(app, pilot)
            assert isinstance(app.screen, HomeScreen)
            await pilot.press("b")  # the unusable one left the default key in place
            await settle(app, pilot)
            assert isinstance(app.screen, DecksScreen)

    asyncio.run(flow())


@pytest.mark.parametrize(
    "binding", ["f3\x7f", "f3\x1b", "ctrl+\x01", "f3 x", "ctrl+", "hyperx+a", ",", "a" * 101]
)
def test_a_bad_key_binding_is_refused_and_nothing_is_written(tmp_path: Path, binding: str) -> None:
    home = tmp_path / "home"
    done = run_recall(["config", "keys.drill.hint", binding], home)
    assert done.returncode == 2
    assert "not a key" in done.stderr or "1 to 100 characters" in done.stderr
    assert "nothing was changed" in done.stderr and "Traceback" not in done.stderr
    assert not (home / "config.toml").exists()
    assert run_recall(["config"], home).returncode == 0  # every command still works


def test_good_bindings_are_kept(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for binding in ("f3", "ctrl+s", "enter,s", "?", "ctrl+shift+a"):
        done = run_recall(["config", "keys.drill.hint", binding], home)
        assert done.returncode == 0, done.stderr
        assert run_recall(["config", "keys.drill.hint"], home).stdout.strip() == binding


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('theme = "dark"\n[keys]\n"drill.hint" = "f3\x7f"\n', "(at line 3, column 19)"),
        ('theme = "dark"\n[keys]\n"drill.hint" = "f3 x"\n', "config.toml:3: 'f3 x' in the bind"),
        ("theme = 'dark'\nnew_per_day = -4\n", "config.toml:2: new_per_day = -4 must be between"),
        ("a = " + "[" * 3000 + "]" * 3000 + "\n", "config.toml:1: arrays and tables are nested"),
        ("k" + ".k" * 20_000 + " = 1\n", "config.toml:1: a key has more than 4 dotted parts"),
    ],
)
def test_a_broken_config_file_is_reported_with_its_line(
    tmp_path: Path, text: str, says: str
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text(text, encoding="utf-8")
    done = run_recall(["config", "theme"], home)
    assert done.returncode == 2
    assert says in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_a_huge_config_file_is_refused_unread(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    with open(home / "config.toml", "wb") as sparse:
        sparse.truncate(4 << 30)  # sparse: no disk used
    done = run_recall(["config", "theme"], home)
    assert done.returncode == 2
    assert "larger than 64 KiB, the limit for a config file" in done.stderr


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
def test_the_app_opens_on_defaults_whatever_the_config_file_holds(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text("a = " + "[" * 3000 + "]" * 3000 + "\n")
    terminal = Terminal(recall_command(), recall_env(home))
    try:
        assert terminal.wait_for(lambda: (home / "recall.sqlite3").exists(), 90)
        terminal.drain(1.0)
        terminal.send(b"\x03")
        assert terminal.wait_exit(30) == 0
    finally:
        terminal.close()
