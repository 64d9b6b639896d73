"""``recall config [KEY [VALUE]]``: show or change settings.

With no argument every setting is listed with its value and meaning; with a key, its value;
with a key and a value, the value is validated and saved. ``--reset KEY`` restores a default.

``recall config retention R`` is the short way to apply a desired retention chosen from
``recall plan`` or the stats screen's workload curve: ``R`` is a fraction (``0.85``) or a
percentage (``85%``), validated by the ``desired_retention`` setting's own range.

On a database several learners share (named by ``--db``/``RECALL_DB`` as PostgreSQL, or with
a learner chosen by ``--learner``/``RECALL_LEARNER``, and shared:
:meth:`recall.workspace.Workspace.shared_database`), the settings shown and changed are the
learner's own, kept in the database over ``config.toml``'s: two learners of one server never
change each other's limits or retention.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Collection
from typing import TYPE_CHECKING

from recall.inert import quote

if TYPE_CHECKING:
    from recall.config import Settings
    from recall.workspace import Workspace


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "config",
        help="show or change settings",
        description="Show or change settings (stored in config.toml in the data directory). "
        "Key binding overrides are set as keys.ACTION, e.g. `recall config keys.drill.hint f3` "
        "(`?` in the app lists the ids).",
    )
    parser.add_argument(
        "key",
        nargs="?",
        help="setting name, keys.ACTION, deck_new_limits.DECK, or retention (desired_retention)",
    )
    parser.add_argument("value", nargs="?", help='new value (lists: "1 10")')
    parser.add_argument("--reset", action="store_true", help="restore KEY to its default")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from recall import config
    from recall.errors import ConfigError
    from recall.paths import config_file

    workspace = shared_workspace(args)
    if workspace is not None:
        try:
            return _run_for_learner(args, workspace)
        finally:
            workspace.close()
    if args.key == RETENTION and args.value is not None and not args.reset:
        return _apply_retention(args.value)
    if args.key == RETENTION:
        args.key = "desired_retention"
    settings = config.load_settings()
    if args.reset:
        if not args.key or args.value is not None:
            raise ConfigError("use: recall config --reset KEY")
        path = config.save_settings(config.reset_value(settings, args.key))
        print(f"{args.key} reset to its default (saved in {path})")
        return 0
    if args.key is None:
        _print_settings(settings, f"# {config_file()}")
        return 0
    if args.value is None:
        print(_show(config.get_value(settings, args.key)))
        return 0
    known = _known_actions(args.key)
    path = config.save_settings(
        config.set_value(settings, args.key, args.value, known_actions=known)
    )
    print(f"{args.key} = {_show(config.get_value(config.load_settings(path), args.key))}")
    return 0


def shared_workspace(args: argparse.Namespace) -> Workspace | None:
    """The learner's workspace when the settings live in a shared database, else ``None``
    (``config.toml``). The database is opened only when it may be shared (a PostgreSQL URL, or
    a learner named), so the usual ``recall config`` never touches it."""
    import os

    from recall.commands import database_url, learner_choice, open_workspace

    url = database_url(args) or os.environ.get("RECALL_DB") or ""
    named = learner_choice(args) is not None or bool(os.environ.get("RECALL_LEARNER"))
    if not named and not url.startswith("postgresql"):
        return None
    workspace = open_workspace(args, sync=False)
    try:
        if workspace.shared_database():
            return workspace
    except BaseException:
        workspace.close()
        raise
    workspace.close()
    return None


def _run_for_learner(args: argparse.Namespace, workspace: Workspace) -> int:
    """``recall config`` over the learner's settings in a shared database."""
    from recall import config
    from recall.errors import ConfigError

    where = f"learner {workspace.store.learner_id}'s settings in the database"
    if args.key == RETENTION:
        args.key = "desired_retention"
        if args.value is not None and not args.reset:
            args.value = f"{retention_from_text(args.value)!r}"
    if args.reset:
        if not args.key or args.value is not None:
            raise ConfigError("use: recall config --reset KEY")
        config.reset_value(workspace.settings, args.key)  # an unknown name is refused
        workspace.set_learner_setting(args.key, None)
        print(f"{args.key} reset to config.toml's value ({where})")
        return 0
    settings = workspace.settings
    if args.key is None:
        _print_settings(settings, f"# {where}, over config.toml's")
        return 0
    if args.value is None:
        print(_show(config.get_value(settings, args.key)))
        return 0
    known = _known_actions(args.key)
    changed = workspace.set_learner_setting(args.key, args.value, known_actions=known)
    print(f"{args.key} = {_show(config.get_value(changed, args.key))} ({where})")
    return 0


#: The short name of ``desired_retention``, as the workload planner speaks of it.
RETENTION = "retention"


def _apply_retention(text: str) -> int:
    from recall import config
    from recall.memory import model as memory_model

    before = config.load_settings().desired_retention
    saved = memory_model.apply_desired_retention(retention_from_text(text))
    print(
        f"desired_retention = {saved.desired_retention:g} (was {before:g}): the schedule aims "
        "for it from the next review; `recall plan` shows the workload it costs"
    )
    return 0


def retention_from_text(text: str) -> float:
    """``0.85`` or ``85%`` as a fraction. Only the form is checked here; the range is the
    setting's own (:data:`recall.config.SPECS`), checked when it is applied."""
    from recall.errors import ConfigError

    raw = text.strip()
    percent = raw.endswith("%")
    try:
        value = float(raw.removesuffix("%").strip())
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise ConfigError(
            f"retention: {quote(repr(text))} is not a number; write a fraction like 0.85 or a "
            "percentage like 85%"
        )
    if not percent and value > 1:
        raise ConfigError(
            f"retention: {quote(repr(text))} is more than 1; write a fraction like 0.85 or a "
            "percentage like 85%"
        )
    return value / 100 if percent else value


def _show(value: object) -> str:
    if isinstance(value, tuple):
        return " ".join(f"{v:g}" for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _print_settings(settings: Settings, header: str) -> None:
    """Every setting in force with what it means, after ``header`` (the file or database it
    comes from): what ``recall config`` prints without a key."""
    from recall import config

    print(header)
    for key in config.SPECS:
        print(f"{key} = {_show(config.get_value(settings, key))}    # {config.describe(key)}")
    for action, key in sorted(settings.keys.items()):
        print(f"keys.{action} = {key}")
    own_limit = config.describe(config.DECK_LIMITS + ".")
    for deck, limit in sorted(settings.deck_new_limits.items()):
        print(f"{config.DECK_LIMITS}.{deck} = {limit}    # {own_limit}")


def _known_actions(key: str) -> Collection[str] | None:
    """The key bindings' action ids when ``key`` sets one (``keys.ACTION``), else ``None``. The
    ids live on the TUI's classes: imported here only, never for other keys."""
    if not key.startswith("keys."):
        return None
    from recall.tui.app import RecallApp
    from recall.tui.keys import binding_ids

    return binding_ids(RecallApp)
