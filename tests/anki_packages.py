"""Hand-built Anki collections for the import tests (imported, not a conftest).

:func:`build_collection` writes a schema-11 collection the way Anki lays one out, with a "Basic"
and a "Cloze" note type, so the importer is tested on notes recall did not write; the tests
then zip it as a package (``collection.anki2``, ``collection.anki21``, or zstd ``anki21b``).
"""

from __future__ import annotations

import json
import sqlite3
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from recall.interop.anki_schema import TABLES, deck_entry

BASIC = 1_500_000_000_001
CLOZE = 1_500_000_000_002
DECK = 1_500_000_000_100


@dataclass
class Card:
    note: int
    type: int = 0
    queue: int = 0
    due: int = 0
    ivl: int = 0
    reps: int = 0
    lapses: int = 0
    left: int = 0
    data: str = ""
    ord: int = 0


@dataclass
class Collection:
    crt: int = 1_700_000_000
    offset_west: int | None = 0
    rollover: int = 4
    deck_name: str = "ML::Formulas"
    notes: list[tuple[int, int, Sequence[str], str]] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    revlog: list[tuple[int, int, int, int, int, int, int, int]] = field(default_factory=list)


def _model(mid: int, name: str, fields: Sequence[str], cloze: bool = False) -> dict:
    return {
        "id": mid,
        "name": name,
        "type": 1 if cloze else 0,
        "mod": 0,
        "usn": 0,
        "sortf": 0,
        "did": 1,
        "tmpls": [{"name": "Card 1", "ord": 0, "qfmt": "{{Front}}", "afmt": "{{Back}}"}],
        "flds": [
            {"name": f, "ord": i, "sticky": False, "rtl": False, "font": "Arial", "size": 20}
            for i, f in enumerate(fields)
        ],
        "css": "",
    }


def build_collection(path: Path, spec: Collection) -> Path:
    conf: dict = {"schedVer": 2, "rollover": spec.rollover}
    if spec.offset_west is not None:
        conf["creationOffset"] = spec.offset_west
    models = {
        str(BASIC): _model(BASIC, "Basic", ["Front", "Back"]),
        str(CLOZE): _model(CLOZE, "Cloze", ["Text", "Back Extra"], cloze=True),
    }
    decks = {"1": deck_entry(1, "Default", 0), str(DECK): deck_entry(DECK, spec.deck_name, 0)}
    with sqlite3.connect(path) as db:
        db.executescript(TABLES)
        db.execute(
            "INSERT INTO col VALUES (1, ?, 0, 0, 11, 0, 0, 0, ?, ?, ?, '{}', '{}')",
            (spec.crt, json.dumps(conf), json.dumps(models), json.dumps(decks)),
        )
        for nid, mid, fields, tags in spec.notes:
            db.execute(
                "INSERT INTO notes VALUES (?, ?, ?, 0, 0, ?, ?, ?, 0, 0, '')",
                (nid, f"g{nid}", mid, tags, "\x1f".join(fields), fields[0]),
            )
        for number, card in enumerate(spec.cards, start=1):
            db.execute(
                "INSERT INTO cards VALUES "
                "(?, ?, ?, ?, 0, 0, ?, ?, ?, ?, 2500, ?, ?, ?, 0, 0, 0, ?)",
                (
                    1_600_000_000_000 + number,
                    card.note,
                    DECK,
                    card.ord,
                    card.type,
                    card.queue,
                    card.due,
                    card.ivl,
                    card.reps,
                    card.lapses,
                    card.left,
                    card.data,
                ),
            )
        db.executemany("INSERT INTO revlog VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?)", spec.revlog)
    return path


def card_id(number: int) -> int:
    """The Anki id :func:`build_collection` gives the ``number``-th card (1-based)."""
    return 1_600_000_000_000 + number


def package(
    target: Path,
    database: Path,
    *,
    member: str = "collection.anki2",
    media: dict[str, bytes] | None = None,
) -> Path:
    """Zip ``database`` as ``member`` (zstd-compressed for ``collection.anki21b``)."""
    data = database.read_bytes()
    if member.endswith("anki21b"):
        import zstandard

        data = zstandard.ZstdCompressor().compress(data)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, data)
        names = {str(i): name for i, name in enumerate(media or {})}
        archive.writestr("media", json.dumps(names))
        for i, content in enumerate((media or {}).values()):
            archive.writestr(str(i), content)
    return target
