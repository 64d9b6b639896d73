"""Raw TOML data → :class:`~recall.cards.model.Deck`, checking structure as it goes.

This is the stdlib half of validation: keys, types, required fields, id syntax and uniqueness,
and the rules of each card kind. It needs no formula engine, so it is fast and always runs.
Whether expressions parse and templates evaluate is the engine's job
(:func:`recall.grading.check_deck`).

Every problem is recorded in a :class:`~recall.cards.problems.Problems` with its line; a card
with structural errors is left out of the result, and the caller treats any error as a failed
deck.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from recall.cards import rules, schema
from recall.cards.model import (
    Card,
    CardKind,
    Deck,
    FunctionSpec,
    Identity,
    ParamSpec,
    SymbolSpec,
    Tolerance,
)
from recall.cards.positions import Path
from recall.cards.problems import Problems, did_you_mean

_TYPE_WORDS = {
    "str": "a string",
    "number": "a number",
    "int": "a whole number",
    "bool": "true or false",
    "table": "a table",
    "list[str]": "a list of strings",
    "list[number]": "a list of numbers",
    "list[table]": "a list of tables",
}


@dataclass(frozen=True)
class BuiltCard:
    """A card and its position in the file's ``card`` array (for locating later errors)."""

    index: int
    card: Card
    own_symbols: frozenset[str] = frozenset()  # declared on the card itself, not the deck
    own_functions: frozenset[str] = frozenset()


@dataclass
class BuiltDeck:
    """The structural result: the deck header and the cards that passed."""

    deck: Deck
    cards: list[BuiltCard]
    symbols: list[SymbolSpec]
    functions: list[FunctionSpec]


def type_ok(value: Any, type_name: str) -> bool:
    """Whether a TOML value has the type a schema names."""
    if type_name == "str":
        return isinstance(value, str)
    if type_name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if type_name == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if type_name == "bool":
        return isinstance(value, bool)
    if type_name == "table":
        return isinstance(value, dict)
    if type_name.startswith("list["):
        inner = type_name[5:-1]
        return isinstance(value, list) and all(type_ok(item, inner) for item in value)
    raise ValueError(type_name)


