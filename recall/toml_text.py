"""Writing TOML text: the one string escaper and key quoter, for deck files and the config.

recall reads TOML with :mod:`recall.toml_parser` (bounded first by :mod:`recall.toml_limits`) and
writes the few forms it needs itself, so no TOML writer dependency is needed. Both writers (the
deck writer, :mod:`recall.cards.writer`, and the settings, :mod:`recall.config`) go through these
two functions, so what one escapes the other never writes raw: a control character (DEL
included) always becomes ``\\uXXXX``, since TOML forbids it raw and a file holding one would not
read back.
"""

from __future__ import annotations

import json
import re

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def toml_key(key: str) -> str:
    """A TOML key: bare when it can be, else a quoted string."""
    return key if _BARE_KEY.match(key) else toml_string(key, multiline=False)


def toml_string(text: str, *, multiline: bool = True) -> str:
    """A TOML string for ``text``: a literal string when it holds backslashes (LaTeX stays as
    written), a multi-line string when it has line breaks, else a basic string."""
    if "\n" in text and multiline:
        body = text.replace("\\", "\\\\").replace('"""', '""\\"').replace("\r", "\\r")
        body = "".join(
            c if c in "\n\t" or ord(c) >= 32 and ord(c) != 127 else f"\\u{ord(c):04x}" for c in body
        )
        if body.endswith('"'):
            body = body[:-1] + '\\"'
        return '"""\n' + body + '"""'
    if "\\" in text and "'" not in text and "\n" not in text and _printable(text):
        return f"'{text}'"
    escaped = json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
    return escaped


def _printable(text: str) -> bool:
    return all(c == "\t" or (ord(c) >= 32 and ord(c) != 127) for c in text)
