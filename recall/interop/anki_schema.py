"""The parts of a schema-11 Anki collection a package needs: tables, and the JSON in ``col``.

Schema 11 is the "legacy" collection every Anki since 2.1 imports (``collection.anki2`` in an
``.apkg``). The tables and their columns are the format's facts; the JSON documents of the
``col`` row (``conf``, ``models``, ``decks``, ``dconf``) carry only the keys Anki's importer
requires, plus two that change behaviour:

* ``"schedVer": 2`` in ``conf``. Without it Anki takes the package for a v1-scheduler one and
  upgrades it on import, turning every learning-step Good (ease 3) into Easy (ease 4);
* ``creationOffset`` and ``rollover``, so the collection's day numbering
  (:mod:`recall.interop.anki_days`) is the one the due dates were written in.

recall's note type has three fields: the prompt, the answer (MathJax for formulas) and the card's
``deck/card`` key, which is how an import back into recall finds the card again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

TABLES = """
CREATE TABLE col (id integer PRIMARY KEY, crt integer NOT NULL, mod integer NOT NULL,
  scm integer NOT NULL, ver integer NOT NULL, dty integer NOT NULL, usn integer NOT NULL,
  ls integer NOT NULL, conf text NOT NULL, models text NOT NULL, decks text NOT NULL,
  dconf text NOT NULL, tags text NOT NULL);
CREATE TABLE notes (id integer PRIMARY KEY, guid text NOT NULL, mid integer NOT NULL,
  mod integer NOT NULL, usn integer NOT NULL, tags text NOT NULL, flds text NOT NULL,
  sfld integer NOT NULL, csum integer NOT NULL, flags integer NOT NULL, data text NOT NULL);
CREATE TABLE cards (id integer PRIMARY KEY, nid integer NOT NULL, did integer NOT NULL,
  ord integer NOT NULL, mod integer NOT NULL, usn integer NOT NULL, type integer NOT NULL,
  queue integer NOT NULL, due integer NOT NULL, ivl integer NOT NULL, factor integer NOT NULL,
  reps integer NOT NULL, lapses integer NOT NULL, left integer NOT NULL, odue integer NOT NULL,
  odid integer NOT NULL, flags integer NOT NULL, data text NOT NULL);
CREATE TABLE revlog (id integer PRIMARY KEY, cid integer NOT NULL, usn integer NOT NULL,
  ease integer NOT NULL, ivl integer NOT NULL, lastIvl integer NOT NULL, factor integer NOT NULL,
  time integer NOT NULL, type integer NOT NULL);
CREATE TABLE graves (usn integer NOT NULL, oid integer NOT NULL, type integer NOT NULL);
CREATE INDEX ix_notes_usn ON notes (usn);
CREATE INDEX ix_cards_usn ON cards (usn);
CREATE INDEX ix_revlog_usn ON revlog (usn);
CREATE INDEX ix_cards_nid ON cards (nid);
CREATE INDEX ix_cards_sched ON cards (did, queue, due);
CREATE INDEX ix_revlog_cid ON revlog (cid);
CREATE INDEX ix_notes_csum ON notes (csum);
"""

SCHEMA_VERSION = 11
#: Anki's field separator inside ``notes.flds``.
FIELD_SEPARATOR = "\x1f"

NOTE_TYPE_NAME = "recall (prompt, answer, deck/card)"
FIELD_NAMES = ("Prompt", "Answer", "deck/card")
DEFAULT_DECK_ID = 1
DEFAULT_CONFIG_ID = 1

_QUESTION = "{{Prompt}}"
_ANSWER = '{{FrontSide}}\n\n<hr id="answer">\n\n{{Answer}}'
_CSS = ".card { font-family: sans-serif; font-size: 20px; text-align: center; }"


def stable_id(text: str, salt: str) -> int:
    """A positive integer from ``text`` in the range of epoch milliseconds of 2001-2013 (Anki ids
    are creation times, and it replaces an id from the future): the same
    card always gets the same note and card id, so a second export is a duplicate to Anki."""
    digest = hashlib.sha256(f"{salt}\0{text}".encode()).digest()
    return 1_000_000_000_000 + int.from_bytes(digest[:6], "big") % 400_000_000_000


def stable_guid(key: str) -> str:
    """The note's guid for the card ``key``: Anki recognises a note it already has by it."""
    return "recall:" + hashlib.sha256(key.encode()).hexdigest()[:20]


NOTE_TYPE_ID = stable_id(NOTE_TYPE_NAME, "notetype")


