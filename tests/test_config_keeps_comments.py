"""`recall config KEY VALUE` edits the learner's config.toml in place: their comments, the order
of their keys and their blank lines survive; only the value that changed is rewritten."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from recall import cli, config

COMMENTED = """\
# My recall settings. I edit this by hand (docs/decks.md says I may).

# A bit lower than the default: I review on the train.
desired_retention = 0.85  # chosen from the workload curve
new_per_day = 20          # the default, written out on purpose

session_minutes = 15.0

# Keys I find easier to reach.
[keys]
"drill.hint" = "f3"  # F3, like in my editor

[deck_new_limits]
activations = 5  # slow down on activations
"""


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RECALL_HOME", str(tmp_path))
    (tmp_path / "config.toml").write_text(COMMENTED, encoding="utf-8")
    return tmp_path


def _text(home: Path) -> str:
    return (home / "config.toml").read_text(encoding="utf-8")


def test_setting_one_value_keeps_every_comment_and_line(home: Path) -> None:
    assert cli.main(["config", "desired_retention", "0.8"]) == 0
    after = _text(home)
    expected = COMMENTED.replace("desired_retention = 0.85", "desired_retention = 0.8")
    assert after == expected
    assert config.load_settings().desired_retention == 0.8


def test_an_unchanged_default_written_out_stays_as_written(home: Path) -> None:
    assert cli.main(["config", "session_minutes", "20"]) == 0
    after = _text(home)
    assert "new_per_day = 20          # the default, written out on purpose" in after
    assert "session_minutes = 20" in after
    for line in COMMENTED.splitlines():
        if line.startswith("#") or "  #" in line:
            assert line.split("#", 1)[1] in after, line


def test_a_new_key_is_added_and_the_file_still_reads_back(home: Path) -> None:
    assert cli.main(["config", "learning_steps", "1 5 30"]) == 0
    assert cli.main(["config", "keys.drill.skip", "f4"]) == 0
    assert cli.main(["config", "deck_new_limits.losses", "3"]) == 0
    after = _text(home)
    data = tomllib.loads(after)
    assert data["learning_steps"] == [1.0, 5.0, 30.0]
    assert data["keys"] == {"drill.hint": "f3", "drill.skip": "f4"}
    assert data["deck_new_limits"] == {"activations": 5, "losses": 3}
    assert "# F3, like in my editor" in after
    assert "# slow down on activations" in after
    assert "# A bit lower than the default: I review on the train." in after
    settings = config.load_settings()
    assert settings.learning_steps == (1.0, 5.0, 30.0)
    assert settings.keys["drill.skip"] == "f4"


def test_a_reset_removes_only_that_key(home: Path) -> None:
    assert cli.main(["config", "--reset", "session_minutes"]) == 0
    assert cli.main(["config", "--reset", "keys.drill.hint"]) == 0
    after = _text(home)
    assert "session_minutes" not in after
    assert "drill.hint" not in after
    assert "desired_retention = 0.85  # chosen from the workload curve" in after
    assert "activations = 5  # slow down on activations" in after
    assert config.load_settings().session_minutes == config.Settings().session_minutes


def test_applying_a_retention_keeps_the_comments(home: Path) -> None:
    assert cli.main(["config", "retention", "80%"]) == 0
    after = _text(home)
    assert "desired_retention = 0.8  # chosen from the workload curve" in after
    assert "# My recall settings." in after


def test_a_file_that_is_not_toml_is_written_afresh_when_saving(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("this is = = not toml\n", encoding="utf-8")
    config.save_settings(config.Settings(new_per_day=7), path)
    assert tomllib.loads(path.read_text(encoding="utf-8")) == {"new_per_day": 7}
