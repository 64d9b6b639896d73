"""The footer recomposes once per tick of binding changes (not once per announcement) and still
shows the keys the screen has when the burst is over."""

from __future__ import annotations

import asyncio

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer as TextualFooter
from textual.widgets import Input
from textual.widgets._footer import FooterKey

from recall.tui.widgets.footer import Footer


class _Keys(App[None]):
    BINDINGS = [Binding("f2", "two", "Two"), Binding("f3", "three", "Three")]

    def action_two(self) -> None:
        self.bell()

    def action_three(self) -> None:
        self.bell()

    def __init__(self, footer: type[TextualFooter]) -> None:
        super().__init__()
        self.footer_class = footer

    def compose(self) -> ComposeResult:
        yield Input(id="a")
        yield Input(id="b")
        yield self.footer_class()


async def _recomposes_after_a_burst(
    footer: type[TextualFooter], size: tuple[int, int]
) -> tuple[int, list[str]]:
    app = _Keys(footer)
    calls = 0
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        shown = app.query_one(footer)
        real = shown.recompose

        async def counted() -> None:
            nonlocal calls
            calls += 1
            await real()

        shown.recompose = counted  # type: ignore[method-assign]
        for _ in range(3):  # what a screen does around its first card: focus moves, refreshes
            app.screen.refresh_bindings()
            app.query_one("#b").focus()
            app.query_one("#a").focus()
        await pilot.pause()
        await pilot.pause()
        keys = [key.key for key in shown.query(FooterKey)]
    return calls, keys


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
def test_a_burst_of_binding_changes_recomposes_the_footer_once(size: tuple[int, int]) -> None:
    ours, our_keys = asyncio.run(_recomposes_after_a_burst(Footer, size))
    theirs, their_keys = asyncio.run(_recomposes_after_a_burst(TextualFooter, size))
    # Textual's footer recomposes at every announcement (15 here); ours once per tick in which
    # announcements arrive (focus changes are messages, so the burst spans a few ticks: 2 on a
    # quiet machine, a few more under load).
    assert theirs == 15
    assert ours <= theirs // 3
    assert our_keys == their_keys and {"f2", "f3"} <= set(our_keys)


async def _after_the_first_keys(size: tuple[int, int]) -> tuple[int, list[str], int, list[str]]:
    """Recomposes of our footer over a burst that changes no key it shows, then over a change
    that adds one (with the keys shown after each)."""
    app = _Keys(Footer)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        footer = app.query_one(Footer)
        first_keys = [key.key for key in footer.query(FooterKey)]
        before = footer.recomposes
        for _ in range(3):
            app.screen.refresh_bindings()
            app.query_one("#b").focus()
            app.query_one("#a").focus()
            await pilot.pause()
        unchanged = footer.recomposes - before
        same_keys = [key.key for key in footer.query(FooterKey)]
        assert same_keys == first_keys
        app.bind("f4", "bell", description="Four")
        app.screen.refresh_bindings()
        for _ in range(4):
            await pilot.pause()
        changed = footer.recomposes - before
        keys = [key.key for key in footer.query(FooterKey)]
    return unchanged, same_keys, changed, keys


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
def test_the_footer_is_rebuilt_only_when_the_keys_it_shows_change(size: tuple[int, int]) -> None:
    unchanged, same_keys, changed, keys = asyncio.run(_after_the_first_keys(size))
    assert {"f2", "f3"} <= set(same_keys)
    assert unchanged == 0  # focus moves between inputs: the same keys, nothing rebuilt
    assert changed == 1 and "f4" in keys and {"f2", "f3"} <= set(keys)


class _CompactKeys(_Keys):
    def compose(self) -> ComposeResult:
        yield Input(id="a")
        yield self.footer_class(compact=True)


async def _keys_and_restyles(
    footer: type[TextualFooter], app_class: type[_Keys], monkeypatch: pytest.MonkeyPatch
) -> tuple[list[tuple[str, bool]], int]:
    """The footer's keys (with whether each looks compact) and how many style updates its
    keys asked for on the way to the first frame."""
    from textual.dom import DOMNode

    restyles = 0
    update = DOMNode.update_node_styles

    def counted(node: DOMNode, animate: bool = True) -> None:
        nonlocal restyles
        if isinstance(node, FooterKey):
            restyles += 1
        update(node, animate)

    monkeypatch.setattr(DOMNode, "update_node_styles", counted)
    app = app_class(footer)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        keys = [(key.key, key.has_class("-compact")) for key in app.query(FooterKey)]
    monkeypatch.undo()
    return keys, restyles


@pytest.mark.parametrize("app_class", [_Keys, _CompactKeys])
def test_the_keys_look_as_textuals_without_being_restyled(
    app_class: type[_Keys], monkeypatch: pytest.MonkeyPatch
) -> None:
    ours, our_restyles = asyncio.run(_keys_and_restyles(Footer, app_class, monkeypatch))
    theirs, their_restyles = asyncio.run(_keys_and_restyles(TextualFooter, app_class, monkeypatch))
    assert ours == theirs and {"f2", "f3"} <= {key for key, _compact in ours}
    # Textual's bound keys are restyled as they mount and, in a footer that is not compact
    # (recall's), again when the binding catches up; ours are made with the footer's value
    # (only the palette's key, unbound, keeps its own default).
    assert our_restyles <= their_restyles
    if app_class is _Keys:
        assert our_restyles <= 1 < their_restyles
