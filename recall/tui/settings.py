"""What the TUI derives from the learner's settings (:class:`recall.config.Settings`): the
Textual theme and whether the file read at all.

Key overrides live in the ``[keys]`` table of the shared config file (``recall config set
keys.drill.hint f3``) and reach the app as :attr:`Settings.keys`::

    [keys]
    "drill.hint" = "f3"
    "home.start" = "enter,s"

Binding ids are listed by the help screen (``?``). The theme is the ``theme`` setting
(``dark`` or ``light``), which Ctrl-T toggles and saves; ``RECALL_THEME`` (``dark``, ``light`` or
any Textual theme name) overrides it for one run.

The settings are read once per start, before the first frame, so this costs one small TOML
read; a broken file is reported, never fatal: the app starts with the defaults and says what was
wrong. A ``[keys]`` entry with an unusable key, or naming no action, costs only itself: that
action keeps its default key and the start-up notice names the entry.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from recall.errors import ConfigError

if TYPE_CHECKING:
    from recall.config import Settings

#: Short names accepted for the two built-in looks.
THEME_ALIASES = {"dark": "textual-dark", "light": "textual-light"}


def read_settings(path: Path | None = None) -> tuple[Settings, str]:
    """The learner's settings and the problem found reading them: a file that does not read
    gives the defaults and a sentence saying why (empty when all is well)."""
    from recall.config import Settings, load_settings
    from recall.paths import config_file

    ignored: list[str] = []
    try:
        settings = load_settings(path, ignored=ignored)
    except ConfigError as error:
        return Settings(), f"{error} Using the default keys and theme."
    if ignored:
        where = path or config_file()
        return settings, f"Key bindings in {where} ignored, their defaults kept: " + "; ".join(
            ignored
        )
    return settings, ""


def theme_name(settings: Settings) -> str:
    """The Textual theme to start with: ``RECALL_THEME`` if set, else the ``theme`` setting."""
    override = os.environ.get("RECALL_THEME", "").strip()
    name = override or settings.theme
    return THEME_ALIASES.get(name, name)


def save_theme(dark: bool, path: Path | None = None) -> str:
    """Store the look the learner switched to as the ``theme`` setting; returns the problem
    (empty when saved). A config file that does not read is left exactly as it is."""
    from dataclasses import replace

    from recall.config import load_settings, save_settings

    try:
        config = load_settings(path)
        save_settings(replace(config, theme="dark" if dark else "light"), path)
    except ConfigError as error:
        return str(error)
    return ""
