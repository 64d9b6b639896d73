"""``recall decks …``: list, validate, check, create, show, import and export decks.

* ``list``: every deck (built-in and custom) with its card count and file; failed files with
  their errors.
* ``sync``: bring the database in line with the deck files now (what every start does), and
  say what changed. On a database several learners share, the owner runs it after installing
  a newer recall: the shared (built-in) decks are written by the owner's login alone.
* ``validate [PATH ...]``: check deck files (default: all) and print each error as
  ``file:line: card 'id': message (suggestion)``; exit 1 on any error, so it can guard a
  learner's own deck repository in CI. ``--identities`` also proves each card's stated
  identities with the engine.
* ``check [DECK ...]``: grade what a learner sees before each card with the real graders
  (:mod:`recall.grading.leaks`) and print every card that shows its own answer, and every
  giveaway between two cards that are not siblings (the loader finds most pairs from the text
  itself; for one it cannot see, the ``siblings = [...]`` line to add is printed); exit 1 on
  any.
* ``new NAME``: write a commented template deck (one card of every kind) to the custom folder.
* ``show DECK [--json]``: every card with its kind, prompt, reference answer and symbols.
* ``import FILE``: an Anki text export, a Quizlet export or a CSV/TSV file → a new deck.
* ``export DECK --format csv|json``: to stdout or ``--output``.

Heavy imports (the engine, through the loader's checks) happen inside the handlers.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from recall.inert import inert, quote
from recall.wording import count_of

if TYPE_CHECKING:
    from recall.cards.model import Deck
    from recall.grading.leaks import ShownAnswer


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "decks",
        help="list, validate, create, show, import and export decks",
        description="Work with deck files: the built-in decks and your own (in the data "
        "directory's decks/ folder, or --decks DIR / RECALL_DECKS).",
    )
    parser.set_defaults(func=_usage(parser))
    actions = parser.add_subparsers(dest="decks_command", metavar="ACTION")

    listing = actions.add_parser("list", help="list every deck and any deck that failed to load")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    listing.set_defaults(func=run_list)

    sync = actions.add_parser(
        "sync",
        help="bring the database in line with the deck files now, and say what changed",
        description="Sync the deck files into the database, as every start does, and print "
        "what changed. On a database several learners share, the shared (built-in) decks are "
        "written by the owner alone: run it as the owner after installing a newer recall. "
        "Exit status 1 when shared decks differ from this recall's and this login may not "
        "change them.",
    )
    sync.set_defaults(func=run_sync)

    validate = actions.add_parser(
        "validate",
        help="check deck files; exit 1 on any error",
        description="Check deck files (default: every built-in and custom deck). Each error is "
        "printed as file:line: card 'id': message (suggestion). Exit status 1 on any error.",
    )
    validate.add_argument("paths", nargs="*", metavar="PATH", help="deck files or folders")
    validate.add_argument(
        "--identities",
        action="store_true",
        help="also prove every identity the cards state (slower: uses SymPy)",
    )
    validate.add_argument(
        "--structure-only",
        action="store_true",
        help="skip the formula-engine checks (keys, types and ids only)",
    )
    validate.set_defaults(func=run_validate)

    check = actions.add_parser(
        "check",
        help="find answers a card's screen gives away (exit 1 if any)",
        description="Grade everything a learner sees before answering each card (prompt, shown "
        "formula, legend, hint, unit, deck name, and the other cards of its deck) against the "
        "card's answer with the real graders. Prints each card whose own screen shows its "
        "answer, and each pair of cards that answer each other without being siblings. Exit "
        "status 1 when there is either.",
    )
    check.add_argument(
        "deck_specs", nargs="*", metavar="DECK", help="deck ids or files (default: all)"
    )
    check.add_argument(
        "--all",
        action="store_true",
        help="also list the pairs already kept apart as siblings, and the deck's vocabulary",
    )
    check.set_defaults(func=run_check)

    new = actions.add_parser("new", help="write a commented template deck to fill in")
    new.add_argument("name", help="the deck's name, e.g. 'My losses'")
    new.add_argument("--id", dest="deck_id", help="deck id (default: made from the name)")
    new.add_argument("--output", "-o", type=Path, help="file to write (default: custom folder)")
    new.add_argument("--force", action="store_true", help="overwrite an existing file")
    new.set_defaults(func=run_new)

    show = actions.add_parser("show", help="print every card of a deck")
    show.add_argument("deck", help="deck id, or a deck file")
    show.add_argument("--json", action="store_true", help="machine-readable output")
    show.add_argument(
        "--rendered",
        action="store_true",
        help="each card as the drill screen shows it, before and after grading",
    )
    show.add_argument(
        "--seed", type=int, default=0, metavar="N", help="seed for numeric cards' values (0)"
    )
    show.set_defaults(func=run_show)

    imp = actions.add_parser(
        "import",
        help="make a deck from an Anki text export, a Quizlet export or a CSV/TSV file",
        description="Import flashcards into a new deck. Anki's 'Notes in Plain Text' headers "
        "(#separator:, #html:, #columns:, #tags column:) are honoured; Quizlet exports are "
        "term<TAB>definition (or comma) per line (or ';'). Cards whose back is a number become "
        "fact cards, short names reverse cards, Anki clozes cloze cards, anything else explain "
        "cards (self-rated); edit the deck to turn a card into a graded formula card.",
    )
    imp.add_argument("file", type=Path, help="the export file")
    imp.add_argument("--name", help="deck name (default: from the file name)")
    imp.add_argument("--id", dest="deck_id", help="deck id (default: made from the name)")
    imp.add_argument(
        "--format",
        dest="fmt",
        default="auto",
        choices=("auto", "anki", "quizlet", "csv", "json"),
        help="input format (json: recall's own `decks export --format json`)",
    )
    imp.add_argument(
        "--field-sep", help="between front and back: tab, comma, semicolon, or a character"
    )
    imp.add_argument(
        "--card-sep", help="between cards (Quizlet): newline, semicolon, or a character"
    )
    imp.add_argument(
        "--kind",
        default="auto",
        choices=("auto", "explain", "reverse"),
        help="card kind for every note (default: chosen per note)",
    )
    imp.add_argument(
        "--output", "-o", type=Path, help="deck file to write (default: custom folder)"
    )
    imp.add_argument("--force", action="store_true", help="overwrite an existing file")
    imp.set_defaults(func=run_import)

    export = actions.add_parser("export", help="write a deck as CSV (Anki-readable) or JSON")
    export.add_argument("deck", help="deck id, or a deck file")
    export.add_argument("--format", dest="fmt", choices=("csv", "json"), default="csv")
    export.add_argument("--output", "-o", type=Path, help="file to write (default: stdout)")
    export.set_defaults(func=run_export)


def _usage(parser: argparse.ArgumentParser):  # noqa: ANN202 - a run(args) callable
    def run(args: argparse.Namespace) -> int:
        parser.print_help()
        return 2

    return run


def _short(path: str | os.PathLike[str]) -> str:
    """``path`` relative to the working directory when it is under it (shorter errors)."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return str(path)
    return relative if not relative.startswith("..") else str(path)


