"""``recall anki export [DECK…] FILE.apkg`` and ``recall anki import FILE.apkg|.colpkg``.

Export hands recall's cards to Anki with their schedules and histories (a legacy ``.apkg``,
:mod:`recall.interop.apkg_write`); import brings an Anki collection's notes, schedules and
review history into recall (:mod:`recall.interop.apkg_read`, :mod:`recall.anki_import`).

Anki adds a package's cards once and never updates a card it already has, so an export is a
hand-off to Anki (a phone), not a sync; both the output and the docs say so.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from recall.wording import count_of

HAND_OFF = (
    "This is a hand-off, not a sync: Anki adds these cards once and never updates a card it "
    "already has, so later reviews in recall do not reach a device that imported them. In "
    "Anki, turn FSRS on (deck options) to schedule them from their memory state."
)


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "anki",
        help="move decks, schedules and history to and from Anki (.apkg)",
        description="Export recall's cards with their schedules and review history as an Anki "
        "package, or import an Anki package or collection (.apkg, .colpkg).",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    exporting = actions.add_parser(
        "export",
        help="write decks with schedules and history as an .apkg (a hand-off, not a sync)",
        description="Write the named decks (all decks when none is named) as a legacy Anki "
        "package: one note per card (prompt, answer with MathJax, deck/card), each card's "
        "schedule and FSRS memory state, and every review. " + HAND_OFF,
    )
    # not "decks": that is the global --decks folder
    exporting.add_argument("deck_ids", nargs="*", metavar="DECK", help="deck ids (default: all)")
    exporting.add_argument("target", metavar="FILE.apkg", help="the package to write")
    importing = actions.add_parser(
        "import",
        help="read an Anki .apkg or .colpkg: notes, schedules and review history",
        description="Import an Anki package: its notes become a deck (formula backs become "
        "formula cards, clozes cloze cards, the rest self-rated), its cards keep their "
        "schedule, and every review joins your imported history. Importing the same file again "
        "changes nothing, and says so.",
    )
    importing.add_argument("file", type=Path, help="the .apkg or .colpkg file")
    importing.add_argument(
        "--deck-prefix",
        default="anki",
        metavar="PREFIX",
        help="prefix of the deck ids made for imported notes (default: anki)",
    )
    importing.add_argument("--force", action="store_true", help="rewrite generated deck files")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.action == "export":
        return run_export(args)
    from recall.anki_import import run_import

    return run_import(args)


def run_export(args: argparse.Namespace) -> int:
    from recall.commands import open_workspace
    from recall.errors import ConfigError
    from recall.grading.anki_fields import note_fields
    from recall.inert import quote
    from recall.interop.apkg_write import ExportCard, ExportSettings, write_apkg
    from recall.memory import model as memory_model

    deck_ids, target_text = list(args.deck_ids), str(args.target)
    target = Path(target_text)
    if target.suffix.lower() != ".apkg":
        raise ConfigError(
            f"the last argument must be the package to write, ending in .apkg: got "
            f"{quote(target_text)}"
        )
    if not target.parent.is_dir():
        raise ConfigError(f"{quote(str(target.parent))} is not a folder")
    workspace = open_workspace(args)
    try:
        decks = workspace.decks
        if deck_ids:
            known = {deck.id: deck for deck in decks}
            missing = [d for d in deck_ids if d not in known]
            if missing:
                raise ConfigError(
                    f"no deck {', '.join(repr(quote(d)) for d in missing)}: see `recall decks list`"
                )
            decks = tuple(known[d] for d in dict.fromkeys(deck_ids))
        store = workspace.store
        sched = memory_model.scheduler_settings(store, workspace.settings)
        stored = store.cards_by_key([card.key for deck in decks for card in deck.cards])
        by_card: dict[int, list] = {}
        for entry in store.reviews():
            by_card.setdefault(entry.card_db_id, []).append(entry)
        cards = []
        for deck in decks:
            for card in deck.cards:
                known_card = stored.get(card.key)
                if known_card is None or known_card.retired:
                    continue
                fields = note_fields(card)
                cards.append(
                    ExportCard(
                        key=card.key,
                        deck_name=deck.name,
                        prompt=fields.prompt,
                        answer=fields.answer,
                        state=known_card.state,
                        suspended=known_card.suspended,
                        tags=tuple(t.replace(" ", "_") for t in card.tags),
                        reviews=tuple(by_card.get(known_card.db_id, ())),
                    )
                )
        settings = ExportSettings(
            desired_retention=sched.desired_retention,
            decay=sched.parameters[20] if len(sched.parameters) > 20 else 0.5,
            learning_minutes=tuple(s.total_seconds() / 60 for s in sched.learning_steps),
            relearning_minutes=tuple(s.total_seconds() / 60 for s in sched.relearning_steps),
            parameters=tuple(sched.parameters),
        )
        written = write_apkg(target, cards, now=workspace.clock(), settings=settings)
    finally:
        workspace.close()
    print(
        f"wrote {count_of(written.notes, 'card')} and {count_of(written.reviews, 'review')} "
        f"from {count_of(len(written.decks), 'deck')} to {target}"
    )
    print(HAND_OFF)
    return 0
