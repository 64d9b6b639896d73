"""What ``recall serve`` starts for each browser session: a fixed command line and a small
environment, both built here and never from anything a request carries.

textual-serve runs the command through ``asyncio.create_subprocess_shell`` (a shell parses it),
so every part is quoted with :func:`shlex.quote`; the parts are the running interpreter and
``-m recall``, nothing else. The database URL and the deck folder go through the environment
(``RECALL_DB``, ``RECALL_DECKS``), not the command line, where ``ps`` would show a password.

textual-serve also hands the child a copy of the server's whole environment
(``AppService._build_environment``), so the server keeps only :func:`child_environment` in its
own (see :func:`recall.serve.server.serve`): API keys, cloud credentials and the like that the
learner's shell holds never reach an app a browser drives.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Mapping
from pathlib import Path

from recall.paths import SERVED_ENV

#: Variables the app needs from the server's environment, kept as they are: where programs and
#: the home folder are, the language and the time zone (local times), the terminal type, the
#: temporary folder and the import path recall may run from, the learner's wish for no colour,
#: and recall's own settings that are not places (the theme, the deck cache switch, the
#: start-up prefetch switch).
KEPT = (
    "PATH",
    "HOME",
    "LANG",
    "LANGUAGE",
    "TERM",
    "TZ",
    "TMPDIR",
    "PYTHONPATH",
    "NO_COLOR",
    "RECALL_THEME",
    "RECALL_NO_DECK_CACHE",
    "RECALL_PREFETCH",
)
#: Prefixes of variables kept (the locale's categories).
KEPT_PREFIXES = ("LC_",)
#: libpq's own variables (password, password file, TLS files, service file): part of the
#: database connection, so kept only when the database is PostgreSQL.
POSTGRES_PREFIX = "PG"


def tui_command(python: str | None = None) -> str:
    """The shell command that starts recall's TUI home screen: ``python -m recall``, each part
    quoted (``python``: the interpreter, default the running one)."""
    return " ".join(shlex.quote(part) for part in (python or sys.executable, "-m", "recall"))


def child_environment(
    environ: Mapping[str, str],
    *,
    data_dir: Path,
    db_url: str | None,
    custom_decks: Path | None,
) -> dict[str, str]:
    """The environment a served app process gets: :data:`KEPT` from ``environ``, the data
    directory the server resolved (``RECALL_HOME``, so the child needs no XDG variables to find
    it), the database URL and deck folder if one was chosen (with libpq's ``PG*`` variables for
    a PostgreSQL URL: the connection may need them), and :data:`SERVED_ENV`."""
    prefixes: tuple[str, ...] = KEPT_PREFIXES
    if db_url and db_url.startswith("postgres"):
        prefixes = (*prefixes, POSTGRES_PREFIX)
    kept = {
        name: value for name, value in environ.items() if name in KEPT or name.startswith(prefixes)
    }
    kept["RECALL_HOME"] = str(data_dir)
    if db_url:
        kept["RECALL_DB"] = db_url
    if custom_decks is not None:
        kept["RECALL_DECKS"] = str(custom_decks)
    kept[SERVED_ENV] = "1"
    return kept


def learner_environment(environment: Mapping[str, str], db_url: str) -> dict[str, str]:
    """The environment of an app a learner's browser session starts (``--learner-logins``):
    the served environment with the database URL replaced by that learner's own (their login
    role and password), and without libpq's ``PG*`` variables or ``RECALL_LEARNER``, which could
    otherwise supply another login's user or password; the learner is found from the login."""
    kept = {
        name: value
        for name, value in environment.items()
        if not name.startswith(POSTGRES_PREFIX) and name != "RECALL_LEARNER"
    }
    kept["RECALL_DB"] = db_url
    return kept
