"""``recall anki import``: an Anki package's notes, schedules and history, brought into recall.

The steps, each in the module that owns it:

1. read and validate the package (:mod:`recall.interop.apkg_read`): a bad package is refused
   with one line before anything is written;
2. notes: a note of recall's own note type names its card (``deck/card``) and goes back to it
   when this recall has that card; every other note becomes a card of a generated deck, one per
   Anki deck, written as a deck file the way ``recall decks import`` writes one. A back that the
   grammar reads as one formula (MathJax ``\\(…\\)``, ``$…$``, or plain typed math) becomes a
   formula card with its symbols declared real; anything else a self-rated (explain) card, or a
   cloze card for an Anki cloze;
3. schedules (:mod:`recall.interop.anki_convert`): a card's phase, due date, reps, lapses and
   FSRS memory state, adopted only where Anki saw a later review than recall did; an SM-2 card
   without FSRS state gets the state FSRS reaches by replaying its reviews
   (:mod:`recall.scheduling.replay`);
4. reviews: every revlog row that is a review joins the imported history (``imported_reviews``,
   apart from what was drilled here), skipping rows recall already holds, its own included;
   rows that are not reviews are listed with the reason.

Importing the same file twice changes nothing: the deck files are the same text, a state is
adopted only when newer, and a review is stored once.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recall.errors import InteropError
from recall.inert import describe_char, first_control, quote
from recall.interop.anki_convert import (
    Review,
    Skipped,
    day_clock,
    html_to_text,
    reviews_of,
    schedule_of,
)
from recall.interop.anki_schema import FIELD_NAMES, NOTE_TYPE_NAME
from recall.interop.apkg_read import AnkiCollection, AnkiNote, read_package
from recall.scheduling.state import CardState
from recall.wording import count_of

if TYPE_CHECKING:
    from recall.cards.model import Deck

#: Skipped rows printed at most (the count of the rest follows).
SHOWN_SKIPPED = 20
#: A review of a recall card that Anki hands back is recall's own when it lies this close to one.
OWN_REVIEW_WITHIN_MS = 1000

_MATHJAX = (
    re.compile(r"^\\\((.+)\\\)$", re.DOTALL),
    re.compile(r"^\\\[(.+)\\\]$", re.DOTALL),
    re.compile(r"^\$\$(.+)\$\$$", re.DOTALL),
    re.compile(r"^\$(.+)\$$", re.DOTALL),
)
_WORDS = re.compile(r"[A-Za-z]{2,}\s+[A-Za-z]")
_OPERATOR = re.compile(r"[-+*/^=(]")


@dataclass(frozen=True)
class GeneratedDeck:
    """A deck file made for Anki's notes: its path, its cards by kind, whether this import
    wrote it (``False``: the file was there already), and whether a file that was there is
    what this import would have written (``False``: edited by the learner). With ``--force``
    a file that is already what the import writes is not written again, and the output says
    so rather than claiming a rewrite."""

    path: Path
    kinds: Counter[str]
    written: bool
    same: bool = True
    #: ``--force`` was given: a file written replaced the one there, and a file kept was
    #: already what the import writes, so there was nothing to rewrite.
    forced: bool = False
    #: A file was there before this import wrote it.
    replaced: bool = False


@dataclass
class Report:
    """What an import did, for the command's output."""

    decks: list[GeneratedDeck] = field(default_factory=list)
    matched_notes: int = 0
    adopted: int = 0
    kept: int = 0
    replayed: int = 0
    added: int = 0
    already: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    #: Reviews of cards whose notes were not imported (counted, not listed one by one).
    unmatched: int = 0
    media: int = 0
    media_names: list[str] = field(default_factory=list)
    kept_files: list[Path] = field(default_factory=list)

    @property
    def unchanged(self) -> bool:
        """Whether the import changed nothing: every deck file was there as this import makes
        it, no schedule was adopted and no review added."""
        return (
            all(not deck.written and deck.same for deck in self.decks)
            and not self.adopted
            and not self.added
        )


