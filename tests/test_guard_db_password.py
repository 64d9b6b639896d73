"""The database password stays out of ``ps`` (issue 17, item 8): ``--db`` with a password warns
and names the private ways (``RECALL_DB``, ``~/.pgpass``/``PGPASSFILE``, ``--db-password-file``);
``--db-password-file`` adds the password in memory, encoded, from a file only its owner reads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from recall.cli import build_parser, main
from recall.db_secrets import apply_password_file, has_password, url_with_password
from recall.errors import ConfigError

PG_URL = os.environ.get("RECALL_TEST_PG_URL", "")


def _recall(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RECALL_HOME": str(home)}
    env.pop("RECALL_DB", None)
    return subprocess.run(
        [sys.executable, "-c", "from recall.cli import main; raise SystemExit(main())", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_help_names_the_private_ways() -> None:
    text = " ".join(build_parser().format_help().split())
    assert "--db-password-file FILE" in text
    for way in ("RECALL_DB", "~/.pgpass", "PGPASSFILE", "ps"):
        assert way in text, way


def test_a_password_in_db_is_warned_about_and_never_echoed(tmp_path: Path) -> None:
    secret = "s3cr3t-Pa55"
    url = f"postgresql+psycopg://learner:{secret}@127.0.0.1:1/recall?connect_timeout=2"
    result = _recall("--db", url, "today", home=tmp_path)
    assert "can be read by every user" in result.stderr and "--db-password-file" in result.stderr
    assert secret not in result.stdout + result.stderr


def test_no_warning_without_a_password() -> None:
    assert not has_password("postgresql+psycopg://learner@host/db")
    assert not has_password("sqlite:////tmp/x:y@z.sqlite3")
    assert has_password("postgresql+psycopg://learner:pw@host/db")


@pytest.mark.parametrize("password", ["plain", "p@ss/w:rd", "with space", "%41é#?&"])
def test_the_password_is_encoded_into_the_url(password: str, tmp_path: Path) -> None:
    secret = tmp_path / "pw"
    secret.write_text(password + "\n", encoding="utf-8")
    secret.chmod(0o600)
    url = apply_password_file("postgresql+psycopg://learner@db.example:5432/recall", secret)
    parsed = make_url(url)
    assert parsed.password == password
    assert (parsed.username, parsed.host, parsed.port, parsed.database) == (
        "learner",
        "db.example",
        5432,
        "recall",
    )


@pytest.mark.skipif(os.name != "posix", reason="POSIX modes")
def test_a_password_file_others_can_read_is_refused(tmp_path: Path) -> None:
    secret = tmp_path / "pw"
    secret.write_text("pw\n", encoding="utf-8")
    secret.chmod(0o644)
    with pytest.raises(ConfigError, match="chmod 600"):
        apply_password_file("postgresql+psycopg://learner@host/db", secret)


def test_a_password_file_needs_a_server_url(tmp_path: Path) -> None:
    secret = tmp_path / "pw"
    secret.write_text("pw\n", encoding="utf-8")
    secret.chmod(0o600)
    with pytest.raises(ConfigError, match="SQLite"):
        apply_password_file(f"sqlite:///{tmp_path / 'x.sqlite3'}", secret)
    with pytest.raises(ConfigError, match="already holds a password"):
        url_with_password("postgresql+psycopg://u:old@host/db", "new")
    with pytest.raises(ConfigError, match="needs --db or RECALL_DB"):
        apply_password_file(None, secret)
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "fifo"
        os.mkfifo(fifo)
        with pytest.raises(ConfigError, match="FIFO"):
            apply_password_file("postgresql+psycopg://u@host/db", fifo)


def test_the_cli_refuses_a_password_file_for_sqlite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = tmp_path / "pw"
    secret.write_text("pw\n", encoding="utf-8")
    secret.chmod(0o600)
    monkeypatch.setenv("RECALL_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("RECALL_DB", raising=False)
    assert main(["--db-password-file", str(secret), "today"]) == 2
    assert "--db-password-file needs" in capsys.readouterr().err


@pytest.mark.postgres
@pytest.mark.skipif(not PG_URL, reason="RECALL_TEST_PG_URL is not set")
def test_a_password_file_opens_a_postgresql_store(tmp_path: Path) -> None:
    """The URL with the file's password still reaches the server (the test server trusts
    loopback, so this shows the URL stays whole, not that the password is checked)."""
    secret = tmp_path / "pw"
    secret.write_text("p@ss/w:rd\n", encoding="utf-8")
    secret.chmod(0o600)
    result = _recall("--db", PG_URL, "--db-password-file", str(secret), "today", home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "p@ss" not in result.stdout + result.stderr
