# ruff: noqa: F811  (pytest fixtures imported from the helper modules shadow their parameters)
"""Several learners through the product (issue 22): a learner reads the same sharing a database
as alone, through the workspace and the commands, on both backends.

Learners A and B drill the same built-in cards at the same moments with opposite answers, each
with a custom deck of the same id, in one database; A alone (and B alone) run the same script in
another. Every read the product has (due queue, home counts, ``today``, ``stats``, ``plan``,
``exam``, ``reviews export``, the optimizer's input, undo's target, session resume) gives A the
same in both, and the same for B. Row ids aside: B's rows take turns in the shared sequences.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from learner_worlds import (
    FrozenClock,
    add_learner,
    drill_script,
    make_learner,
    reads,
    worlds_parse_cache,  # noqa: F401
    worlds_setup,  # noqa: F401
)
from store_fixtures import db_url, pg_worker_url  # noqa: F401


def other_url(db_url: str, tmp_path: Path, name: str) -> str:
    """A second fresh database on the same backend as ``db_url``."""
    if db_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / f'{name}.sqlite3'}"
    return pg_worker_url(os.environ.get("PYTEST_XDIST_WORKER", "main") + f"_{name}")


def test_each_learner_reads_the_same_sharing_a_database_as_alone(
    db_url: str,
    tmp_path: Path,
    worlds_setup: FrozenClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = worlds_setup
    add_learner(db_url, 2, "b")
    shared = [
        make_learner(tmp_path, "shared", "A", db_url, 1),
        make_learner(tmp_path, "shared", "B", db_url, 2),
    ]
    drill_script(shared, clock, tmp_path, monkeypatch)
    for learner in shared:
        url = other_url(db_url, tmp_path, learner.name)  # a machine of their own
        alone = make_learner(tmp_path, f"alone-{learner.name}", learner.name, url, 1)
        drill_script([alone], clock, tmp_path, monkeypatch)
        together, apart = reads(learner, clock, monkeypatch), reads(alone, clock, monkeypatch)
        assert together.keys() == apart.keys()
        for read in together:
            assert together[read] == apart[read], (learner.name, read)
        # and the script really ran: reviews on both study days, a raise, an import
        assert together["stats"] != {} and together["reviews export"].count("\n") > 5
        assert together["due queue"] or together["new queue"]


def test_settings_and_todays_raise_are_each_learners_own_in_a_shared_database(
    db_url: str, tmp_path: Path, worlds_setup: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    from recall.errors import ConfigError

    clock = worlds_setup
    monkeypatch.setenv("RECALL_HOME", str(tmp_path / "server"))  # one data directory for both
    alone_url = other_url(db_url, tmp_path, "single")
    single = make_learner(tmp_path, "single", "A", alone_url, 1).workspace(clock)
    if db_url.startswith("sqlite"):  # a learner's own file: settings stay in the data directory
        assert not single.shared_database()
        with pytest.raises(ConfigError, match="not shared"):
            single.set_learner_setting("new_per_day", "3")
        assert single.learn_more_today(2) == 2
        assert (tmp_path / "server" / "today.json").is_file()
        (tmp_path / "server" / "today.json").unlink()
    else:
        assert single.shared_database()  # a server is where a group meets
    single.close()

    add_learner(db_url, 2, "b")
    a, b = (make_learner(tmp_path, "shared", n, db_url, i) for n, i in (("A", 1), ("B", 2)))
    wa, wb = a.workspace(clock), b.workspace(clock)
    default = wb.settings.new_per_day
    assert wa.shared_database() and wb.shared_database()
    assert wa.set_learner_setting("new_per_day", str(default + 3)).new_per_day == default + 3
    with pytest.raises(ConfigError):
        wa.set_learner_setting("new_per_day", "lots")
    assert wa.learn_more_today(4) == 4 and wa.learn_more_today(1) == 5
    assert wb.learn_more_today(2) == 2
    assert not (tmp_path / "server" / "today.json").exists()
    for workspace in (wa, wb):
        workspace.close()

    wa, wb = a.workspace(clock), b.workspace(clock)  # read again, as the next start does
    assert (wa.settings.new_per_day, wb.settings.new_per_day) == (default + 3, default)
    assert (wa.extra_new_today(), wb.extra_new_today()) == (5, 2)
    assert wa.plan_today().new_limit.limit == default + 3 + 5
    clock.now += timedelta(days=1)  # the raise lapses with its day, the setting stays
    assert (wa.extra_new_today(), wb.extra_new_today()) == (0, 0)
    wa.set_learner_setting("new_per_day", None)
    wa.close()
    wa = a.workspace(clock)
    assert wa.settings.new_per_day == default
    for workspace in (wa, wb):
        workspace.close()


def test_recall_config_changes_only_the_learners_own_settings_in_a_shared_database(
    db_url: str,
    tmp_path: Path,
    worlds_setup: FrozenClock,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from recall.cli import main
    from recall.config import Settings

    home = tmp_path / "server"
    monkeypatch.setenv("RECALL_HOME", str(home))  # one data directory for every learner
    add_learner(db_url, 2, "b")

    def config(learner: str, *argv: str) -> tuple[int, str]:
        capsys.readouterr()
        status = main(["--db", db_url, "--learner", learner, "config", *argv])
        captured = capsys.readouterr()
        return status, (captured.out + captured.err).strip()

    default = Settings()
    assert config("b", "new_per_day", str(default.new_per_day + 7))[0] == 0
    assert config("b", "retention", "85%")[0] == 0
    status, said = config("b", "new_per_day", "lots")
    assert status == 2 and "new_per_day" in said
    assert config("b", "new_per_day") == (0, str(default.new_per_day + 7))
    assert config("b", "desired_retention") == (0, "0.85")
    assert config("you", "new_per_day") == (0, str(default.new_per_day))
    assert config("you", "desired_retention") == (0, f"{default.desired_retention:g}")
    assert not (home / "config.toml").exists()  # nothing written where both would read it
    status, listing = config("b")
    assert status == 0 and f"new_per_day = {default.new_per_day + 7}" in listing
    assert config("b", "--reset", "new_per_day")[0] == 0
    assert config("b", "new_per_day") == (0, str(default.new_per_day))
    assert config("b", "desired_retention") == (0, "0.85")  # the other setting stays


def test_a_followed_exam_plan_and_a_retention_chosen_on_screen_are_each_learners_own(
    db_url: str, tmp_path: Path, worlds_setup: FrozenClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The apps ``recall serve`` starts for several learners share one data directory: A
    following an exam plan, or choosing a retention on the stats screen, changes nothing of
    B's (the plan is kept per learner, the retention in A's own settings in the database)."""
    from recall.tui.memory_views import apply_retention

    clock = worlds_setup
    monkeypatch.setenv("RECALL_HOME", str(tmp_path / "server"))
    add_learner(db_url, 2, "b")
    a, b = (make_learner(tmp_path, "shared", n, db_url, i) for n, i in (("A", 1), ("B", 2)))
    wa, wb = a.workspace(clock), b.workspace(clock)
    try:
        before = wb.settings.desired_retention
        assert wa.follow_exam("+21").feasible
        assert wa.exam_guidance() is not None
        assert wb.exam_guidance() is None
        assert not (tmp_path / "server" / "exam.json").exists()
        chosen = 0.8 if before != 0.8 else 0.85
        assert apply_retention(wa, chosen) == chosen == wa.settings.desired_retention
        assert not (tmp_path / "server" / "config.toml").exists()
        wb.close()
        wb = b.workspace(clock)
        assert wb.settings.desired_retention == before and wb.exam_guidance() is None
        assert wb.stop_following_exam() is False and wa.stop_following_exam() is True
    finally:
        wa.close()
        wb.close()