def _refuse_controls(collection: AnkiCollection) -> None:
    for note in collection.notes:
        for number, text in enumerate(note.fields, start=1):
            at = first_control(text)
            if at is not None:
                raise InteropError(
                    f"note {note.id}, field {number} holds {describe_char(text[at])}: "
                    f"{quote(text)}; nothing was imported"
                )
        for tag in note.tags:
            at = first_control(tag)
            if at is not None:
                raise InteropError(
                    f"note {note.id} has a tag holding {describe_char(tag[at])}: {quote(tag)}"
                )
    for name in collection.decks.values():
        at = first_control(name)
        if at is not None:
            raise InteropError(f"deck {quote(name)} holds {describe_char(name[at])}")


def formula_answer(back: str) -> tuple[str, tuple[str, ...]] | None:
    """The back as a formula answer in typed syntax and its symbols, when the grammar reads it
    as one formula; ``None`` otherwise."""
    from recall.errors import RecallError
    from recall.formula.latex import latex_to_plain, looks_like_latex
    from recall.formula.parser import parse

    text = back.strip()
    delimited = False
    for pattern in _MATHJAX:
        match = pattern.match(text)
        if match:
            text, delimited = match.group(1).strip(), True
            break
    if not text or "\n" in text or len(text) > 500:
        return None
    if not delimited and (_WORDS.search(text) or not _OPERATOR.search(text)):
        return None
    try:
        plain = latex_to_plain(text) if looks_like_latex(text) else text
        if plain.count("=") == 1:
            plain = plain.split("=", 1)[1].strip()
        expression = parse(plain)
    except (RecallError, RecursionError):
        return None
    if expression.unknown_functions or not expression.free_symbols:
        return None
    return expression.to_text(), tuple(sorted(expression.free_symbols))


def _deck_id(prefix: str, name: str) -> str:
    from recall.interop.text_import import slug

    made = slug(f"{prefix} {name.replace('::', ' ')}").replace(".", "-")
    return made[:60].strip("-") or prefix


def _note_tables(notes: list[AnkiNote]) -> list[dict[str, Any]]:
    """Deck-file card tables for notes of other note types (the first field is the front, the
    second the back; media references are dropped, the package's media files are counted)."""
    from recall.interop.text_import import Note, choose_kind

    tables: list[dict[str, Any]] = []
    for note in notes:
        fields = [html_to_text(text) for text in note.fields]
        front = fields[0][0] if fields else ""
        back = fields[1][0] if len(fields) > 1 else ""
        card_id = f"n{note.id}"
        tags = [t for t in note.tags if t]
        common: dict[str, Any] = {"id": card_id, "source": "Anki"}
        if tags:
            common["tags"] = tags
        if not front and not back:
            front = "(empty note)"
        if choose_kind(Note(front, back)).value == "cloze":
            from recall.cards.writer import card_to_dict
            from recall.interop.text_import import notes_to_deck

            built = notes_to_deck([Note(front, back, note_id=card_id)], deck_id="x", name="x")
            table = card_to_dict(built.cards[0])
            tables.append({**table, **common})
            continue
        formula = formula_answer(back)
        if formula is not None:
            answer, symbols = formula
            tables.append(
                {
                    **common,
                    "kind": "formula",
                    "prompt": front or "(no prompt)",
                    "answer": answer,
                    "symbols": dict.fromkeys(symbols, "real"),
                }
            )
            continue
        tables.append(
            {
                **common,
                "kind": "explain",
                "prompt": front or "(no prompt)",
                "model_answer": back or "(empty back)",
            }
        )
    return tables


