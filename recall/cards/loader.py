"""Reading deck files: one file → a validated :class:`Deck`, many folders → a :class:`LoadResult`.

A deck file is read with :mod:`recall.toml_parser` (``tomli``, else stdlib ``tomllib``) and checked
for structure (:mod:`recall.cards.build`); a caller that wants more passes a ``check`` callable that
adds its problems to the same list (the formula-engine checks are :func:`recall.grading.check_deck`:
this package never imports the engine). Every problem of a file is collected; a file with any
problem is a *failure*, reported with all of its errors and skipped, and never stops the other decks
from loading: whatever goes wrong while one file is read (a limit, a ``RecursionError``, a
``MemoryError``, a bug) is that file's error.

Files are bounded before ``tomllib`` sees them (:data:`DECK_LIMITS`, :mod:`recall.toml_limits`):
a hostile file costs milliseconds, not minutes and gigabytes.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Final

from recall import toml_parser
from recall.cards import failure_cache, parse_cache
from recall.cards.model import Card, Deck
from recall.errors import DeckError
from recall.inert import quote
from recall.toml_limits import TomlLimitExceeded, TomlLimits, check_shape, read_bounded

if TYPE_CHECKING:
    # Imported where a file is really parsed: a start whose decks all come from the parse cache
    # never loads the builder, the position scanner or the sibling finder (a tenth of a second
    # of compiling when bytecode is not kept).
    from recall.cards.build import BuiltDeck
    from recall.cards.problems import Problems

_TOML_LINE = re.compile(r"at line (\d+)(?:, column (\d+))?")

#: A check run after the structural one, adding its findings to the file's problems (e.g.
#: :func:`recall.grading.check_deck`, which asks the formula engine).
DeckCheck = Callable[["BuiltDeck", "Problems"], None]

#: Results of :func:`read_deck` by (path, size, mtime, builtin, check): decks are immutable, and
#: the TUI, the store sync and the CLI all load the same files, so each is validated once per
#: process until it changes on disk.
_CACHE: dict[
    tuple[str, int, int, bool, DeckCheck | None], tuple[Deck | None, tuple[DeckError, ...]]
] = {}
_CACHE_SIZE = 256

#: Decks :func:`check_deck_text` accepted in this process, by (SHA-256 of the text's bytes,
#: path, builtin, check): the file written with exactly those bytes, read back at that path
#: with that check, is that deck, so loading it takes the deck rather than checking the same
#: bytes again. Taken once (an import checks a deck, writes it, loads it), kept few. This is
#: what makes a deck an import writes checked once when the parse cache on disk is off
#: (``RECALL_NO_DECK_CACHE=1``): nothing is weakened, since the key is the bytes read from
#: the file, the check is the same code in the same process, and any other bytes (an edit
#: between writing and loading) miss and are checked as usual.
_CHECKED: dict[tuple[bytes, str, bool, DeckCheck | None], Deck] = {}
_CHECKED_SIZE = 32

#: What one deck file may hold (``docs/decks.md``, "Limits"); the built-in decks use a few
#: percent of each. Cards per deck: :data:`recall.cards.schema.MAX_CARDS`.
DECK_LIMITS = TomlLimits("a deck file", max_bytes=1 << 20, max_depth=16, max_key_parts=8)


@dataclass(frozen=True)
class DeckFailure:
    """A deck file that did not load, with every error found in it."""

    path: str
    errors: tuple[DeckError, ...]

    def __str__(self) -> str:
        return "\n".join(str(error) for error in self.errors)


@dataclass(frozen=True)
class LoadResult:
    """The decks that loaded, in load order, and the files that failed; with ``defer``
    (:func:`load_decks`), the files left unread because they were never checked before
    (``pending``: neither loaded nor failed yet)."""

    decks: tuple[Deck, ...]
    failures: tuple[DeckFailure, ...]
    pending: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True when no deck file failed."""
        return not self.failures

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of every loaded deck."""
        return tuple(card for deck in self.decks for card in deck.cards)

    def deck(self, deck_id: str) -> Deck:
        """The loaded deck with this id (``KeyError`` if there is none)."""
        for deck in self.decks:
            if deck.id == deck_id:
                return deck
        raise KeyError(deck_id)

    @property
    def errors(self) -> tuple[DeckError, ...]:
        """Every error of every failed file."""
        return tuple(error for failure in self.failures for error in failure.errors)


class _Unchecked:
    """What :func:`_read_deck` gives back with ``known_only`` for bytes no cache knows."""


#: The file would have to be parsed and checked afresh (``known_only``).
UNCHECKED: Final = _Unchecked()


def read_deck(
    path: str | os.PathLike[str], *, builtin: bool = False, check: DeckCheck | None = None
) -> tuple[Deck | None, list[DeckError]]:
    """Read and validate one deck file: ``(deck, [])`` or ``(None, errors)``.

    Structure only, unless ``check`` is given (run on a structurally built deck; pass
    :func:`recall.grading.check_deck` for the formula-engine checks). Results are cached per
    process until the file's size or modification time changes.
    """
    found = _read_deck_cached(path, builtin=builtin, check=check, known_only=False)
    assert not isinstance(found, _Unchecked)  # only with known_only
    return found


def read_known_deck(
    path: str | os.PathLike[str], *, builtin: bool = False, check: DeckCheck | None = None
) -> tuple[Deck | None, list[DeckError]] | _Unchecked:
    """:func:`read_deck`, when its answer is known without parsing and checking the file: this
    process read these bytes before, or the parsed-deck cache or the failure cache holds them
    (read with the same ``check``), or the file cannot be read at all. Else
    :data:`UNCHECKED`, and nothing is parsed: the caller reads it with :func:`read_deck` when
    it has the time (a first start checks new custom decks after its first screen)."""
    return _read_deck_cached(path, builtin=builtin, check=check, known_only=True)


def _read_deck_cached(
    path: str | os.PathLike[str], *, builtin: bool, check: DeckCheck | None, known_only: bool
) -> tuple[Deck | None, list[DeckError]] | _Unchecked:
    shown = str(path)
    try:
        stat = os.stat(path)
    except OSError:
        key = None
    else:
        key = (shown, stat.st_size, stat.st_mtime_ns, builtin, check)
        cached = _CACHE.get(key)
        if cached is not None:
            return cached[0], list(cached[1])
    try:
        found = _read_deck(path, shown, builtin=builtin, check=check, known_only=known_only)
    except Exception as error:  # one file's failure, whatever it is, never stops the others
        found = None, [_unexpected(error, shown)]
    if isinstance(found, _Unchecked):
        return found
    deck, errors = found
    if key is not None:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = (deck, tuple(errors))
    return deck, errors


def _read_deck(
    path: str | os.PathLike[str],
    shown: str,
    *,
    builtin: bool,
    check: DeckCheck | None,
    known_only: bool = False,
) -> tuple[Deck | None, list[DeckError]] | _Unchecked:
    try:
        raw = read_bounded(path, DECK_LIMITS)
    except TomlLimitExceeded as error:
        return None, [DeckError(error.message, path=shown, suggestion="split it into decks")]
    except OSError as error:
        return None, [DeckError(f"cannot read the file: {error.strerror or error}", path=shown)]
    return _deck_from_raw(raw, shown, builtin=builtin, check=check, known_only=known_only)


def check_deck_text(
    text: str, path: str | os.PathLike[str], *, check: DeckCheck | None = None
) -> tuple[Deck | None, list[DeckError]]:
    """Validate deck-file ``text`` that would be written to ``path``, before anything is
    written (an import checks what it made): ``(deck, [])`` or ``(None, errors)``, the errors
    naming ``path``. The size limit applies as it would to the file."""
    raw = text.encode("utf-8")
    shown = str(path)
    if len(raw) > DECK_LIMITS.max_bytes:
        message = (
            f"the deck would be {len(raw) / (1 << 20):.1f} MiB, over the "
            f"{DECK_LIMITS.max_bytes >> 20} MiB limit for {DECK_LIMITS.what}"
        )
        return None, [DeckError(message, path=shown, suggestion="split it into decks")]
    try:
        found = _deck_from_raw(raw, shown, builtin=False, check=check)
    except Exception as error:  # as read_deck: whatever goes wrong is this text's error
        return None, [_unexpected(error, shown)]
    assert not isinstance(found, _Unchecked)  # only with known_only
    deck, errors = found
    if deck is not None:
        if len(_CHECKED) >= _CHECKED_SIZE:
            _CHECKED.pop(next(iter(_CHECKED)))
        _CHECKED[(hashlib.sha256(raw).digest(), shown, False, check)] = deck
    return deck, errors


def _deck_from_raw(
    raw: bytes, shown: str, *, builtin: bool, check: DeckCheck | None, known_only: bool = False
) -> tuple[Deck | None, list[DeckError]] | _Unchecked:
    """A deck file's bytes (within the size limit) → a validated deck, or its errors
    (:data:`UNCHECKED` with ``known_only`` when no cache holds them)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        return None, [
            DeckError(
                "the file is not UTF-8 text", path=shown, line=line, suggestion="save it as UTF-8"
            )
        ]
    if _CHECKED:
        checked = _CHECKED.pop((hashlib.sha256(raw).digest(), shown, builtin, check), None)
        if checked is not None:
            return checked, []
    cached = parse_cache.load(raw, shown, builtin=builtin, check=check)
    if cached is not None:
        return _with_digest(cached, raw, builtin=builtin, check=check), []
    failed = failure_cache.load(raw, shown, builtin=builtin, check=check)
    if failed is not None:  # these very bytes were found broken before: the same errors
        return None, failed
    if known_only:
        return UNCHECKED
    try:
        check_shape(text, DECK_LIMITS)
    except TomlLimitExceeded as error:
        return None, [DeckError(error.message, path=shown, line=error.line)]
    try:
        data = toml_parser.loads(text)
    except toml_parser.TOMLDecodeError as error:
        return None, [_toml_error(error, shown)]

    from recall.cards.build import DeckBuilder
    from recall.cards.positions import scan
    from recall.cards.problems import Problems
    from recall.cards.siblings import with_sibling_groups
    from recall.cards.untrusted import record_forbidden_characters

    problems = Problems(shown, scan(text))
    record_forbidden_characters(data, problems)  # control characters, and invisible ones in ids
    built = DeckBuilder(problems, builtin=builtin).build(data, shown)
    if built is not None and check is not None:
        check(built, problems)
    if problems or built is None:
        errors = problems.sorted()
        failure_cache.store(raw, errors, builtin=builtin, check=check)
        return None, errors
    deck = with_sibling_groups(built.deck)  # cards that give each other's answers away
    parse_cache.store(raw, deck, builtin=builtin, check=check)
    return _with_digest(deck, raw, builtin=builtin, check=check), []


