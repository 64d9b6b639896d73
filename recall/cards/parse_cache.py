"""A cache of parsed, validated decks in the data directory, keyed by file content.

Reading the built-in decks (TOML, structure, positions) costs a few hundred milliseconds at
every start, and a custom deck's formula checks cost seconds; the files rarely change. So each
deck that loads cleanly is written here as JSON, under a key made of

* the SHA-256 of the file's bytes (an edit, however small, is a new key; a copy elsewhere with
  the same bytes is the same deck),
* recall's version and a digest of the code that decides what a file parses to (the deck
  package, and with a check such as :func:`recall.grading.check_deck`, the formula engine and
  grading), so a newer recall, or an edited validator in a checkout, never trusts what an older
  one accepted,
* the load flags: built-in or not, and which check ran (by its module and name). Only checks
  that are module-level functions are cached: a lambda or a closure has no name that says what
  it checks, so its results are never reused.

An entry is one line of JSON naming its key and the SHA-256 of the rest, then the deck as JSON
(read once: the deck is not a string inside the entry's JSON). What most cards of a deck share
(the deck's symbols, which reach every card, its id and topic) is written once, as the cards'
``shared`` values, and left out of each card that has them.

Nothing read back is trusted blindly: the entry must name the key it was looked up by, its
payload must match the digest stored with it, and every field is rebuilt with its declared type
(no ``pickle``: a tampered entry can only fail to load). Any problem, a missing, corrupt, stale
or unreadable entry, or a folder that cannot be written, simply means the file is parsed again.
A deck is only written when it reads back equal to what was parsed (cards' content hashes
included), so a model the codec does not know is never cached wrongly. Failed files are never
cached here; their errors are kept under the same key by :mod:`recall.cards.failure_cache`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import threading
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import MISSING, fields, is_dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any, Final

from recall.cards.model import Card, Deck, FunctionSpec, SymbolSpec
from recall.paths import make_private_dirs, write_atomically
from recall.regular_files import read_regular

#: A deck check as :func:`recall.cards.loader.read_deck` takes it.
Check = Callable[..., None]

#: Bumped when the layout of an entry changes (2: a header line, then the deck's JSON, with
#: the values its cards share written once).
FORMAT: Final = 2
#: Entries kept; the least recently used beyond this are removed when one is written.
MAX_ENTRIES: Final = 256
#: Largest entry read back (bytes); a deck file is far smaller (see the loader's limits).
MAX_ENTRY_BYTES: Final = 32 * 1024 * 1024
#: Setting this environment variable to ``1`` turns the cache off (a first-start benchmark), and
#: with it the cache of rendered formulas (:mod:`recall.tui.shown_cache`).
DISABLE_VARIABLE: Final = "RECALL_NO_DECK_CACHE"

_PACKAGE = Path(__file__).resolve().parent.parent


class _Invalid(Exception):
    """An entry that does not decode to what its fields declare."""


def cache_dir() -> Path:
    """Where entries live: ``cache/decks`` in the data directory."""
    from recall.paths import data_dir

    return data_dir() / "cache" / "decks"


def load(raw: bytes, path: str, *, builtin: bool, check: Check | None) -> Deck | None:
    """The deck cached for a file with these bytes, read with ``check``, given ``path`` (where
    it is now), or ``None`` when there is no trustworthy entry."""
    key = entry_key(raw, builtin=builtin, check=check)
    if key is None:
        return None
    file = cache_dir() / f"{key}.json"
    try:
        entry = read_regular(file, MAX_ENTRY_BYTES)  # a FIFO here is refused, never waited on
        if len(entry) > MAX_ENTRY_BYTES:
            return None
        header, payload = split_entry(entry)
        if header.get("key") != key or _digest(payload) != header.get("digest"):
            return None
        deck = _decode_deck(json.loads(payload), path)
    except (OSError, ValueError, TypeError, KeyError, RecursionError, _Invalid):
        return None
    with contextlib.suppress(OSError):  # a read-only data directory still serves its entries
        os.utime(file)  # recently used: kept when older entries are pruned
    return deck


def store(raw: bytes, deck: Deck, *, builtin: bool, check: Check | None) -> bool:
    """Cache ``deck`` as what a file with these bytes parses to with ``check``; ``False`` when
    it was not written (the cache is off, the check cannot be named, the folder cannot be
    written, or the deck does not read back equal to itself). Inside
    :func:`writes_deferred` (in this thread) it is only queued, and ``True`` is returned."""
    later = getattr(_deferring, "into", None)
    if later is not None:
        later.add(raw, deck, builtin=builtin, check=check)
        return True
    key = entry_key(raw, builtin=builtin, check=check)
    if key is None:
        return False
    try:
        payload = json.dumps(_encode_deck(deck), ensure_ascii=False, sort_keys=True)
        again = _decode_deck(json.loads(payload), deck.path)
    except (TypeError, ValueError, RecursionError, _Invalid):
        return False
    if again != deck or any(
        a.content_hash() != b.content_hash() for a, b in zip(again.cards, deck.cards, strict=True)
    ):
        return False
    folder = cache_dir()
    try:
        make_private_dirs(folder)
        write_atomically(folder / f"{key}.json", join_entry(key, payload), durable=False)
    except OSError:
        return False
    prune(folder)
    return True


class PendingWrites:
    """Entries parsed inside :func:`writes_deferred`, written by :meth:`write` when the caller
    has the time (the TUI: once the home screen shows its counts, and at the latest when it
    closes). Writing one costs more than reading it back (the entry is encoded, decoded and
    compared before it is trusted): on a first start that is 0.15 s of the 17 built-in decks,
    kept off the path to the first screen. Thread-safe: a load worker adds, another writes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        #: Held while entries are written: a second :meth:`write` (the app closing while a
        #: worker writes) waits for them, so the process never ends with them half done.
        self._writing = threading.Lock()
        self._entries: list[tuple[bytes, Deck, bool, Check | None]] = []

    def add(self, raw: bytes, deck: Deck, *, builtin: bool, check: Check | None) -> None:
        with self._lock:
            self._entries.append((raw, deck, builtin, check))

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def write(self) -> int:
        """Write every queued entry (each exactly as :func:`store` would); how many were.
        Returns once the entries another thread's call took are written too."""
        with self._writing:
            with self._lock:
                entries, self._entries = self._entries, []
            return sum(
                store(raw, deck, builtin=builtin, check=check)
                for raw, deck, builtin, check in entries
            )