def _parts(
    foreign: dict[str, list[AnkiNote]], prefix: str
) -> list[tuple[str, list[AnkiNote], str]]:
    """(Anki deck name, notes, deck id) per generated deck file: an Anki deck larger than a deck
    file may be is split in note-id order (``…-2``, ``…-3``), so a note keeps its file as long
    as no older note is deleted (Anki ids grow with time)."""
    from recall.cards.schema import MAX_CARDS

    out = []
    for name, notes in sorted(foreign.items()):
        ordered = sorted(notes, key=lambda note: note.id)
        base = _deck_id(prefix, name)
        for part, start in enumerate(range(0, len(ordered), MAX_CARDS), start=1):
            suffix = "" if part == 1 else f"-{part}"
            label = name if part == 1 else f"{name} ({part})"
            out.append((label, ordered[start : start + MAX_CARDS], base + suffix))
    return out


def _as_explain(table: dict[str, Any]) -> dict[str, Any]:
    """A formula card the engine's deck checks refuse (a name it reads differently, say), as a
    self-rated card: the import goes on, and the learner can fix the formula later."""
    out = {k: v for k, v in table.items() if k not in ("answer", "symbols", "kind")}
    return {**out, "kind": "explain", "model_answer": f"{table.get('answer', '')}"}


#: The comment line a generated deck file carries so that importing the same package again
#: knows the file without rebuilding it: what it was made from, and the digest of its text.
STAMP = "Import stamp (a repeat import of the same package checks it):"


def _source_digest(header: dict[str, str], comment: str, notes: list[AnkiNote]) -> str:
    """A digest of everything a generated deck file is made from: the code that makes it
    (recall's version and sources), its ``[deck]`` table and comment, and its notes' ids,
    fields and tags in order. Hashing these is far cheaper than converting the notes."""
    from recall.cards.parse_cache import sources_fingerprint

    digest = hashlib.sha256(
        sources_fingerprint(("anki_import.py", "interop", "cards", "formula")).encode()
    )
    digest.update(json.dumps([header, comment], sort_keys=True).encode())
    for note in notes:
        digest.update(json.dumps([note.id, note.fields, note.tags]).encode())
    return digest.hexdigest()[:32]


def _text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _stamped(text: str, source: str, comment_lines: int) -> str:
    """Deck-file ``text`` with the stamp line after its ``comment_lines`` comment lines."""
    head = text.split("\n", comment_lines)
    stamp = f"# {STAMP} {source} {_text_digest(text)}"
    return "\n".join([*head[:comment_lines], stamp, *head[comment_lines:]])


def _unstamped(text: str) -> tuple[str, str | None]:
    """``text`` without its stamp line, and the stamp (``None`` when it has none)."""
    lines = text.split("\n")
    for number, line in enumerate(lines):
        if not line.startswith("#"):
            break
        if line.startswith(f"# {STAMP} "):
            return "\n".join(lines[:number] + lines[number + 1 :]), line[len(STAMP) + 3 :]
    return text, None


def _unchanged(existing: str, source: str) -> bool:
    """Whether a deck file's text is what this import would write: its stamp names the same
    source and its text is the text the stamp names (not edited since)."""
    body, stamp = _unstamped(existing)
    return stamp is not None and stamp == f"{source} {_text_digest(body)}"


def _read_text(target: Path) -> str | None:
    """The text of a deck file this import would write, or ``None`` when there is none yet;
    only a regular file is read, and no more than a deck file may hold."""
    import os

    from recall.cards.loader import DECK_LIMITS
    from recall.regular_files import read_regular

    if not os.path.lexists(target):
        return None
    try:
        raw = read_regular(target, DECK_LIMITS.max_bytes)
    except OSError as error:
        message = f"{quote(str(target))} cannot be read: {error.strerror or error}"
        raise InteropError(message) from error
    return raw.decode("utf-8", errors="replace")


