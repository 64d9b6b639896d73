"""Issue 17, the TUI's exit: the real ``recall`` on a real pty draws nothing hostile from a deck.

Each test runs the console script on a pseudo-terminal (100x30), drives it as a learner would and
reads every byte it writes. Textual writes legitimate CSI sequences of its own (colours, cursor
moves), so the assertions are on the hostile sequences themselves: OSC 0 (title), OSC 8
(hyperlinks), OSC 52 (clipboard), DCS, a C1 control as a character, and the exact payloads.

The entrance refuses control characters in deck files (``tests/test_untrusted_entrance.py``),
so to try the exit on its own the first test runs recall with that check switched off (its own
wrapper says so): the views must still make the text inert. Markup needs no such wrapper, since
``[link=...]`` is ordinary deck text: it must be drawn as text, never become a link.
"""

from __future__ import annotations

import fcntl
import re
import struct
import sys
import termios
from pathlib import Path

import pytest

from tests.fault_helpers import Terminal, recall_command, recall_env

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pseudo-terminals")

#: What a hostile deck or paste carries, as the bytes a terminal would obey.
HOSTILE = (
    b"\x1b]52;",  # OSC 52: write the clipboard
    b"\x1b]0;",  # OSC 0: set the window title
    b"\x1b]8;",  # OSC 8: a hyperlink
    b"\x1bP",  # DCS
    b"\x1b[2J\x1b[H",  # clear the screen, as the deck spells it
    b"\xc2\x9b",  # U+009B (CSI) as a character
    b"\xc2\x9d",  # U+009D (OSC) as a character
    b"TITLE\x07",  # the payloads, ended by BEL (Textual's own OSC 22 ends with one too)
    b"cHduZWQ=\x07",
)

_HOSTILE_TOML = "\\u001b]0;TITLE\\u0007 \\u001b[2J\\u001b[H \\u001b]52;c;cHduZWQ=\\u0007"
_LINK_TOML = "\\u001b]8;;http://evil.example/x\\u001b\\\\x\\u001b]8;;\\u001b\\\\"