_deferring = threading.local()


@contextlib.contextmanager
def writes_deferred(into: PendingWrites) -> Iterator[PendingWrites]:
    """Inside this block, in this thread, :func:`store` queues entries on ``into`` instead of
    writing them (what is read is unchanged: only the writing waits)."""
    outer = getattr(_deferring, "into", None)
    _deferring.into = into
    try:
        yield into
    finally:
        _deferring.into = outer


def entry_key(raw: bytes, *, builtin: bool, check: Check | None) -> str | None:
    """The key of a file's entry (its bytes, this recall's code, the load flags), or ``None``
    when it is not to be cached (the cache is off, or ``check`` has no stable name)."""
    if _disabled():
        return None
    check_name = "" if check is None else _check_name(check)
    if check_name is None:
        return None
    digest = hashlib.sha256()
    digest.update(_code_fingerprint(check is not None).encode())
    digest.update(f"builtin={builtin} check={check_name}\0".encode())
    digest.update(raw)
    return digest.hexdigest()


def _check_name(check: Check) -> str | None:
    """``module.function`` of a module-level function, else ``None``."""
    module = getattr(check, "__module__", None)
    qualname = getattr(check, "__qualname__", None)
    if not module or not qualname or "<" in qualname or module not in sys.modules:
        return None
    found: Any = sys.modules[module]
    for part in qualname.split("."):
        found = getattr(found, part, None)
    return f"{module}.{qualname}" if found is check else None


@cache
def _code_fingerprint(checked: bool) -> str:
    """recall's version and a digest of the sources that decide what a deck file parses to
    (read once per process)."""
    return sources_fingerprint(("cards", "formula", "grading") if checked else ("cards",))


@cache
def sources_fingerprint(names: tuple[str, ...]) -> str:
    """A digest of recall's version, this cache format and the sources under ``names`` (folders
    or files of the package, e.g. ``"formula"`` or ``"tui/presenting.py"``), read once per
    process: an entry made by other code is never trusted (the start-up caches key on it)."""
    from recall import __version__

    digest = hashlib.sha256(f"recall {__version__} format {FORMAT}".encode())
    sources: list[Path] = []
    for name in names:
        found = _PACKAGE / name
        if found.is_dir():
            sources += sorted(found.rglob("*.py"))
        elif found.is_file():
            sources.append(found)
    for source in sources:
        digest.update(str(source.relative_to(_PACKAGE)).encode())
        try:
            digest.update(source.read_bytes())
        except OSError:
            digest.update(b"unreadable")
    return digest.hexdigest()


def disabled() -> bool:
    """Whether the start-up caches are off (:data:`DISABLE_VARIABLE` set to ``1``)."""
    return _disabled()