def _checked_text(
    target: Path,
    header: dict[str, str],
    tables: list[dict[str, Any]],
    *,
    source: Path,
    comment: str,
    stamp: str,
) -> tuple[Deck, str]:
    """The deck and the text to write for it, checked as loading will check it (structure,
    untrusted text and the formula engine's checks) before anything is written. A formula card
    the engine refuses becomes a self-rated card (:func:`_as_explain`) and the deck is checked
    again; anything else refused raises :class:`InteropError`. The check's result is what
    loading the written file reuses (:func:`recall.cards.loader.check_deck_text` hands it to
    the load of those very bytes in this process, with the deck cache on or off), so the
    checks run once."""
    from recall.cards.loader import check_deck_text
    from recall.cards.writer import deck_to_toml
    from recall.grading import check_deck
    from recall.interop.deck_tables import deck_from_tables

    lines = len(comment.splitlines())
    for attempt in (1, 2):
        deck = deck_from_tables(header, tables, source=str(source), siblings=False)
        text = _stamped(deck_to_toml(deck, comment=comment), stamp, lines)
        checked, errors = check_deck_text(text, target, check=check_deck)
        if checked is not None:
            return deck, text
        refused = {error.card_id for error in errors if error.card_id}
        formulas = {t["id"] for t in tables if t.get("kind") == "formula" and t["id"] in refused}
        if attempt == 2 or not formulas:
            raise InteropError(f"{target} would not load: {errors[0]}")
        tables = [_as_explain(t) if t["id"] in formulas else t for t in tables]
    raise AssertionError("unreachable")


def run_import(args: argparse.Namespace) -> int:
    from recall.cards.writer import deck_to_toml
    from recall.commands import custom_folder, open_workspace
    from recall.interop.deck_tables import deck_from_tables
    from recall.paths import write_atomically

    path = Path(args.file)
    collection = read_package(path)
    _refuse_controls(collection)
    prefix = str(args.deck_prefix or "anki")
    if first_control(prefix) is not None or not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,30}", prefix):
        raise InteropError(f"--deck-prefix {quote(prefix)} must be lowercase letters and digits")
    report = Report(media=collection.media, media_names=list(collection.media_names))

    workspace = open_workspace(args, sync=False)  # the deck files only: no database yet
    try:
        known = set(workspace.cards)
        ours = {
            ntid
            for ntid, nt in collection.notetypes.items()
            if nt.name == NOTE_TYPE_NAME or nt.fields[:3] == FIELD_NAMES
        }
        key_of_note: dict[int, str] = {}
        foreign: dict[str, list[AnkiNote]] = defaultdict(list)
        deck_of_note: dict[int, int] = {}
        for card in collection.cards:
            deck_of_note.setdefault(card.note, card.original_deck or card.deck)
        for note in collection.notes:
            if note.notetype in ours and len(note.fields) >= 3:
                key = html_to_text(note.fields[2])[0]
                if key in known:
                    key_of_note[note.id] = key
                    report.matched_notes += 1
                    continue
            name = collection.decks.get(deck_of_note.get(note.id, 1), "Default")
            foreign[name].append(note)

        folder = custom_folder(args)
        loaded = {str(Path(deck.path).resolve()): deck for deck in workspace.decks}
        # Every deck is built and checked before the first is written: a refusal leaves nothing
        # behind. A file this import wrote before from the same notes is known by its stamp and
        # not rebuilt (what it holds is checked when it loads, as every deck file is).
        planned = []
        for name, notes, deck_id in _parts(foreign, prefix):
            header = {
                "id": deck_id,
                "name": name.replace("::", " / ") or deck_id,
                "description": f"Imported from Anki ({path.name}).",
            }
            comment = (
                f"Imported by `recall anki import` from {path.name} (Anki deck {name}).\n"
                "Formula backs became formula cards (symbols declared real: refine them),\n"
                "everything else explain cards (self-rated)."
            )
            target = folder / f"{deck_id}.toml"
            for note in notes:
                key_of_note[note.id] = f"{deck_id}/n{note.id}"
            stamp = _source_digest(header, comment, notes)
            try:
                existing = _read_text(target)
            except InteropError:
                if not args.force:
                    raise
                existing = None  # --force writes over what cannot be read, as it always did
            same = loaded.get(str(target.resolve()))
            if existing is not None and same is not None and _unchanged(existing, stamp):
                kinds = Counter(str(card.kind) for card in same.cards)
                report.decks.append(
                    GeneratedDeck(target, kinds, written=False, same=True, forced=args.force)
                )
                continue
            tables = _note_tables(notes)
            if existing is not None and not args.force:
                deck = deck_from_tables(header, tables, source=str(path), siblings=False)
                text = deck_to_toml(deck, comment=comment)
                kinds = Counter(str(card.kind) for card in deck.cards)
                same_text = _unstamped(existing)[0] == text
                if not same_text:
                    report.kept_files.append(target)
                report.decks.append(GeneratedDeck(target, kinds, written=False, same=same_text))
                continue
            deck, text = _checked_text(
                target, header, tables, source=path, comment=comment, stamp=stamp
            )
            kinds = Counter(str(card.kind) for card in deck.cards)
            if existing == text:  # --force, and the file is already this text: not rewritten
                report.decks.append(GeneratedDeck(target, kinds, written=False, forced=True))
                continue
            planned.append((target, kinds, text, existing is not None))
        for target, kinds, text, replaced in planned:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomically(target, text)
            report.decks.append(
                GeneratedDeck(target, kinds, written=True, forced=args.force, replaced=replaced)
            )
        if planned:
            workspace.reload()
        else:  # nothing written: the files loaded when the workspace opened are current
            workspace.sync()
        written = {str(deck.path.resolve()) for deck in report.decks}
        for failure in workspace.failures:
            if str(Path(failure.path).resolve()) in written:  # what we made must load
                raise InteropError(f"{failure.path} did not load: {failure.errors[0]}")
        _import_schedules_and_reviews(workspace, collection, key_of_note, report)
    finally:
        workspace.close()
    _print(report)
    return 0


