"""Settings: a small TOML file at :func:`recall.paths.config_file`, with sensible defaults.

A missing file means every default; a file only needs the keys the learner changed. Reading
uses ``tomllib``. Writing edits the learner's file in place with ``tomlkit`` (imported only
then): ``docs/decks.md`` invites them to edit it by hand, so their comments, order and layout
survive ``recall config KEY VALUE``; only the keys whose value changed are touched.

The ``[deck_new_limits]`` table caps the new cards one deck introduces a day, under the daily
``new_per_day`` (``activations = 5``); a deck missing from it is bound by the daily limit only.

The ``[keys]`` table maps TUI action ids to keys (``"drill.hint" = "f3"``); the TUI owns the
action ids (:func:`recall.tui.keys.binding_ids`), passes them to :func:`set_value` and reads the
overrides with :attr:`Settings.keys`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, fields, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from recall import toml_parser
from recall.errors import ConfigError
from recall.inert import describe_char, first_control, quote
from recall.paths import config_file, make_private_dirs, write_atomically
from recall.scheduling.fsrs_adapter import SchedulerSettings
from recall.toml_limits import TomlLimitExceeded, TomlLimits, check_shape, read_bounded
from recall.toml_text import toml_key, toml_string


@dataclass(frozen=True)
class Settings:
    """Every setting the learner can change. Field docs are shown by ``recall config``."""

    desired_retention: float = 0.9
    learning_steps: tuple[float, ...] = (1.0, 10.0)
    relearning_steps: tuple[float, ...] = (10.0,)
    new_per_day: int = 20
    reviews_per_day: int = 200
    day_rollover_hour: int = 4
    leech_threshold: int = 8
    session_minutes: float = 10.0
    maximum_interval_days: int = 36500
    new_card_order: str = "gathered"
    theme: str = "dark"
    keys: dict[str, str] = field(default_factory=dict)
    #: New cards a deck may introduce per study day, by deck id, under ``new_per_day``.
    deck_new_limits: dict[str, int] = field(default_factory=dict)

    def scheduler_settings(
        self, *, enable_fuzzing: bool = True, parameters: tuple[float, ...] | None = None
    ) -> SchedulerSettings:
        """The FSRS part of these settings; ``parameters`` are the learner's fitted ones (the
        database keeps which are in use), FSRS-6's defaults when ``None``."""
        settings = SchedulerSettings(
            desired_retention=self.desired_retention,
            learning_steps=tuple(timedelta(minutes=m) for m in self.learning_steps),
            relearning_steps=tuple(timedelta(minutes=m) for m in self.relearning_steps),
            maximum_interval_days=self.maximum_interval_days,
            enable_fuzzing=enable_fuzzing,
        )
        return settings if parameters is None else replace(settings, parameters=parameters)


@dataclass(frozen=True)
class _Spec:
    help: str
    parse: Callable[[str], Any]
    check: Callable[[Any], str | None]


def _number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _steps(text: str) -> tuple[float, ...]:
    """``"1 10"``, ``"1,10"`` or ``"[1, 10]"``: minutes."""
    parts = text.strip().strip("[]").replace(",", " ").split()
    return tuple(_number(p.removesuffix("m")) for p in parts)


def _between(low: float, high: float) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        return None if low <= value <= high else f"must be between {low:g} and {high:g}"

    return check


#: The TUI's two looks; ``RECALL_THEME`` may name any Textual theme, the file only these.
THEMES = ("dark", "light")
#: The orders of :class:`recall.scheduling.new_order.NewOrder` (spelled out: config stays light).
NEW_CARD_ORDERS = ("gathered", "deck", "topic", "sheet", "random")


def _word(text: str) -> str:
    return text.strip().lower()


