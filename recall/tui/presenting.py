"""Turn cards, engine previews and verdicts into the views the screens draw.

Pure functions over the shared content model (:mod:`recall.cards.model`) and the engine's result
types; the engine is imported inside the functions so this module is cheap to import before the
first frame. Everything here is called from worker threads as well as the event loop, so nothing
keeps state here (formulas drawn before are kept by :mod:`recall.tui.shown_cache`, which locks).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from recall.cards.model import Card, CardKind, mentioned_names
from recall.mistakes import MISSED_POINT
from recall.tui.views import CardView, FeedbackView, PreviewView, Rating
from recall.verdicts import LISTED_TERMS, Status

if TYPE_CHECKING:
    from recall.formula import Preview, Verdict
    from recall.grading import Question

#: Kinds whose answer box takes math (numbers included) rather than words.
_MATH_KINDS = (CardKind.FORMULA, CardKind.NUMERIC, CardKind.FACT)

HEADLINES = {
    Status.CORRECT: "✓ Correct",
    Status.INCORRECT: "✗ Not quite",
    Status.INVALID: "? Can't read that yet",
    Status.SELF: "Rate yourself",
}


def takes_math(card: Card) -> bool:
    """Whether the card's answer is typed math (so the preview renders it)."""
    return card.kind in _MATH_KINDS or (card.kind is CardKind.CLOZE and bool(card.answer))


def render_quietly(text: str, card: Card | None = None, width: int = 76) -> str:
    """``text`` (typed syntax or LaTeX) as 2-D Unicode, or the text itself if the engine cannot
    read it (a ``shown`` formula may use notation the answer grammar does not need, e.g. a sum)."""
    if not text.strip():
        return ""
    from recall.errors import RecallError
    from recall.formula import render

    table = None
    if card is not None:
        from recall.grading import symbol_table

        try:
            table = symbol_table(card)
        except RecallError:
            table = None
    try:
        return render(text, table, width=width)
    except RecallError:
        if "\\" in text:
            from recall.tui.latex_display import latex_to_unicode

            return latex_to_unicode(text)
        return text


#: Columns a card's ``shown`` formula is drawn in (the drill screen's body at 80 columns).
SHOWN_WIDTH = 76


def shown_formula(card: Card) -> str:
    """``card.shown`` as drawn: as an earlier start drew it when the cache has it (so the first
    prompt never waits for SymPy's import), else rendered now and kept."""
    from recall.tui.shown_cache import shown_cache

    cache = shown_cache()
    drawn = cache.get(card, SHOWN_WIDTH)
    if drawn is None:
        drawn = render_quietly(card.shown, card, width=SHOWN_WIDTH)
        cache.put(card, SHOWN_WIDTH, drawn)
    return drawn


def shown_drawn_before(card: Card) -> str | None:
    """``card.shown`` as an earlier start (or this one) drew it, or ``None``: never renders, so
    the engine is not imported (the drill screen draws a miss in a worker)."""
    from recall.tui.shown_cache import shown_cache

    return shown_cache().get(card, SHOWN_WIDTH)


def shown_placeholder(card: Card) -> str:
    """``card.shown`` in plain Unicode, read by recall's own LaTeX display (``\\text{logit}_{ij} =
    \\square`` is ``logit_ij = ▢``): what the drill screen shows until the 2-D drawing arrives.
    Never the TeX as typed (one notation on screen, the rendered one), and never SymPy: it is
    imported only by the drawing."""
    from recall.tui.latex_display import latex_to_unicode

    return latex_to_unicode(card.shown)


def remember_shown_formulas(cards: Iterable[Card]) -> int:
    """Draw every formula of ``cards`` not drawn before and write the cache for the next start
    (the engine warm-up, once SymPy is imported); how many were drawn."""
    from recall.tui.shown_cache import shown_cache

    cache = shown_cache()
    drawn = cache.fill(
        cards, SHOWN_WIDTH, lambda card: render_quietly(card.shown, card, width=SHOWN_WIDTH)
    )
    cache.save()
    return drawn


#: A line that starts a list item keeps its own line when a paragraph is reflowed.
_LIST_ITEM = re.compile(r"\s*(?:[-*•]|\d+[.)])\s")


def reflow(text: str) -> str:
    """``text`` with its hard line breaks joined, paragraph by paragraph.

    Deck files wrap prose at about 100 columns; shown as it is on an 80-column screen every line
    wraps again and leaves an orphan word behind. Blank lines still separate paragraphs, and list
    items and indented lines keep their own line, so the terminal reflows the rest to its width.
    """
    paragraphs = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines: list[str] = []
        for line in block.splitlines():
            if lines and not _LIST_ITEM.match(line) and not line.startswith((" ", "\t")):
                lines[-1] = f"{lines[-1].rstrip()} {line.strip()}"
            else:
                lines.append(line.rstrip())
        paragraphs.append("\n".join(lines))
    return "\n\n".join(paragraphs)


