"""``recall config retention R``: apply a desired retention chosen from the workload curve,
through the real entry point (the settings file under the test's own ``RECALL_HOME``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recall import config
from recall.cli import main
from recall.errors import ConfigError
from recall.memory import model as memory_model


@pytest.mark.parametrize(("typed", "saved"), [("0.85", 0.85), ("85%", 0.85), (" 0.97 ", 0.97)])
def test_a_retention_is_saved_and_read_back(
    typed: str, saved: float, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["config", "retention", typed]) == 0
    out = capsys.readouterr().out
    assert f"desired_retention = {saved:g} (was 0.9)" in out
    assert config.load_settings().desired_retention == pytest.approx(saved)
    assert main(["config", "retention"]) == 0
    assert capsys.readouterr().out.strip() == f"{saved:g}"


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("0.5", "must be between 0.7 and 0.99"),
        ("69%", "must be between 0.7 and 0.99"),
        ("1.5", "more than 1"),
        ("85", "more than 1"),
        ("abc", "not a number"),
        ("nan", "not a number"),
        ("1e999", "not a number"),
        ("", "not a number"),
    ],
)
def test_a_bad_retention_is_refused_and_nothing_is_saved(
    typed: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["config", "retention", "0.8"]) == 0
    capsys.readouterr()
    assert main(["config", "retention", typed]) == 2
    captured = capsys.readouterr()
    assert says in captured.err and captured.out == ""
    assert config.load_settings().desired_retention == pytest.approx(0.8)


def test_reset_retention_restores_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "retention", "0.8"]) == 0
    assert main(["config", "--reset", "retention"]) == 0
    assert config.load_settings().desired_retention == config.Settings().desired_retention


def test_the_planner_and_the_command_share_one_validation(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    assert memory_model.apply_desired_retention(0.93, path).desired_retention == 0.93
    assert config.load_settings(path).desired_retention == 0.93
    with pytest.raises(ConfigError, match="between 0.7 and 0.99"):
        memory_model.apply_desired_retention(0.995, path)
    assert config.load_settings(path).desired_retention == 0.93


def test_other_settings_are_kept_when_the_retention_changes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["config", "new_per_day", "7"]) == 0
    assert main(["config", "retention", "90%"]) == 0
    assert config.load_settings().new_per_day == 7