def _with_digest(deck: Deck, raw: bytes, *, builtin: bool, check: DeckCheck | None) -> Deck:
    """``deck`` with its :attr:`~recall.cards.model.Deck.digest`: the parse cache's key for
    these bytes read this way (none when the cache is off)."""
    digest = parse_cache.entry_key(raw, builtin=builtin, check=check)
    return replace(deck, digest=digest) if digest else deck


def _unexpected(error: Exception, path: str) -> DeckError:
    """An error nothing above foresaw, as this file's problem (with its line if it has one)."""
    line = getattr(error, "line", None)
    kind = type(error).__name__
    detail = str(error)[:200]
    return DeckError(
        f"the file could not be read ({kind}{': ' + detail if detail else ''})",
        path=path,
        line=line if isinstance(line, int) else None,
        suggestion="simplify the part it names, or report this as a bug",
    )


def _toml_error(error: toml_parser.TOMLDecodeError, path: str) -> DeckError:
    message = str(error)
    match = _TOML_LINE.search(message)
    line = int(match.group(1)) if match else None
    reason = _TOML_LINE.sub("", message).strip(" ()")
    return DeckError(
        f"not valid TOML: {reason}",
        path=path,
        line=line,
        suggestion="check quotes and brackets; LaTeX belongs in 'literal strings'",
    )