def card_view(
    card: Card, *, question: Question | None = None, new: bool = False, draw: bool = True
) -> CardView:
    """The card as the drill screen asks it: ``question`` is the one drawn for this review (its
    prompt shows a numeric card's values); without one, the card as a deck listing shows it.

    Rendering the ``shown`` formula needs the engine, so call this off the event loop when the
    engine may not be imported yet, or with ``draw=False``: then a formula not drawn before is
    given as :func:`shown_placeholder` reads it, marked :attr:`CardView.shown_pending` (the
    caller draws it later), and the engine is never imported here.
    """
    from recall.grading.question import asked_prompt

    prompt = reflow(question.prompt if question is not None else asked_prompt(card))
    drawn = question is not None and bool(question.values)
    shown, pending = "", False
    if card.shown:
        shown_now = shown_formula(card) if draw else shown_drawn_before(card)
        pending = shown_now is None
        shown = shown_placeholder(card) if shown_now is None else shown_now
    mentioned = mentioned_names(card)
    # Names declared only for the card's identity checks are not the learner's to type, so the
    # legend (the names the learner may use) never lists them.
    symbols = tuple(
        (symbol.name, _meaning(symbol.meaning, symbol.domain))
        for symbol in card.symbols
        if symbol.name in mentioned and not symbol.identities_only
    ) + tuple((param.name, param.meaning) for param in card.params if param.meaning and not drawn)
    return CardView(
        key=card.key,
        deck_id=card.deck_id,
        card_id=card.id,
        kind=str(card.kind),
        prompt=prompt,
        shown=shown,
        shown_pending=pending,
        symbols=symbols,
        hint=card.hint,
        unit=card.unit,
        source=card.source,
        model_answer=reflow(card.model_answer),
        numbers=card.numbers,
        self_rated=card.kind is CardKind.EXPLAIN and not card.points,
        key_points=len(card.points),
        math_answer=takes_math(card),
        path=card.path,
        line=card.line,
        new=new,
    )


def _meaning(meaning: str, domain: str) -> str:
    if domain[:1] in ("(", "["):  # an interval: "(0, 1)" in parentheses reads "((0, 1))"
        return f"{meaning}, in {domain}" if meaning else f"in {domain}"
    if domain and domain != "real":
        return f"{meaning} ({domain})" if meaning else domain
    return meaning or "a real number"


def preview_view(text: str, preview: Preview | None) -> PreviewView:
    """The engine's preview (``None`` for word answers) as the screen's view."""
    if preview is None:
        return PreviewView(text=text, ok=True, math=False)
    return PreviewView(
        text=text,
        ok=preview.ok,
        rendered=preview.rendered,
        message=preview.message,
        column=preview.column,
    )


def reference_rendered(card: Card) -> str:
    """The reference answer the way the feedback shows it: 2-D for math, text otherwise."""
    from recall.grading import reference_answer

    typed = reference_answer(card)
    if card.kind in (CardKind.FORMULA, CardKind.NUMERIC) or (
        card.kind is CardKind.CLOZE and card.answer
    ):
        return render_quietly(typed, card)
    if card.unit and typed:
        from recall.cards.units import with_unit

        return with_unit(typed, card.unit)
    if card.kind is CardKind.EXPLAIN:
        return reflow(typed)
    return typed


def feedback_view(
    card: Card,
    answer: str,
    verdict: Verdict,
    suggested: Rating | None,
    grading_ms: float = 0.0,
) -> FeedbackView:
    """A verdict as the feedback panel shows it."""
    outcome = verdict.status
    if outcome is Status.INVALID:
        return FeedbackView(
            outcome=outcome,
            answer=answer,
            headline=HEADLINES[outcome],
            diagnosis=verdict.message,
            error_column=verdict.column,
            method=verdict.method,
            grading_ms=grading_ms,
        )
    diagnosis = verdict.diagnosis.message if verdict.diagnosis else ""
    if not diagnosis and outcome is Status.INCORRECT and not verdict.points:
        diagnosis = verdict.message
    if not diagnosis and verdict.points and LISTED_TERMS in verdict.message:
        # why words of the explanation made no point: they were a list of terms
        diagnosis = verdict.message[verdict.message.index(LISTED_TERMS) :]
    return FeedbackView(
        outcome=outcome,
        answer=answer,
        headline=_points_headline(verdict) if verdict.points else HEADLINES[outcome],
        diagnosis=diagnosis,
        diagnosis_kind=_mistake_kind(verdict),
        reference=reference_rendered(card),
        reference_typed=verdict.expected,
        worked=verdict.worked,
        answer_marked=_marked_part(verdict) if outcome is Status.INCORRECT else None,
        method=verdict.method,
        suggested=suggested,
        grading_ms=grading_ms,
        points=verdict.points,
    )


def _points_headline(verdict: Verdict) -> str:
    """A checked explanation's headline: every point, enough points, or too few."""
    made = sum(point.made for point in verdict.points)
    if made == len(verdict.points):
        return "✓ Every key point made"
    if verdict.status is Status.CORRECT:
        return "◐ Passed, with key points left out"
    return "✗ Too few key points"


def _mistake_kind(verdict: Verdict) -> str:
    """The kind of mistake the review log records: the diagnosis's, or a key point left out of
    an explanation (counted with the other mistakes)."""
    if verdict.diagnosis:
        return verdict.diagnosis.kind
    if any(not point.made for point in verdict.points):
        return MISSED_POINT
    return ""


def _marked_part(verdict: Verdict) -> tuple[str, str, str] | None:
    """The answer as read, split around the part the engine names as wrong (so the panel can
    highlight it), or ``None`` when no part was located."""
    from recall.formula import highlight_verdict

    marked = highlight_verdict(verdict)
    return None if marked is None else marked.pieces


def deck_error_line(error: BaseException) -> str:
    """A deck error without its path (the screens show the file name once, beside it)."""
    from recall.errors import DeckError

    if not isinstance(error, DeckError):
        return str(error)
    text = f"line {error.line}: " if error.line is not None else ""
    if error.card_id:
        text += f"card '{error.card_id}': "
    text += error.message
    if error.suggestion:
        text += f" ({error.suggestion})"
    return text