def _disabled() -> bool:
    return os.environ.get(DISABLE_VARIABLE, "") == "1"


def _digest(payload: bytes) -> str:
    return hashlib.sha256(payload).hexdigest()


def join_entry(key: str, payload: str) -> str:
    """An entry's text: the header line (its key and the digest of the payload's UTF-8), then
    the payload (JSON: it holds no line break)."""
    header = json.dumps({"key": key, "digest": _digest(payload.encode("utf-8"))})
    return header + "\n" + payload


def split_entry(entry: bytes) -> tuple[dict[str, Any], bytes]:
    """An entry's header (a JSON object) and its payload; ``ValueError`` when it has no header."""
    head, newline, payload = entry.partition(b"\n")
    header = json.loads(head)
    if not newline or not isinstance(header, dict):
        raise ValueError("not an entry")
    return header, payload


def prune(folder: Path, keep: int | None = None) -> None:
    """Remove a cache folder's least recently used entries beyond ``keep`` (default
    :data:`MAX_ENTRIES`; this cache's and :mod:`recall.cards.failure_cache`'s: a cache never
    grows without bound)."""
    keep = MAX_ENTRIES if keep is None else keep
    try:
        entries = [(p.stat().st_mtime, p) for p in folder.glob("*.json")]
        if len(entries) <= keep:
            return
        entries.sort()
        for _mtime, stale in entries[: len(entries) - keep]:
            stale.unlink(missing_ok=True)
    except OSError:
        return


# --------------------------------------------------------------------------- the codec

#: Card fields whose value most cards of a deck share, written once per deck (``shared``).
_SHARED_FIELDS: Final = ("deck_id", "topic", "symbols", "functions")


def _encode_deck(deck: Deck) -> dict[str, Any]:
    """:func:`_encode` of a deck, with each of :data:`_SHARED_FIELDS` that several cards have
    alike written once under ``shared`` and left out of those cards; a card whose value differs
    keeps its own, written even when it is the field's default (``shared`` would fill it in)."""
    data = _encode(deck, {})
    cards = data.get("cards", [])
    shared: dict[str, Any] = {}
    for name in _SHARED_FIELDS:
        counts: dict[Any, list[Any]] = {}  # a key for each value: [how many, the value]
        for card in cards:
            if name in card:
                seen = counts.setdefault(_value_key(card[name]), [0, card[name]])
                seen[0] += 1
        if not counts:
            continue
        count, value = max(counts.values(), key=lambda seen: seen[0])
        if count < 2:
            continue
        for card in cards:
            if name not in card:  # left out at its default: written, or shared would fill it
                card[name] = _encode(dict(_layout(Card))[name])
            elif card[name] == value:
                del card[name]
        shared[name] = value
    if shared:
        data["shared"] = shared
    return data


def _value_key(value: Any) -> Any:
    """A key under which equal encoded values of a card field meet: the text itself, or for a
    list of the objects :func:`_encode` made once per distinct symbol (equal symbols, one
    object), their identities; anything else as JSON text. Equal values under different keys
    would only make the entry longer: :func:`_encode_deck` compares values, not keys."""
    if type(value) is str:
        return value
    if type(value) is list and all(type(item) is dict for item in value):
        return tuple(map(id, value))
    return json.dumps(value, sort_keys=True)


def _with_shared(data: Any) -> Any:
    """A deck's JSON with its cards' ``shared`` values put back into each card that lacks them
    (the same list object for every card: the symbols decoder then shares one tuple)."""
    if type(data) is not dict or "shared" not in data:
        return data
    data = dict(data)
    shared = data.pop("shared")
    cards = data.get("cards")
    if type(shared) is not dict or type(cards) is not list:
        raise _Invalid("bad shared values")
    if any(name not in _SHARED_FIELDS for name in shared):
        raise _Invalid("unknown shared field")
    filled = []
    for card in cards:
        if type(card) is not dict:
            raise _Invalid("expected a card")
        filled.append({**shared, **card})
    data["cards"] = filled
    return data