def _type_word(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


class DeckBuilder:
    """Builds one deck from its parsed TOML, reporting into ``problems``."""

    def __init__(self, problems: Problems, *, builtin: bool = False) -> None:
        self.problems = problems
        self.builtin = builtin

    # ----- shared checks -------------------------------------------------------------------

    def _check_table(
        self,
        table: dict[str, Any],
        allowed: dict[str, str],
        where: Path,
        card_id: str | None,
        what: str,
        *,
        known_elsewhere: dict[str, str] | None = None,
        kind: str | None = None,
    ) -> dict[str, Any]:
        """Report unknown keys and wrong types in ``table``; return the well-typed entries."""
        good: dict[str, Any] = {}
        for key, value in table.items():
            at = (*where, key)
            if key not in allowed:
                if known_elsewhere and key in known_elsewhere and kind:
                    owners = ", ".join(schema.kinds_using(key))
                    self.problems.add(
                        f"key '{key}' is not used by {kind} cards",
                        at,
                        card_id=card_id,
                        suggestion=f"it belongs to {owners} cards; remove it or change 'kind'",
                    )
                    continue
                hint = did_you_mean(key, allowed) or did_you_mean(key, known_elsewhere or {})
                allowed_list = ", ".join(sorted(allowed))
                self.problems.add(
                    f"unknown key '{key}' in {what}",
                    at,
                    card_id=card_id,
                    suggestion=hint or f"allowed keys: {allowed_list}",
                )
                continue
            expected = allowed[key]
            if not type_ok(value, expected):
                self.problems.add(
                    f"'{key}' must be {_TYPE_WORDS[expected]}, not {_type_word(value)}",
                    at,
                    card_id=card_id,
                    suggestion=_type_fix(expected, value),
                )
                continue
            good[key] = value
        return good

    def _symbols(self, raw: dict[str, Any], where: Path, card_id: str | None) -> list[SymbolSpec]:
        specs = []
        for name, value in raw.items():
            at = (*where, name)
            if not schema.NAME.match(name):
                self.problems.add(
                    f"'{name}' is not a valid symbol name",
                    at,
                    card_id=card_id,
                    suggestion="use letters and digits with '_' subscripts, e.g. 'd_k', 'beta_1'",
                )
                continue
            if isinstance(value, str):
                specs.append(SymbolSpec(name=name, domain=value.strip() or "real"))
            elif isinstance(value, dict):
                entry = self._check_table(
                    value, schema.SYMBOL_KEYS, at, card_id, f"symbol '{name}'"
                )
                specs.append(
                    SymbolSpec(
                        name=name,
                        domain=entry.get("domain", "real").strip() or "real",
                        meaning=entry.get("meaning", ""),
                        equals=entry.get("equals", "").strip(),
                        identities_only=entry.get("identities_only", False),
                    )
                )
            else:
                self.problems.add(
                    f"symbol '{name}' must be a domain string or a table",
                    at,
                    card_id=card_id,
                    suggestion=f'{name} = "positive" or '
                    f'{name} = {{ domain = "real", meaning = "..." }}',
                )
        return specs

    def _functions(
        self, raw: dict[str, Any], where: Path, card_id: str | None
    ) -> list[FunctionSpec]:
        specs = []
        for name, value in raw.items():
            at = (*where, name)
            if not schema.NAME.match(name):
                self.problems.add(
                    f"'{name}' is not a valid function name",
                    at,
                    card_id=card_id,
                    suggestion="use letters and digits, e.g. 'f', 'sigma', 'D_KL'",
                )
                continue
            if isinstance(value, str):
                specs.append(FunctionSpec(name=name, means=value.strip() or "unknown"))
            elif isinstance(value, dict):
                entry = self._check_table(
                    value, schema.FUNCTION_KEYS, at, card_id, f"function '{name}'"
                )
                specs.append(
                    FunctionSpec(
                        name=name,
                        means=entry.get("means", "unknown").strip() or "unknown",
                        meaning=entry.get("meaning", ""),
                    )
                )
            else:
                self.problems.add(
                    f"function '{name}' must be a string or a table",
                    at,
                    card_id=card_id,
                    suggestion=f'{name} = "sigmoid" or {name} = "unknown"',
                )
        return specs

    # ----- the deck header -----------------------------------------------------------------

    def build(self, data: dict[str, Any], path: str) -> BuiltDeck | None:
        """Check the whole file; ``None`` when even the deck header is unusable."""
        top_allowed = {"deck": "table", "card": "list[table]"}
        for key in data:
            if key not in top_allowed:
                self.problems.add(
                    f"unknown top-level table or key '{key}'",
                    (key,),
                    suggestion=did_you_mean(key, top_allowed)
                    or "a deck file has [deck] and [[card]] tables",
                )
        raw_deck = data.get("deck")
        if not isinstance(raw_deck, dict):
            self.problems.add(
                "the file has no [deck] table",
                line=1,
                suggestion='start with [deck] and id = "...", name = "..."',
            )
            return None
        header = self._check_table(raw_deck, schema.DECK_KEYS, ("deck",), None, "[deck]")
        for key in schema.DECK_REQUIRED:
            if key not in raw_deck:
                self.problems.add(
                    f"[deck] is missing '{key}'",
                    ("deck",),
                    suggestion=f'add {key} = "..."',
                )
        deck_id = header.get("id", "")
        if isinstance(deck_id, str) and len(deck_id) > schema.MAX_ID:
            self.problems.add(
                f"deck id is {len(deck_id)} characters long; the most is {schema.MAX_ID}",
                ("deck", "id"),
                suggestion="shorten it (the database stores at most that many)",
            )
        elif "id" in header and not schema.DECK_ID.match(deck_id):
            self.problems.add(
                f"deck id '{deck_id}' is not valid",
                ("deck", "id"),
                suggestion="use lowercase letters, digits, '-' and '_', e.g. "
                f"'{_slug(deck_id) or 'my-deck'}'",
            )
        deck_symbols = self._symbols(header.get("symbols", {}), ("deck", "symbols"), None)
        deck_functions = self._functions(header.get("functions", {}), ("deck", "functions"), None)
        name = header.get("name", deck_id)
        topic = header.get("topic", "") or name
        deck_tags = tuple(header.get("tags", ()))
        for key, text in (("name", name), ("topic", topic)):
            if isinstance(text, str) and len(text) > schema.MAX_NAME:
                self.problems.add(
                    f"the deck {key} is {len(text)} characters long; the most is {schema.MAX_NAME}",
                    ("deck", key if key in header else "name"),
                    suggestion="shorten it (the database stores at most that many)",
                )

        raw_cards = data.get("card", [])
        if not isinstance(raw_cards, list):
            raw_cards = []
        if len(raw_cards) > schema.MAX_CARDS:
            self.problems.add(
                f"the deck has {len(raw_cards)} cards; the most in one file is {schema.MAX_CARDS}",
                ("deck",),
                suggestion="split it into several decks",
            )
            raw_cards = []
        if not raw_cards:
            self.problems.add(
                "the deck has no cards",
                ("deck",),
                suggestion="add at least one [[card]] table",
            )
        cards: list[BuiltCard] = []
        seen: dict[str, int] = {}
        for index, raw in enumerate(raw_cards):
            if not isinstance(raw, dict):
                self.problems.add("a card must be a table", ("card", index))
                continue
            card = self._card(
                raw,
                index,
                deck_id=deck_id,
                topic=topic,
                deck_tags=deck_tags,
                deck_symbols=deck_symbols,
                deck_functions=deck_functions,
                path=path,
            )
            card_id = raw.get("id") if isinstance(raw.get("id"), str) else None
            if card_id is not None:
                if card_id in seen:
                    first_line = self.problems.positions.line("card", seen[card_id])
                    self.problems.add(
                        f"duplicate card id '{card_id}'",
                        ("card", index, "id"),
                        card_id=card_id,
                        suggestion="ids must be unique in a deck; "
                        f"the first is at line {first_line}",
                    )
                    continue
                seen[card_id] = index
            if card is not None:
                cards.append(
                    BuiltCard(
                        index,
                        card,
                        frozenset(_names(raw.get("symbols"))),
                        frozenset(_names(raw.get("functions"))),
                    )
                )

        deck = Deck(
            id=deck_id,
            name=name,
            description=header.get("description", ""),
            tags=deck_tags,
            topic=topic,
            path=path,
            builtin=self.builtin,
            cards=tuple(built.card for built in cards),
        )
        return BuiltDeck(deck, cards, deck_symbols, deck_functions)

    # ----- one card ------------------------------------------------------------------------

    def _card(
        self,
        raw: dict[str, Any],
        index: int,
        *,
        deck_id: str,
        topic: str,
        deck_tags: tuple[str, ...],
        deck_symbols: list[SymbolSpec],
        deck_functions: list[FunctionSpec],
        path: str,
    ) -> Card | None:
        where: Path = ("card", index)
        before = len(self.problems.errors)
        raw_id = raw.get("id")
        card_id = raw_id if isinstance(raw_id, str) else None
        label = card_id or f"#{index + 1}"
        if raw_id is None:
            self.problems.add(
                f"card #{index + 1} has no 'id'",
                where,
                suggestion='add id = "..." (lowercase, unique in the deck, never changed later)',
            )
        elif not isinstance(raw_id, str):
            self.problems.add("'id' must be a string", (*where, "id"), card_id=label)
        elif len(raw_id) > schema.MAX_ID:
            self.problems.add(
                f"card id is {len(raw_id)} characters long; the most is {schema.MAX_ID}",
                (*where, "id"),
                card_id=raw_id[:40] + "…",
                suggestion="shorten it (the database stores at most that many)",
            )
        elif not schema.CARD_ID.match(raw_id):
            self.problems.add(
                f"card id '{raw_id}' is not valid",
                (*where, "id"),
                card_id=raw_id,
                suggestion="use lowercase letters, digits, '-', '_' and '.', "
                f"e.g. '{_slug(raw_id) or 'card-1'}'",
            )

        raw_kind = raw.get("kind")
        kind: CardKind | None = None
        kind_names = [str(k) for k in CardKind]
        if raw_kind is None:
            self.problems.add(
                "card has no 'kind'",
                where,
                card_id=label,
                suggestion="kind is one of " + ", ".join(kind_names),
            )
        elif not isinstance(raw_kind, str) or raw_kind not in kind_names:
            self.problems.add(
                f"unknown kind {raw_kind!r}",
                (*where, "kind"),
                card_id=label,
                suggestion=did_you_mean(str(raw_kind), kind_names)
                or "kind is one of " + ", ".join(kind_names),
            )
        else:
            kind = CardKind(raw_kind)

        if kind is None:
            # Still report unknown keys, against every kind's keys.
            self._check_table(raw, schema.all_card_keys(), where, label, "the card")
            return None

        allowed = {**schema.COMMON_KEYS, **schema.KIND_KEYS[kind]}
        entry = self._check_table(
            raw,
            allowed,
            where,
            label,
            "the card",
            known_elsewhere=schema.all_card_keys(),
            kind=str(kind),
        )
        for key in schema.KIND_REQUIRED[kind]:
            if key not in raw:
                self.problems.add(
                    f"{kind} card is missing '{key}'",
                    where,
                    card_id=label,
                    suggestion=_MISSING_HINTS.get(key, f"add '{key}'"),
                )
            elif isinstance(raw[key], str) and not raw[key].strip():
                self.problems.add(f"'{key}' is empty", (*where, key), card_id=label)

        symbols = _merge(
            deck_symbols, self._symbols(entry.get("symbols", {}), (*where, "symbols"), label)
        )
        functions = _merge(
            deck_functions,
            self._functions(entry.get("functions", {}), (*where, "functions"), label),
        )
        identities = self._identities(entry.get("identities", []), (*where, "identities"), label)
        fields: dict[str, Any] = {}
        check = getattr(self, f"_kind_{kind}")
        check(entry, where, label, fields)

        if len(self.problems.errors) > before or card_id is None:
            return None
        tags = tuple(dict.fromkeys((*deck_tags, *entry.get("tags", ()))))
        return Card(
            deck_id=deck_id,
            id=card_id,
            kind=kind,
            prompt=entry.get("prompt", "").strip(),
            answer=entry.get("answer", "").strip(),
            shown=entry.get("shown", "").strip(),
            text=entry.get("text", "").strip(),
            model_answer=entry.get("model_answer", "").strip(),
            numbers=tuple(entry.get("numbers", ())),
            accept=tuple(a.strip() for a in entry.get("accept", ())),
            symbols=tuple(symbols),
            functions=tuple(functions),
            identities=tuple(identities),
            unit=entry.get("unit", ""),
            hint=entry.get("hint", "").strip(),
            source=entry.get("source", ""),
            note=entry.get("note", "").strip(),
            tags=tags,
            topic=topic,
            line=self.problems.positions.card_line(index) or 0,
            path=path,
            **fields,
        )

    def _identities(self, raw: list[dict[str, Any]], where: Path, card_id: str) -> list[Identity]:
        out = []
        for i, item in enumerate(raw):
            at = (*where, i)
            entry = self._check_table(item, schema.IDENTITY_KEYS, at, card_id, "an identity")
            if "rhs" not in entry:
                self.problems.add(
                    "identity has no 'rhs'",
                    at,
                    card_id=card_id,
                    suggestion='{ lhs = "...", rhs = "..." }',
                )
                continue
            if "derivative_of" in entry:
                if "lhs" in entry:
                    self.problems.add(
                        "identity has both 'lhs' and 'derivative_of'",
                        at,
                        card_id=card_id,
                        suggestion="a derivative check is { derivative_of, wrt, rhs }",
                    )
                    continue
                if "wrt" not in entry:
                    self.problems.add(
                        "derivative identity has no 'wrt'",
                        at,
                        card_id=card_id,
                        suggestion='add wrt = "x", the variable to differentiate by',
                    )
                    continue
                out.append(
                    Identity(
                        lhs="",
                        rhs=entry["rhs"],
                        derivative_of=entry["derivative_of"],
                        wrt=entry["wrt"],
                    )
                )
            elif "lhs" in entry:
                if "wrt" in entry:
                    self.problems.add(
                        "'wrt' is only used with 'derivative_of'",
                        (*at, "wrt"),
                        card_id=card_id,
                    )
                    continue
                out.append(Identity(lhs=entry["lhs"], rhs=entry["rhs"]))
            else:
                self.problems.add(
                    "identity has no 'lhs' (or 'derivative_of')",
                    at,
                    card_id=card_id,
                    suggestion='{ lhs = "...", rhs = "..." }',
                )
        return out

    def _tolerance(self, raw: dict[str, Any] | None, where: Path, card_id: str) -> Tolerance | None:
        if raw is None:
            return None
        at = (*where, "tolerance")
        entry = self._check_table(raw, schema.TOLERANCE_KEYS, at, card_id, "tolerance")
        if len(entry) != 1 or len(raw) != 1:
            if len(raw) == len(entry):
                self.problems.add(
                    "tolerance must have exactly one of relative, absolute, sigfigs, exact",
                    at,
                    card_id=card_id,
                    suggestion="e.g. tolerance = { relative = 0.01 }",
                )
            return None
        ((key, value),) = entry.items()
        if key == "exact":
            if value is not True:
                self.problems.add(
                    "'exact' can only be true",
                    at,
                    card_id=card_id,
                    suggestion="drop the tolerance for the default 1% relative",
                )
                return None
            return Tolerance(kind="exact", value=0.0)
        if key == "sigfigs" and value < 1:
            self.problems.add("'sigfigs' must be at least 1", at, card_id=card_id)
            return None
        if key in ("relative", "absolute") and (value < 0 or not math.isfinite(value)):
            self.problems.add(f"'{key}' must be a finite number >= 0", at, card_id=card_id)
            return None
        if key == "relative" and value >= 1:
            self.problems.add(
                f"relative tolerance {value} accepts anything within {value:.0%}",
                at,
                card_id=card_id,
                suggestion="write it as a fraction: 0.05 means 5%",
            )
            return None
        return Tolerance(kind=key, value=float(value))

    # ----- per kind ------------------------------------------------------------------------

    def _kind_formula(
        self, entry: dict[str, Any], where: Path, card_id: str, fields: dict[str, Any]
    ) -> None:
        """Formula cards need only their answer, checked by the engine later, and may state the
        form it takes."""
        self._form_rule(entry, where, card_id, fields)

    def _form_rule(
        self, entry: dict[str, Any], where: Path, card_id: str, fields: dict[str, Any]
    ) -> None:
        """``require``/``forbid``: ASCII names in typed syntax, not both at once."""
        require, forbid = entry.get("require", []), entry.get("forbid", [])
        for key, names in (("require", require), ("forbid", forbid)):
            for i, name in enumerate(names):
                if name.strip() and not (name.isascii() and schema.NAME.match(name)):
                    self.problems.add(
                        f"'{name}' in '{key}' is not a name in typed syntax",
                        (*where, key, i),
                        card_id=card_id,
                        suggestion="spell it as an answer would, e.g. 'sigmoid', 'exp', 'sigma'",
                    )
        for message in rules.problems(require, forbid):
            self.problems.add(message, where, card_id=card_id)
        fields["require"], fields["forbid"] = tuple(require), tuple(forbid)

    def _kind_explain(
        self, entry: dict[str, Any], where: Path, card_id: str, fields: dict[str, Any]
    ) -> None:
        """Explain cards are self-rated: nothing beyond the required keys to check."""

    def _kind_reverse(
        self, entry: dict[str, Any], where: Path, card_id: str, fields: dict[str, Any]
    ) -> None:
        accept = entry.get("accept")
        if accept is not None:
            self._check_accept(accept, where, card_id)

    def _check_accept(self, accept: list[str], where: Path, card_id: str) -> None:
        if not accept:
            self.problems.add(
                "'accept' is empty",
                (*where, "accept"),
                card_id=card_id,
                suggestion="list at least one accepted answer",
            )
        for i, word in enumerate(accept):
            if not word.strip():
                self.problems.add(
                    "an accepted answer is empty", (*where, "accept", i), card_id=card_id
                )

    def _kind_cloze(
        self, entry: dict[str, Any], where: Path, card_id: str, fields: dict[str, Any]
    ) -> None:
        text = entry.get("text")
        if text is not None:
            blanks = text.count(schema.BLANK)
            if blanks != 1:
                self.problems.add(
                    f"cloze text must have exactly one blank '{{{{}}}}', found {blanks}",
                    (*where, "text"),
                    card_id=card_id,
                    suggestion="mark the part to recall with {{}} "
                    "and put it in 'answer' or 'accept'",
                )
        has_answer, has_accept = "answer" in entry, "accept" in entry
        if has_answer == has_accept:
            self.problems.add(
                "cloze card needs exactly one of 'answer' (a math blank) "
                "or 'accept' (a word blank)",
                where,
                card_id=card_id,
                suggestion='answer = "1 - sigmoid(x)" or accept = ["batch"]',
            )
        if has_accept:
            self._check_accept(entry["accept"], where, card_id)
            for key in schema.FORM_KEYS:
                if key in entry:
                    self.problems.add(
                        f"'{key}' needs a math blank ('answer'), not a word blank",
                        (*where, key),
                        card_id=card_id,
                    )
        else:
            self._form_rule(entry, where, card_id, fields)

    def _kind_fact(
        self, entry: dict[str, Any], where: Path, card_id: str, fields: dict[str, Any]
    ) -> None:
        has_value, has_range = "value" in entry, "range" in entry
        if has_value == has_range:
            self.problems.add(
                "fact card needs exactly one of 'value' or 'range'",
                where,
                card_id=card_id,
                suggestion="value = 16, or range = [0.6, 1.3] when the sheet quotes a range",
            )
        if has_value:
            value = entry["value"]
            if not math.isfinite(value):
                self.problems.add("'value' must be finite", (*where, "value"), card_id=card_id)
            fields["value"] = float(value)
        if has_range:
            bounds = entry["range"]
            if (
                len(bounds) != 2
                or not all(math.isfinite(b) for b in bounds)
                or bounds[0] > bounds[1]
            ):
                self.problems.add(
                    "'range' must be [low, high] with low <= high",
                    (*where, "range"),
                    card_id=card_id,
                    suggestion="e.g. range = [0.6, 1.3]",
                )
            else:
                fields["value_range"] = (float(bounds[0]), float(bounds[1]))
        fields["tolerance"] = self._tolerance(entry.get("tolerance"), where, card_id)

    def _kind_numeric(
        self, entry: dict[str, Any], where: Path, card_id: str, fields: dict[str, Any]
    ) -> None:
        fields["tolerance"] = self._tolerance(entry.get("tolerance"), where, card_id)
        params = self._params(entry.get("params", {}), (*where, "params"), card_id)
        fields["params"] = tuple(params)
        if "params" in entry and not params and not entry["params"]:
            self.problems.add(
                "'params' is empty",
                (*where, "params"),
                card_id=card_id,
                suggestion="declare each {name} the prompt uses",
            )
        prompt = entry.get("prompt", "")
        declared = set(entry.get("params", {}))
        shown = set(schema.PLACEHOLDER.findall(prompt))
        for name in sorted(shown - declared):
            self.problems.add(
                f"prompt uses {{{name}}} but no parameter '{name}' is declared",
                (*where, "prompt"),
                card_id=card_id,
                suggestion=did_you_mean(name, declared)
                or f"add {name} = {{ low = ..., high = ... }} under [card.params]",
            )
        for name in sorted(declared - shown):
            self.problems.add(
                f"parameter '{name}' is never shown in the prompt",
                (*where, "params", name),
                card_id=card_id,
                suggestion=f"write {{{name}}} in the prompt where its value should appear",
            )

    def _params(self, raw: dict[str, Any], where: Path, card_id: str) -> list[ParamSpec]:
        specs = []
        for name, value in raw.items():
            at = (*where, name)
            if not schema.NAME.match(name):
                self.problems.add(f"'{name}' is not a valid parameter name", at, card_id=card_id)
                continue
            if not isinstance(value, dict):
                self.problems.add(
                    f"parameter '{name}' must be a table",
                    at,
                    card_id=card_id,
                    suggestion=f"{name} = {{ low = 1, high = 10 }} "
                    f"or {name} = {{ choices = [8, 16] }}",
                )
                continue
            before = len(self.problems.errors)
            entry = self._check_table(value, schema.PARAM_KEYS, at, card_id, f"parameter '{name}'")
            wild = _wild_number(entry)
            if wild is not None:
                self.problems.add(
                    f"parameter '{name}' has {wild[0]} = {_shown(wild[1])}: numbers must be "
                    f"finite and at most {schema.MAX_MAGNITUDE:g} in size",
                    at,
                    card_id=card_id,
                )
                continue
            choices = entry.get("choices")
            low, high = entry.get("low"), entry.get("high")
            if choices is not None:
                if low is not None or high is not None:
                    self.problems.add(
                        f"parameter '{name}' has both 'choices' and a range",
                        at,
                        card_id=card_id,
                        suggestion="keep one: choices = [...] or low/high",
                    )
                elif not choices:
                    self.problems.add(f"parameter '{name}' has no choices", at, card_id=card_id)
            elif low is None or high is None:
                self.problems.add(
                    f"parameter '{name}' needs 'low' and 'high' (or 'choices')",
                    at,
                    card_id=card_id,
                    suggestion=f"{name} = {{ low = 1, high = 10 }}",
                )
            elif not (math.isfinite(low) and math.isfinite(high)) or low > high:
                self.problems.add(
                    f"parameter '{name}' has low > high",
                    at,
                    card_id=card_id,
                    suggestion="swap them",
                )
            elif entry.get("log") and low <= 0:
                self.problems.add(
                    f"parameter '{name}' is drawn in log space but low = {low}",
                    at,
                    card_id=card_id,
                    suggestion="a log-scale range must be positive",
                )
            step = entry.get("step")
            if step is not None and not step > 0:
                self.problems.add(f"parameter '{name}' has step <= 0", at, card_id=card_id)
            elif step is not None and low is not None and high is not None:
                grid = (high - low) / step
                if not (math.isfinite(grid) and grid <= schema.MAX_STEPS):
                    self.problems.add(
                        f"parameter '{name}' has a step of {step:g} over [{low:g}, {high:g}]: "
                        f"more than {schema.MAX_STEPS:g} values",
                        at,
                        card_id=card_id,
                        suggestion="use a larger step, or sigfigs instead",
                    )
            sigfigs = entry.get("sigfigs")
            if sigfigs is not None and not 1 <= sigfigs <= schema.MAX_SIGFIGS:
                self.problems.add(
                    f"parameter '{name}' has sigfigs = {sigfigs}: it must be from 1 to "
                    f"{schema.MAX_SIGFIGS}",
                    at,
                    card_id=card_id,
                )
            if (
                entry.get("integer")
                and low is not None
                and high is not None
                and math.ceil(low) > math.floor(high)
            ):
                self.problems.add(
                    f"parameter '{name}' has no integer in [{low}, {high}]", at, card_id=card_id
                )
            if len(self.problems.errors) > before:
                continue
            specs.append(
                ParamSpec(
                    name=name,
                    low=None if low is None else float(low),
                    high=None if high is None else float(high),
                    choices=tuple(choices or ()),
                    log=bool(entry.get("log", False)),
                    integer=bool(entry.get("integer", False)),
                    step=None if step is None else float(step),
                    sigfigs=sigfigs,
                    meaning=entry.get("meaning", ""),
                )
            )
        return specs


def _wild_number(entry: dict[str, Any]) -> tuple[str, Any] | None:
    """The first number of a parameter spec that no float arithmetic survives (an integer of
    400 digits, ``inf``, ``nan``, ``1e308`` whose range overflows), as ``(key, value)``."""
    for key in ("low", "high", "step"):
        if not _tame(entry.get(key, 0)):
            return key, entry[key]
    for choice in entry.get("choices") or ():
        if not _tame(choice):
            return "choices", choice
    return None


def _shown(number: int | float) -> str:
    """A number for a message, never hundreds of digits long."""
    text = repr(number)
    return text if len(text) <= 24 else f"{text[:12]}… ({len(text)} digits)"


def _tame(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return True  # not a number: the type check reports it
    try:
        return math.isfinite(value) and abs(value) <= schema.MAX_MAGNITUDE
    except OverflowError:
        return False


def _names(table: Any) -> list[str]:
    return list(table) if isinstance(table, dict) else []


def _merge(base: list[Any], own: list[Any]) -> list[Any]:
    """Deck-level specs overridden by the card's own (same name), card order last."""
    by_name = {spec.name: spec for spec in base}
    for spec in own:
        by_name.pop(spec.name, None)
    return [*by_name.values(), *own]


#: What to write for a required key a card lacks.
_MISSING_HINTS = {
    "prompt": 'add prompt = "..." (the question; say what the symbols are)',
    "answer": 'add answer = "..." in typed syntax (docs/syntax.md)',
    "params": "add a [card.params] table, e.g. N = { low = 1e8, high = 7e10, log = true }",
    "shown": "add shown = '...' (the formula displayed, LaTeX or typed syntax)",
    "accept": 'add accept = ["name", "synonym"]',
    "text": 'add text = "... {{}} ..." with the blank marked',
    "model_answer": 'add model_answer = """...""" in your own words',
}


def _type_fix(expected: str, value: Any) -> str | None:
    if expected == "str" and isinstance(value, int | float):
        return f'quote it: "{value}"'
    if expected.startswith("list[") and not isinstance(value, list):
        return f"wrap it in a list: [{value!r}]" if isinstance(value, str | int | float) else None
    if expected in ("number", "int") and isinstance(value, str):
        return "remove the quotes"
    return None


def _slug(text: str) -> str:
    out = []
    for ch in text.lower():
        if ch.isascii() and ch.isalnum():
            out.append(ch)
        elif out and out[-1] != "-":
            out.append("-")
    return "".join(out).strip("-")
