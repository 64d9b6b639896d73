"""``recall serve``: drill in a browser (the TUI through textual-serve, behind recall's gate).

Loopback only by default; another address needs TLS (``--tls-cert``/``--tls-key``) or an
explicit ``--insecure-lan``, which prints why it is unsafe. The server and its gate live in
:mod:`recall.serve`, which needs the optional extra: without it this says how to install it.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path

from recall.commands import minutes_argument
from recall.errors import ConfigError
from recall.inert import quote
from recall.wording import count_of

#: The command that installs what ``recall serve`` needs.
INSTALL = "pip install 'recall[serve]'"


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError("a port is 0 (any free one) to 65535")
    return value


def _sessions(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= 50:
        raise argparse.ArgumentTypeError("between 1 and 50 sessions")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "serve",
        help="drill in a browser (needs recall[serve])",
        description="Serve the TUI to a browser. It prints an address carrying a token made "
        "for this start; opening it logs that browser in. Loopback only unless --host says "
        f"otherwise (then TLS, or --insecure-lan). Needs the serve extra: {INSTALL}",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    # The global --db and --decks, also accepted after the subcommand (SUPPRESS: when absent
    # here, the value given before it stays).
    parser.add_argument(
        "--db", metavar="URL", default=argparse.SUPPRESS, help="database URL (as recall --db)"
    )
    parser.add_argument(
        "--decks", metavar="DIR", default=argparse.SUPPRESS, help="custom deck folder"
    )
    parser.add_argument(
        "--port", type=_port, default=8000, help="port to listen on (8000; 0: any free port)"
    )
    parser.add_argument(
        "--token-file",
        type=Path,
        metavar="FILE",
        help="read the login token from FILE (mode 0600) instead of making a new one",
    )
    parser.add_argument(
        "--learner-logins",
        type=Path,
        metavar="FILE",
        help="serve several learners of a shared PostgreSQL database: FILE (mode 0600) has "
        "one line per learner, NAME and that learner's own database URL; each gets an address "
        "of their own, and their browser's app logs in as them (`recall help learners`)",
    )
    parser.add_argument("--tls-cert", type=Path, metavar="PEM", help="TLS certificate chain")
    parser.add_argument("--tls-key", type=Path, metavar="PEM", help="TLS private key")
    parser.add_argument(
        "--insecure-lan",
        action="store_true",
        help="allow plain HTTP off loopback (unsafe: prints why)",
    )
    parser.add_argument(
        "--max-sessions",
        type=_sessions,
        default=3,
        metavar="N",
        help="browser sessions at once, one process each (3)",
    )
    parser.add_argument(
        "--idle-minutes",
        type=minutes_argument,
        default=30.0,
        metavar="M",
        help="close a browser session after M minutes without a key (30)",
    )
    qr = parser.add_mutually_exclusive_group()
    qr.add_argument("--qr", dest="qr", action="store_true", default=None, help="print a QR code")
    qr.add_argument("--no-qr", dest="qr", action="store_false", help="never print a QR code")
    parser.set_defaults(func=run)


def missing_extra() -> str | None:
    """The module of the serve extra that is not installed, if one is not."""
    for module in ("aiohttp", "aiohttp_jinja2", "textual_serve"):
        if importlib.util.find_spec(module) is None:
            return module
    return None


def run(args: argparse.Namespace) -> int:
    missing = missing_extra()
    if missing:
        print(
            f"recall serve needs the serve extra ({missing} is missing): {INSTALL}", file=sys.stderr
        )
        return 2
    from recall.commands import custom_decks, database_url, precheck_database_url
    from recall.paths import ensure_data_dir
    from recall.serve.binding import is_loopback, tls_context
    from recall.serve.gate import new_token, read_token_file
    from recall.serve.server import INSECURE_WARNING, ServeOptions, serve

    if (args.tls_cert is None) != (args.tls_key is None):
        raise ConfigError("--tls-cert and --tls-key go together")
    tls = None
    if args.tls_cert is not None:
        try:
            tls = tls_context(args.tls_cert, args.tls_key)
        except (OSError, ValueError) as error:
            raise ConfigError(f"cannot use the TLS certificate and key: {error}") from None
    if not is_loopback(args.host) and tls is None:
        if not args.insecure_lan:
            raise ConfigError(
                f"--host {args.host} is reachable from the network: give --tls-cert and "
                "--tls-key, or --insecure-lan to serve plain HTTP anyway (it prints why that "
                "is unsafe)"
            )
        print(INSECURE_WARNING, file=sys.stderr)
    db_url = database_url(args) or os.environ.get("RECALL_DB") or None
    # Said here, once, rather than in every browser tab the app would open on it.
    precheck_database_url(db_url)
    token = read_token_file(args.token_file) if args.token_file else new_token()
    decks = custom_decks(args) or (
        Path(os.environ["RECALL_DECKS"]).expanduser() if os.environ.get("RECALL_DECKS") else None
    )
    learner_urls = read_learner_logins(args.learner_logins) if args.learner_logins else {}
    options = ServeOptions(
        host=args.host,
        port=args.port,
        token=token,
        data_dir=ensure_data_dir().resolve(),
        db_url=db_url,
        custom_decks=decks.resolve() if decks else None,
        tls=tls,
        max_sessions=args.max_sessions,
        idle_seconds=args.idle_minutes * 60,
        qr=sys.stdout.isatty() if args.qr is None else args.qr,
        learner_urls=learner_urls,
        learner_tokens={name: new_token() for name in learner_urls},
    )
    try:
        return serve(options)
    except OSError as error:
        raise ConfigError(f"cannot listen on {args.host}:{args.port}: {error.strerror}") from None


#: Most learners one ``--learner-logins`` file may name, and its largest size.
MAX_LEARNER_LOGINS = 200
MAX_LOGINS_BYTES = 64 * 1024


def read_learner_logins(path: Path) -> dict[str, str]:
    """Each learner's own database URL, by name, from ``path``: a regular file only its owner
    may read (it holds passwords), one ``NAME URL`` line per learner (``#`` comments and blank
    lines skipped; a name may hold spaces, the URL is the last word). Every URL is checked by
    logging in with it: it must be a PostgreSQL login whose learner is NAME (never the owner's,
    a shared one, or another learner's). Raises :class:`ConfigError` saying what is wrong."""
    import stat

    from recall.inert import first_control
    from recall.regular_files import NotARegularFile, open_regular
    from recall.store.learners import checked_name, learner_of_login

    try:
        if not stat.S_ISREG(path.lstat().st_mode):  # a link is refused as well
            raise ConfigError(f"--learner-logins {path} is not a regular file")
        with open_regular(path) as file:  # checked again on the open file: what is read
            info = os.fstat(file.fileno())
            if info.st_mode & 0o077:
                raise ConfigError(
                    f"--learner-logins {path} can be read by others and holds passwords: "
                    f"chmod 600 {path}"
                )
            raw = file.read(MAX_LOGINS_BYTES + 1)
    except NotARegularFile:
        raise ConfigError(f"--learner-logins {path} is not a regular file") from None
    except OSError as error:
        raise ConfigError(f"cannot read {path}: {error.strerror}") from None
    if len(raw) > MAX_LOGINS_BYTES:
        raise ConfigError(f"--learner-logins {path} is larger than {MAX_LOGINS_BYTES // 1024} KiB")
    logins: dict[str, str] = {}
    lines = raw.decode("utf-8", errors="replace").splitlines()
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"{path}:{number}"
        if first_control(line) is not None:
            raise ConfigError(f"{where}: a control character")
        parts = line.strip().rsplit(None, 1)
        if len(parts) != 2 or "://" not in parts[1]:
            raise ConfigError(f"{where}: give a learner's name and their database URL")
        name, url = parts
        checked_name(name)
        if name in logins:
            raise ConfigError(f"{where}: '{quote(name, 40)}' is named twice")
        if len(logins) >= MAX_LEARNER_LOGINS:
            raise ConfigError(f"{path}: more than {count_of(MAX_LEARNER_LOGINS, 'learner')}")
        logins[name] = url
    if not logins:
        raise ConfigError(f"--learner-logins {path} names no learner")
    for name, url in logins.items():
        found = learner_of_login(url)
        if found != name:
            who = "no learner" if found is None else f"learner '{quote(found, 40)}'"
            raise ConfigError(
                f"the URL for '{quote(name, 40)}' in {path} logs in as {who}: each learner's "
                "line needs their own PostgreSQL login (recall learners add)"
            )
    return logins
