"""Deck files ─▶ rows: new cards appear, edited cards keep their state, removed cards retire.

A card is matched by ``(deck id, card id)``, never by content, so rewording a card keeps its
history; a changed content hash only updates the stored hash. A card missing from its deck file
is *retired* (hidden from every queue, history kept) and comes back with its state if it
reappears. Decks that are not passed in are not touched: the caller passes only decks that
validated, so a broken deck file changes nothing. A deck whose file was *deleted* is retired
whole (:func:`vanished_decks`, :func:`retire_decks`) after the loader's caller scans its
folders.

On a PostgreSQL database several learners share, the shared (built-in) decks and their cards are
written by the owner alone (row security, :func:`recall.store.rls.seal_shared_rows`): a
learner's login syncs its own custom decks and its own state rows, and reads the shared decks.
When they differ from the learner's built-in deck files (the owner synced them with another
recall version), the learner's recall uses the database's rows as they are and reports those
decks as :attr:`~recall.store.records.SyncReport.behind`.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, and_, case, delete, func, insert, or_, select, text, update

from recall.cards.model import Deck
from recall.scheduling.queue import sibling_group
from recall.store.learners import login_learner
from recall.store.models import (
    DEFAULT_LEARNER,
    QUEUE_LEARNING,
    QUEUE_NEW,
    QUEUE_RETIRED,
    QUEUE_REVIEW,
    QUEUE_SUSPENDED,
    STORE_RECORD_PREFIX,
    CardRow,
    CardStateRow,
    DeckRow,
    LearnerRow,
    LearnerSettingRow,
    decks_visible_to,
)
from recall.store.records import SyncReport


def sync_decks(
    conn: Connection, decks: Sequence[Deck], now: datetime, learner: int = DEFAULT_LEARNER
) -> SyncReport:
    """Bring the rows of ``decks`` in line with their content (in the caller's transaction),
    as ``learner`` sees them: a built-in deck is the shared one, a custom deck ``learner``'s own
    (:func:`deck_owner`). A card ``learner`` has no state row for (a learner added after the
    card was) gets one, new; nothing is written when every row is there.

    Logged in as a learner on a shared PostgreSQL database (:func:`writes_shared_decks` is
    false), the shared decks' rows are read, never written: a shared deck or card that differs
    from ``decks`` (missing, changed, retired on one side) is left as it is, the deck is named in
    the report's ``behind`` and its sync is not recorded (the next start looks again). The
    learner's own state rows of the shared cards there are still brought in step."""
    slugs = [deck.id for deck in decks]
    if len(set(slugs)) != len(slugs):
        raise ValueError(f"deck ids must be unique, got {slugs}")
    _serialise_syncs(conn)
    writes_shared = writes_shared_decks(conn)
    added: list[str] = []
    changed: list[str] = []
    retired: list[str] = []
    restored: list[str] = []
    unchanged = 0
    shared_behind: list[str] = []  # shared decks this login may not bring in line
    # Two queries for every deck at once (a second start changes nothing: 2 statements, not 3
    # per deck).
    found = _upsert_decks(conn, decks, now, learner, writes_shared, shared_behind)
    decks = [deck for deck, deck_id in zip(decks, found, strict=True) if deck_id is not None]
    deck_ids = [deck_id for deck_id in found if deck_id is not None]
    missing: list[tuple[int, int, bool]] = []  # (card, deck, retired) without learner's state
    behind: list[tuple[int, bool]] = []  # (card, retired): learner's state says otherwise
    digests = [_sync_digest(deck) for deck in decks]
    if not writes_shared:
        digests = _with_shared_rows(conn, learner, decks, deck_ids, digests)
    skipped, recorded = _synced_already(conn, learner, decks, deck_ids, digests)
    synced = [deck_id for deck_id in deck_ids if deck_id not in skipped]
    learners: list[int] | None = None  # read when a card is added (an unchanged sync: never)
    existing_by_deck: dict[int, dict[str, Any]] = {deck_id: {} for deck_id in synced}
    for start in range(0, len(synced), 500):  # stay under every driver's parameter cap
        for stored in conn.execute(
            select(
                CardRow.id,
                CardRow.deck_id,
                CardRow.key,
                CardRow.content_hash,
                CardRow.retired_at,
                CardRow.kind,
                CardRow.topic,
                CardRow.sibling_group,
                CardRow.position,
                CardStateRow.card_id.label("state_of"),
                CardStateRow.queue.label("state_queue"),
            )
            .outerjoin(
                CardStateRow,
                (CardStateRow.learner_id == learner) & (CardStateRow.card_id == CardRow.id),
            )
            .where(CardRow.deck_id.in_(synced[start : start + 500]))
        ):
            existing_by_deck[stored.deck_id][stored.key] = stored
            if stored.state_of is None:
                missing.append((stored.id, stored.deck_id, stored.retired_at is not None))
            elif (stored.retired_at is not None) != (stored.state_queue == QUEUE_RETIRED):
                behind.append((stored.id, stored.retired_at is not None))
    if missing:  # before the restores and retirements below, which then reach them too
        _give_state_rows(conn, learner, missing)
    if behind and conn.dialect.name == "postgresql":
        _catch_up_retirements(conn, learner, behind)
    for deck, deck_id in zip(decks, deck_ids, strict=True):
        if deck_id in skipped:
            unchanged += len(deck.cards)
            continue
        deck_topic = deck.topic or deck.name
        existing = existing_by_deck[deck_id]
        read_only = deck_owner(deck, learner) is None and not writes_shared
        fresh: list[dict[str, object]] = []
        for position, card in enumerate(deck.cards):
            topic = card.topic if card.topic and card.topic != deck_topic else None
            values = {
                "kind": str(card.kind),
                "topic": topic,
                "sibling_group": card.sibling_group or sibling_group(card.id),
                "content_hash": card.content_hash(),
                "position": position,
            }
            row = existing.get(card.id)
            if read_only:
                if row is None or row.retired_at is not None or not _same(row, values):
                    _fall_behind(shared_behind, deck.id)
                else:
                    unchanged += 1
                continue
            if row is None:
                fresh.append(
                    {
                        "deck_id": deck_id,
                        "key": card.id,
                        "created_at": now,
                        "retired_at": None,
                        **values,
                    }
                )
                added.append(card.key)
                continue
            if row.retired_at is not None:
                restored.append(card.key)
                _restore(conn, row.id)
            elif not _same(row, values):
                changed.append(card.key)
            else:
                unchanged += 1
                continue
            conn.execute(
                update(CardRow).where(CardRow.id == row.id).values(retired_at=None, **values)
            )
        if fresh:
            if deck.builtin and learners is None:
                learners = list(conn.execute(select(LearnerRow.id)).scalars())
            owners = learners if deck.builtin and learners is not None else [learner]
            ids = _insert_cards(conn, deck_id, fresh)
            conn.execute(
                insert(CardStateRow),
                [
                    {
                        "learner_id": owner,
                        "card_id": card_id,
                        "deck_id": deck_id,
                        "queue": QUEUE_NEW,
                        "phase": 0,
                        "reps": 0,
                        "lapses": 0,
                        "suspended": False,
                    }
                    for owner in owners
                    for card_id in ids
                ],
            )
        keep = {card.id for card in deck.cards}
        gone = [row for key, row in existing.items() if key not in keep and row.retired_at is None]
        if read_only:
            if gone:
                _fall_behind(shared_behind, deck.id)
            continue
        for row in gone:
            retired.append(f"{deck.id}/{row.key}")
        _retire(conn, [row.id for row in gone], now)
    in_line = {
        deck_id: digest
        for deck, deck_id, digest in zip(decks, deck_ids, digests, strict=True)
        if digest and deck.id not in shared_behind
    }
    _remember_synced(conn, learner, synced, in_line, recorded)
    return SyncReport(
        tuple(added),
        tuple(changed),
        tuple(retired),
        tuple(restored),
        unchanged,
        tuple(slug for slug in slugs if slug in shared_behind),  # in the order given
    )


def writes_shared_decks(conn: Connection) -> bool:
    """Whether this login writes the shared (built-in) decks' rows: on SQLite (one learner) and
    for the owner of a PostgreSQL database, yes; logged in as a learner, no: row security lets
    a learner's login write only its own custom decks (:func:`recall.store.rls.seal_shared_rows`).
    Asked of the database (``current_learner()``), the same test its policies make."""
    return login_learner(conn) is None


#: Per shared deck, a digest of its card rows as a sync compares them (PostgreSQL: a learner's
#: login is one only there).
_SHARED_ROWS = text(
    "SELECT deck_id, md5(string_agg(format('%L|%L|%L|%L|%L|%s|%s', key, kind, topic, "
    "sibling_group, content_hash, position, retired_at IS NULL), ',' ORDER BY id)) "
    "FROM cards WHERE deck_id = ANY(:decks) GROUP BY deck_id"
)


def _with_shared_rows(
    conn: Connection,
    learner: int,
    decks: Sequence[Deck],
    deck_ids: Sequence[int],
    digests: Sequence[str],
) -> list[str]:
    """``digests`` with, for each shared deck (a learner's login: it only reads them), a digest
    of the deck's card rows as well. A learner's record of a shared deck then holds only while
    the owner's sync has changed none of its cards: a learner whose recall is older than the
    owner's learns that a card was reworded or reordered, which the deck file's digest and the
    count of live cards alone would not show."""
    shared = [
        deck_id
        for deck, deck_id, digest in zip(decks, deck_ids, digests, strict=True)
        if digest and deck_owner(deck, learner) is None
    ]
    if not shared:
        return list(digests)
    wanted = set(shared)
    rows: dict[int, str] = {
        int(deck_id): str(digest)
        for deck_id, digest in conn.execute(_SHARED_ROWS, {"decks": shared})
    }
    return [
        f"{digest}@{rows.get(deck_id, '')}" if deck_id in wanted else digest
        for deck_id, digest in zip(deck_ids, digests, strict=True)
    ]


def _same(row: Any, values: Mapping[str, object]) -> bool:
    return all(getattr(row, name) == value for name, value in values.items())


def _fall_behind(behind: list[str], deck: str) -> None:
    if deck not in behind:
        behind.append(deck)


def _insert_cards(conn: Connection, deck_id: int, rows: list[dict[str, object]]) -> list[int]:
    """Insert ``rows``, new cards of deck ``deck_id``, and return their ids in the same order.

    One batched INSERT and one query per 500 keys: an INSERT … RETURNING the ids in parameter
    order is one statement per card on SQLite (SQLAlchemy has no sentinel column to batch it
    with there), 671 statements on a fresh home."""
    conn.execute(insert(CardRow), rows)
    keys = [str(row["key"]) for row in rows]
    ids: dict[str, int] = {}
    for start in range(0, len(keys), 500):  # stay under every driver's parameter cap
        ids.update(
            conn.execute(
                select(CardRow.key, CardRow.id).where(
                    CardRow.deck_id == deck_id, CardRow.key.in_(keys[start : start + 500])
                )
            ).all()
        )
    return [ids[key] for key in keys]


def deck_owner(deck: Deck, learner: int) -> int | None:
    """Who a synced deck belongs to: nobody (shared) for a built-in deck, else ``learner``."""
    return None if deck.builtin else learner


def _give_state_rows(conn: Connection, learner: int, cards: list[tuple[int, int, bool]]) -> None:
    """New-card state rows for ``learner`` (cards that existed before the learner did)."""
    conn.execute(
        insert(CardStateRow),
        [
            {
                "learner_id": learner,
                "card_id": card_id,
                "deck_id": deck_id,
                "queue": QUEUE_RETIRED if retired else QUEUE_NEW,
                "phase": 0,
                "reps": 0,
                "lapses": 0,
                "suspended": False,
            }
            for card_id, deck_id, retired in cards
        ],
    )


def _catch_up_retirements(conn: Connection, learner: int, cards: list[tuple[int, bool]]) -> None:
    """Retire or restore ``learner``'s state of cards another learner's sync retired or
    restored. Logged in as a learner on a shared PostgreSQL server, row-level security lets a
    sync write that learner's own state only (:mod:`recall.store.rls`), so the other learners'
    states catch up at their own next sync, here (nothing to do for the owner, whose sync
    reaches every learner, nor on SQLite, with one learner)."""
    for retired, requeued in ((True, QUEUE_RETIRED), (False, None)):
        ids = [card for card, card_retired in cards if card_retired is retired]
        if ids:
            conn.execute(
                update(CardStateRow)
                .where(CardStateRow.learner_id == learner, CardStateRow.card_id.in_(ids))
                .values(
                    queue=requeue_expression() if requeued is None else requeued,
                    buried_until=None,
                )
            )


#: ``learner_settings`` key of a deck's last sync for that learner (``store.synced:<deck id>``),
#: whose value is the :func:`_sync_digest` of the deck it brought the rows in line with. Kept
#: per learner: a sync also gives its learner state rows for cards they lack (a learner added
#: later, or cards another learner's sync added), so one learner's sync says nothing about
#: another's rows, and on a shared PostgreSQL server a learner may write only their own rows.
_SYNCED = f"{STORE_RECORD_PREFIX}synced:"
#: The code that decides what a deck's rows hold besides the deck itself: an edit to it
#: makes every deck sync in full once.
_SYNC_SOURCES = ("store/sync.py", "scheduling/queue.py")


def _sync_digest(deck: Deck) -> str:
    """What a deck's rows are in line with once it has synced: its
    :attr:`~recall.cards.model.Deck.digest` (the file's bytes, the code that read it) and the
    sync's own code; ``""`` when the deck has no digest (then it always syncs in full)."""
    if not deck.digest:
        return ""
    from recall.cards.parse_cache import sources_fingerprint

    code = sources_fingerprint(_SYNC_SOURCES)
    return hashlib.sha256(f"{deck.digest}\0{code}".encode()).hexdigest()


def _synced_already(
    conn: Connection,
    learner: int,
    decks: Sequence[Deck],
    deck_ids: Sequence[int],
    digests: Sequence[str],
) -> tuple[set[int], dict[int, str]]:
    """The decks (row ids) whose rows are in line with them already for ``learner``: the
    learner's last full sync of each was of this very deck (the same digest: so every card has
    the learner's state row), and it holds as many live cards as the deck has (none retired
    since). A later start over unchanged decks then reads two small tables instead of every
    card row and every card's content hash (20,000 custom cards: most of the sync). Also the
    learner's records of the decks that have a digest, by deck (a deck without one is not
    looked up: a sync without digests reads what it always read)."""
    keys = {
        f"{_SYNCED}{deck_id}": deck_id
        for deck_id, digest in zip(deck_ids, digests, strict=True)
        if digest
    }
    recorded: dict[int, str] = {}
    listed = list(keys)
    for start in range(0, len(listed), 500):
        for key, value in conn.execute(
            select(LearnerSettingRow.key, LearnerSettingRow.value).where(
                LearnerSettingRow.learner_id == learner,
                LearnerSettingRow.key.in_(listed[start : start + 500]),
            )
        ):
            recorded[keys[key]] = value
    same = {
        deck_id: len(deck.cards)
        for deck, deck_id, digest in zip(decks, deck_ids, digests, strict=True)
        if digest and recorded.get(deck_id) == digest
    }
    if not same:
        return set(), recorded
    ids = list(same)
    live: dict[int, int] = {}
    for start in range(0, len(ids), 500):
        for deck_id, count in conn.execute(
            select(CardRow.deck_id, func.count())
            .where(CardRow.deck_id.in_(ids[start : start + 500]), CardRow.retired_at.is_(None))
            .group_by(CardRow.deck_id)
        ):
            live[deck_id] = count
    skipped = {deck_id for deck_id, cards in same.items() if live.get(deck_id, 0) == cards}
    return skipped - _out_of_step(conn, learner, sorted(skipped)), recorded


def _out_of_step(conn: Connection, learner: int, deck_ids: Sequence[int]) -> set[int]:
    """The decks among ``deck_ids`` where ``learner``'s state rows are not in step with the
    cards: a card without the learner's state row, or retired on one side only. Another
    learner's sync may retire or restore a shared deck's cards while ``learner``'s record of
    that deck still matches it (under row-level security that sync changes its own learner's
    states only), so a matching record alone does not prove ``learner``'s rows are in line."""
    out: set[int] = set()
    retired_state = CardStateRow.queue == QUEUE_RETIRED
    for start in range(0, len(deck_ids), 500):
        chunk = deck_ids[start : start + 500]
        rows = conn.execute(
            select(CardRow.deck_id)
            .outerjoin(
                CardStateRow,
                (CardStateRow.learner_id == learner) & (CardStateRow.card_id == CardRow.id),
            )
            .where(
                CardRow.deck_id.in_(chunk),
                or_(
                    CardStateRow.card_id.is_(None),
                    and_(CardRow.retired_at.is_not(None), ~retired_state),
                    and_(CardRow.retired_at.is_(None), retired_state),
                ),
            )
            .group_by(CardRow.deck_id)
        )
        out.update(deck_id for (deck_id,) in rows)
    return out


def _remember_synced(
    conn: Connection,
    learner: int,
    synced: Sequence[int],
    digests: dict[int, str],
    recorded: dict[int, str],
) -> None:
    """Record for ``learner`` the digest each of ``synced`` (row ids, just brought in line) is
    in line with, where it differs from ``recorded`` (the learner's records read before): a
    sync that changes nothing writes nothing. A record of a deck that has no digest now is
    never read (:func:`_synced_already` looks up decks with one) and is replaced when it has
    one again."""
    changed = [
        deck_id
        for deck_id in synced
        if deck_id in digests and recorded.get(deck_id) != digests[deck_id]
    ]
    if not changed:
        return
    _forget_synced(conn, learner, [deck_id for deck_id in changed if deck_id in recorded])
    conn.execute(
        insert(LearnerSettingRow),
        [
            {"learner_id": learner, "key": f"{_SYNCED}{deck_id}", "value": digests[deck_id]}
            for deck_id in changed
        ],
    )


def _forget_synced(conn: Connection, learner: int, deck_ids: Sequence[int]) -> None:
    """Forget ``learner``'s records of ``deck_ids`` (another learner's records of a deck
    retired and back are caught by :func:`_synced_already`'s count of live cards)."""
    keys = [f"{_SYNCED}{deck_id}" for deck_id in deck_ids]
    for start in range(0, len(keys), 500):
        conn.execute(
            delete(LearnerSettingRow).where(
                LearnerSettingRow.learner_id == learner,
                LearnerSettingRow.key.in_(keys[start : start + 500]),
            )
        )


def vanished_decks(
    conn: Connection,
    folders: Iterable[str | os.PathLike[str]],
    keep: Collection[str],
    learner: int = DEFAULT_LEARNER,
) -> list[tuple[int, str]]:
    """(row id, deck id) of the decks whose file was deleted.

    A deck has vanished when its stored file lived directly in one of ``folders`` (the folders
    just scanned for deck files), its id is not in ``keep`` (the decks that loaded), and the file
    is certainly gone. A deck that failed validation still has its file, so it is left alone;
    so is a deck from a folder that was not scanned, and, logged in as a learner on a shared
    database, a shared deck (the owner's sync retires those; its path is the owner's).
    """
    scanned = {_resolved(folder) for folder in folders}
    mine = decks_visible_to(learner)
    if not writes_shared_decks(conn):  # a learner's login retires its own custom decks only
        mine = DeckRow.owner_learner_id == learner
    return [
        (deck_id, slug)
        for deck_id, slug, path in conn.execute(
            select(DeckRow.id, DeckRow.slug, DeckRow.path).where(mine)
        )
        if slug not in keep and path and _resolved(Path(path).parent) in scanned and _gone(path)
    ]


def retire_decks(conn: Connection, decks: Sequence[tuple[int, str]], now: datetime) -> SyncReport:
    """Retire every card of ``decks`` (from :func:`vanished_decks`; in the caller's
    transaction). Syncing a deck again when its file is back restores the cards with their
    history (see :func:`sync_decks`)."""
    _serialise_syncs(conn)
    # No sync record is forgotten here: a deck back with its file has no live cards, which
    # :func:`_synced_already` counts, and a learner whose states another learner's sync left
    # behind is found by :func:`_out_of_step`: either way the deck syncs in full for them.
    retired: list[str] = []
    for deck_id, slug in decks:
        rows = conn.execute(
            select(CardRow.id, CardRow.key).where(
                CardRow.deck_id == deck_id, CardRow.retired_at.is_(None)
            )
        ).all()
        retired += [f"{slug}/{row.key}" for row in rows]
        _retire(conn, [row.id for row in rows], now)
    return SyncReport(retired=tuple(retired))


def _resolved(path: str | os.PathLike[str]) -> Path:
    try:
        return Path(path).resolve()
    except OSError:  # a symlink loop: compare it as written
        return Path(path).absolute()


def _gone(path: str) -> bool:
    """True only when the file certainly does not exist (an unreadable folder is not proof)."""
    try:
        os.stat(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return False


def _retire(conn: Connection, card_ids: list[int], now: datetime) -> None:
    """Hide cards from every queue, keeping their state and history."""
    if not card_ids:
        return
    for start in range(0, len(card_ids), 500):  # stay under every driver's parameter cap
        chunk = card_ids[start : start + 500]
        conn.execute(update(CardRow).where(CardRow.id.in_(chunk)).values(retired_at=now))
        conn.execute(
            update(CardStateRow)
            .where(EVERY_LEARNER, CardStateRow.card_id.in_(chunk))
            .values(queue=QUEUE_RETIRED, buried_until=None)
        )


#: Deck content is shared: a card retired or restored is so in every learner's state, and a new
#: card gets a state row (new) for every learner. Said explicitly, as every statement over
#: ``card_state`` names its learners.
EVERY_LEARNER = CardStateRow.learner_id.in_(select(LearnerRow.id).scalar_subquery())

#: PostgreSQL advisory lock key held for the length of a sync transaction.
SYNC_LOCK = 727275


def _serialise_syncs(conn: Connection) -> None:
    """One sync at a time. Two recall windows starting together read "no such card" and both
    insert it; on PostgreSQL (read committed) the second then fails on the unique key. An
    advisory lock makes it wait and read the first one's rows instead. SQLite needs nothing:
    the write transaction began with BEGIN IMMEDIATE, which already serialises it."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SYNC_LOCK})


def _upsert_decks(
    conn: Connection,
    decks: Sequence[Deck],
    now: datetime,
    learner: int,
    writes_shared: bool,
    behind: list[str],
) -> list[int | None]:
    """The row id of each deck, in order: a new deck is inserted, a deck whose name, topic,
    path or origin changed is updated (``synced_at`` then says when), an unchanged one is left
    as it is (one query reads them all). A deck is found by its owner and slug: a built-in deck
    among the shared ones, a custom one among ``learner``'s.

    Without ``writes_shared`` (a learner's login on a shared database), a shared deck is only
    read: one the database lacks is ``None``, and one missing or with another name, topic or
    origin is added to ``behind``. Its path is not compared: it is where the file was on the
    owner's machine, not on the learner's."""
    stored = {
        (row.owner_learner_id, row.slug): row
        for row in conn.execute(
            select(
                DeckRow.id,
                DeckRow.slug,
                DeckRow.name,
                DeckRow.topic,
                DeckRow.path,
                DeckRow.builtin,
                DeckRow.owner_learner_id,
            ).where(decks_visible_to(learner))
        )
    }
    ids: list[int | None] = []
    for deck in decks:
        values: dict[str, object] = {
            "name": deck.name,
            "topic": deck.topic or deck.name,
            "path": deck.path,
            "builtin": deck.builtin,
        }
        owner = deck_owner(deck, learner)
        row = stored.get((owner, deck.id))
        read_only = owner is None and not writes_shared
        if read_only:
            values.pop("path")
            if row is None or not _same(row, values):
                _fall_behind(behind, deck.id)
            ids.append(None if row is None else int(row.id))
            continue
        if row is None:
            ids.append(
                int(
                    conn.execute(
                        insert(DeckRow)
                        .values(slug=deck.id, synced_at=now, owner_learner_id=owner, **values)
                        .returning(DeckRow.id)
                    ).scalar_one()
                )
            )
            continue
        if not _same(row, values):
            conn.execute(
                update(DeckRow).where(DeckRow.id == row.id).values(synced_at=now, **values)
            )
        ids.append(int(row.id))
    return ids


def _restore(conn: Connection, card_id: int) -> None:
    """A retired card back in its deck: back in the queue its phase and flags say."""
    conn.execute(
        update(CardStateRow)
        .where(EVERY_LEARNER, CardStateRow.card_id == card_id)
        .values(queue=requeue_expression())
    )


def requeue_expression():  # type: ignore[no-untyped-def]
    """SQL for the queue a card returns to when a temporary exclusion ends (a bury, a
    retirement): its phase's queue, unless suspended."""
    return case(
        (CardStateRow.suspended.is_(True), QUEUE_SUSPENDED),
        (CardStateRow.phase == 0, QUEUE_NEW),
        (CardStateRow.phase == 2, QUEUE_REVIEW),
        else_=QUEUE_LEARNING,
    )


__all__ = ["requeue_expression", "retire_decks", "sync_decks", "vanished_decks"]