def load_deck(
    path: str | os.PathLike[str], *, builtin: bool = False, check: DeckCheck | None = None
) -> Deck:
    """One deck file, validated (``check`` as for :func:`read_deck`); raises
    :class:`DeckFileError` carrying every error."""
    deck, errors = read_deck(path, builtin=builtin, check=check)
    if deck is None:
        from recall.cards.problems import DeckFileError

        raise DeckFileError(str(path), errors)
    return deck


def default_dirs() -> list[Path]:
    """The built-in decks folder, then the learner's custom decks folder."""
    from recall.paths import builtin_decks_dir, custom_decks_dir

    return [builtin_decks_dir(), custom_decks_dir()]


def deck_files(target: str | os.PathLike[str]) -> list[Path]:
    """The deck files a path names: the path itself when it is not a folder, or a folder's
    ``*.toml`` entries (sorted, not recursive; names starting with ``.`` or ``_`` are skipped).

    Everything named like a deck is returned, whatever it is: a FIFO, a device, a link to one, a
    broken link or a symlink loop is not skipped here but refused by the reader
    (:func:`recall.regular_files.read_regular`), so the learner is told which file and why."""
    path = Path(target)
    try:
        is_dir = path.is_dir()
    except OSError:
        is_dir = False
    if not is_dir:
        return [path] if os.path.lexists(path) else []
    return sorted(p for p in path.glob("*.toml") if not p.name.startswith((".", "_")))


def _identity(path: Path) -> str:
    """Where ``path`` leads (links followed as far as they go), to load each file once; a
    symlink loop or a broken link is its own identity (the reader reports it)."""
    return os.path.realpath(path)


def _is_builtin(path: Path) -> bool:
    from recall.paths import builtin_decks_dir

    try:
        return Path(_identity(path)).parent == builtin_decks_dir().resolve()
    except (OSError, RuntimeError):
        return False


#: Who holds a deck id already: the file a deck with that id was loaded or synced from before
#: (``None``: nobody known). Asked only when two files claim one id.
DeckHolder = Callable[[str], "str | None"]


