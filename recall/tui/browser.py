"""What changes when the TUI is drawn in a browser by ``recall serve`` (``RECALL_SERVED=1``).

* The learner's editor would open on the server, not in front of them: :func:`editor_refusal`
  says so instead (Ctrl-E in a drill, ``x`` in the deck browser).
* A browser keeps some keys for itself before the page sees them (Ctrl-T a new tab, Ctrl-N a
  new window, Ctrl-W closes the tab): :data:`BROWSER_KEYS` adds an Alt key beside each of
  recall's bindings on them, and :data:`NOTICE` says so on screen at start; the help (F1) lists
  them too.
* Glyphs a browser's monospace font lacks show as boxes: :func:`timer_icon` leaves the drill
  header's stopwatch out.
"""

from __future__ import annotations

from recall.paths import served_in_browser

#: Alternatives for the bindings on keys a browser eats (binding id → keys, Textual's syntax).
BROWSER_KEYS: dict[str, str] = {
    "app.theme": "ctrl+t,alt+t",
    "drill.suspend": "ctrl+n,alt+n",
}

#: Said once at start in a browser.
NOTICE = (
    "In a browser, Ctrl-T, Ctrl-N and Ctrl-W belong to the browser: use Alt-T (theme), "
    "Alt-N (suspend a card) and Alt-W (delete a word). F1 lists every key."
)


def editor_refusal() -> str:
    """Why the editor does not open in a browser, and what to do instead ("" outside one). The
    file is not named: its name is text recall did not write, and the notice takes markup."""
    if not served_in_browser():
        return ""
    return (
        "Editing opens an editor on the computer running recall serve, not in this browser: "
        "edit the deck file there, then reload the decks (r on the home screen)."
    )


def timer_icon() -> str:
    """The stopwatch before the time left, or nothing where the font may lack it."""
    return "" if served_in_browser() else "⏱ "
