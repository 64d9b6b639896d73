"""Where recall keeps its files.

Plain functions so tests and scripts can redirect everything with one environment variable:
``RECALL_HOME`` moves the whole data directory (database, config, custom decks). Without it the
platform's user data directory is used (``platformdirs``). ``RECALL_DB`` and ``RECALL_DECKS``
override the database URL and the custom deck folder alone.

What recall creates there is private to the learner on POSIX: files ``0600``, folders ``0700``,
whatever the umask (the modes are set explicitly: :func:`make_private_dirs`,
:func:`create_private_file`, :func:`open_private_for_writing`, :func:`write_atomically`). A file
or folder that already exists keeps the mode it has: the learner's choice stands.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TextIO

APP_NAME = "recall"

#: Modes of what recall creates (POSIX): readable by the learner alone.
PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700
_POSIX = os.name == "posix"


def make_private_dirs(path: Path) -> Path:
    """``path`` and any missing parents created ``0700`` (folders that exist are left as they
    are); returns ``path``."""
    missing: list[Path] = []
    current = Path(path)
    while not current.exists() and current != current.parent:
        missing.append(current)
        current = current.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=PRIVATE_DIR)
        except FileExistsError:
            continue  # another process made it first: its mode is its own
        if _POSIX:
            os.chmod(folder, PRIVATE_DIR)  # mkdir's mode is filtered by the umask
    if not Path(path).is_dir():
        raise NotADirectoryError(f"{path} is not a folder")
    return Path(path)


def create_private_file(path: Path) -> bool:
    """Create ``path`` empty with mode ``0600`` if it does not exist (before a library such as
    SQLite creates it with the umask's mode); whether it was created."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    except FileExistsError:
        return False
    try:
        if _POSIX:
            os.fchmod(fd, PRIVATE_FILE)
    finally:
        os.close(fd)
    return True


def _private_fd(path: Path, flags: int, keep_mode_of: Path | None = None) -> int:
    """``path`` opened with ``flags`` (creating it), mode ``0600``, or that of ``keep_mode_of``
    when that file exists (a replaced file keeps its mode)."""
    mode = PRIVATE_FILE
    if keep_mode_of is not None:
        try:
            mode = keep_mode_of.stat().st_mode & 0o777
        except OSError:
            mode = PRIVATE_FILE
    fd = os.open(path, flags | os.O_CREAT, mode)
    if _POSIX:
        try:
            os.fchmod(fd, mode)
        except OSError:
            os.close(fd)
            raise
    return fd


def open_private_for_writing(path: Path, *, newline: str | None = None) -> TextIO:
    """``path`` opened for writing text (UTF-8), truncated; created ``0600`` if it is new (an
    existing file keeps its mode)."""
    if path.exists():
        return open(path, "w", encoding="utf-8", newline=newline)
    fd = _private_fd(path, os.O_WRONLY | os.O_TRUNC)
    return os.fdopen(fd, "w", encoding="utf-8", newline=newline)


def write_new_private_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path``, which must not exist yet, mode ``0600`` from its creation:
    never through a symbolic link, never into a file someone made meanwhile (a secret such as a
    generated password must reach only the file this call creates). ``FileExistsError`` (an
    ``OSError``) when the name is taken, by a link too."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, PRIVATE_FILE)
    try:
        if _POSIX:
            os.fchmod(fd, PRIVATE_FILE)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            fd = -1
            out.write(text)
    finally:
        if fd >= 0:
            os.close(fd)


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
    return make_private_dirs(data_dir())


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
#: The user part's secret runs to the *last* ``@`` on the line: SQLAlchemy ends the password at
#: the first ``@`` and takes the rest (``ss@host`` of ``user:p@ss@host``) for the host, so an
#: unencoded ``@`` would otherwise leave part of the password printed, in our messages and in
#: SQLAlchemy's own rendering of the URL. A ``user:secret@host`` typed without a scheme is quoted
#: back when it is refused, so it is covered too (a secret there never starts with ``/``, a
#: SQLite path, or a space, prose). A query's password runs to the next ``&``, ``;`` or line end.
#: Hiding too much of a malformed URL (``host:5432/db?x=a@b``) is the safe side.
_URL_SECRETS = (
    re.compile(r"([A-Za-z][A-Za-z0-9+.-]*:/+[^:/@\s]*:)[^\n]*(@)"),
    re.compile(r"((?:^|(?<=[\s'\"(]))[A-Za-z][^:/@\s'\"]*:)(?![/\s])[^\n]*(@)"),
    re.compile(r"(?i)((?:^|[?&;\s])(?:password|passwd|pwd|sslpassword|sslkey_password)=)[^&;\n]*"),
)


def redact_url(text: str) -> str:
    """``text`` (a database URL, or a message quoting one) with every password shown as
    ``***``: errors are printed, logged and pasted into bug reports. Plain text in, so it works
    on a URL too broken to parse (and without importing SQLAlchemy)."""
    for pattern in _URL_SECRETS:
        text = pattern.sub(r"\1***\2" if pattern.groups == 2 else r"\1***", text)
    return text


#: Whether :func:`write_atomically` may write in this process (see :func:`leave_files_alone`).
_may_write = True


def leave_files_alone() -> None:
    """From now on, in this process, :func:`write_atomically` writes nothing: it raises
    ``OSError`` (``EROFS``) before creating its temporary file, as on a read-only disk, which
    every caller already takes in its stride (a cache left unwritten, a followed exam plan's
    day worked out again next time). For a process that only reads ahead for another, which
    writes the same files itself (the TUI's prefetching child,
    :mod:`recall.tui.home_prefetch`): killed mid-write, it would leave its temporary file
    behind, and a durable write would have it wait for the disk for nothing."""
    global _may_write
    _may_write = False


def write_atomically(path: Path, text: str, *, durable: bool = True) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a temporary file beside it (named
    for this process, so two windows writing at once never share one), flushed to disk, then
    renamed over it. A full disk or a crash mid-write leaves the old file (or no file), never a
    truncated one; ``OSError`` is raised after the temporary file is removed.

    ``durable=False`` skips the flush to disk, for caches: a cache lost in a power cut is
    rebuilt, and the next start should not wait for the disk."""
    if not _may_write:
        import errno

        raise OSError(errno.EROFS, "not written by this process", str(path))
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = _private_fd(temp, os.O_WRONLY | os.O_TRUNC, keep_mode_of=path)
        with os.fdopen(fd, "w", encoding="utf-8") as file:
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
