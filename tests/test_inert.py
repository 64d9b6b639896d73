"""The one rule for untrusted text: :mod:`recall.inert` leaves nothing a terminal would obey."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from recall.inert import QUOTE_LIMIT, describe_char, first_control, first_invisible, inert, quote

#: What inert output never holds: controls (bidi controls included) and hidden characters. The
#: joiners and direction marks (U+200C to U+200F, U+061C) are text and kept.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u2028\u2029]"
)

_HOSTILE_PIECES = st.sampled_from(
    [
        "\x1b]52;c;cHduZWQ=\x07",
        "\x1b[2J\x1b[H",
        "\x1b]0;TITLE\x07",
        "\x1b]8;;http://evil.example\x1b\\link\x1b]8;;\x1b\\",
        "\x1bP+q\x1b\\",
        "\x9b31m",
        "\x9d0;T\x9c",
        "\u202eevil",
        "a\u200bb",
        "\u2066x\u2069",
        "n\u200cj\u200d",
        "\x00",
        "\r",
        "\x7f",
    ]
)
#: What ``invisible=False`` keeps: hidden characters, joiners and marks (not bidi controls).
_INVISIBLE = re.compile("[\u200b-\u200f\u2060-\u2064\ufeff]")
_TEXT = st.lists(st.one_of(st.text(max_size=20), _HOSTILE_PIECES), max_size=8).map("".join)
#: Generating these strings is what takes the time; on two loaded cores Hypothesis would call
#: that "too slow" (it did once), which says nothing about recall.
_LOADED = settings(suppress_health_check=[HealthCheck.too_slow])


@_LOADED
@given(_TEXT)
def test_inert_output_holds_no_control_bidi_or_zero_width_character(text: str) -> None:
    assert not _UNSAFE.search(inert(text))
    assert not _UNSAFE.search(inert(text, one_line=True).replace("\t", ""))


@_LOADED
@given(_TEXT)
def test_one_line_output_has_no_line_break(text: str) -> None:
    assert "\n" not in inert(text, one_line=True)
    assert "\n" not in quote(text)


def test_inert_keeps_newline_and_tab_and_shows_what_it_replaced() -> None:
    assert inert("a\tb\nc") == "a\tb\nc"
    assert inert("x\x1b[2Jy") == "x\u241b[2Jy"
    assert inert("\u202e") == "<U+202E>"
    assert inert("\x9b") == "<U+009B>"


def test_plain_text_is_returned_unchanged() -> None:
    text = "σ(x)·(1 − σ(x)) — ½δ²"
    assert inert(text) is text


@_LOADED
@given(st.text(min_size=QUOTE_LIMIT + 1, max_size=400))
def test_quote_cuts_long_input_and_names_its_length(text: str) -> None:
    quoted = quote(text)
    assert f"({len(text):,} characters)" in quoted
    assert len(quoted) < 6 * QUOTE_LIMIT  # each shown character is at most "<U+XXXX>"


def test_entry_checks_find_the_first_offending_character() -> None:
    assert first_control("ok\n\tfine") is None
    assert first_control("ab\x1bc") == 2
    assert first_control("a\u0085") == 1
    assert first_invisible("card-1") is None
    assert first_invisible("card\u200b1") == 4
    assert first_invisible("a\nb") == 1


def test_describe_char_never_holds_the_raw_character() -> None:
    for char in "\x1b\x07\x00\x7f\x9b\u202e\u200b\x01":
        described = describe_char(char)
        assert char not in described
        assert described.startswith("U+")


@_LOADED
@given(_TEXT)
def test_inert_without_invisible_replaces_every_control_and_keeps_the_rest(text: str) -> None:
    shown = inert(text, invisible=False)
    assert first_control(shown) is None
    assert [ch for ch in text if _INVISIBLE.match(ch)] == [
        ch for ch in shown if _INVISIBLE.match(ch)
    ]
    if first_control(text) is None:
        assert shown == text