def _encode(value: Any, memo: dict[Any, Any] | None = None) -> Any:
    """Plain JSON values for a deck: dataclasses as objects of the fields that differ from
    their defaults, enums by value, tuples as lists. The deck's and cards' paths are left out
    (an entry is about content, not place), and so is the deck's digest (its key).

    With ``memo``, each symbol or function spec is encoded once (a deck's symbols reach every
    card: the same ten objects on 2,000 cards), looked up by the object's identity, then by
    value (cards that declare equal symbols of their own), and the one encoding is shared by
    the cards' lists (read-only: the encoded deck is only dumped)."""
    kind: Any = type(value)
    if kind is str or value is None or kind is bool or kind is int or kind is float:
        return value  # most values of a deck: no other test needed
    if kind is tuple or kind is list:
        return [_encode(v, memo) for v in value]
    if memo is not None and (kind is SymbolSpec or kind is FunctionSpec):
        known = memo.get(id(value))
        if known is None:  # the spec is kept with its encoding: its id stays its own
            encoded = memo.get(value)
            if encoded is None:
                encoded = memo[value] = _encode(value)
            known = memo[id(value)] = (value, encoded)
        return known[1]
    if is_dataclass(value) and not isinstance(value, type):
        out = {}
        for name, default in _layout(kind):
            item = getattr(value, name)
            if default is not MISSING and _same(item, default):
                continue
            out[name] = item if type(item) is str else _encode(item, memo)
        return out
    if isinstance(value, Enum):
        return _encode(value.value)
    if isinstance(value, (tuple, list)):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise TypeError("only string keys can be cached")
        return {k: _encode(v) for k, v in value.items()}
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    raise TypeError(f"cannot cache a {type(value).__name__}")


@cache
def _layout(kind: Any) -> tuple[tuple[str, Any], ...]:
    """The fields :func:`_encode` writes for a dataclass, each with the default it is left out
    at (a factory's value made once; ``MISSING`` when there is none): read once per type, not
    once per card (``dataclasses.fields`` cost a tenth of a first start)."""
    out = []
    for f in fields(kind):
        if f.name == "path" and kind in (Card, Deck) or f.name == "digest" and kind is Deck:
            continue
        default = f.default_factory() if f.default_factory is not MISSING else f.default
        out.append((f.name, default))
    return tuple(out)


def _same(value: Any, default: Any) -> bool:
    """Equal and of the same type (``1`` is not ``1.0`` here: cards repr some numbers)."""
    return type(value) is type(default) and value == default


def _decode_deck(data: Any, path: str) -> Deck:
    deck = _decoder(Deck)(_with_shared(data), path)
    if not isinstance(deck, Deck):
        raise _Invalid("not a deck")
    return deck


Decoder = Callable[[Any, str], Any]


@cache
def _decoder(kind: Any) -> Decoder:
    """A function rebuilding JSON data as a value of type ``kind`` (given the deck's path),
    raising :class:`_Invalid` when it is not one; made once per type, so decoding a deck is a
    walk over its data, not over type annotations."""
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if kind is Any:
        return lambda data, path: data
    if origin in (typing.Union, types.UnionType):
        return _union([_decoder(option) for option in args])
    if kind is type(None):
        return _null
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            if args[0] in (SymbolSpec, FunctionSpec):
                return _shared_sequence(_sequence(_decoder(args[0])))
            return _sequence(_decoder(args[0]))
        return _fixed_tuple([_decoder(a) for a in args])
    if origin is dict:
        return _mapping(_decoder(args[0]), _decoder(args[1]))
    if isinstance(kind, type) and is_dataclass(kind):
        return _dataclass(kind)
    if isinstance(kind, type) and issubclass(kind, Enum):
        return _enum(kind)
    if kind is float:
        return _number
    if kind in (bool, int, str):
        return _exact(kind)
    raise _Invalid(f"cannot decode a {kind!r}")


def _union(options: list[Decoder]) -> Decoder:
    def decode(data: Any, path: str) -> Any:
        for option in options:
            try:
                return option(data, path)
            except _Invalid:
                continue
        raise _Invalid(f"{data!r} fits no declared type")

    return decode


def _null(data: Any, path: str) -> None:
    if data is not None:
        raise _Invalid("expected null")


def _sequence(item: Decoder) -> Decoder:
    def decode(data: Any, path: str) -> tuple[Any, ...]:
        if type(data) is not list:
            raise _Invalid("expected a list")
        return tuple(item(value, path) for value in data)

    return decode


def _shared_sequence(decode: Decoder) -> Decoder:
    """``decode``, returning the tuple it made last when handed equal data again: a deck's
    symbols reach every card, so the cards of a deck read the same list over and over (ten
    symbols on each of 2,000 cards were four fifths of decoding a deck). Only for symbols and
    functions: frozen, of strings and booleans only (``==`` would take ``1.0`` for ``1``, which
    a card's numbers keep apart), and the same wherever the deck is, so sharing one tuple among
    cards changes nothing. The last pair is one tuple, replaced whole, so another thread
    decoding at once can never pair one list with another's tuple."""
    last: list[tuple[Any, Any]] = [(None, None)]

    def decode_shared(data: Any, path: str) -> Any:
        seen, made = last[0]
        if made is not None and type(data) is list and data == seen:
            return made
        made = decode(data, path)
        last[0] = (data, made)
        return made

    return decode_shared


