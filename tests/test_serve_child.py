"""What ``recall serve`` starts: a fixed, quoted command line and a small environment."""

from __future__ import annotations

import shlex
from pathlib import Path

from recall.paths import SERVED_ENV
from recall.serve.child import child_environment, tui_command


def test_the_command_is_the_interpreter_and_recall_each_part_quoted() -> None:
    for python in ("/usr/bin/python3", "/opt/my env/bin/python", "/tmp/$(touch x);`id`'\"/py"):
        command = tui_command(python)
        assert shlex.split(command) == [python, "-m", "recall"]


def test_the_environment_keeps_only_what_the_app_needs(tmp_path: Path) -> None:
    server = {
        "PATH": "/usr/bin",
        "HOME": "/home/learner",
        "LANG": "en_GB.UTF-8",
        "LC_TIME": "de_DE.UTF-8",
        "TZ": "Europe/Berlin",
        "TERM": "xterm-256color",
        "OPENAI_API_KEY": "sk-secret",
        "AWS_SECRET_ACCESS_KEY": "secret",
        "GITHUB_TOKEN": "secret",
        "SSH_AUTH_SOCK": "/tmp/agent",
        "RECALL_DB": "postgresql://u:pw@h/db",  # the command passes the one it chose
        "XDG_DATA_HOME": "/elsewhere",
        "EDITOR": "vim",
        "LD_PRELOAD": "/tmp/evil.so",
        "RECALL_THEME": "light",
        "RECALL_PREFETCH": "0",
        "PGPASSWORD": "secret",
        "DATABASE_URL": "postgresql://u:pw@h/db",
    }
    env = child_environment(server, data_dir=tmp_path, db_url=None, custom_decks=None)
    assert env == {
        "PATH": "/usr/bin",
        "HOME": "/home/learner",
        "LANG": "en_GB.UTF-8",
        "LC_TIME": "de_DE.UTF-8",
        "TZ": "Europe/Berlin",
        "TERM": "xterm-256color",
        "RECALL_THEME": "light",
        "RECALL_PREFETCH": "0",  # the learner turned the start-up child off: so it stays
        "RECALL_HOME": str(tmp_path),
        SERVED_ENV: "1",
    }
    chosen = child_environment(
        server, data_dir=tmp_path, db_url="sqlite:////x/r.db", custom_decks=tmp_path / "d"
    )
    assert chosen["RECALL_DB"] == "sqlite:////x/r.db"
    assert chosen["RECALL_DECKS"] == str(tmp_path / "d")


def test_libpq_variables_go_along_only_to_a_postgresql_database(tmp_path: Path) -> None:
    server = {"PATH": "/usr/bin", "PGPASSWORD": "pw", "PGSSLROOTCERT": "/ca.pem"}
    postgres = child_environment(
        server, data_dir=tmp_path, db_url="postgresql+psycopg://u@h/db", custom_decks=None
    )
    assert postgres["PGPASSWORD"] == "pw" and postgres["PGSSLROOTCERT"] == "/ca.pem"
    for url in (None, "sqlite:////x/r.db"):
        sqlite = child_environment(server, data_dir=tmp_path, db_url=url, custom_decks=None)
        assert "PGPASSWORD" not in sqlite and "PGSSLROOTCERT" not in sqlite
