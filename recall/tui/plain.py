"""Text recall did not write, as a widget takes it: inert, and never read as markup.

A string handed to a Textual ``Static``, ``Label``, ``Checkbox``, ``OptionList`` option,
``DataTable`` cell or notification, or to a Rich ``Table`` cell, is parsed as markup: a deck
prompt holding ``[link=http://evil]x[/link]`` would become an OSC 8 hyperlink, ``[reverse]`` a
style. A Rich :class:`~rich.text.Text` is drawn as it is. So deck text (names, prompts, answers,
typed text, file names, error messages) reaches a widget through :func:`plain`: a ``Text`` of
the :func:`recall.inert.inert` string. The views (:mod:`recall.tui.views`) already made their
strings inert; :func:`plain` also covers what does not come through a view (a file path).

Rich is imported lazily by Textual anyway; this module is light enough to load before the first
frame (``tests/test_tui_startup.py``).
"""

from __future__ import annotations

from rich.text import Text

from recall.inert import inert


def plain(text: str, style: str = "", *, one_line: bool = False) -> Text:
    """``text`` as a widget's content: control characters made visible and harmless, and no
    markup (a ``Text``, not a string a widget would parse)."""
    return Text(inert(text, one_line=one_line), style=style)