def _fixed_tuple(items: list[Decoder]) -> Decoder:
    def decode(data: Any, path: str) -> tuple[Any, ...]:
        if type(data) is not list or len(data) != len(items):
            raise _Invalid("expected a list of fixed length")
        return tuple(item(value, path) for item, value in zip(items, data, strict=True))

    return decode


def _mapping(key: Decoder, value: Decoder) -> Decoder:
    def decode(data: Any, path: str) -> dict[Any, Any]:
        if type(data) is not dict:
            raise _Invalid("expected an object")
        return {key(k, path): value(v, path) for k, v in data.items()}

    return decode


def _enum(kind: type[Enum]) -> Decoder:
    def decode(data: Any, path: str) -> Enum:
        try:
            return kind(data)
        except ValueError:
            raise _Invalid(f"{data!r} is not a {kind.__name__}") from None

    return decode


def _number(data: Any, path: str) -> Any:
    # An int stays an int: cards repr some numbers, and 1 and 1.0 read differently.
    if type(data) not in (int, float):
        raise _Invalid("expected a number")
    return data


def _exact(kind: type) -> Decoder:
    def decode(data: Any, path: str) -> Any:
        if type(data) is not kind:
            raise _Invalid(f"expected {kind.__name__}")
        return data

    return decode


def _dataclass(kind: type) -> Decoder:
    hints = typing.get_type_hints(kind)
    decoders = {f.name: _decoder(hints[f.name]) for f in fields(kind) if f.init}
    # Fields of one exact type (text, a flag, a whole number) are checked here, not through a
    # decoder call each: most of a card's values are text.
    exact = {
        name: hint for name, hint in hints.items() if name in decoders and hint in (str, bool, int)
    }
    located = kind in (Card, Deck)
    build = _builder(kind)

    def decode(data: Any, path: str) -> Any:
        if type(data) is not dict:
            raise _Invalid(f"expected a {kind.__name__}")
        values = {}
        for name, value in data.items():
            expected = exact.get(name)
            if expected is not None:
                if type(value) is not expected:
                    raise _Invalid(f"{kind.__name__}.{name} is not {expected.__name__}")
                values[name] = value
                continue
            decoder = decoders.get(name)
            if decoder is None:
                raise _Invalid(f"unknown field {name!r} in a {kind.__name__}")
            values[name] = decoder(value, path)
        if located:
            values["path"] = path
        return build(values)

    return decode


def _builder(kind: type) -> Callable[[dict[str, Any]], Any]:
    """Make a ``kind`` from field values already decoded to their declared types.

    The deck model's dataclasses are frozen, and a frozen dataclass's ``__init__`` sets each of
    its fields through ``object.__setattr__`` (thirty for a card: a third of decoding a deck).
    When ``kind`` does nothing else in ``__init__`` (no ``__post_init__``, no slots, no
    init-only or excluded fields), its instance's ``__dict__`` is filled at once with the
    defaults, fresh values of the default factories, then the values: the object
    ``kind(**values)`` makes. Anything else, and any missing or unknown field, goes through
    ``kind(**values)`` and its ``TypeError``."""
    every = fields(kind)
    plain = (
        not hasattr(kind, "__post_init__")
        and "__slots__" not in vars(kind)
        and all(f.init for f in every)
        and len(every) == len(typing.get_type_hints(kind))
    )

    def slow(values: dict[str, Any]) -> Any:
        try:
            return kind(**values)
        except TypeError as error:
            raise _Invalid(str(error)) from None

    if not plain:
        return slow
    defaults = {f.name: f.default for f in every if f.default is not MISSING}
    factories = [(f.name, f.default_factory) for f in every if f.default_factory is not MISSING]
    required = frozenset(f.name for f in every) - defaults.keys() - {n for n, _ in factories}
    known = frozenset(f.name for f in every)
    new = object.__new__

    def fast(values: dict[str, Any]) -> Any:
        if not required <= values.keys() or not values.keys() <= known:
            return slow(values)  # its TypeError names what is missing or unknown
        made: Any = new(kind)
        attributes = made.__dict__
        attributes.update(defaults)
        for name, factory in factories:
            if name not in values:
                attributes[name] = factory()
        attributes.update(values)
        return made

    return fast
