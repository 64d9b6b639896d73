"""Where recall keeps its files.

Plain functions so tests and scripts can redirect everything with one environment variable:
``RECALL_HOME`` moves the whole data directory (database, config, custom decks). Without it the
platform's user data directory is used (``platformdirs``). ``RECALL_DB`` and ``RECALL_DECKS``
override the database URL and the custom deck folder alone.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

APP_NAME = "recall"

#: Set to ``1`` by ``recall serve`` for the app processes it starts: the TUI is then shown in a
#: browser, where the server's editor cannot open and the browser keeps some keys to itself.
SERVED_ENV = "RECALL_SERVED"


def served_in_browser() -> bool:
    """This process is the TUI ``recall serve`` started for a browser (:data:`SERVED_ENV`)."""
    return os.environ.get(SERVED_ENV) == "1"


def data_dir() -> Path:
    """The directory that holds the database, the config file and custom decks."""
    home = os.environ.get("RECALL_HOME")
    if home:
        return Path(home).expanduser()
    from platformdirs import user_data_path

    return user_data_path(APP_NAME, appauthor=False)


def ensure_data_dir() -> Path:
    """:func:`data_dir`, created if it does not exist yet."""
    path = data_dir()
    path.mkdir(parents=True, exist_ok=True)
    return path


def config_file() -> Path:
    """The settings file (TOML)."""
    return data_dir() / "config.toml"


def default_database_path() -> Path:
    """The embedded SQLite database file."""
    return data_dir() / "recall.sqlite3"


def default_database_url() -> str:
    """``RECALL_DB`` if set, else the SQLite file in the data directory."""
    url = os.environ.get("RECALL_DB")
    if url:
        return url
    return f"sqlite:///{default_database_path()}"


def custom_decks_dir() -> Path:
    """Where learners keep their own decks (``RECALL_DECKS`` overrides)."""
    override = os.environ.get("RECALL_DECKS")
    if override:
        return Path(override).expanduser()
    return data_dir() / "decks"


def builtin_decks_dir() -> Path:
    """The decks that ship with recall.

    In a source checkout they are the top-level ``decks/`` folder (``recall/_decks`` links to
    it); an installed wheel carries a copy inside the package (``recall/_decks``).
    """
    package = Path(__file__).resolve().parent
    checkout = package.parent / "decks"
    if checkout.is_dir() and (package.parent / "pyproject.toml").is_file():
        return checkout
    return package / "_decks"


#: A password in a URL's user part (``user:secret@``) and in its query (``password=secret``).
_URL_SECRETS = (
    re.compile(r"([A-Za-z][A-Za-z0-9+.-]*:/*[^:/@\s]*:)[^@/\s]+(@)"),
    re.compile(r"(?i)((?:^|[?&;\s])(?:password|passwd|pwd|sslpassword|sslkey_password)=)[^&;\s]*"),
)


def redact_url(text: str) -> str:
    """``text`` (a database URL, or a message quoting one) with every password shown as
    ``***``: errors are printed, logged and pasted into bug reports. Plain text in, so it works
    on a URL too broken to parse (and without importing SQLAlchemy)."""
    for pattern in _URL_SECRETS:
        text = pattern.sub(r"\1***\2" if pattern.groups == 2 else r"\1***", text)
    return text


def write_atomically(path: Path, text: str, *, durable: bool = True) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a temporary file beside it (named
    for this process, so two windows writing at once never share one), flushed to disk, then
    renamed over it. A full disk or a crash mid-write leaves the old file (or no file), never a
    truncated one; ``OSError`` is raised after the temporary file is removed.

    ``durable=False`` skips the flush to disk, for caches: a cache lost in a power cut is
    rebuilt, and the next start should not wait for the disk."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(temp, "w", encoding="utf-8") as file:
            file.write(text)
            if durable:
                file.flush()
                os.fsync(file.fileno())
        os.replace(temp, path)
    except OSError as error:
        temp.unlink(missing_ok=True)
        raise OSError(error.errno, error.strerror, str(path)) from error
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
