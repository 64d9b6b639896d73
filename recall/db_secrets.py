"""The database password kept out of ``ps``: a password file, and a warning for ``--db``.

A process's arguments are readable by every user of the machine (``ps``, ``/proc/PID/cmdline``),
so a PostgreSQL password written into ``--db`` is shared with all of them. recall offers three
ways that keep it private, and says so when ``--db`` carries one:

* ``RECALL_DB``: the URL in the environment (readable only by the learner's own processes);
* ``~/.pgpass`` (or the file ``PGPASSFILE`` names): libpq, under psycopg, looks the password up
  there whenever the URL has none;
* ``--db-password-file FILE``: the first line of ``FILE`` (a regular file, mode ``600``) is
  added to the URL in memory; it is never printed (errors redact it).

Standard library only: the CLI decides this before SQLAlchemy is imported.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from urllib.parse import quote

from recall.errors import ConfigError
from recall.regular_files import read_regular

#: What to do instead, for the warning and the help.
PRIVATE_WAYS = "RECALL_DB, ~/.pgpass (or PGPASSFILE) or --db-password-file"
#: A password file holds one line; anything longer is not a password file.
MAX_PASSWORD_FILE = 4096

_USERINFO = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)(?:(?P<user>[^@/?#]*)@)?")


def has_password(url: str) -> bool:
    """Whether ``url`` carries a password in its user part (``user:secret@host``)."""
    match = _USERINFO.match(url)
    return bool(match and match.group("user") and ":" in match.group("user"))


def password_warning(url: str) -> str:
    """The warning for a ``--db`` URL with a password in it (empty when it has none)."""
    if not has_password(url):
        return ""
    return (
        "recall: warning: the password in --db can be read by every user of this machine "
        f"(ps shows a program's arguments); use {PRIVATE_WAYS} instead"
    )


def read_password_file(path: str | os.PathLike[str]) -> str:
    """The password in ``path``: its first line. The file must be a regular file that only its
    owner may read (as libpq asks of ``.pgpass``). Raises :class:`ConfigError`."""
    shown = os.fspath(path)
    try:
        if os.name == "posix":
            mode = os.stat(path).st_mode
            if stat.S_ISREG(mode) and mode & 0o077:
                raise ConfigError(
                    f"--db-password-file {shown}: other users may read it "
                    f"(mode {stat.S_IMODE(mode):03o}); run chmod 600 {shown}"
                )
        raw = read_regular(path, MAX_PASSWORD_FILE)
    except OSError as error:
        raise ConfigError(
            f"--db-password-file {shown}: cannot read it ({error.strerror or error})"
        ) from None
    if len(raw) > MAX_PASSWORD_FILE:
        raise ConfigError(f"--db-password-file {shown}: longer than a password file can be")
    try:
        lines = raw.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        raise ConfigError(f"--db-password-file {shown}: not UTF-8 text") from None
    if not lines or not lines[0]:
        raise ConfigError(f"--db-password-file {shown}: the first line is empty")
    return lines[0]


def url_with_password(url: str, password: str) -> str:
    """``url`` with ``password`` in its user part (percent-encoded, so ``@`` or ``/`` in it
    cannot end the user part early). Raises :class:`ConfigError` for a URL that is not a
    server's or already holds a password."""
    match = _USERINFO.match(url)
    if match is None or match.group("scheme").lower().startswith("sqlite"):
        raise ConfigError(
            "--db-password-file needs a database server's URL in --db or RECALL_DB "
            "(postgresql+psycopg://user@host/dbname); a SQLite file has no password"
        )
    if has_password(url):
        raise ConfigError("--db-password-file: the database URL already holds a password")
    user = match.group("user") or ""
    rest = url[match.end() :]
    return f"{match.group('scheme')}{user}:{quote(password, safe='')}@{rest}"


def apply_password_file(url: str | None, path: Path) -> str:
    """The URL ``--db``/``RECALL_DB`` names, with the password from ``path`` added."""
    if not url:
        raise ConfigError(
            "--db-password-file needs --db or RECALL_DB naming a database server "
            "(postgresql+psycopg://user@host/dbname)"
        )
    return url_with_password(url, read_password_file(path))