# ----- list ----------------------------------------------------------------------------------


def run_list(args: argparse.Namespace) -> int:
    from recall.commands import open_workspace

    workspace = open_workspace(args, sync=False)
    if args.json:
        import json

        payload = {
            "decks": [
                {
                    "id": d.id,
                    "name": d.name,
                    "topic": d.topic,
                    "cards": len(d.cards),
                    "path": d.path,
                    "builtin": d.builtin,
                }
                for d in workspace.decks
            ],
            "failures": [
                {"path": f.path, "errors": [str(e) for e in f.errors]} for f in workspace.failures
            ],
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
        return 0
    if not workspace.decks and not workspace.failures:
        print("no decks found")
        return 0
    names = workspace.deck_names  # a name two decks share is followed by the deck's id
    rows = [
        (d.id, names[d.id], str(len(d.cards)), _short(d.path) + ("" if d.builtin else "  (custom)"))
        for d in workspace.decks
    ]
    header = ("ID", "NAME", "CARDS", "FILE")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(3)]
    for row in [header, *rows]:
        print(f"{row[0]:<{widths[0]}}  {row[1]:<{widths[1]}}  {row[2]:>{widths[2]}}  {row[3]}")
    total = sum(len(d.cards) for d in workspace.decks)
    print(f"\n{count_of(len(workspace.decks), 'deck')}, {count_of(total, 'card')}")
    if workspace.failures:
        failed = len(workspace.failures)
        skipped = "was" if failed == 1 else "were"
        print(f"\n{count_of(failed, 'deck file')} failed to load and {skipped} skipped:")
        for failure in workspace.failures:
            print(f"  {_short(failure.path)}")
            for error in failure.errors:
                print(f"    {_error_line(error)}")
    return 0