def load_decks(
    dirs: Iterable[str | os.PathLike[str]] | None = None,
    *,
    check: DeckCheck | None = None,
    progress: Callable[[int, int], None] | None = None,
    defer: bool = False,
    holder: DeckHolder | None = None,
) -> LoadResult:
    """Load every deck under ``dirs`` (default: built-in, then custom); ``check`` as for
    :func:`read_deck`; ``progress(done, total)`` is called after each file (a loading screen
    shows it). With ``defer``, a file whose answer is not known without parsing and checking
    it (:func:`read_known_deck`) is left out, listed in :attr:`LoadResult.pending`: none of
    its cards is loaded until it is read with the check (load again without ``defer``).

    Folders that do not exist are skipped quietly (a learner may have no custom decks).

    Deck ids are unique across everything loaded. When several files that load claim one
    id, the file that already holds it keeps it: the one ``holder`` names for the id (the
    file the deck was loaded or synced from before), else the first in file order; every
    other claimant is a failure naming its file, its ``id`` line and the holder. A holder
    that fails to load now (an edit broke it) still keeps its id: a file claiming it is a
    failure until the holder is fixed (or deleted). The rule is
    the same with and without ``defer``: a pending file claims nothing until it is read, and
    once read it meets the same holder, so a new file never takes an id (and the store's
    cards under it) from the deck that had it.
    """
    targets: Sequence[str | os.PathLike[str]] = list(default_dirs() if dirs is None else dirs)
    loaded: list[tuple[str, Deck]] = []  # (file, its deck)
    failures: list[DeckFailure] = []
    pending: list[str] = []
    seen_files: set[str] = set()
    files = [file for target in targets for file in deck_files(target)]
    for done, file in enumerate(files):
        if progress is not None:
            progress(done, len(files))
        key = _identity(file)
        if key in seen_files:
            continue
        seen_files.add(key)
        builtin = _is_builtin(file)
        found = (
            read_known_deck(file, builtin=builtin, check=check)
            if defer
            else read_deck(file, builtin=builtin, check=check)
        )
        if isinstance(found, _Unchecked):
            pending.append(str(file))
            continue
        deck, errors = found
        if deck is None:
            failures.append(DeckFailure(str(file), tuple(errors)))
            continue
        loaded.append((str(file), deck))
    owners = _id_owners(loaded, holder, [failure.path for failure in failures])
    decks: list[Deck] = []
    for shown, deck in loaded:
        owner, broken = owners[deck.id]
        if owner == shown:
            decks.append(deck)
            continue
        held = f"{owner}, which does not load now" if broken else owner
        error = DeckError(
            f"deck id '{quote(deck.id)}' is already used by {held}",
            path=shown,
            line=deck_id_line(Path(shown)),
            suggestion="give this deck another id" + (", or fix that file" if broken else ""),
        )
        failures.append(DeckFailure(shown, (error,)))
    return LoadResult(tuple(decks), tuple(failures), tuple(pending))


def _id_owners(
    loaded: Sequence[tuple[str, Deck]], holder: DeckHolder | None, failed: Sequence[str]
) -> dict[str, tuple[str, bool]]:
    """Which file keeps each deck id of the ``(file, deck)`` pairs (see :func:`load_decks`),
    and whether that file is one of the ``failed`` ones: the one ``holder`` names, when it
    claims the id or fails to load now (a deck file broken by an edit keeps its id, and the
    store's cards under it, from a newcomer), else the first claimant. ``holder`` is asked
    only for an id two files claim, or when some file failed."""
    claims: dict[str, list[str]] = {}
    for file, deck in loaded:
        claims.setdefault(deck.id, []).append(file)
    broken = {_identity(Path(path)) for path in failed}
    owners: dict[str, tuple[str, bool]] = {}
    for deck_id, files in claims.items():
        owners[deck_id] = (files[0], False)
        if holder is None or (len(files) == 1 and not broken):
            continue
        held = holder(deck_id)
        if held is None:
            continue
        where = _identity(Path(held))
        claimant = next((file for file in files if _identity(Path(file)) == where), None)
        if claimant is not None:
            owners[deck_id] = (claimant, False)
        elif where in broken:
            owners[deck_id] = (held, True)
    return owners


def builtin_deck_ids() -> frozenset[str]:
    """The ids of the decks that ship with recall (read through the parsed-deck cache), which a
    learner's own deck may not take."""
    from recall.paths import builtin_decks_dir

    return frozenset(deck.id for deck in load_decks([builtin_decks_dir()]).decks)


def deck_id_line(path: Path) -> int | None:
    """The line of the deck file's ``[deck] id``, for an error about the id (``None`` when the
    file cannot be read)."""
    from recall.cards.positions import scan

    try:
        positions = scan(read_bounded(path, DECK_LIMITS).decode("utf-8"))
    except (OSError, UnicodeDecodeError, TomlLimitExceeded):
        return None
    return positions.line("deck", "id")
