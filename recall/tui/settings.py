"""What the TUI takes from the learner's settings: key remapping, theme, session length.

Key overrides live in the ``[keys]`` table of the shared config file, read by
:func:`recall.config.load_settings` (``recall config set keys.drill.hint f3``)::

    [keys]
    "drill.hint" = "f3"
    "home.start" = "enter,s"

Binding ids are listed by the help screen (``?``). The theme comes from ``RECALL_THEME``
(``dark``, ``light`` or any Textual theme name) and can be toggled with Ctrl-T.

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

    theme_name = os.environ.get("RECALL_THEME", "dark").strip() or "dark"
    theme = THEME_ALIASES.get(theme_name, theme_name)
    try:
        config = load_config(path)
    except ConfigError as error:
        return TuiSettings(theme=theme, problem=f"{error} Using the default keys.")
    return TuiSettings(
        theme=theme, keymap=dict(config.keys), session_minutes=config.session_minutes
    )