#: recall with the deck entrance check switched off, to try the exit on its own.
_NO_ENTRANCE = """
import sys
from recall.cards import untrusted

assert hasattr(untrusted, "record_forbidden_characters")
untrusted.record_forbidden_characters = lambda data, problems: None  # the loader calls it here
from recall.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _terminal(argv: list[str], home: Path) -> Terminal:
    terminal = Terminal(argv, recall_env(home))
    fcntl.ioctl(terminal.leader, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    return terminal


def _assert_nothing_hostile(screen: bytes) -> None:
    for sequence in HOSTILE:
        assert sequence not in screen, (
            sequence,
            screen[max(0, screen.find(sequence) - 80) :][:200],
        )


def _quit(terminal: Terminal) -> None:
    terminal.send(b"\x11")  # Ctrl-Q
    terminal.wait_exit(20)


def test_a_deck_past_the_entrance_reaches_the_drill_screen_inert(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "hostile.toml").write_text(
        f'[deck]\nid = "hostile"\nname = "Deck {_HOSTILE_TOML}"\n'
        f'description = "about {_LINK_TOML}"\n'
        '[deck.symbols]\nx = { domain = "real", meaning = "x \\u009b31m \\u009d0;T\\u009c" }\n'
        '[[card]]\nid = "c1"\nkind = "fact"\n'
        f'prompt = "What is 2+2? {_HOSTILE_TOML} {_LINK_TOML}"\n'
        f'hint = "four {_HOSTILE_TOML}"\nvalue = 4\n',
        encoding="utf-8",
    )
    terminal = _terminal(
        [
            sys.executable,
            "-c",
            _NO_ENTRANCE,
            "--decks",
            str(decks),
            "drill",
            "--deck",
            "hostile",
            "--cards",
            "1",
        ],
        tmp_path / "home",
    )
    try:
        assert terminal.wait_for(lambda: b"What is 2+2?" in terminal.screen, 90), terminal.screen[
            -1500:
        ]
        terminal.send(b"\x07")  # Ctrl-G: the hint, which holds the sequences too
        assert terminal.wait_for(lambda: b"four" in terminal.screen, 20)
        # A paste into the answer box carries them as well.
        terminal.send(b"\x1b[200~4 \x1b]52;c;cHduZWQ=\x07\x1b]0;TITLE\x07\xc2\x9b31m\x1b[201~")
        terminal.drain(1.0)
        terminal.send(b"\r")
        terminal.drain(2.0)
        _quit(terminal)
    finally:
        terminal.close()
    screen = terminal.screen
    _assert_nothing_hostile(screen)
    assert "␛]0;TITLE␇".encode() in screen  # the prompt was drawn, its sequences visible


def test_markup_in_a_deck_is_drawn_as_text_never_as_a_link(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "markup.toml").write_text(
        '[deck]\nid = "markup"\nname = "[link=http://evil.example/n]Mark[/link]"\n'
        '[[card]]\nid = "c1"\nkind = "fact"\n'
        'prompt = "What is 2+2? [link=http://evil.example/p]click[/link] [reverse]rev[/reverse]"\n'
        'hint = "[link=http://evil.example/h]h[/link]"\nvalue = 4\n',
        encoding="utf-8",
    )
    terminal = _terminal(
        [*recall_command(), "--decks", str(decks), "drill", "--deck", "markup", "--cards", "1"],
        tmp_path / "home",
    )
    try:
        assert terminal.wait_for(lambda: b"What is 2+2?" in terminal.screen, 90)
        terminal.send(b"\x07")
        assert terminal.wait_for(lambda: b"evil.example/h" in terminal.screen, 20)
        terminal.send(b"5\r")  # wrong: the feedback shows the prompt's card again
        terminal.drain(2.0)
        _quit(terminal)
    finally:
        terminal.close()
    screen = terminal.screen
    assert b"[link=http://evil.example/p]click[/link] [reverse]rev[/reverse]" in screen
    _assert_nothing_hostile(screen)


def test_markup_in_a_deck_stays_text_on_home_and_in_the_deck_browser(tmp_path: Path) -> None:
    """The home screen's table, the deck browser's list and card table take strings as markup:
    deck text reaches them as Text."""
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "markup.toml").write_text(
        '[deck]\nid = "markup"\nname = "[link=http://evil.example/n]Mark[/link]"\n'
        'topic = "[link=http://evil.example/t]T[/link]"\n'
        '[[card]]\nid = "c1"\nkind = "fact"\n'
        'prompt = "[link=http://evil.example/p]click[/link]"\nvalue = 4\n',
        encoding="utf-8",
    )
    terminal = _terminal([*recall_command(), "--decks", str(decks)], tmp_path / "home")
    try:
        assert terminal.wait_for(lambda: b"[link=http://evil" in terminal.screen, 90)
        terminal.send(b"b")  # the deck browser: the deck list, then the deck's cards
        assert terminal.wait_for(lambda: b"search cards" in terminal.screen, 20)
        terminal.drain(1.0)
        terminal.send(b"\x1b[F")  # End: the last deck, ours
        assert terminal.wait_for(lambda: b"evil.example/p" in terminal.screen, 20)
        _quit(terminal)
    finally:
        terminal.close()
    _assert_nothing_hostile(terminal.screen)


def test_a_refused_deck_is_reported_on_the_home_screen_inert(tmp_path: Path) -> None:
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "hostile.toml").write_text(
        f'[deck]\nid = "hostile"\nname = "Deck {_HOSTILE_TOML}"\n'
        f'[[card]]\nid = "c\\u001b]0;x\\u0007"\nkind = "fact"\nprompt = "p {_LINK_TOML}"\n'
        "value = 4\n",
        encoding="utf-8",
    )
    terminal = _terminal([*recall_command(), "--decks", str(decks)], tmp_path / "home")
    try:
        assert terminal.wait_for(lambda: b"did not load" in terminal.screen, 90)
        terminal.send(b"b")  # the deck browser, where the failure is explained
        assert terminal.wait_for(lambda: b"holds U+001B" in terminal.screen, 20)
        _quit(terminal)
    finally:
        terminal.close()
    _assert_nothing_hostile(terminal.screen)


#: recall whose help key crashes the app with a message holding escape sequences.
_CRASH = """
import sys
from recall.tui import app as app_module

