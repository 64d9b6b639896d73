"""``recall learners add|list|remove``: the learners of a database several learners share.

Several learners share a PostgreSQL database, each logging in as their own database role,
which row-level security keeps to their own rows (``docs/learners.md``, ``docs/security.md``).
These commands are run by the database's owner (the role that ran the migrations, with
``CREATEROLE``): ``add`` creates the learner's login role with a generated password, shown
once or written to a file of mode 0600, and their row; ``remove`` deletes every row of the
learner's and their role, after asking. A SQLite database has one learner: ``add`` and
``remove`` are refused there with a sentence saying so, ``list`` shows it.

Names are untrusted text: refused with control or invisible characters, bounded, and sent to
the database only as bound values (the role name is quoted by the server).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from recall.errors import ConfigError
from recall.inert import quote
from recall.wording import count_of


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "learners",
        help="add, list or remove the learners of a shared PostgreSQL database",
        description="The learners of a database several learners share (PostgreSQL), each "
        "with a login role of their own; run as the database's owner. See `recall help learners`.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    add = actions.add_parser(
        "add",
        help="add a learner: a login role with a generated password, and their row",
        description="Create learner NAME: a PostgreSQL login role (NAME unless --role) with a "
        "generated password, shown once (or written to --password-file), and a new state for "
        "every shared card.",
    )
    add.add_argument("name", metavar="NAME")
    add.add_argument("--role", metavar="ROLE", help="the login role's name (default: NAME)")
    add.add_argument(
        "--password-file",
        metavar="FILE",
        type=Path,
        help="write the password to FILE (created with mode 600; it must not exist) instead "
        "of printing it",
    )
    add.set_defaults(func=run_add)
    listing = actions.add_parser("list", help="list the learners you may see")
    listing.set_defaults(func=run_list)
    remove = actions.add_parser(
        "remove",
        help="remove a learner with all their reviews, schedules and custom decks",
        description="Delete every row of learner NAME (reviews, schedules, sessions, fitted "
        "parameters, imported reviews, settings, custom decks) and their login role; asks "
        "first.",
    )
    remove.add_argument("name", metavar="NAME")
    remove.add_argument("--yes", action="store_true", help="do not ask")
    remove.set_defaults(func=run_remove)


def _open(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from recall.commands import database_url
    from recall.store import open_learners

    return open_learners(database_url(args))


def run_add(args: argparse.Namespace) -> int:
    target: Path | None = args.password_file
    if target is not None and (target.exists() or target.is_symlink()):
        raise ConfigError(f"--password-file {quote(str(target))}: the file exists already")
    learners = _open(args)
    try:
        added = learners.add(args.name, args.role)
    finally:
        learners.close()
    learner = added.learner
    role = quote(learner.role_name or "")
    print(f"Added learner {learner.id} '{quote(learner.name)}', who logs in as role '{role}'.")
    if target is not None:
        from recall.paths import write_new_private_file

        try:
            write_new_private_file(target, added.password + "\n")
        except OSError as error:  # the role exists now: the password must not be lost
            print(
                f"recall: cannot write {quote(str(target))} ({error.strerror}); the password "
                "is printed below instead",
                file=sys.stderr,
            )
            print(f"Password (shown once, not kept anywhere): {added.password}")
        else:
            print(
                f"The password is in {quote(str(target))} (mode 600); it is not kept anywhere else."
            )
    else:
        print(f"Password (shown once, not kept anywhere): {added.password}")
    print(
        "Give them a database URL with this role and their password (`recall help learners`); "
        "they never need the owner's."
    )
    return _sync_built_in_decks(args)


def _sync_built_in_decks(args: argparse.Namespace) -> int:
    """Sync this recall's built-in decks into the shared decks, as the owner (after the
    password is out: a failure here must not lose it). A learner's login only reads the
    shared decks, so the owner puts them there: a new database gets them before its first
    learner starts, and a newer recall's are brought in line for everyone."""
    from recall.commands import database_url
    from recall.errors import RecallError
    from recall.paths import builtin_decks_dir
    from recall.store.models import DEFAULT_LEARNER
    from recall.workspace import Workspace

    try:
        workspace = Workspace.open(
            deck_dirs=[builtin_decks_dir()], db_url=database_url(args), learner=DEFAULT_LEARNER
        )
        try:
            report = workspace.last_sync
        finally:
            workspace.close()
    except RecallError as error:
        print(
            f"recall: the learner was added, but the built-in decks were not synced ({error}); "
            "run `recall decks sync` as the owner",
            file=sys.stderr,
        )
        return 1
    if report is not None and report.touched:
        print(
            f"Synced the built-in decks: {count_of(len(report.added), 'card')} added, "
            f"{len(report.changed)} changed, {len(report.retired)} retired, "
            f"{len(report.restored)} restored."
        )
    return 0


def run_list(args: argparse.Namespace) -> int:
    learners = _open(args)
    try:
        found = learners.list()
    finally:
        learners.close()
    for learner in found:
        role = f"role '{quote(learner.role_name)}'" if learner.role_name else "no login role"
        print(
            f"{learner.id:>4}  {quote(learner.name)}  ({role}; added {learner.created_at:%Y-%m-%d})"
        )
    return 0


def run_remove(args: argparse.Namespace) -> int:
    learners = _open(args)
    try:
        learner = learners.find(args.name)
        if not args.yes:
            if not sys.stdin.isatty():
                raise ConfigError(
                    "recall learners remove asks before deleting a learner's data; "
                    "give --yes to remove without asking"
                )
            role = (
                f" and their login role '{quote(learner.role_name)}'" if learner.role_name else ""
            )
            answer = input(
                f"Delete every review, schedule, session and custom deck of learner "
                f"'{quote(learner.name)}'{role}? This cannot be undone. [y/N] "
            )
            if answer.strip().lower() not in ("y", "yes"):
                print("Nothing was removed.")
                return 1
        removed, rows = learners.remove(args.name)
    finally:
        learners.close()
    print(f"Removed learner '{quote(removed.name)}' ({count_of(rows, 'row')} deleted).")
    return 0
