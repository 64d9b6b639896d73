"""``recall config [KEY [VALUE]]``: show or change settings.

With no argument every setting is listed with its value and meaning; with a key, its value;
with a key and a value, the value is validated and saved. ``--reset KEY`` restores a default.

``recall config retention R`` is the short way to apply a desired retention chosen from
``recall plan`` or the stats screen's workload curve: ``R`` is a fraction (``0.85``) or a
percentage (``85%``), validated by the ``desired_retention`` setting's own range.
"""

from __future__ import annotations

import argparse
import math

from recall.inert import quote


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
        print(f"# {config_file()}")
        for key in config.SPECS:
            value = _show(config.get_value(settings, key))
            print(f"{key} = {value}    # {config.describe(key)}")
        for action, key in sorted(settings.keys.items()):
            print(f"keys.{action} = {key}")
        own_limit = config.describe(config.DECK_LIMITS + ".")
        for deck, limit in sorted(settings.deck_new_limits.items()):
            print(f"{config.DECK_LIMITS}.{deck} = {limit}    # {own_limit}")
        return 0
    if args.value is None:
        print(_show(config.get_value(settings, args.key)))
        return 0
    known = None
    if args.key.startswith("keys."):
        # The binding ids live on the TUI's classes: imported here only, never for other keys.
        from recall.tui.app import RecallApp
        from recall.tui.keys import binding_ids

        known = binding_ids(RecallApp)
    path = config.save_settings(
        config.set_value(settings, args.key, args.value, known_actions=known)
    )
    print(f"{args.key} = {_show(config.get_value(config.load_settings(path), args.key))}")
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