def crash(self):
    raise RuntimeError("boom \\x1b]0;TITLE\\x07 \\x1b]52;c;cHduZWQ=\\x07")

app_module.RecallApp.action_help = crash
from recall.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_crash_report_is_plain_and_inert(tmp_path: Path) -> None:
    """Textual prints a crash's traceback after the app, to sys.stderr, which the command line
    made inert: in colour its escape codes would show as "␛[..."; plain, it reads as it is, and
    the exception's message stays inert."""
    terminal = _terminal([sys.executable, "-c", _CRASH], tmp_path / "home")
    try:
        assert terminal.wait_for(lambda: b"Today" in terminal.screen, 90)
        terminal.drain(0.5)
        terminal.send(b"?")
        assert terminal.wait_exit(30) == 1
        terminal.drain(0.5)
    finally:
        terminal.close()
    screen = terminal.screen
    _assert_nothing_hostile(screen)
    assert "RuntimeError: boom ␛]0;TITLE ␛]52;c;cHduZWQ=".encode() in screen
    assert "␛[".encode() not in screen  # no colour code turned into text


# ----- the views: one place deck text is made inert for every screen ---------------------------


def _view_classes() -> list[type]:
    import dataclasses

    from recall.tui import memory_views, views

    found = []
    for module in (views, memory_views):
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and dataclasses.is_dataclass(value)
                and value.__module__ == module.__name__
            ):
                found.append(value)
    return found


def test_every_view_is_shown_text() -> None:
    from recall.tui.views import ShownText

    classes = _view_classes()
    assert len(classes) >= 15
    assert [cls.__name__ for cls in classes if not issubclass(cls, ShownText)] == []


def test_a_view_built_from_hostile_text_holds_none_of_it() -> None:
    from recall.tui.views import CardView, DeckFailure, FeedbackView, MissedCard, SummaryView

    hostile = "a\x1b]52;c;cHduZWQ=\x07\x1b[2J\x9b31m\x00b"
    card = CardView(
        key="d/c",
        deck_id="d",
        card_id="c",
        kind="fact",
        prompt=hostile,
        symbols=(("x", hostile),),
        hint=hostile,
        numbers=(hostile,),
        path="/decks/x\x1b.toml",
    )
    failure = DeckFailure(path="/decks/x\x1b.toml", message=hostile)
    feedback = FeedbackView(outcome="incorrect", answer=hostile, headline="h", diagnosis=hostile)  # type: ignore[arg-type]
    summary = SummaryView(reviews=1, missed=(MissedCard("d/c", hostile, hostile, hostile),))
    texts = [text for view in (card, failure, feedback, summary) for text in _strings(view)]
    assert len(texts) > 8
    assert [text for text in texts if re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", text)] == []
    assert card.prompt == "a␛]52;c;cHduZWQ=␇␛[2J<U+009B>31m␀b"
    assert (
        card.path == "/decks/x\x1b.toml" and failure.path == "/decks/x\x1b.toml"
    )  # opens the file


def _strings(value: object) -> list[str]:
    """Every string a view holds for display (not its ``path``), nested ones included."""
    import dataclasses

    if isinstance(value, str):
        return [value]
    if isinstance(value, (tuple, list)):
        return [text for item in value for text in _strings(item)]
    if dataclasses.is_dataclass(value):
        return [
            text
            for item in dataclasses.fields(value)
            if item.name != "path"
            for text in _strings(getattr(value, item.name))
        ]
    return []


def test_plain_text_is_never_read_as_markup() -> None:
    from recall.tui.plain import plain

    text = plain("[link=http://evil.example]x[/link] [reverse]r[/reverse]\x1b]0;T\x07")
    assert text.plain == "[link=http://evil.example]x[/link] [reverse]r[/reverse]␛]0;T␇"
    assert text.spans == []