def _one_of(*choices: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        return None if value in choices else f"must be {' or '.join(choices)}"

    return check


def _positive_steps(value: tuple[float, ...]) -> str | None:
    if any(m <= 0 or m >= 1440 for m in value):
        return "each step must be more than 0 and less than 1440 minutes (a day)"
    return None


SPECS: dict[str, _Spec] = {
    "desired_retention": _Spec(
        "the recall probability FSRS schedules for: higher means more reviews",
        _number,
        _between(0.7, 0.99),
    ),
    "learning_steps": _Spec(
        'minutes between the first reviews of a new card, e.g. "1 10"', _steps, _positive_steps
    ),
    "relearning_steps": _Spec(
        'minutes between reviews of a forgotten card, e.g. "10"', _steps, _positive_steps
    ),
    "new_per_day": _Spec("new cards introduced per study day", int, _between(0, 10_000)),
    "reviews_per_day": _Spec("most reviews per study day", int, _between(0, 100_000)),
    "day_rollover_hour": _Spec(
        "local hour a new study day starts (4 = reviews at 1 am count for the day before)",
        int,
        _between(0, 23),
    ),
    "leech_threshold": _Spec(
        "lapses after which a card is flagged as a leech (0 turns it off)", int, _between(0, 1000)
    ),
    "session_minutes": _Spec("default session length in minutes", _number, _between(1, 600)),
    "maximum_interval_days": _Spec(
        "longest interval FSRS may schedule, in days", int, _between(1, 36500)
    ),
    "new_card_order": _Spec(
        "how new cards are introduced: gathered (across topics and decks in turn), deck, "
        "topic, sheet (as the source sheets are written) or random",
        _word,
        _one_of(*NEW_CARD_ORDERS),
    ),
    "theme": _Spec(
        "the TUI's colours: dark or light (Ctrl-T switches and saves; RECALL_THEME overrides)",
        _word,
        _one_of(*THEMES),
    ),
}


def describe(key: str) -> str:
    """One line of help for a setting (``keys.ACTION`` included)."""
    if key.startswith("keys."):
        return "key binding override for a TUI action"
    if key.startswith(DECK_LIMITS + "."):
        return "new cards this deck may introduce per study day, under new_per_day"
    return SPECS[key].help


def load_settings(path: Path | None = None, *, ignored: list[str] | None = None) -> Settings:
    """The settings in ``path`` (default: the config file), defaults for what is missing.

    Raises :class:`ConfigError` for a file that is not TOML or holds a bad value, naming the
    file and the key. With ``ignored`` (the app's start), a ``[keys]`` entry whose key is
    unusable is instead left out (its action keeps the default key) and described in that list:
    one bad binding never costs the learner the rest of their settings.
    """
    return _load(path, ignored)


def _load(path: Path | None, ignored: list[str] | None) -> Settings:
    path = path or config_file()
    fix = "Fix it or delete it to use defaults."
    try:
        raw = read_bounded(path, CONFIG_LIMITS)
    except FileNotFoundError:
        return Settings()
    except TomlLimitExceeded as error:
        raise ConfigError(f"{path}: {error.message}. {fix}") from None
    except OSError as error:
        raise ConfigError(f"{path}: cannot read the settings file ({error.strerror})") from error
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise ConfigError(f"{path}:{line}: not UTF-8 text. {fix}") from None
    try:
        check_shape(text, CONFIG_LIMITS)
        data = toml_parser.loads(text)
    except TomlLimitExceeded as error:
        raise ConfigError(f"{path}:{error.line}: {error.message}. {fix}") from None
    except (toml_parser.TOMLDecodeError, ValueError) as error:
        raise ConfigError(f"{path}: not valid TOML: {error}. {fix}") from None
    return _from_mapping(data, str(path), text, ignored)


#: What ``config.toml`` may hold: a few hundred bytes in practice (``docs/decks.md``, "Limits").
CONFIG_LIMITS = TomlLimits("a config file", max_bytes=64 << 10, max_depth=4, max_key_parts=4)


def _from_mapping(
    data: dict[str, Any], where: str, text: str = "", ignored: list[str] | None = None
) -> Settings:
    """Settings from parsed TOML; bad bindings go to ``ignored`` when it is given (else raise)."""
    _refuse_controls(data, where, text)
    values: dict[str, Any] = {}
    for key, value in data.items():
        at = _located(where, text, key)
        if key == "keys":
            if not isinstance(value, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in value.items()
            ):
                raise ConfigError(f"{at}: [keys] must map action names to key strings")
            kept = {}
            for action, keys in value.items():
                problem = binding_problem(action, keys)
                if problem is None:
                    kept[action] = keys
                elif ignored is None:
                    raise ConfigError(f"{_located(where, text, action)}: {problem}")
                else:
                    ignored.append(f"{_printable(action)} ({problem})")
            values["keys"] = kept
            continue
        if key == DECK_LIMITS:
            values[key] = _deck_limits(value, at)
            continue
        if key not in SPECS:
            raise ConfigError(f"{at}: unknown setting {_shown(key)}; known: {', '.join(SPECS)}")
        values[key] = _coerce(key, value, at)
    return Settings(**values)


#: The table of per-deck new-card limits (``[deck_new_limits]``, ``deck_new_limits.DECK``).
DECK_LIMITS = "deck_new_limits"
#: Most decks the table may name (a learner has tens; the bound keeps a hostile file small).
MAX_DECK_LIMITS = 1_000


def _deck_limits(value: Any, where: str) -> dict[str, int]:
    """The ``[deck_new_limits]`` table, checked: deck ids to whole numbers of cards."""
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: [{DECK_LIMITS}] must map deck ids to numbers of cards")
    if len(value) > MAX_DECK_LIMITS:
        raise ConfigError(f"{where}: [{DECK_LIMITS}] names more than {MAX_DECK_LIMITS} decks")
    limits = {}
    for deck, limit in value.items():
        problem = deck_id_problem(deck)
        if problem is None:
            problem = _deck_limit_problem(limit)
        if problem:
            raise ConfigError(f"{where}: {DECK_LIMITS}.{_printable(deck)}: {problem}")
        limits[deck] = limit
    return limits


def deck_id_problem(deck: str) -> str | None:
    """Why ``deck`` cannot name a deck in ``[deck_new_limits]`` (``None`` when it can)."""
    from recall.cards.schema import DECK_ID, MAX_ID

    if not DECK_ID.match(deck):
        return f"not a deck id (at most {MAX_ID} lowercase letters, digits, '-' and '_')"
    return None


def _deck_limit_problem(limit: Any) -> str | None:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit <= 10_000:
        return f"{_shown(limit)} must be a whole number of cards between 0 and 10000"
    return None


def _located(where: str, text: str, key: str) -> str:
    """``file:line`` of the line that sets ``key`` (just ``file`` when it cannot be found)."""
    pattern = re.compile(
        rf"^[ \t]*(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')"
        rf"[ \t]*(?:=|\.|$)|^[ \t]*\[[ \t]*{re.escape(key)}[ \t]*\]",
        re.M,
    )
    match = pattern.search(text)
    if match is None:
        return where
    line = text.count("\n", 0, match.start()) + 1
    return f"{where}:{line}"


#: Modifier names Textual understands in a key binding (``ctrl+shift+a``).
_MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})
#: A named key (``f3``, ``pageup``, ``question_mark``).
_KEY_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def binding_problem(action: str, keys: str) -> str | None:
    """Why ``keys`` cannot be the binding of ``action`` (``None`` when it can).

    ``keys`` is one key or several separated by commas, each a named key or one printable
    character, with ``+``-joined modifiers: ``f3``, ``ctrl+s``, ``enter,s``. Control bytes and
    spaces are refused: written to the file they would make it unreadable (and lock the learner
    out of every command), and no key sends them as a name."""
    if not action or len(action) > 64 or not action.isprintable():
        return (
            f"'{_printable(action)}' is not an action id (printable, at most 64 characters, "
            "e.g. drill.hint; `?` in the app lists them)"
        )
    if not keys or len(keys) > 100:
        return f"the binding for {action} must be 1 to 100 characters"
    for key in keys.split(","):
        *modifiers, name = key.strip().split("+") if key.strip() != "+" else ["+"]
        unknown = [m for m in modifiers if m not in _MODIFIERS]
        if unknown or not name:
            return f"'{_printable(key)}' in the binding for {action} is not a key"
        if not (_KEY_NAME.match(name) or (len(name) == 1 and name.isprintable() and name != " ")):
            return (
                f"'{_printable(key)}' in the binding for {action} is not a key "
                "(a name like f3 or enter, or one printable character, with ctrl+, alt+, ...)"
            )
    return None


