"""What the TUI takes from the learner's settings: key remapping, theme, session length.

Key overrides live in the ``[keys]`` table of the shared config file, read by
:func:`recall.config.load_settings` (``recall config set keys.drill.hint f3``)::

    [keys]
    "drill.hint" = "f3"
    "home.start" = "enter,s"

Binding ids are listed by the help screen (``?``). The theme is the ``theme`` setting
(``dark`` or ``light``), which Ctrl-T toggles and saves; ``RECALL_THEME`` (``dark``, ``light`` or
any Textual theme name) overrides it for one run.

This runs before the first frame, so it costs one small TOML read; a broken file is reported,
never fatal: the app starts with the defaults and says what was wrong.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from recall.errors import ConfigError

#: Short names accepted for the two built-in looks.
THEME_ALIASES = {"dark": "textual-dark", "light": "textual-light"}


@dataclass(frozen=True)
class TuiSettings:
    """Theme, keymap and default session length, plus any problem found reading them."""

    theme: str = "textual-dark"
    keymap: dict[str, str] = field(default_factory=dict)
    session_minutes: float = 10.0
    problem: str = ""


def load_settings(path: Path | None = None) -> TuiSettings:
    """The TUI's settings from the config file and the environment."""
    from recall.config import load_settings as load_config

    override = os.environ.get("RECALL_THEME", "").strip()
    try:
        config = load_config(path)
    except ConfigError as error:
        theme = _textual_theme(override or "dark")
        return TuiSettings(theme=theme, problem=f"{error} Using the default keys and theme.")
    return TuiSettings(
        theme=_textual_theme(override or config.theme),
        keymap=dict(config.keys),
        session_minutes=config.session_minutes,
    )


def save_theme(dark: bool, path: Path | None = None) -> str:
    """Store the look the learner switched to as the ``theme`` setting; returns the problem
    (empty when saved). A config file that does not read is left exactly as it is."""
    from dataclasses import replace

    from recall.config import load_settings as load_config
    from recall.config import save_settings

    try:
        config = load_config(path)
        save_settings(replace(config, theme="dark" if dark else "light"), path)
    except ConfigError as error:
        return str(error)
    return ""


def _textual_theme(name: str) -> str:
    return THEME_ALIASES.get(name, name)
