"""The rules of each card kind, beyond the keys the schema lists for it.

A formula may state the form of its answer, a cloze has exactly one blank, a fact has a value or
a range, a numeric card shows every parameter it declares: rules that a key table cannot say.
:meth:`KindRules._kind_formula` and its siblings are looked up by the kind's name, so a new kind
is one method here and one entry in :mod:`recall.cards.schema`.
"""

from __future__ import annotations

import math
from typing import Any

from recall.cards import rules, schema
from recall.cards.model import KeyPoint, PointValue
from recall.cards.positions import Path
from recall.cards.problems import did_you_mean
from recall.cards.specs import SpecReader
from recall.inert import quote

#: What to write for a required key a card lacks.
MISSING_HINTS = {
    "prompt": 'add prompt = "..." (the question; say what the symbols are)',
    "answer": 'add answer = "..." in typed syntax (`recall help syntax`)',
    "params": "add a [card.params] table, e.g. N = { low = 1e8, high = 7e10, log = true }",
    "shown": "add shown = '...' (the formula displayed, LaTeX or typed syntax)",
    "accept": 'add accept = ["name", "synonym"]',
    "text": 'add text = "... {{}} ..." with the blank marked',
    "model_answer": 'add model_answer = """...""" in your own words',
}


class KindRules(SpecReader):
    """Checks one card's kind-specific rules, filling the kind's extra :class:`Card` fields."""

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
                        f"'{quote(name)}' in '{quote(key)}' is not a name in typed syntax",
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
        """Explain cards may declare key points (``[[card.points]]``); without them they are
        self-rated. Each point needs its model sentence and at least one way to say it."""
        raw = entry.get("points", [])
        if len(raw) > schema.MAX_POINTS:
            self.problems.add(
                f"{len(raw)} key points; at most {schema.MAX_POINTS}",
                (*where, "points"),
                card_id=card_id,
                suggestion="keep the points a learner must make: three to six read best",
            )
            return
        points = []
        for i, item in enumerate(raw):
            point = self._key_point(item, (*where, "points", i), card_id)
            if point is not None:
                points.append(point)
        fields["points"] = tuple(points)

    def _key_point(self, item: dict[str, Any], at: Path, card_id: str) -> KeyPoint | None:
        entry = self._check_table(item, schema.POINT_KEYS, at, card_id, "a key point")
        say = entry.get("say", "").strip()
        if not say:
            self.problems.add(
                "key point has no 'say'",
                at,
                card_id=card_id,
                suggestion='add say = "..." (the sentence shown when the point is missed)',
            )
            return None
        words = tuple(" ".join(w.split()) for w in entry.get("words", ()))
        formulas = tuple(f.strip() for f in entry.get("formulas", ()))
        values = []
        for j, raw_value in enumerate(entry.get("values", ())):
            value_at = (*at, "values", j)
            got = self._check_table(
                raw_value, schema.POINT_VALUE_KEYS, value_at, card_id, "a point's value"
            )
            if "value" not in got or not math.isfinite(got["value"]):
                self.problems.add(
                    "a point's value needs a finite 'value'",
                    value_at,
                    card_id=card_id,
                    suggestion="{ value = 0.5, within = 0.05 }",
                )
                continue
            within = got.get("within", 0.0)
            if not math.isfinite(within) or within < 0:
                self.problems.add(
                    "'within' must be a finite number, zero or more",
                    (*value_at, "within"),
                    card_id=card_id,
                )
                continue
            values.append(PointValue(float(got["value"]), float(within)))
        ways = len(words) + len(formulas) + len(values)
        if not ways:
            self.problems.add(
                "key point lists no way to say it",
                at,
                card_id=card_id,
                suggestion='add words = ["phrase", "other phrase"] (or formulas, values)',
            )
            return None
        if ways > schema.MAX_PHRASINGS:
            self.problems.add(
                f"key point lists {ways} phrasings; at most {schema.MAX_PHRASINGS}",
                at,
                card_id=card_id,
            )
            return None
        for j, phrase in enumerate(words):
            if not phrase or not any(ch.isalnum() for ch in phrase):
                self.problems.add("a phrasing has no words", (*at, "words", j), card_id=card_id)
                return None
        opposites = tuple(" ".join(w.split()) for w in entry.get("opposites", ()))
        if len(opposites) > schema.MAX_PHRASINGS:
            self.problems.add(
                f"key point lists {len(opposites)} opposites; at most {schema.MAX_PHRASINGS}",
                (*at, "opposites"),
                card_id=card_id,
            )
            return None
        for j, phrase in enumerate(opposites):
            if not any(ch.isalnum() for ch in phrase):
                self.problems.add(
                    "an opposite has no words", (*at, "opposites", j), card_id=card_id
                )
                return None
        subject = entry.get("subject", "").strip()
        versus = tuple(term.strip() for term in entry.get("versus", ()))
        if not self._contrast_ok(subject, versus, at, card_id):
            return None
        return KeyPoint(
            say=say,
            words=words,
            formulas=formulas,
            values=tuple(values),
            subject=subject,
            versus=versus,
            opposites=opposites,
        )

    def _contrast_ok(self, subject: str, versus: tuple[str, ...], at: Path, card_id: str) -> bool:
        """A contrast names one word (with ``|`` alternatives) per term, and a subject needs
        something to be contrasted with."""
        if subject and not versus:
            self.problems.add(
                "a key point's 'subject' needs 'versus' (the terms it is contrasted with)",
                (*at, "subject"),
                card_id=card_id,
                suggestion='subject = "decode", versus = ["prefill"]',
            )
            return False
        for key, term in [("subject", subject)] * bool(subject) + [("versus", t) for t in versus]:
            if not term or " " in term or not any(ch.isalnum() for ch in term):
                self.problems.add(
                    f"{key} term {term!r} must be one word, with '|' between alternatives",
                    (*at, key),
                    card_id=card_id,
                    suggestion='"batchnorm|bn"',
                )
                return False
        if len(versus) > schema.MAX_CONTRAST:
            self.problems.add(
                f"{len(versus)} terms in 'versus'; at most {schema.MAX_CONTRAST}",
                (*at, "versus"),
                card_id=card_id,
            )
            return False
        return True

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
                        f"'{quote(key)}' needs a math blank ('answer'), not a word blank",
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
                f"prompt uses {{{name}}} but no parameter '{quote(name)}' is declared",
                (*where, "prompt"),
                card_id=card_id,
                suggestion=did_you_mean(name, declared)
                or f"add {name} = {{ low = ..., high = ... }} under [card.params]",
            )
        for name in sorted(declared - shown):
            self.problems.add(
                f"parameter '{quote(name)}' is never shown in the prompt",
                (*where, "params", name),
                card_id=card_id,
                suggestion=f"write {{{name}}} in the prompt where its value should appear",
            )