# ----- sync ----------------------------------------------------------------------------------


def run_sync(args: argparse.Namespace) -> int:
    from recall.commands import open_workspace

    workspace = open_workspace(args)  # syncs; says on stderr what a learner's login could not
    try:
        report = workspace.last_sync
        decks = len(workspace.decks)
    finally:
        workspace.close()
    if report is None:  # pragma: no cover - open_workspace syncs
        return 1
    figures = [
        count_of(len(report.added), "card") + " added",
        f"{len(report.changed)} changed",
        f"{len(report.retired)} retired",
        f"{len(report.restored)} restored",
        f"{report.unchanged} unchanged",
    ]
    print(f"Synced {count_of(decks, 'deck')}: {', '.join(figures)}.")
    if report.behind:
        listed = ", ".join(quote(deck, 40) for deck in report.behind)
        print(f"Left as the database has them (the owner's to sync): {listed}.")
        return 1
    return 0


def _error_line(error: object) -> str:
    from recall.errors import DeckError

    if isinstance(error, DeckError) and error.path:
        clone = DeckError(
            error.message, _short(error.path), error.line, error.card_id, error.suggestion
        )
        return str(clone)
    return str(error)


# ----- validate ------------------------------------------------------------------------------


def run_validate(args: argparse.Namespace) -> int:
    from recall.cards.loader import DeckCheck, deck_files, load_decks
    from recall.commands import custom_folder
    from recall.paths import builtin_decks_dir

    targets = (
        [Path(p) for p in args.paths] if args.paths else [builtin_decks_dir(), custom_folder(args)]
    )
    missing = 0
    for target in targets:
        if args.paths and not deck_files(target):
            print(
                f"{target}: no deck files here (a .toml file or a folder of them)", file=sys.stderr
            )
            missing += 1
    check: DeckCheck | None = None
    if not args.structure_only:
        from recall.grading import check_deck

        check = check_deck
    result = load_decks(targets, check=check)
    errors = 0
    for failure in result.failures:
        for error in failure.errors:
            print(_error_line(error))
            errors += 1
    claims_failed = 0
    if args.identities and not args.structure_only:
        from recall.grading import check_card_claims

        for card in result.cards:
            for outcome in check_card_claims(card):
                if not outcome.ok:
                    line = card.line or None
                    where = f"{_short(card.path)}:{line}" if line else _short(card.path)
                    print(
                        f"{where}: card '{quote(card.id)}': identity #{outcome.index + 1} does not "
                        f"hold: {outcome.message}"
                    )
                    claims_failed += 1
    files = len(result.decks) + len(result.failures)
    cards = len(result.cards)
    summary = (
        f"{count_of(files, 'deck file')} checked: "
        f"{len(result.decks)} ok ({count_of(cards, 'card')}), "
        f"{len(result.failures)} with errors ({count_of(errors, 'error')})"
    )
    if args.identities and not args.structure_only:
        summary += f"; {count_of(claims_failed, 'identity claim')} failed"
    print(summary, file=sys.stderr)
    return 1 if (result.failures or claims_failed or missing) else 0


# ----- check ---------------------------------------------------------------------------------


def run_check(args: argparse.Namespace) -> int:
    from recall.commands import open_workspace
    from recall.grading.leaks import deck_leaks, sibling_pairs_of

    status = StatusLine.on_stderr()
    try:
        if args.deck_specs:
            decks = []
            for spec in args.deck_specs:
                status.show(f"Loading {spec}…")
                decks.append(find_deck(spec, args))
        else:
            decks = list(open_workspace(args, sync=False, progress=status.show).decks)
    finally:
        status.clear()
    faults = 0
    pairs = 0
    for number, deck in enumerate(decks, 1):
        status.show(f"Checking deck {number}/{len(decks)}: {deck.id}…")
        try:
            found = deck_leaks(deck, sibling_pairs_of(deck))
        finally:  # an error's message starts on a clean line
            status.clear()
        where = _card_place(deck)
        for leak in found.own:
            shown_by = "the deck's name" if leak.by == "" else f"its own {leak.field}"
            print(
                f'{where(leak.card)}: {shown_by} shows the answer: "{quote(leak.matched)}" '
                "grades Correct"
            )
            faults += 1
        for leak in found.unburied:
            print(
                f"{where(leak.card)}: card '{leak.by}' ({leak.field}) shows the answer: "
                f'"{quote(leak.matched)}" grades Correct, and the two are not siblings '
                "(the text alone does not show it: reword one, or declare them siblings)"
            )
            faults += 1
        for line in sibling_lines(deck, found.unburied):
            print(line)
        pairs += len(found.pairs)
        if args.all:
            for leak in found.across:
                if leak not in found.unburied:
                    print(
                        f"{where(leak.card)}: sibling '{leak.by}' ({leak.field}) shows "
                        f'"{quote(leak.matched)}"; kept apart'
                    )
            for leak in found.vocabulary:
                print(
                    f"{where(leak.card)}: '{leak.by}' ({leak.field}) shows "
                    f'"{quote(leak.matched)}"; shown by many cards: the deck\'s vocabulary, '
                    "not kept apart"
                )
    print(
        f"{count_of(len(decks), 'deck')} checked: {count_of(faults, 'giveaway')} to fix; "
        f"{count_of(pairs, 'pair')} of cards answering each other",
        file=sys.stderr,
    )
    return 1 if faults else 0


