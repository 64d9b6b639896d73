"""Fault suite, opening the database (issue 10, items 8 and 11), through ``recall stats``.

A PostgreSQL port that accepts and then stays silent is given up on after the connect timeout
(10 s by default, ``?connect_timeout=N`` in the URL), with a message that says so; passwords
never appear in a message; SQLite files that are not recall's (a view alone, two schema
versions) are refused untouched; a read-only file is called read-only; ``~`` is the home folder.
"""

from __future__ import annotations

import socket
import sqlite3
import subprocess
from pathlib import Path

import pytest

from tests.fault_helpers import run_recall


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    return line


def test_a_silent_postgresql_port_is_given_up_on(tmp_path: Path) -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # the kernel accepts the connection; nobody ever answers
        port = silent.getsockname()[1]
        url = f"postgresql+psycopg://me:hunter2@127.0.0.1:{port}/db?connect_timeout=1"
        done = run_recall(["stats"], tmp_path / "home", timeout=60, RECALL_DB=url)
    line = _one_line(done)
    assert "did not answer within 1 s" in line and "?connect_timeout=N" in line
    assert "hunter2" not in line


def test_the_default_connect_timeout_is_ten_seconds() -> None:
    """Without ``connect_timeout`` in the URL, the driver is asked for 10 s."""
    from sqlalchemy import event

    from recall.store.engine import CONNECT_TIMEOUT_S, make_engine, parse_url

    engine = make_engine(parse_url("postgresql+psycopg://me@127.0.0.1:1/db"))
    seen: dict[str, object] = {}

    @event.listens_for(engine, "do_connect")
    def _capture(dialect: object, record: object, cargs: object, cparams: dict) -> None:
        seen.update(cparams)
        raise ConnectionAbortedError("captured")

    with pytest.raises(Exception, match="captured"):
        engine.connect()
    assert CONNECT_TIMEOUT_S == 10 and seen["connect_timeout"] == 10


@pytest.mark.parametrize(
    "url",
    [
        "postgresql+psycopg://me:hunter2@127.0.0.1:1/db",
        "postgresql+psycopg://me@127.0.0.1:1/db?password=hunter2",
        "postgresql+psycopg://me@127.0.0.1:1/db?sslmode=disable&password=hunter2&x=1",
        "postgresql+psycopg://me:hunter2@127.0.0.1:1/db?connect_timeout=never",
        "postgres+nodriver://me:hunter2@127.0.0.1:1/db",
        "notaurl:/me:hunter2@[bad",
    ],
)
def test_no_message_shows_a_password(tmp_path: Path, url: str) -> None:
    # the TUI's pre-check refuses what is not a URL at all; the rest reach the store
    args = [] if url.startswith("notaurl") else ["stats"]
    done = run_recall(args, tmp_path / "home", RECALL_DB=url, input=b"")
    assert done.returncode == 2
    assert "hunter2" not in done.stderr + done.stdout
    assert "Traceback" not in done.stderr


def test_a_sqlite_file_holding_only_a_view_is_foreign(tmp_path: Path) -> None:
    db = tmp_path / "views.db"
    with sqlite3.connect(db) as conn:
        conn.execute("create view answers as select 42 as answer")
    before = db.read_bytes()
    line = _one_line(run_recall(["stats"], tmp_path / "home", RECALL_DB=f"sqlite:///{db}"))
    assert "not a recall database" in line and "answers" in line
    assert db.read_bytes() == before


def test_two_schema_version_rows_are_not_current(tmp_path: Path) -> None:
    db = tmp_path / "recall.sqlite3"
    url = f"sqlite:///{db}"
    assert run_recall(["stats"], tmp_path / "home", RECALL_DB=url).returncode == 0
    with sqlite3.connect(db) as conn:
        conn.execute("insert into alembic_version (version_num) values ('0002')")
    line = _one_line(run_recall(["stats"], tmp_path / "home", RECALL_DB=url))
    assert "has 2 schema versions" in line and "Nothing was changed" in line


def test_a_read_only_database_is_called_read_only(tmp_path: Path) -> None:
    """(Tests run as root, which may write any file: a read-only URI stands in for mode 444.)"""
    db = tmp_path / "recall.sqlite3"
    assert run_recall(["stats"], tmp_path / "home", RECALL_DB=f"sqlite:///{db}").returncode == 0
    url = f"sqlite:///file:{db}?mode=ro&uri=true"
    line = _one_line(run_recall(["stats"], tmp_path / "home", RECALL_DB=url))
    assert "is read-only" in line


def test_a_tilde_in_a_sqlite_url_is_the_home_folder(tmp_path: Path) -> None:
    done = run_recall(
        ["stats"], tmp_path / "home", RECALL_DB="sqlite:///~/mine.db", HOME=str(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "mine.db").is_file()
    assert not Path("~").exists()


def test_a_refused_postgresql_connection_reads_as_sentences(tmp_path: Path) -> None:
    """psycopg writes "Connection refused" and "Is the server running ...?" on two lines; folded
    onto one line they must stay two sentences, not run together."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]  # bound, never listening: the connection is refused
        url = f"postgresql+psycopg://me@127.0.0.1:{port}/db?connect_timeout=5"
        done = run_recall(["stats"], tmp_path / "home", timeout=60, RECALL_DB=url)
    line = _one_line(done)
    assert "cannot connect to" in line
    assert "Connection refused. Is the server running" in line, line


@pytest.mark.parametrize(
    ("driver", "shown"),
    [
        ("first line\n\tsecond line", "first line. second line"),
        ("ends well.\nnext", "ends well. next"),
        ("asks?\n  \nthen   this\n", "asks? then this"),
        ("failed: \nreason here", "failed: reason here"),
        ("one line only", "one line only"),
        ("HINT:  try this\r\nDETAIL: that", "HINT: try this. DETAIL: that"),
    ],
)
def test_every_driver_line_is_its_own_sentence(driver: str, shown: str) -> None:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import OperationalError

    from recall.store.engine import store_error

    error = OperationalError("SELECT 1", {}, Exception(driver))
    message = str(store_error(error, make_url("postgresql+psycopg://me@host/db")))
    assert message.endswith(shown), message
    assert "\n" not in message and "\t" not in message
