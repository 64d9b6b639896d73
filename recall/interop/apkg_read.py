"""An Anki package (``.apkg``) or collection package (``.colpkg``), read into plain rows.

A package is a zip. It holds the collection as ``collection.anki21b`` (Anki 2.1.50 and later:
zstd-compressed SQLite, schema 18), ``collection.anki21`` (plain SQLite, schema 11, the "legacy"
export of newer Anki) or ``collection.anki2`` (schema 11; in a modern package only a stub that
asks old clients to update). The newest member present is read, never the stub beside it.
Reading ``anki21b`` needs the ``zstandard`` package (``pip install 'recall[anki]'``).

The file is the learner's input and may be anything, so every limit applies before the work:
the zip's directory is read first and a member whose declared size is too large, or whose size
is out of all proportion to its compressed size (a zip bomb), is refused before a byte is
extracted; extraction then counts what it writes and stops past the declared size, so a lying
header gains nothing. The extracted file must start with SQLite's header, is opened read-only,
and every revlog row is checked before anything is returned. Any failure raises
:class:`~recall.errors.InteropError` with one line saying what is wrong.

Media files are never extracted: their count is reported so the learner knows what was left.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from recall.errors import InteropError
from recall.inert import quote
from recall.interop.anki_schema import RevlogRow

#: Collection members, newest format first.
MEMBERS = ("collection.anki21b", "collection.anki21", "collection.anki2")
#: Largest collection read, uncompressed (a large real collection is a few hundred MB).
MAX_COLLECTION_BYTES = 1024 * 1024 * 1024
#: Largest ratio of uncompressed to compressed size believed (SQLite pages compress well, but
#: not by more than this; a zip bomb does).
MAX_RATIO = 200
#: Zip members looked at, at most (media packages hold one member per file).
MAX_MEMBERS = 200_000
#: Revlog times must lie in [2000-01-01, 2200-01-01) in milliseconds.
EARLIEST_MS = 946_684_800_000
LATEST_MS = 7_258_118_400_000
SQLITE_HEADER = b"SQLite format 3\x00"
ZSTD_INSTALL = "pip install 'recall[anki]'"
_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class AnkiNote:
    id: int
    guid: str
    notetype: int
    fields: tuple[str, ...]
    tags: tuple[str, ...]


@dataclass(frozen=True)
class AnkiCard:
    id: int
    note: int
    deck: int
    ord: int
    type: int
    queue: int
    due: int
    ivl: int
    factor: int
    reps: int
    lapses: int
    left: int
    original_due: int
    original_deck: int
    data: str


@dataclass(frozen=True)
class NoteType:
    id: int
    name: str
    fields: tuple[str, ...]
    cloze: bool = False


@dataclass
class AnkiCollection:
    """What recall uses of a collection."""

    member: str
    crt: int
    creation_offset: int | None
    rollover: int
    notetypes: dict[int, NoteType]
    decks: dict[int, str]
    notes: list[AnkiNote]
    cards: list[AnkiCard]
    revlog: list[RevlogRow]
    media: int = 0
    #: The media files' names, where the package's ``media`` map says them (legacy packages).
    media_names: tuple[str, ...] = ()
    desired_retention: dict[int, float] = field(default_factory=dict)


def _refuse(path: Path, reason: str) -> InteropError:
    return InteropError(f"{quote(str(path))} {reason}")


def _check_members(path: Path, archive: zipfile.ZipFile) -> zipfile.ZipInfo:
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise _refuse(path, f"holds more than {MAX_MEMBERS:,} files: not an Anki package")
    by_name = {info.filename: info for info in infos}
    member = next((by_name[name] for name in MEMBERS if name in by_name), None)
    if member is None:
        raise _refuse(path, "holds no Anki collection (collection.anki21b, .anki21 or .anki2)")
    if member.file_size > MAX_COLLECTION_BYTES:
        raise _refuse(
            path,
            f"declares a {member.filename} of {member.file_size:,} bytes, more than the "
            f"{MAX_COLLECTION_BYTES:,} read",
        )
    if member.compress_size == 0 and member.file_size > 0:
        raise _refuse(path, f"declares an impossible size for {member.filename}")
    if member.file_size > MAX_RATIO * max(member.compress_size, 1) and member.file_size > _CHUNK:
        raise _refuse(
            path,
            f"looks like a zip bomb: {member.filename} would grow from "
            f"{member.compress_size:,} to {member.file_size:,} bytes",
        )
    return member


#: Largest ``media`` map read for its names (a legacy package's JSON: a name per file).
MAX_MEDIA_MAP = 16 * 1024 * 1024


def _media_names(archive: zipfile.ZipFile) -> tuple[str, ...]:
    """The media files' names from a legacy ``media`` map (``{"0": "name.png"}``); none for
    the newer, protobuf one or anything else."""
    try:
        info = archive.getinfo("media")
    except KeyError:
        return ()
    if info.file_size > MAX_MEDIA_MAP:
        return ()
    try:
        value = json.loads(archive.read(info).decode("utf-8"))
    except (ValueError, UnicodeDecodeError, zipfile.BadZipFile, OSError):
        return ()
    if not isinstance(value, dict):
        return ()
    return tuple(sorted(str(name) for name in value.values()))


def _copy_bounded(source: IO[bytes], target: IO[bytes], limit: int, what: str) -> int:
    written = 0
    while True:
        chunk = source.read(_CHUNK)
        if not chunk:
            return written
        written += len(chunk)
        if written > limit:
            raise InteropError(f"{what} is larger than it declares (or than {limit:,} bytes)")
        target.write(chunk)


def _decompress_zstd(source: IO[bytes], target: IO[bytes], what: str) -> None:
    try:
        import zstandard
    except ImportError:
        raise InteropError(
            f"{what} is compressed with zstd, which needs the zstandard package: {ZSTD_INSTALL}"
        ) from None
    reader = zstandard.ZstdDecompressor().stream_reader(source)
    try:
        _copy_bounded(reader, target, MAX_COLLECTION_BYTES, what)
    except zstandard.ZstdError as error:
        raise InteropError(f"{what} is not valid zstd data ({error})") from None


@contextmanager
def extracted(path: Path) -> Iterator[tuple[Path, str, int, tuple[str, ...]]]:
    """The package's newest collection, extracted to a private temporary file: (its path, the
    member's name, the number of media files left out and their names where the package's
    ``media`` map is JSON). Removed on exit."""
    path = Path(path)
    if not path.is_file():
        raise _refuse(path, "is not a file")
    if not zipfile.is_zipfile(path):
        raise _refuse(path, "is not an Anki package (not a zip file)")
    scratch = Path(tempfile.mkdtemp(prefix="recall-anki-"))
    try:
        try:
            archive = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError) as error:
            raise _refuse(path, f"is not a readable zip file ({error})") from None
        with archive:
            member = _check_members(path, archive)
            media = sum(
                1
                for info in archive.infolist()
                if info.filename not in MEMBERS and info.filename not in ("media", "meta")
            )
            names = _media_names(archive)
            target = scratch / "collection.sqlite"
            what = f"{quote(str(path))}'s {member.filename}"
            try:
                with archive.open(member) as source, open(target, "wb") as out:
                    if member.filename.endswith("anki21b"):
                        _decompress_zstd(source, out, what)
                    else:
                        _copy_bounded(source, out, member.file_size, what)
            except (zipfile.BadZipFile, OSError, EOFError) as error:
                raise _refuse(path, f"could not be extracted ({error})") from None
        yield target, member.filename, media, names
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def read_package(path: Path) -> AnkiCollection:
    """Everything recall imports from the package at ``path`` (validated)."""
    with extracted(path) as (database, member, media, names):
        with open(database, "rb") as file:
            if file.read(16) != SQLITE_HEADER:
                raise _refuse(path, f"holds a {member} that is not an SQLite database")
        collection = read_collection(database, member, shown=str(path))
    collection.media = media
    collection.media_names = names
    return collection


def _json(text: Any, what: str) -> Any:
    try:
        return json.loads(text) if text else {}
    except (TypeError, ValueError):
        raise InteropError(f"the collection's {what} is not valid JSON") from None


def read_collection(database: Path, member: str, *, shown: str) -> AnkiCollection:
    """Read an extracted collection (schema 11 or 18) read-only."""
    uri = f"{database.resolve().as_uri()}?mode=ro&immutable=1"
    try:
        connection = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as error:
        raise InteropError(f"{quote(shown)}: the collection cannot be opened ({error})") from None
    try:
        return _read(connection, member)
    except sqlite3.Error as error:
        raise InteropError(
            f"{quote(shown)}: {member} is not an Anki collection ({error})"
        ) from None
    finally:
        connection.close()


def _tables(connection: sqlite3.Connection) -> set[str]:
    return {name for (name,) in connection.execute("SELECT name FROM sqlite_master")}


def _read(connection: sqlite3.Connection, member: str) -> AnkiCollection:
    tables = _tables(connection)
    crt, conf_text, models_text, decks_text, dconf_text = connection.execute(
        "SELECT crt, conf, models, decks, dconf FROM col"
    ).fetchone()
    if "notetypes" in tables:  # schema 18: note types, decks and settings in their own tables
        config = {
            key: _json(value.decode() if isinstance(value, bytes) else value, key)
            for key, value in connection.execute("SELECT KEY, val FROM config")
        }
        fields: dict[int, list[tuple[int, str]]] = {}
        for ntid, ordinal, name in connection.execute("SELECT ntid, ord, name FROM fields"):
            fields.setdefault(int(ntid), []).append((int(ordinal), str(name)))
        notetypes = {
            int(ntid): NoteType(
                int(ntid),
                str(name),
                tuple(n for _o, n in sorted(fields.get(int(ntid), []))),
            )
            for ntid, name in connection.execute("SELECT id, name FROM notetypes")
        }
        decks = {
            int(did): str(name).replace("\x1f", "::")
            for did, name in connection.execute("SELECT id, name FROM decks")
        }
    else:
        config = _json(conf_text, "configuration")
        models = _json(models_text, "note types")
        notetypes = {
            int(ntid): NoteType(
                int(ntid),
                str(model.get("name", "")),
                tuple(str(f.get("name", "")) for f in model.get("flds", [])),
                cloze=model.get("type") == 1,
            )
            for ntid, model in models.items()
        }
        decks = {int(did): str(d.get("name", "")) for did, d in _json(decks_text, "decks").items()}
    del dconf_text
    offset = config.get("creationOffset")
    rollover = config.get("rollover", 4)
    notes = [
        AnkiNote(int(nid), str(guid), int(mid), _fields(flds), tuple(str(tags).split()))
        for nid, guid, mid, flds, tags in connection.execute(
            "SELECT CAST(id AS INTEGER), guid, CAST(mid AS INTEGER), flds, tags FROM notes "
            "ORDER BY id"
        )
    ]
    cards = [
        _card(row)
        for row in connection.execute(
            "SELECT id, nid, did, ord, type, queue, due, ivl, factor, reps, lapses, left, odue, "
            "odid, data FROM cards ORDER BY id"
        )
    ]
    # CAST: SQLite keeps whatever a column was given, and a hostile file may give text
    revlog = [
        RevlogRow(*row)
        for row in connection.execute(
            "SELECT CAST(id AS INTEGER), CAST(cid AS INTEGER), CAST(ease AS INTEGER), "
            "CAST(ivl AS INTEGER), CAST(lastIvl AS INTEGER), CAST(factor AS INTEGER), "
            "CAST(time AS INTEGER), CAST(type AS INTEGER) FROM revlog ORDER BY id"
        )
    ]
    collection = AnkiCollection(
        member=member,
        crt=int(crt),
        creation_offset=int(offset) if isinstance(offset, int) else None,
        rollover=int(rollover) if isinstance(rollover, int) and 0 <= rollover < 24 else 4,
        notetypes=notetypes,
        decks=decks,
        notes=notes,
        cards=cards,
        revlog=revlog,
    )
    check_revlog(collection)
    return collection


def _fields(flds: Any) -> tuple[str, ...]:
    """A note's fields (Anki separates them with U+001F); Windows and old-Mac line ends become
    newlines, which is what they mean (a carriage return alone is a control character)."""
    text = str(flds).replace("\r\n", "\n").replace("\r", "\n")
    return tuple(text.split("\x1f"))


def _card(row: tuple[Any, ...]) -> AnkiCard:
    numbers = [int(value) for value in row[:-1]]
    return AnkiCard(
        id=numbers[0],
        note=numbers[1],
        deck=numbers[2],
        ord=numbers[3],
        type=numbers[4],
        queue=numbers[5],
        due=numbers[6],
        ivl=numbers[7],
        factor=numbers[8],
        reps=numbers[9],
        lapses=numbers[10],
        left=numbers[11],
        original_due=numbers[12],
        original_deck=numbers[13],
        data=str(row[-1] or ""),
    )


def check_revlog(collection: AnkiCollection) -> None:
    """Refuse a collection whose revlog holds values no Anki writes (one line, the first)."""
    for row in collection.revlog:
        problem = None
        if not EARLIEST_MS <= row.id < LATEST_MS:
            problem = f"time {row.id} is not milliseconds between 2000 and 2200"
        elif row.ease not in (0, 1, 2, 3, 4):
            problem = f"ease {row.ease} is not 0 to 4"
        elif row.type not in (0, 1, 2, 3, 4, 5):
            problem = f"type {row.type} is not 0 to 5"
        elif row.time < 0:
            problem = f"a negative answer time ({row.time} ms)"
        if problem:
            raise InteropError(
                f"the collection's review log is damaged: row {row.id} has {problem}"
            )
