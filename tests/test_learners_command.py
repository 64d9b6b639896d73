# ruff: noqa: F811  (pytest fixtures imported from other modules shadow their parameters)
"""``recall learners``, ``--learner``/``RECALL_LEARNER`` and ``recall group`` through the real
entry point: on SQLite (one learner: adding is refused with a sentence) and on a shared
PostgreSQL server set up as docs/learners.md says (an owner that is not a superuser, a login
role per learner, a group reader that may read aggregates only)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from pg_roles import SharedServer, shared_server  # noqa: F401
from sqlalchemy import create_engine, text
from sqlalchemy.exc import ProgrammingError

from recall.cli import main
from recall.scheduling import Rating
from recall.session import Budget
from recall.store.models import PER_LEARNER_TABLES
from recall.workspace import Workspace


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_sqlite_has_one_learner(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'one.sqlite3'}"
    status, out, err = run(capsys, "--db", db, "learners", "add", "ana")
    assert status == 2
    assert "a SQLite database has one learner" in err
    status, out, _ = run(capsys, "--db", db, "learners", "list")
    assert status == 0 and "you" in out and "no login role" in out
    status, _, err = run(capsys, "--db", db, "learners", "remove", "you", "--yes")
    assert status == 2 and "SQLite database has one learner" in err
    status, _, err = run(capsys, "--db", db, "group", "report")
    assert status == 2 and "PostgreSQL" in err


def test_an_unknown_learner_is_an_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{tmp_path / 'one.sqlite3'}"
    status, _, err = run(capsys, "--db", db, "--learner", "nobody\x1b[2J", "stats")
    assert status == 2
    assert "no learner 'nobody" in err and "\x1b" not in err
    monkeypatch.setenv("RECALL_LEARNER", "ghost")
    status, _, err = run(capsys, "--db", db, "stats")
    assert status == 2 and "no learner 'ghost'" in err
    monkeypatch.setenv("RECALL_LEARNER", "you")  # the one learner, by name
    status, _, _ = run(capsys, "--db", db, "stats")
    assert status == 0


def drill(url: str, cards: int) -> None:
    """Answer ``cards`` new cards wrong, through the workspace as the login in ``url``."""
    workspace = Workspace.open(db_url=url)
    try:
        session = workspace.start_session(budget=Budget.cards(cards), mode="normal")
        while session.next_card() is not None:
            session.record(verdict="incorrect", rating=Rating.Again, seconds=20.0)
        session.end()
    finally:
        workspace.close()


@pytest.mark.postgres
def test_a_shared_server_from_the_command_line(
    capsys: pytest.CaptureFixture[str], shared_server: SharedServer, tmp_path: Path
) -> None:
    owner = shared_server.owner_url
    roles = {name: shared_server.role(name) for name in ("ana", "ben", "coach")}
    secret = tmp_path / "ana.password"
    status, out, err = run(
        capsys, "--db", owner, "learners", "add", "ana", "--role", roles["ana"],
        "--password-file", str(secret),
    )  # fmt: skip
    assert status == 0, err
    assert stat.S_IMODE(os.stat(secret).st_mode) == 0o600
    password = secret.read_text().strip()
    assert len(password) >= 24 and password not in out
    status, out, _ = run(capsys, "--db", owner, "learners", "add", "ben", "--role", roles["ben"])
    assert status == 0 and "Password (shown once" in out
    ben_password = out.split("Password (shown once, not kept anywhere): ")[1].split()[0]
    urls = {
        "ana": shared_server.url(roles["ana"], password),
        "ben": shared_server.url(roles["ben"], ben_password),
    }

    # each learner runs recall with their own login; the learner is found from it
    drill(urls["ben"], 3)
    status, out, err = run(capsys, "--db", urls["ana"], "today", "--json")
    assert status == 0, err
    assert {item["state"] for item in json.loads(out)["queue"]} == {"new"}  # not ben's reviews
    status, out, _ = run(capsys, "--db", urls["ben"], "learners", "list")
    assert status == 0 and "ben" in out and "ana" not in out
    status, _, err = run(capsys, "--db", urls["ben"], "--learner", "ana", "stats")
    assert status == 2 and "no learner 'ana'" in err

    # the owner may act for a learner by name (RECALL_LEARNER or --learner)
    status, out, err = run(capsys, "--db", owner, "--learner", "ben", "stats", "--json")
    assert status == 0, err

    # the group reader: aggregates only
    status, out, err = run(capsys, "--db", owner, "group", "add-reader", roles["coach"])
    assert status == 0, err
    coach_password = out.split("not kept anywhere): ")[1].split()[0]
    coach = shared_server.url(roles["coach"], coach_password)
    status, out, err = run(capsys, "--db", coach, "group", "report", "--exam", "+30", "--json")
    assert status == 0, err
    report = json.loads(out)
    missed = [c for c in report["cards"] if c["misses"]]
    assert len(missed) == 3 and all(c["learners"] == 1 and c["miss_rate"] == 1 for c in missed)
    assert report["learners"] == 2 and report["on_track"] == 0  # ana and ben have states
    assert set(report["most_missed_formulas"]) <= {f"{c['deck']}/{c['card']}" for c in missed}
    status, out, _ = run(capsys, "--db", coach, "group", "report", "--exam", "+30")
    assert "On track for" in out and "0 of 2 learners" in out
    engine = create_engine(coach)
    with engine.connect() as conn:
        for table in PER_LEARNER_TABLES:
            with pytest.raises(ProgrammingError, match="permission denied"):
                with conn.begin():
                    conn.execute(text(f"SELECT count(*) FROM {table} WHERE learner_id = 1"))
        for table in ("learners", "decks", "cards"):
            with pytest.raises(ProgrammingError, match="permission denied"):
                with conn.begin():
                    conn.execute(text(f"SELECT count(*) FROM {table}"))
    engine.dispose()
    # a learner may not read the group's figures (nor call the readiness function)
    status, _, err = run(capsys, "--db", urls["ben"], "group", "report", "--exam", "+3")
    assert status == 2 and "permission denied" in err

    # removing asks first; --yes removes the learner and their role
    status, _, err = run(capsys, "--db", owner, "learners", "remove", "ben")
    assert status == 2 and "--yes" in err
    status, out, err = run(capsys, "--db", owner, "learners", "remove", "ben", "--yes")
    assert status == 0, err
    assert "Removed learner 'ben'" in out
    status, out, _ = run(capsys, "--db", owner, "learners", "list")
    assert "ben" not in out and "ana" in out
    with shared_server.superuser().connect() as conn:
        assert (
            conn.execute(
                text("SELECT count(*) FROM pg_roles WHERE rolname = :r"), {"r": roles["ben"]}
            ).scalar()
            == 0
        )


@pytest.mark.postgres
def test_a_password_file_that_cannot_be_written_still_shows_the_password(
    capsys: pytest.CaptureFixture[str], shared_server: SharedServer, tmp_path: Path
) -> None:
    """The role exists once the learner is added: a password file that fails to write must not
    lose the only copy of its password."""
    owner = shared_server.owner_url
    role = shared_server.role("cara")
    target = tmp_path / "no-such-folder" / "cara.password"
    status, out, err = run(
        capsys, "--db", owner, "learners", "add", "cara", "--role", role,
        "--password-file", str(target),
    )  # fmt: skip
    assert status == 0
    assert "cannot write" in err and not target.exists()
    assert "Password (shown once, not kept anywhere): " in out


def test_a_new_private_file_is_never_written_through_a_link_or_into_a_file_made_meanwhile(
    tmp_path: Path,
) -> None:
    """The generated password of ``learners add`` / ``group add-reader --password-file``
    reaches only a file the write itself creates, mode 0600: a name taken after the command's
    first check (by a file of someone else's, or a link to one) refuses the write, so the
    command prints the password instead."""
    import os
    import stat

    from recall.paths import write_new_private_file

    fresh = tmp_path / "ana.pw"
    write_new_private_file(fresh, "secret\n")
    assert fresh.read_text() == "secret\n" and stat.S_IMODE(fresh.stat().st_mode) == 0o600
    planted = tmp_path / "planted.pw"
    planted.write_text("")
    os.chmod(planted, 0o666)
    with pytest.raises(FileExistsError):
        write_new_private_file(planted, "secret\n")
    assert planted.read_text() == ""
    target = tmp_path / "theirs"
    link = tmp_path / "link.pw"
    link.symlink_to(target)  # dangling: open(O_CREAT) alone would create 'theirs'
    with pytest.raises(FileExistsError):
        write_new_private_file(link, "secret\n")
    assert not target.exists()


@pytest.mark.postgres
def test_the_shared_decks_are_the_owners_to_sync(
    capsys: pytest.CaptureFixture[str], shared_server: SharedServer
) -> None:
    """``learners add`` syncs the built-in decks as the owner, so a learner's first start finds
    them and says nothing. When the database's shared decks are not this recall's (here a
    built-in card the owner retired by hand, as another recall version's sync would), the
    learner is told whose move it is, a learner's ``decks sync`` exits 1 and writes no shared
    row, and the owner's ``decks sync`` brings them back in line for the learner too."""
    owner = shared_server.owner_url
    role = shared_server.role("ana")
    status, out, err = run(capsys, "--db", owner, "learners", "add", "ana", "--role", role)
    assert status == 0, err
    assert "Synced the built-in decks: " in out
    password = out.split("Password (shown once, not kept anywhere): ")[1].split()[0]
    ana = shared_server.url(role, password)
    status, out, err = run(capsys, "--db", ana, "today", "--json")
    assert status == 0 and json.loads(out)["queue"] and "decks sync" not in err

    engine = create_engine(owner)
    shared_rows = text(
        "SELECT d.slug, d.name, d.topic, d.path, c.key, c.content_hash, c.position, "
        "c.sibling_group, c.retired_at FROM cards c JOIN decks d ON d.id = c.deck_id "
        "ORDER BY c.id"
    )
    try:
        with engine.begin() as conn:
            slug = conn.execute(
                text(
                    "UPDATE cards SET retired_at = 1 WHERE id = (SELECT min(id) FROM cards) "
                    "RETURNING (SELECT slug FROM decks WHERE decks.id = cards.deck_id)"
                )
            ).scalar_one()
            before = conn.execute(shared_rows).all()
        status, out, err = run(capsys, "--db", ana, "today", "--json")
        assert status == 0 and json.loads(out)["queue"]
        assert f"The shared deck {slug} on this database differs" in err
        assert "ask the owner to run `recall decks sync`" in err
        status, out, err = run(capsys, "--db", ana, "decks", "sync")
        assert status == 1
        assert f"Left as the database has them (the owner's to sync): {slug}." in out
        with engine.connect() as conn:
            assert conn.execute(shared_rows).all() == before

        status, out, err = run(capsys, "--db", owner, "decks", "sync")
        assert status == 0, err
        assert "1 restored" in out and "decks sync" not in err
        status, out, err = run(capsys, "--db", ana, "decks", "sync")
        assert status == 0 and "0 restored" in out and "decks sync" not in err
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_a_newer_recall_waits_for_the_owner_to_sync_its_built_in_decks(
    capsys: pytest.CaptureFixture[str],
    shared_server: SharedServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The owner added a learner with this recall's built-in decks; the learner's recall is
    newer (its built-in ``gradients`` deck has a reworded hint): the learner drills the
    database's decks, is told to ask the owner, and changes no shared row; once the owner runs
    the newer recall's ``decks sync`` (the card changes, everyone's history kept), the learner's
    start is quiet again."""
    import shutil

    from recall import paths

    owner = shared_server.owner_url
    role = shared_server.role("ana")
    status, out, err = run(capsys, "--db", owner, "learners", "add", "ana", "--role", role)
    assert status == 0, err
    password = out.split("Password (shown once, not kept anywhere): ")[1].split()[0]
    ana = shared_server.url(role, password)
    drill(ana, 2)

    newer = tmp_path / "newer-decks"
    shutil.copytree(paths.builtin_decks_dir(), newer)
    deck = newer / "gradients.toml"
    old_hint = 'hint = "Least squares plus an L2 penalty."'
    assert deck.read_text().count(old_hint) == 1
    deck.write_text(deck.read_text().replace(old_hint, 'hint = "Least squares, L2 penalty."'))
    monkeypatch.setattr(paths, "builtin_decks_dir", lambda: newer)

    engine = create_engine(owner)
    shared_rows = text("SELECT * FROM cards ORDER BY id")
    try:
        with engine.connect() as conn:
            before = conn.execute(shared_rows).all()
        status, out, err = run(capsys, "--db", ana, "today", "--json")
        assert status == 0 and json.loads(out)["queue"]
        assert "The shared deck gradients on this database differs" in err
        status, out, err = run(capsys, "--db", ana, "decks", "sync")
        assert status == 1 and "the owner's to sync): gradients." in out
        with engine.connect() as conn:
            assert conn.execute(shared_rows).all() == before

        status, out, err = run(capsys, "--db", owner, "decks", "sync")
        assert status == 0, err
        assert "0 cards added, 1 changed, 0 retired, 0 restored" in out
        status, out, err = run(capsys, "--db", ana, "decks", "sync")
        assert status == 0 and "decks sync" not in err
        status, out, err = run(capsys, "--db", ana, "stats", "--json")
        assert status == 0 and "decks sync" not in err
        assert json.loads(out)["reviews"] == 2  # ana's history, kept through the change
    finally:
        engine.dispose()