def field_checksum(text: str) -> int:
    """Anki's ``csum``: the first 8 hex digits of the SHA-1 of the first field, as an integer
    (used for its duplicate check)."""
    return int(hashlib.sha1(text.encode("utf-8")).hexdigest()[:8], 16)


def note_type(mtime: int) -> dict[str, Any]:
    """recall's note type as schema-11 JSON."""
    return {
        "id": NOTE_TYPE_ID,
        "name": NOTE_TYPE_NAME,
        "type": 0,
        "mod": mtime,
        "usn": -1,
        "sortf": 0,
        "did": DEFAULT_DECK_ID,
        "tmpls": [
            {
                "name": "recall card",
                "ord": 0,
                "qfmt": _QUESTION,
                "afmt": _ANSWER,
                "bqfmt": "",
                "bafmt": "",
                "did": None,
                "bfont": "",
                "bsize": 0,
            }
        ],
        "flds": [
            {"name": name, "ord": ordinal, "sticky": False, "rtl": False, "font": "Arial"}
            | {"size": 20, "media": []}
            for ordinal, name in enumerate(FIELD_NAMES)
        ],
        "css": _CSS,
        "latexPre": "",
        "latexPost": "",
        "latexsvg": False,
        "req": [[0, "any", [0]]],
        "tags": [],
        "vers": [],
    }


def deck_entry(deck_id: int, name: str, mtime: int, *, description: str = "") -> dict[str, Any]:
    """One normal deck as schema-11 JSON."""
    return {
        "id": deck_id,
        "name": name,
        "mod": mtime,
        "usn": -1,
        "lrnToday": [0, 0],
        "revToday": [0, 0],
        "newToday": [0, 0],
        "timeToday": [0, 0],
        "collapsed": False,
        "browserCollapsed": False,
        "desc": description,
        "dyn": 0,
        "conf": DEFAULT_CONFIG_ID,
        "extendNew": 0,
        "extendRev": 0,
    }


def deck_config(
    mtime: int,
    *,
    learning_minutes: Sequence[float],
    relearning_minutes: Sequence[float],
    desired_retention: float,
    parameters: Iterable[float],
) -> dict[str, Any]:
    """The options group every exported deck uses: recall's steps, retention and FSRS-6
    parameters (FSRS itself is a collection switch the learner turns on in Anki)."""
    return {
        "id": DEFAULT_CONFIG_ID,
        "name": "recall",
        "mod": mtime,
        "usn": -1,
        "maxTaken": 60,
        "autoplay": True,
        "timer": 0,
        "replayq": True,
        "dyn": False,
        "new": {
            "delays": [float(m) for m in learning_minutes] or [1.0],
            "ints": [1, 4, 0],
            "initialFactor": 2500,
            "order": 1,
            "perDay": 20,
            "bury": False,
        },
        "rev": {
            "perDay": 200,
            "ease4": 1.3,
            "maxIvl": 36500,
            "hardFactor": 1.2,
            "bury": False,
        },
        "lapse": {
            "delays": [float(m) for m in relearning_minutes] or [10.0],
            "mult": 0.0,
            "minInt": 1,
            "leechFails": 8,
            "leechAction": 1,
        },
        "fsrsParams6": [float(w) for w in parameters],
        "desiredRetention": float(desired_retention),
    }


def collection_conf(*, offset_minutes_west: int, rollover: int) -> dict[str, Any]:
    """``col.conf``: the v2 scheduler declared, and the day numbering's offset and rollover."""
    return {
        "schedVer": 2,
        "creationOffset": offset_minutes_west,
        "rollover": rollover,
        "nextPos": 1,
        "sortType": "noteFld",
        "sortBackwards": False,
        "activeDecks": [DEFAULT_DECK_ID],
        "curDeck": DEFAULT_DECK_ID,
        "newSpread": 0,
        "collapseTime": 1200,
        "timeLim": 0,
        "estTimes": True,
        "dueCounts": True,
        "curModel": None,
        "addToCur": True,
    }


def dumps(value: Any) -> str:
    """Compact JSON, as Anki writes it."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class RevlogRow:
    """One row of a collection's ``revlog`` table, as a package is written and read back:
    ``id`` is the review's time in epoch milliseconds, ``cid`` its card, ``ease`` the rating
    (0 for a change made without answering), ``type`` Learning 0, Review 1, Relearning 2,
    Filtered 3, Manual 4, Rescheduled 5."""

    id: int
    cid: int
    ease: int
    ivl: int
    last_ivl: int
    factor: int
    time: int
    type: int