def _import_schedules_and_reviews(
    workspace: Any, collection: AnkiCollection, key_of_note: dict[int, str], report: Report
) -> None:
    from recall.memory import model as memory_model
    from recall.scheduling.replay import replayed_memory
    from recall.store.memory import ImportedReview, MemoryModelStore
    from recall.store.timeutil import to_millis

    store = workspace.store
    settings = memory_model.scheduler_settings(store, workspace.settings)
    now = workspace.clock()
    clock = day_clock(collection, now)
    present = set(workspace.cards)
    key_of_card = {
        card.id: key_of_note[card.note]
        for card in collection.cards
        if card.note in key_of_note and key_of_note[card.note] in present
    }
    reviews, skipped = reviews_of(collection.revlog)
    report.skipped = skipped
    by_card: dict[int, list[Review]] = defaultdict(list)
    for review in reviews:
        by_card[review.anki_card].append(review)

    # Each card's schedule as Anki has it (of a note's cards, the one reviewed last), then the
    # ones recall would adopt (Anki saw a later review); only those of SM-2 cards are completed
    # by replaying their reviews through FSRS, so a repeat import replays nothing.
    states: dict[str, tuple[CardState, bool]] = {}
    history_of: dict[str, list[Review]] = {}
    for card in collection.cards:
        key = key_of_card.get(card.id)
        if key is None:
            continue
        history = by_card.get(card.id, [])
        last = history[-1].reviewed_at if history else None  # reviews come oldest first
        schedule = schedule_of(
            card,
            clock,
            last_review=last,
            learning_steps=len(settings.learning_steps),
            relearning_steps=len(settings.relearning_steps),
        )
        state = schedule.state
        if state.due is None:
            continue
        previous = states.get(key)
        if previous is None or _later(state, previous[0]):
            states[key] = (state, schedule.suspended)
            if not schedule.has_memory and history:
                history_of[key] = history
            else:
                history_of.pop(key, None)
    memory_store = MemoryModelStore(store)
    newer = memory_store.newer_states(states)
    rollover = getattr(workspace.settings, "day_rollover_hour", 4)
    replayed: set[str] = set()
    for key in sorted(newer.intersection(history_of)):
        state, suspended = states[key]
        memory = replayed_memory(
            [(r.reviewed_at, r.rating) for r in history_of[key]],
            settings.parameters,
            rollover_hour=rollover,
        )
        if memory is not None:
            states[key] = (replace(state, stability=memory[0], difficulty=memory[1]), suspended)
            replayed.add(key)
    adopted = memory_store.adopt({key: states[key] for key in newer})
    report.adopted, report.kept = len(adopted), len(states) - len(adopted)
    report.replayed = len(replayed.intersection(adopted))
    # What the imported log holds already is read first, in one pass, and set aside: a file
    # imported again hands the store nothing to look up. The rest go grouped by card (the store
    # looks up what it holds a few hundred cards at a time), each card's oldest first.
    stored = memory_store.imported_times(key_of_card.values())
    imported: list[ImportedReview] = []
    there = 0
    for key, anki_card in sorted((key, card) for card, key in key_of_card.items()):
        times = stored.get(key, ())
        for review in by_card.get(anki_card, ()):
            if times and to_millis(review.reviewed_at) in times:
                there += 1
                continue
            imported.append(
                ImportedReview(
                    card_key=key,
                    reviewed_at=review.reviewed_at,
                    rating=review.rating,
                    state=review.phase,
                    duration_ms=review.duration_ms,
                )
            )
    report.unmatched = len(reviews) - len(imported) - there
    report.added, report.already = memory_store.import_reviews(
        imported, now, own_within_ms=OWN_REVIEW_WITHIN_MS
    )
    report.already += there