def unknown_action_problem(action: str, known: Collection[str]) -> str | None:
    """Why ``action`` is not a binding id of the app (``None`` when it is one of ``known``),
    naming the closest ids so a typo is one step from fixed. The ids belong to the TUI, so the
    caller passes them in (this module never imports Textual)."""
    if action in known:
        return None
    import difflib

    close = difflib.get_close_matches(action, sorted(known), n=3, cutoff=0.6)
    if not close:  # ``hint`` for ``drill.hint``: compare with the part after the screen name
        by_name: dict[str, list[str]] = {}
        for known_id in sorted(known):
            by_name.setdefault(known_id.rpartition(".")[2], []).append(known_id)
        names = difflib.get_close_matches(action.rpartition(".")[2], by_name, n=3, cutoff=0.6)
        close = [known_id for name in names for known_id in by_name[name]][:3]
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    return f"'{_printable(action)}' is not an action id{hint} (`?` in the app lists them)"


def _printable(text: str) -> str:
    """``text`` for an error message: inert and at most ~80 characters
    (:func:`recall.inert.quote`)."""
    return quote(text)


def _shown(value: Any) -> str:
    """A value from the file or the command line for an error message (its ``repr``, quoted)."""
    return quote(repr(value))


def _refuse_controls(data: dict[str, Any], where: str, text: str) -> None:
    """Raise :class:`ConfigError` for the first key or string value of the settings that holds
    a control character other than newline and tab (:func:`recall.inert.first_control`), with
    the line and the setting named: TOML allows ``\\u001b`` escapes, so the parsed values are
    checked."""

    def walk(value: Any, top: str, name: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(key, top, name)
                walk(item, top, f"{name}.{key}")
        elif isinstance(value, list):
            for item in value:
                walk(item, top, name)
        elif isinstance(value, str) and (index := first_control(value)) is not None:
            raise ConfigError(
                f"{_located(where, text, top)}: the setting '{quote(name)}' holds "
                f"{describe_char(value[index])}: settings may not hold control characters"
            )

    for key, value in data.items():
        walk(key, key, key)
        walk(value, key, key)


def _coerce(key: str, value: Any, where: str) -> Any:
    spec = SPECS[key]
    default = getattr(Settings(), key)
    try:
        if isinstance(default, tuple):
            if not isinstance(value, list):
                raise ValueError(value)
            parsed: Any = tuple(_number(str(v)) for v in value)
        elif isinstance(default, str):
            if not isinstance(value, str):
                raise ValueError(value)
            parsed = spec.parse(value)
        elif isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(value)
        else:
            parsed = spec.parse(str(value))
    except ValueError:
        raise ConfigError(
            f"{where}: {key} = {_shown(value)} is not a valid value ({spec.help})"
        ) from None
    problem = spec.check(parsed)
    if problem:
        raise ConfigError(f"{where}: {key} = {_shown(value)} {problem}")
    return parsed


def get_value(settings: Settings, key: str) -> Any:
    """A setting by name; ``keys.ACTION`` reads a key binding override."""
    if key.startswith("keys."):
        action = key.removeprefix("keys.")
        if action not in settings.keys:
            raise ConfigError(f"no key binding override for {_shown(action)}")
        return settings.keys[action]
    if key.startswith(DECK_LIMITS + "."):
        deck = key.removeprefix(DECK_LIMITS + ".")
        if deck not in settings.deck_new_limits:
            raise ConfigError(f"no new-card limit of its own for deck {_shown(deck)}")
        return settings.deck_new_limits[deck]
    if key not in SPECS:
        raise ConfigError(f"unknown setting {_shown(key)}; known: {_known()}")
    return getattr(settings, key)


def _known() -> str:
    return f"{', '.join(SPECS)}, keys.ACTION, {DECK_LIMITS}.DECK"


def set_value(
    settings: Settings, key: str, text: str, *, known_actions: Collection[str] | None = None
) -> Settings:
    """``settings`` with ``key`` set from the text a person typed (validated). A key binding
    for an action not in ``known_actions`` (when given) is refused: the app would ignore it."""
    if key.startswith("keys."):
        action = key.removeprefix("keys.")
        if not action or not text.strip():
            raise ConfigError(
                "a key binding needs an action name and a key, e.g. keys.drill.hint f3"
            )
        problem = binding_problem(action, text.strip())
        if problem is None and known_actions is not None:
            problem = unknown_action_problem(action, known_actions)
        if problem:
            raise ConfigError(f"{problem}; nothing was changed")
        return replace(settings, keys={**settings.keys, action: text.strip()})
    if key.startswith(DECK_LIMITS + "."):
        return _set_deck_limit(settings, key.removeprefix(DECK_LIMITS + "."), text)
    if key not in SPECS:
        raise ConfigError(f"unknown setting {_shown(key)}; known: {_known()}")
    spec = SPECS[key]
    try:
        value = spec.parse(text)
    except ValueError:
        raise ConfigError(f"{key}: {_shown(text)} is not a valid value ({spec.help})") from None
    problem = spec.check(value)
    if problem:
        raise ConfigError(f"{key}: {_shown(text)} {problem}")
    return replace(settings, **{key: value})


def _set_deck_limit(settings: Settings, deck: str, text: str) -> Settings:
    problem = deck_id_problem(deck)
    try:
        limit: Any = int(text.strip())
    except ValueError:
        limit = text.strip()
    if problem is None:
        problem = _deck_limit_problem(limit)
    if problem is None and len(settings.deck_new_limits) >= MAX_DECK_LIMITS:
        problem = f"[{DECK_LIMITS}] already names {MAX_DECK_LIMITS} decks"
    if problem:
        raise ConfigError(f"{DECK_LIMITS}.{_printable(deck)}: {problem}; nothing was changed")
    return replace(settings, deck_new_limits={**settings.deck_new_limits, deck: limit})


def reset_value(settings: Settings, key: str) -> Settings:
    """``settings`` with ``key`` back to its default (a key binding override or a deck's own
    new-card limit removed)."""
    if key.startswith("keys."):
        return replace(settings, keys={k: v for k, v in settings.keys.items() if k != key[5:]})
    if key.startswith(DECK_LIMITS + "."):
        deck = key.removeprefix(DECK_LIMITS + ".")
        limits = {d: n for d, n in settings.deck_new_limits.items() if d != deck}
        return replace(settings, deck_new_limits=limits)
    get_value(settings, key)  # validates the name
    return replace(settings, **{key: getattr(Settings(), key)})


def dumps(settings: Settings) -> str:
    """TOML text for the settings that differ from the defaults (a short, readable file)."""
    defaults = Settings()
    lines = ["# recall settings: `recall config` lists them all with their meaning.", ""]
    for f in fields(Settings):
        if f.name in ("keys", DECK_LIMITS):
            continue
        value = getattr(settings, f.name)
        if value != getattr(defaults, f.name):
            lines.append(f"{f.name} = {_toml_value(value)}")
    if settings.keys:
        if lines[-1]:
            lines.append("")
        lines.append("[keys]")
        lines += [
            f"{toml_key(k)} = {toml_string(v, multiline=False)}"
            for k, v in sorted(settings.keys.items())
        ]
    if settings.deck_new_limits:
        if lines[-1]:
            lines.append("")
        lines.append(f"[{DECK_LIMITS}]")
        lines += [f"{toml_key(k)} = {v}" for k, v in sorted(settings.deck_new_limits.items())]
    return "\n".join(lines) + "\n"


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write ``settings`` atomically (temp file + rename): a crash never leaves half a file.

    An existing file is edited, not replaced (:func:`merged`): the learner's comments and layout
    stay. Raises :class:`ConfigError` when the file cannot be written (full disk, no
    permission)."""
    path = path or config_file()
    try:
        previous = _previous_text(path)
        text = dumps(settings) if previous is None else merged(previous, settings)
        make_private_dirs(path.parent)
        write_atomically(path, text)
    except OSError as error:
        reason = error.strerror or str(error)
        raise ConfigError(
            f"{path}: cannot write the settings file ({reason}); nothing was changed"
        ) from error
    return path


def _previous_text(path: Path) -> str | None:
    """The file as it is now, or ``None`` when there is nothing worth keeping (no file, an empty
    one, or one that is not readable TOML within the limits: it is then written afresh)."""
    try:
        raw = read_bounded(path, CONFIG_LIMITS)
        text = raw.decode("utf-8")
        check_shape(text, CONFIG_LIMITS)
        toml_parser.loads(text)
    except FileNotFoundError:
        return None
    except (TomlLimitExceeded, UnicodeDecodeError, toml_parser.TOMLDecodeError, ValueError):
        return None
    return text if text.strip() else None


def merged(previous: str, settings: Settings) -> str:
    """``previous`` (the TOML text of a settings file) edited to hold ``settings``.

    A key whose value in the file already equals the setting is left exactly as written (even
    a default the learner spelled out); a key back to its default is removed; any other is set
    in place, keeping the comment beside it; a new key is added. The ``[keys]`` and
    ``[deck_new_limits]`` tables are edited entry by entry the same way."""
    import tomlkit

    document = tomlkit.parse(previous)
    defaults = Settings()
    for f in fields(Settings):
        if f.name in ("keys", DECK_LIMITS):
            continue
        value = getattr(settings, f.name)
        if f.name in document and _same(f.name, document[f.name], value):
            continue
        if value == getattr(defaults, f.name):
            document.pop(f.name, None)
        else:
            document[f.name] = list(value) if isinstance(value, tuple) else value
    _merge_table(document, "keys", settings.keys)
    _merge_table(document, DECK_LIMITS, settings.deck_new_limits)
    return tomlkit.dumps(document)


def _same(key: str, written: Any, value: Any) -> bool:
    """Whether the file's ``written`` value already means ``value`` (``0.9`` and ``90e-2``
    alike); a value the setting would refuse is never the same."""
    try:
        return bool(_coerce(key, _plain(written), key) == value)
    except ConfigError:
        return False


def _plain(item: Any) -> Any:
    """A tomlkit item as the plain Python value ``tomllib`` would have read."""
    unwrap = getattr(item, "unwrap", None)
    return unwrap() if callable(unwrap) else item


def _merge_table(document: Any, name: str, wanted: dict[str, Any]) -> None:
    """Make the table ``name`` of ``document`` hold exactly ``wanted``, entry by entry."""
    import tomlkit

    if name not in document:
        if wanted:
            table = tomlkit.table()
            for key, value in sorted(wanted.items()):
                table[key] = value
            document[name] = table
        return
    table = document[name]
    if not hasattr(table, "keys"):  # not a table: the loader refused it; write it afresh
        document[name] = dict(sorted(wanted.items()))
        return
    for key in [k for k in table.keys() if k not in wanted]:
        del table[key]
    for key, value in sorted(wanted.items()):
        if key not in table or _plain(table[key]) != value:
            table[key] = value
    if not wanted:
        del document[name]


def _toml_value(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, float):
        return repr(int(value)) + ".0" if value.is_integer() else repr(value)
    if isinstance(value, int):
        return str(value)
    return toml_string(str(value), multiline=False)
