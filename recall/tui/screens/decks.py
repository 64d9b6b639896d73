"""Decks: browse and search every card, preview a card as it will be drilled, add or edit a
custom card in a form with a live preview and validation, and see why a deck failed to load."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import (
    DataTable,
    Footer,
    Header,
    Input,
    Label,
    OptionList,
    Select,
    Static,
    TextArea,
)
from textual.widgets.option_list import Option

from recall.tui.card_writer import FORM_FIELDS, FORM_KINDS, CardDraft, error_field, form_error
from recall.tui.messages import DataChanged
from recall.tui.plain import plain
from recall.tui.screens.base import RecallScreen
from recall.tui.views import CardView, DeckFailure, DeckRow, HomeData, PreviewView
from recall.tui.widgets.answer_input import AnswerInput
from recall.tui.widgets.math_panels import render_preview
from recall.tui.widgets.text_input import KeysInOrder, TextBox, TextInput
from recall.wording import count_of


class DecksScreen(RecallScreen):
    """Deck list (with failures), card table, and the highlighted card as it will be drilled."""

    #: The header says where the learner is ("recall — Decks"), as on the stats screen.
    SUB_TITLE = "Decks"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="decks.back"),
        # Priority: the search field has the focus the moment '/' is read, so the keys typed
        # after it are the search (and not this screen's keys: 'a' opened the card form).
        Binding("slash", "search", "Search", id="decks.search", priority=True),
        # Priority too: the card form opens as 'a' is read, and the keys after it wait for its
        # first field (recall.tui.type_ahead); inside a field, 'a' is typed (check_action).
        Binding("a", "add", "Add card", id="decks.add", priority=True),
        Binding("e", "edit", "Edit card", id="decks.edit"),
        Binding("x", "open_editor", "Open in $EDITOR", id="decks.editor", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.deck_id: str | None = None
        self.cards: list[CardView] = []
        #: The card just saved: the browser reopens on its deck with it selected.
        self.keep_key: str | None = None

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False, icon="∑")
        with Horizontal(id="decks-body"):
            with Vertical(id="decks-left"):
                yield TextInput(placeholder="/ search cards", id="card-search")
                yield OptionList(id="deck-list")
            with Vertical(id="decks-right"):
                yield DataTable(id="card-table", cursor_type="row")
                yield VerticalScroll(Static("", id="card-preview"), id="card-preview-box")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one("#card-table", DataTable)
        table.add_column("card", key="id")
        table.add_column("kind", key="kind")
        table.add_column("prompt", key="prompt")
        self.fill_decks()
        self.query_one("#deck-list", OptionList).focus()

    def fill_decks(self) -> None:
        data = self.recall.home_data
        options = self.query_one("#deck-list", OptionList)
        options.clear_options()
        if data is None:
            return
        # The decks that did not load come first, so the screen opens on what needs fixing.
        for index, failure in enumerate(data.failures):
            label = Text("✗ ", style="bold red")
            label.append(plain(failure.path.rsplit("/", 1)[-1], one_line=True))
            options.add_option(Option(label, id=f"fail:{index}"))
        for deck in sorted(data.decks, key=lambda d: (not d.builtin, d.topic, d.name)):
            label = Text(deck.name)
            label.append(f"  {deck.cards}", style="dim")
            if not deck.builtin:
                label.append(" mine", style="italic cyan")
            options.add_option(Option(label, id=f"deck:{deck.id}"))
        if options.option_count:
            keep = f"deck:{self.keep_key.partition('/')[0]}" if self.keep_key else ""
            ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
            options.highlighted = ids.index(keep) if keep in ids else 0

    # ------------------------------------------------------------------ selection

    @on(OptionList.OptionHighlighted, "#deck-list")
    def _deck_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        option_id = event.option.id or ""
        kind, _, value = option_id.partition(":")
        if kind == "deck":
            if self.keep_key and not self.keep_key.startswith(f"{value}/"):
                self.keep_key = None  # the learner moved to another deck
            self.show_deck(value)
        elif kind == "fail" and self.recall.home_data is not None:
            self.show_failure(self.recall.home_data.failures[int(value)])

    def show_deck(self, deck_id: str, search: str = "") -> None:
        self.deck_id = deck_id
        self.cards = list(self.services.cards(deck_id=deck_id, search=search))
        self._fill_table()

    def _fill_table(self) -> None:
        table = self.query_one("#card-table", DataTable)
        table.display = True  # hidden while a failure is shown
        table.clear()
        for card in self.cards:
            prompt = card.prompt.replace("\n", " ")
            table.add_row(plain(card.card_id), plain(card.kind), plain(prompt[:80]), key=card.key)
        if self.cards:
            keys = [card.key for card in self.cards]
            row = keys.index(self.keep_key) if self.keep_key in keys else 0
            table.move_cursor(row=row)
            self.show_card(self.cards[row])
        else:
            self.query_one("#card-preview", Static).update(Text("No cards.", style="dim"))

    def show_failure(self, failure: DeckFailure) -> None:
        """Every problem of every deck that did not load, in full (``failure``'s file first):
        the one place they are all listed. The card table gives the list its height, and the
        box scrolls (Tab reaches it) when they are more than the screen holds."""
        self.deck_id = None
        self.cards = []
        table = self.query_one("#card-table", DataTable)
        table.clear()
        table.display = False
        data = self.recall.home_data
        others = [f for f in (data.failures if data else ()) if f is not failure]
        parts: list[RenderableType] = []
        for index, shown in enumerate([failure, *others]):
            where = shown.path + (f":{shown.line}" if shown.line else "")
            problems = shown.message.splitlines() or ["did not load"]
            title = "This deck did not load" if index == 0 else "Nor did this one"
            parts += [
                Text(f"{title} ({count_of(len(problems), 'problem')})", style="bold red"),
                plain(where, "bold"),
                *(Text.assemble("• ", plain(problem)) for problem in problems),
                Text(""),
            ]
        parts.append(
            Text(
                "Fix the file (x opens it in $EDITOR), then r on the home screen reloads.",
                style="dim",
            )
        )
        self.query_one("#card-preview", Static).update(Group(*parts))
        self.query_one("#card-preview-box", VerticalScroll).scroll_home(animate=False)

    @on(DataTable.RowHighlighted, "#card-table")
    def _card_highlighted(self, event: DataTable.RowHighlighted) -> None:
        card = self._card_by_key(event.row_key.value if event.row_key else None)
        if card is not None:
            self.show_card(card)

    def _card_by_key(self, key: str | None) -> CardView | None:
        return next((c for c in self.cards if c.key == key), None)

    def current_card(self) -> CardView | None:
        table = self.query_one("#card-table", DataTable)
        if not self.cards or table.row_count == 0:
            return None
        row_key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return self._card_by_key(row_key.value)

    def show_card(self, card: CardView) -> None:
        self.query_one("#card-preview", Static).update(
            card_as_drilled(card, self.services.reference(card))
        )

    # ------------------------------------------------------------------ search

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("search", "add") and isinstance(self.focused, KeysInOrder):
            return False  # '/' or 'a' typed in a field is text
        return True

    def action_search(self) -> None:
        # Now, not after a refresh (Widget.focus): the next key read goes to the field.
        self.set_focus(self.query_one("#card-search", Input))

    @on(Input.Changed, "#card-search")
    def _search_changed(self, event: Input.Changed) -> None:
        query = event.value.strip()
        if query:
            self.deck_id = None
            self.cards = list(self.services.cards(deck_id=None, search=query))
            self._fill_table()
        else:
            self.show_deck(self.deck_id or "")

    @on(Input.Submitted, "#card-search")
    def _search_submitted(self) -> None:
        self.query_one("#card-table", DataTable).focus()

    # ------------------------------------------------------------------ editing

    def action_back(self) -> None:
        if self.focused is self.query_one("#card-search", Input):
            self.query_one("#deck-list", OptionList).focus()
            return
        self.app.pop_screen()

    def action_add(self) -> None:
        deck = self._custom_deck()
        self.recall.open_typed_into(
            CardForm(self.services.custom_deck_ids(), None, deck.id if deck else None),
            self._saved,
        )

    def action_edit(self) -> None:
        card = self.current_card()
        if card is None:
            return
        deck = self._deck_row(card.deck_id)
        if deck is None or deck.builtin:
            self.notify(
                "Built-in cards are read-only here; x opens the file in $EDITOR.", timeout=4
            )
            return
        draft = self.services.draft_of(card)
        if draft is None:
            self.notify("This card's kind is edited in $EDITOR (x).", timeout=4)
            return
        self.app.push_screen(
            CardForm(self.services.custom_deck_ids(), draft, card.deck_id, card.line),
            self._saved,
        )

    def _saved(self, key: str | None) -> None:
        if key is None:
            return
        self.keep_key = key
        self.post_message(DataChanged("a card was saved"))
        self.notify(f"Saved {key}.", timeout=3)
        self.reload_after_edit()

    @work(thread=True, exclusive=True, exit_on_error=False, group="decks-reload")
    def reload_after_edit(self) -> None:
        data = self.services.load()
        self.post_message(DecksReloaded(data))

    def on_decks_reloaded(self, message: DecksReloaded) -> None:
        self.recall.home_data = message.data
        self.fill_decks()

    def action_open_editor(self) -> None:
        from recall.tui.editor import edit_in_editor

        card = self.current_card()
        path, line = (card.path, card.line) if card else (self._failure_path(), 0)
        if not path:
            return
        problem = edit_in_editor(self.app, path, line)
        if problem:
            self.notify(problem, severity="error")
            return
        self.post_message(DataChanged("a deck file was edited"))
        self.reload_after_edit()

    def _failure_path(self) -> str:
        options = self.query_one("#deck-list", OptionList)
        if options.highlighted is None or self.recall.home_data is None:
            return ""
        option_id = options.get_option_at_index(options.highlighted).id or ""
        if option_id.startswith("fail:"):
            return self.recall.home_data.failures[int(option_id[5:])].path
        return ""

    def _deck_row(self, deck_id: str) -> DeckRow | None:
        data = self.recall.home_data
        return next((d for d in data.decks if d.id == deck_id), None) if data else None

    def _custom_deck(self) -> DeckRow | None:
        deck = self._deck_row(self.deck_id or "")
        return deck if deck is not None and not deck.builtin else None


class DecksReloaded(Message):
    """The decks were reloaded after an edit."""

    def __init__(self, data: HomeData) -> None:
        super().__init__()
        self.data = data


def card_as_drilled(card: CardView, reference: str) -> RenderableType:
    """The card the way the drill screen will ask it, with the reference answer below."""
    parts: list[RenderableType] = [
        Text(card.key + (f" · {card.source}" if card.source else ""), style="dim"),
        Text(card.prompt, style="bold"),
    ]
    if card.shown:
        parts.append(Text(card.shown))
    for name, meaning in card.symbols:
        parts.append(Text.assemble((name, "bold"), f"  {meaning}"))
    if card.unit:
        parts.append(Text(f"answer in {card.unit}", style="dim"))
    parts.append(Text("answer", style="dim underline"))
    if card.self_rated:
        parts.append(Text(card.model_answer))
        parts.extend(Text(f"• {n}") for n in card.numbers)
    else:
        parts.append(Text(reference or "—"))
    if card.hint:
        parts.append(Text.assemble(("hint ", "dim"), card.hint))
    return Group(*parts)


class CardForm(ModalScreen[str | None]):
    """Add or edit a custom card; returns the saved card's key, or ``None`` if cancelled.

    The answer is previewed on every keystroke; saving validates the whole deck with the real
    loader and keeps the form open with the errors if it does not load.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", id="form.save", priority=True),
        Binding("escape", "cancel", "Cancel", id="form.cancel"),
        # Priority: moved the moment the key arrives. As a plain binding, Tab is looked up only
        # once it has gone through the field, and the keys typed right after it were already
        # handed to that field: fast typing landed in the previous field.
        Binding("tab", "next_field", "Next field", id="form.next", priority=True, show=False),
        Binding(
            "shift+tab",
            "previous_field",
            "Previous field",
            id="form.previous",
            priority=True,
            show=False,
        ),
    ]

    def action_next_field(self) -> None:
        self.focus_next()

    def action_previous_field(self) -> None:
        self.focus_previous()

    def __init__(
        self,
        deck_ids: tuple[str, ...],
        draft: CardDraft | None,
        deck_id: str | None,
        line: int | None = None,
    ) -> None:
        super().__init__()
        self.deck_ids = deck_ids
        self.draft = draft
        self.deck_id = deck_id or (deck_ids[0] if deck_ids else "my-cards")
        self.line = line

    def compose(self) -> ComposeResult:
        draft = self.draft
        editing = draft is not None
        with VerticalScroll(id="form-box", classes="dialog"):
            yield Static(
                Text.assemble(
                    ("Edit card" if editing else "New card", "bold"),
                    ("  Ctrl-S saves · Esc cancels · Tab next field", "dim"),
                ),
                classes="dialog-title",
            )
            yield Label("Deck id (a new id makes a new deck file)")
            # Editing keeps the deck and the id (they name the card's history), but the fields
            # stay focusable and locked, so Tab walks the same fields for add and for edit.
            yield _field(AnswerInput(self.deck_id, id="form-deck", select_on_focus=False))
            yield Label("Card id")
            yield _field(
                AnswerInput(draft.id if draft else "", id="form-id", select_on_focus=False)
            )
            yield Label("Kind")
            yield Select(
                [(k, k) for k in FORM_KINDS],
                value=draft.kind if draft else "formula",
                allow_blank=False,
                id="form-kind",
                compact=True,
            )
            yield Label("Prompt")
            yield TextBox(draft.prompt if draft else "", id="form-prompt", compact=True)
            yield Label(
                "Answer (typed math, a number, names a, b, or the model answer)",
                id="form-answer-label",
            )
            yield _field(TextInput(_answer_of(draft), id="form-answer", select_on_focus=False))
            yield Static("", id="form-preview")
            yield Label("Shown formula (reverse cards)")
            yield _field(
                TextInput(draft.shown if draft else "", id="form-shown", select_on_focus=False)
            )
            yield Label("Symbols: name: domain, ...  e.g. sigma: positive, p: (0, 1)")
            yield _field(TextInput(_symbols_of(draft), id="form-symbols", select_on_focus=False))
            yield Label("Hint")
            yield _field(
                TextInput(draft.hint if draft else "", id="form-hint", select_on_focus=False)
            )
            for name in FORM_FIELDS:
                yield Static("", id=f"form-{name}-error", classes="form-error")
            yield Static("", id="form-errors")

    def on_mount(self) -> None:
        if self.draft is not None:
            for name in ("deck", "id"):
                self.query_one(f"#form-{name}", AnswerInput).locked = True
        self._place_errors()
        self._show_errors([])
        # Adding starts on the first field; editing on the first one that takes typing (the
        # deck and the id are locked: words typed into them would vanish).
        self.query_one("#form-deck" if self.draft is None else "#form-prompt").focus()
        self._refresh_preview()

    def _place_errors(self) -> None:
        """Each field's error line sits right under the field."""
        box = self.query_one("#form-box", VerticalScroll)
        for name in FORM_FIELDS:
            box.move_child(
                self.query_one(f"#form-{name}-error"), after=self.query_one(f"#form-{name}")
            )

    def _show_errors(self, errors: list[str]) -> None:
        """Put each error under its field, then focus the first such field and scroll its error
        into view (at 80x24 most of the form is below the fold)."""
        by_field: dict[str, list[str]] = {}
        for error in errors:
            by_field.setdefault(error_field(error), []).append(error)
        for name in FORM_FIELDS:
            line = self.query_one(f"#form-{name}-error", Static)
            line.update(Text("\n".join(f"✗ {form_error(e)}" for e in by_field.get(name, ()))))
            line.display = name in by_field
        summary = self.query_one("#form-errors", Static)
        summary.display = bool(errors)
        if errors:
            summary.update(Text("Not saved: the deck would not load (see the marked fields)."))
            first = next(name for name in FORM_FIELDS if name in by_field)
            self.query_one(f"#form-{first}").focus(scroll_visible=False)
            self.call_after_refresh(
                self.query_one(f"#form-{first}-error").scroll_visible, animate=False
            )

    def read_draft(self) -> CardDraft:
        """The form's content as a draft (not yet validated)."""
        kind = str(self.query_one("#form-kind", Select).value)
        answer = self.query_one("#form-answer", Input).value.strip()
        return CardDraft(
            deck_id=self.query_one("#form-deck", Input).value.strip(),
            id=self.query_one("#form-id", Input).value.strip(),
            kind=kind,
            prompt=self.query_one("#form-prompt", TextArea).text.strip(),
            answer=answer if kind in ("formula", "fact") else "",
            accept=tuple(a.strip() for a in answer.split(",") if a.strip())
            if kind == "reverse"
            else (),
            shown=self.query_one("#form-shown", Input).value.strip(),
            model_answer=answer if kind == "explain" else "",
            hint=self.query_one("#form-hint", Input).value.strip(),
            symbols=parse_symbols(self.query_one("#form-symbols", Input).value),
        )

    @on(Input.Changed)
    @on(Select.Changed)
    def _refresh_preview(self) -> None:
        draft = self.read_draft()
        preview: PreviewView | None = self.app.services.preview_draft(draft)  # type: ignore[attr-defined]
        target = self.query_one("#form-preview", Static)
        target.update(render_preview(preview) if preview is not None else "")

    def action_save(self) -> None:
        draft = self.read_draft()
        errors = self.app.services.save_card(draft, self.line)  # type: ignore[attr-defined]
        self._show_errors(errors)
        if errors:
            return
        self.dismiss(f"{draft.deck_id}/{draft.id}")

    def action_cancel(self) -> None:
        self.dismiss(None)


def _field(box: Input) -> Input:
    """A one-line form field: compact (no border), so the form fits at 80x24."""
    box.compact = True
    return box


def parse_symbols(text: str) -> dict[str, str]:
    """``"sigma: positive, p: (0, 1)"`` → ``{"sigma": "positive", "p": "(0, 1)"}``.

    Commas inside brackets belong to the interval, not the list.
    """
    symbols: dict[str, str] = {}
    depth = 0
    current = ""
    items = []
    for char in text:
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        if char == "," and depth <= 0:
            items.append(current)
            current = ""
        else:
            current += char
    items.append(current)
    for item in items:
        name, sep, domain = item.partition(":")
        if name.strip():
            symbols[name.strip()] = domain.strip() if sep else "real"
    return symbols


def _answer_of(draft: CardDraft | None) -> str:
    if draft is None:
        return ""
    if draft.kind == "reverse":
        return ", ".join(draft.accept)
    if draft.kind == "explain":
        return draft.model_answer
    return draft.answer


def _symbols_of(draft: CardDraft | None) -> str:
    if draft is None:
        return ""
    return ", ".join(f"{name}: {domain}" for name, domain in draft.symbols.items())
