"""Settings: defaults, reading, validation with clear messages, writing, `recall config`."""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from datetime import timedelta
from pathlib import Path

import pytest

from recall import cli, config
from recall.commands import config as config_command
from recall.config import Settings
from recall.errors import ConfigError


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RECALL_HOME", str(tmp_path))
    return tmp_path


def test_missing_file_means_defaults(home: Path) -> None:
    settings = config.load_settings()
    assert settings == Settings()
    assert settings.desired_retention == 0.9
    assert settings.learning_steps == (1.0, 10.0)
    assert settings.scheduler_settings().learning_steps == (
        timedelta(minutes=1),
        timedelta(minutes=10),
    )


def test_round_trip_through_the_file(home: Path) -> None:
    settings = config.set_value(Settings(), "desired_retention", "0.85")
    settings = config.set_value(settings, "learning_steps", "1 5 30")
    settings = config.set_value(settings, "keys.submit", "ctrl+s")
    settings = config.set_value(settings, 'keys.odd "name"', "f2")
    path = config.save_settings(settings)
    assert path == home / "config.toml"
    assert config.load_settings() == settings
    text = path.read_text()
    assert "new_per_day" not in text  # only what differs from the defaults is written
    assert tomllib.loads(text)["keys"]["submit"] == "ctrl+s"


@pytest.mark.parametrize(
    ("key", "text", "message"),
    [
        ("desired_retention", "1.5", "between 0.7 and 0.99"),
        ("desired_retention", "nan", "not a valid value"),
        ("day_rollover_hour", "24", "between 0 and 23"),
        ("new_per_day", "many", "not a valid value"),
        ("learning_steps", "0 10", "more than 0"),
        ("colour", "red", "unknown setting"),
    ],
)
def test_bad_values_are_refused_with_the_reason(key: str, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        config.set_value(Settings(), key, text)


def test_a_broken_file_names_itself(home: Path) -> None:
    (home / "config.toml").write_text("desired_retention = = 3\n")
    with pytest.raises(ConfigError, match=r"config\.toml: not valid TOML"):
        config.load_settings()
    (home / "config.toml").write_text("new_per_day = true\n")
    with pytest.raises(ConfigError, match="new_per_day"):
        config.load_settings()
    (home / "config.toml").write_text("[keys]\nsubmit = 3\n")
    with pytest.raises(ConfigError, match=r"\[keys\]"):
        config.load_settings()


def test_reset_restores_the_default() -> None:
    changed = config.set_value(Settings(), "new_per_day", "5")
    assert config.reset_value(changed, "new_per_day").new_per_day == 20
    bound = config.set_value(Settings(), "keys.quit", "ctrl+q")
    assert config.reset_value(bound, "keys.quit").keys == {}


def main(argv: list[str]) -> int:
    """Run `recall config ...` through its own parser (other commands may not exist yet)."""
    parser = argparse.ArgumentParser(prog="recall")
    config_command.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except ConfigError as error:
        print(f"recall: {error}", file=sys.stderr)
        return 2


def test_the_command_is_registered_with_the_cli() -> None:
    assert "recall.commands.config" in cli.COMMAND_MODULES


def test_cli_lists_gets_and_sets(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config"]) == 0
    listing = capsys.readouterr().out
    assert "desired_retention = 0.9" in listing and "leech_threshold = 8" in listing
    assert main(["config", "new_per_day", "12"]) == 0
    assert capsys.readouterr().out.strip() == "new_per_day = 12"
    assert main(["config", "new_per_day"]) == 0
    assert capsys.readouterr().out.strip() == "12"
    assert main(["config", "--reset", "new_per_day"]) == 0
    assert config.load_settings().new_per_day == 20


def test_cli_bad_value_exits_non_zero_with_a_message(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["config", "day_rollover_hour", "25"]) != 0
    assert "between 0 and 23" in capsys.readouterr().err
    assert not (home / "config.toml").exists()


def test_a_settings_file_that_cannot_be_written_is_a_clear_error(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # This process's temporary file taken by a folder stands in for a full disk or a read-only
    # folder (main() runs in this process).
    (home / f".config.toml.{os.getpid()}.tmp").mkdir()
    assert main(["config", "new_per_day", "12"]) == 2
    assert "cannot write the settings file" in capsys.readouterr().err
    assert config.load_settings().new_per_day == 20


def test_theme_is_dark_by_default_and_can_be_set_to_light(home: Path) -> None:
    assert Settings().theme == "dark"
    settings = config.set_value(Settings(), "theme", " Light ")
    assert settings.theme == "light"
    config.save_settings(settings)
    assert 'theme = "light"' in (home / "config.toml").read_text()
    assert config.load_settings().theme == "light"
    with pytest.raises(ConfigError, match="dark or light"):
        config.set_value(Settings(), "theme", "blue")
    (home / "config.toml").write_text("theme = 3\n")
    with pytest.raises(ConfigError, match="theme"):
        config.load_settings()
    (home / "config.toml").write_text('theme = "solarized"\n')
    with pytest.raises(ConfigError, match="dark or light"):
        config.load_settings()


def test_cli_sets_and_shows_the_theme(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "theme", "light"]) == 0
    assert capsys.readouterr().out.strip() == "theme = light"
    assert main(["config"]) == 0
    assert "theme = light" in capsys.readouterr().out