def _later(state: CardState, other: CardState) -> bool:
    """Whether ``state`` saw a later review than ``other`` (two Anki cards of one note)."""
    if state.last_review is None:
        return False
    return other.last_review is None or state.last_review > other.last_review


def _print(report: Report) -> None:
    for deck in report.decks:
        summary = ", ".join(f"{count} {kind}" for kind, count in sorted(deck.kinds.items()))
        verb = ("rewrote" if deck.replaced else "wrote") if deck.written else "kept"
        cards = f"{count_of(sum(deck.kinds.values()), 'card')} ({summary}) in {deck.path}"
        if deck.forced and not deck.written:
            cards += ": already what this import writes, so --force did not rewrite it"
        print(f"{verb} {cards}")
    for target in report.kept_files:
        print(f"  {target} differs from this import and was left as it is (--force rewrites it)")
    if report.matched_notes:
        print(
            f"{count_of(report.matched_notes, 'note')} matched recall's own cards (by their "
            "deck/card field): their schedules and reviews are counted below"
        )
    # Every count is what this run did: a schedule is said to be rebuilt from SM-2 history
    # only when this run adopted it (a repeat import replays nothing and says nothing of it).
    rebuilt = f" ({report.replayed} rebuilt from SM-2 history)" if report.replayed else ""
    print(
        f"schedules: {report.adopted} adopted{rebuilt}, {report.kept} kept "
        "(recall's were as new or newer)"
    )
    print(
        f"{count_of(report.added, 'review')} imported, {report.already} already there "
        "(imported reviews feed the memory model; they do not count as drilled here)"
    )
    if report.media:
        print(f"{count_of(report.media, 'media file')} skipped: recall cards carry no media")
        for name in report.media_names[:SHOWN_SKIPPED]:
            print(f"  {quote(name)}")
        if len(report.media_names) > SHOWN_SKIPPED:
            print(f"  ... and {len(report.media_names) - SHOWN_SKIPPED} more")
    if report.unchanged:
        print("nothing changed: this package's notes, schedules and reviews are all here already")
    if report.skipped or report.unmatched:
        # every row counted once: the reviews of cards not imported are rows too
        rows = len(report.skipped) + report.unmatched
        print(f"{count_of(rows, 'revlog row')} skipped:")
        if report.unmatched:
            print(
                f"  {count_of(report.unmatched, 'review')} of cards whose notes were not "
                "imported (cards of a note type recall does not read, or notes a deck file kept)"
            )
        for shown, skipped in enumerate(report.skipped):
            if shown >= SHOWN_SKIPPED:
                print(f"  ... and {len(report.skipped) - SHOWN_SKIPPED} more")
                break
            print(f"  {skipped}")
