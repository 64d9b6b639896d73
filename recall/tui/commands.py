"""The command palette (Ctrl-P): every action of the current screen and of the app, by name.

Commands are derived from the active key bindings, so any action reachable by a key on the screen
in front of you is also reachable by name, and the palette never lists an action that is not
possible right now.

This is the palette's only provider (the app does not add Textual's system commands, whose
"Quit", "Keys" and "Theme" would repeat ours under the same titles), and it lists recall's own
bindings only: those carry an id (so a learner can remap them); Textual's built-in screen keys
(focus next, copy text) do not, and are not commands. Each title appears once, however many
keys run it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from textual.app import App
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape
from textual.screen import Screen

from recall.inert import inert
from recall.tui.keys import key_label

#: The palette does not list itself.
_SKIP_ACTIONS = {"command_palette", "app.command_palette"}


class RecallCommands(Provider):
    """Lists the actions bound on the screen the palette was opened from, plus the app's."""

    def _commands(self) -> Iterator[tuple[str, str, Callable[[], object]]]:
        seen: set[str] = set()
        screen = self.screen
        for key, active in screen.active_bindings.items():
            binding = active.binding
            if binding.action in _SKIP_ACTIONS or not active.enabled:
                continue
            if not isinstance(active.node, (Screen, App)):
                continue  # widget-level keys (cursor moves in the answer box) are not commands
            if not binding.id:
                continue  # Textual's own screen keys, not recall's commands
            name = binding.description or binding.action
            if name in seen or binding.action in seen:
                continue
            seen.update((name, binding.action))
            runner = partial(self.app.run_action, binding.action, active.node)
            yield name, _help_line(name, binding.tooltip, key), runner

    async def discover(self) -> Hits:
        for name, help_text, runner in self._commands():
            yield DiscoveryHit(name, runner, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, runner in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, matcher.highlight(name), runner, help=help_text)


def _help_line(name: str, tooltip: str, key: str) -> str:
    """The line under a command: its key, after the tooltip when that says more than the name
    (the name again read as the same command listed twice); escaped, since the palette reads
    it as markup."""
    label = f"key {key_label(key)}"
    line = f"{tooltip} · {label}" if tooltip and tooltip != name else label
    # The palette reads help as markup, and a key comes from the learner's config: "[" is a key.
    return escape(inert(line, one_line=True))