class StatusLine:
    """One line of progress on a terminal, rewritten in place, for a command that works for a
    while before it prints (``decks check`` reads for half a minute). Nothing is written when
    the stream is not a terminal, so pipes, files and tests see only the command's output.

    The text is made inert (a deck's id or a typed spec may hold control characters); the
    carriage return and erase-line sequence are the only controls written, straight to the
    terminal beneath recall's inert stderr.
    """

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream
        self._shown = False

    @classmethod
    def on_stderr(cls) -> StatusLine:
        stream = getattr(sys.stderr, "wrapped", sys.stderr)
        try:
            terminal = bool(stream.isatty())
        except (AttributeError, ValueError, OSError):
            terminal = False
        return cls(stream if terminal else None)

    def show(self, text: str) -> None:
        if self._stream is None:
            return
        line = inert(text, one_line=True)
        if len(line) > _STATUS_WIDTH:  # keep the end: a file's name, a count
            line = "…" + line[-(_STATUS_WIDTH - 1) :]
        self._stream.write(f"\r\x1b[K{line}")
        self._stream.flush()
        self._shown = True

    def clear(self) -> None:
        if self._stream is None or not self._shown:
            return
        self._stream.write("\r\x1b[K")
        self._stream.flush()
        self._shown = False


#: Characters of a status line: short of an 80-column terminal's width, so it never wraps.
_STATUS_WIDTH = 76


def sibling_lines(deck: Deck, unburied: Iterable[ShownAnswer]) -> list[str]:
    """For each card a giveaway the loader cannot see is about, the ``siblings = [...]`` line
    that keeps the two apart: the card's declared siblings (still valid) and the new ones, to
    put under its ``[[card]]`` header (the line that header is on is named)."""
    wanted: dict[str, list[str]] = {}
    for leak in unburied:
        wanted.setdefault(leak.card, [])
        if leak.by not in wanted[leak.card]:
            wanted[leak.card].append(leak.by)
    where = _card_place(deck)
    lines = []
    for card_id, new in wanted.items():
        card = deck.card(card_id)
        ids = list(card.siblings) + [other for other in new if other not in card.siblings]
        listed = ", ".join(f'"{quote(other)}"' for other in ids)
        verb = "replace its siblings line with" if card.siblings else "add under its header"
        lines.append(f"{where(card_id)}: {verb}: siblings = [{listed}]")
    return lines


def _card_place(deck: Deck) -> Callable[[str], str]:
    """``file:line: card 'id'`` for the cards of ``deck``, as validation errors say it."""
    lines = {card.id: card.line for card in deck.cards}

    def where(card_id: str) -> str:
        line = lines.get(card_id) or None
        # Anyone's text, made inert but kept whole: it is where the card is.
        path = inert(_short(deck.path), one_line=True)
        place = f"{path}:{line}" if line else path
        return f"{place}: card '{card_id}'"

    return where


# ----- new -----------------------------------------------------------------------------------


def run_new(args: argparse.Namespace) -> int:
    from recall.cards.schema import DECK_ID
    from recall.cards.template import new_deck_text
    from recall.commands import custom_folder
    from recall.errors import DeckError
    from recall.interop.text_import import slug
    from recall.paths import make_private_dirs, write_atomically

    deck_id = args.deck_id or slug(args.name).replace(".", "-")
    if not deck_id or not DECK_ID.match(deck_id):
        raise DeckError(
            f"cannot make a deck id from '{quote(args.name)}'",
            suggestion="pass --id with lowercase letters, digits, '-' and '_'",
        )
    _refuse_builtin_id(deck_id)
    target = args.output or custom_folder(args) / f"{deck_id}.toml"
    _refuse_overwrite(target, args.force)
    make_private_dirs(target.parent)
    write_atomically(target, new_deck_text(args.name, deck_id, path_hint=str(target)))
    print(f"wrote {target}")
    print(f"edit it, then check it with: recall decks validate {target}")
    return 0


def _refuse_builtin_id(deck_id: str) -> None:
    """A new deck may not take a built-in deck's id: the file would be written, then skipped at
    every load ("deck id 'losses' is already used by ...")."""
    from recall.cards.loader import builtin_deck_ids
    from recall.errors import DeckError

    if deck_id in builtin_deck_ids():
        raise DeckError(
            f"deck id '{quote(deck_id)}' is a built-in deck's",
            suggestion="pass --id with another id, e.g. --id my-" + deck_id,
        )


def _refuse_overwrite(target: Path, force: bool) -> None:
    from recall.errors import DeckError

    if target.exists() and not force:
        raise DeckError(f"{target} already exists", suggestion="pick another name or pass --force")


# ----- show / export -------------------------------------------------------------------------


def find_deck(spec: str, args: argparse.Namespace | None = None) -> Deck:
    """A deck by id among the workspace's decks, or by file path (validated either way)."""
    from recall.cards.loader import load_deck
    from recall.commands import open_workspace
    from recall.errors import DeckError
    from recall.grading import check_deck

    path = Path(spec)
    if path.suffix == ".toml" and os.path.lexists(path) and not path.is_dir():
        return load_deck(path, check=check_deck)  # a FIFO or a device is refused, with why
    workspace = open_workspace(args or argparse.Namespace(), sync=False)
    found = workspace.deck(spec)
    if found is not None:
        return found
    for failure in workspace.failures:
        if Path(failure.path).stem == spec:
            raise DeckError(
                f"deck '{quote(spec)}' failed to load:\n" + "\n".join(map(str, failure.errors))
            )
    from recall.cards.problems import did_you_mean

    ids = [d.id for d in workspace.decks]
    raise DeckError(
        f"no deck '{quote(spec)}'", suggestion=did_you_mean(spec, ids) or "see `recall decks list`"
    )


def run_show(args: argparse.Namespace) -> int:
    from recall.interop.text_export import back_text, front_text, to_json

    deck = find_deck(args.deck, args)
    if args.json:
        sys.stdout.write(to_json(deck))
        return 0
    if args.rendered:
        from recall.commands.decks_rendered import rendered_deck

        for line in rendered_deck(deck, args.seed):
            print(line)
        return 0
    print(f"{deck.name} ({deck.id}) — {count_of(len(deck.cards), 'card')} — {_short(deck.path)}")
    if deck.description:
        print(deck.description)
    for card in deck.cards:
        print()
        print(f"[{card.kind}] {card.id}  (line {card.line})")
        for line in front_text(card).splitlines():
            print(f"  {line}")
        answer = back_text(card)
        label = "model answer" if card.kind == "explain" else "answer"
        lines = answer.splitlines() or [""]
        print(f"  {label}: {lines[0]}")
        for line in lines[1:]:
            print(f"    {line}")
        if card.params:
            from recall.cards.writer import param_to_dict

            for spec in card.params:
                print(f"  param {spec.name}: {param_to_dict(spec)}")
        for symbol in card.symbols:
            meaning = f" — {symbol.meaning}" if symbol.meaning else ""
            print(f"  {symbol.name}: {symbol.domain}{meaning}")
        for function in card.functions:
            meaning = f" — {function.meaning}" if function.meaning else ""
            print(f"  {function.name}(): {function.means}{meaning}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    from recall.interop.text_export import to_csv, to_json
    from recall.paths import write_atomically

    deck = find_deck(args.deck, args)
    text = to_csv(deck) if args.fmt == "csv" else to_json(deck)
    if args.output:
        write_atomically(args.output, text)
        print(f"wrote {count_of(len(deck.cards), 'card')} to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


# ----- import --------------------------------------------------------------------------------


#: The largest file ``recall decks import`` reads: four times a deck file's limit. Anything
#: larger is refused before it is read (a deck holds at most 1 MiB; an export carries its text
#: plus markup and bookkeeping columns, never four times as much).
MAX_IMPORT_BYTES = 4 << 20


def _read_import(source: Path) -> str:
    """The text of an import file: a regular file of at most :data:`MAX_IMPORT_BYTES`, checked
    before a byte is read (a 100 MB export is refused in a millisecond)."""
    from recall.errors import DeckError
    from recall.inert import inert
    from recall.regular_files import check_regular, read_regular

    limit = f"{MAX_IMPORT_BYTES >> 20} MiB"
    shown = inert(str(source), one_line=True)  # a file name is anyone's text
    try:
        size = check_regular(source).st_size
        if size > MAX_IMPORT_BYTES:
            raise DeckError(
                f"{shown} is {size / (1 << 20):.1f} MiB: an import file may be at most {limit} "
                "(a deck file at most 1 MiB)",
                suggestion="split it and import each part as its own deck",
            )
        raw = read_regular(source, MAX_IMPORT_BYTES)
    except OSError as error:
        raise DeckError(f"cannot read {shown}: {error.strerror or error}") from None
    if len(raw) > MAX_IMPORT_BYTES:  # it grew while being read
        raise DeckError(f"{shown} is over {limit}: an import file may be at most {limit}")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DeckError(f"{shown} is not UTF-8 text", suggestion="export it as UTF-8") from None


def _write_imported(deck: Deck, target: Path, comment: str) -> None:
    """Write an imported deck to ``target`` only once all of it is known to load: its text is
    checked (size, structure, the engine's checks) before anything is written, and written
    atomically, so a refused import leaves nothing in the decks folder."""
    from recall.cards.loader import check_deck_text
    from recall.cards.problems import DeckFileError
    from recall.cards.writer import deck_to_toml
    from recall.grading import check_deck
    from recall.paths import make_private_dirs, write_atomically

    text = deck_to_toml(deck, comment=comment)
    checked, errors = check_deck_text(text, target, check=check_deck)
    if checked is None:
        raise DeckFileError(str(target), errors)
    make_private_dirs(target.parent)
    write_atomically(target, text)


def run_import(args: argparse.Namespace) -> int:
    from collections import Counter

    from recall.commands import custom_folder
    from recall.inert import inert
    from recall.interop.json_deck import looks_like_json
    from recall.interop.text_import import notes_to_deck, read_notes, slug

    source: Path = args.file
    text = _read_import(source)
    if args.fmt == "json" or (args.fmt == "auto" and looks_like_json(text)):
        return _import_json(args, text, source)
    imported = read_notes(
        text, source=str(source), fmt=args.fmt, field_sep=args.field_sep, card_sep=args.card_sep
    )
    # A file name is text recall did not write: what becomes deck text is made inert.
    file_name = inert(source.name, one_line=True)
    stem = inert(source.stem, one_line=True)
    name = args.name or stem.replace("_", " ").replace("-", " ").strip().capitalize()
    deck_id = args.deck_id or slug(name).replace(".", "-") or "imported"
    deck = notes_to_deck(
        imported.notes,
        deck_id=deck_id,
        name=name,
        description=f"Imported from {file_name}.",
        kind=args.kind,
        source=file_name,
    )
    target: Path = args.output or custom_folder(args) / f"{deck_id}.toml"
    _refuse_overwrite(target, args.force)
    comment = (
        f"Imported by `recall decks import` from {file_name} ({imported.format} format).\n"
        "Numbers became fact cards, short names reverse cards, clozes cloze cards, and\n"
        "everything else explain cards (self-rated). To have the engine grade a card,\n"
        'make it kind = "formula" with an answer in typed syntax and its symbols declared.'
    )
    _write_imported(deck, target, comment)
    for warning in imported.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    kinds = Counter(str(card.kind) for card in deck.cards)
    summary = ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items()))
    print(f"imported {count_of(len(deck.cards), 'card')} ({summary}) into {target}")
    return 0


def _import_json(args: argparse.Namespace, text: str, source: Path) -> int:
    """``recall decks import`` of a JSON export: the deck as it was, every kind kept."""
    from recall.commands import custom_folder
    from recall.interop.json_deck import read_json_deck

    deck = read_json_deck(text, source=str(source), deck_id=args.deck_id, name=args.name)
    target: Path = args.output or custom_folder(args) / f"{deck.id}.toml"
    _refuse_overwrite(target, args.force)
    comment = f"Imported by `recall decks import` from {source.name} (recall JSON export)."
    _write_imported(deck, target, comment)
    print(f"imported {count_of(len(deck.cards), 'card')} into {target}")
    return 0
