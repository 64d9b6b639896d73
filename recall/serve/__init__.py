"""``recall serve``: the TUI in a browser, behind a gate recall owns.

textual-serve (an aiohttp server, xterm.js in the page, one app process per websocket) has no
authentication of its own, so recall puts every request through :mod:`recall.serve.gate` (a
token swapped for a session cookie, the ``Host`` allowlist, the websocket's ``Origin``, the
session cap) and starts only the command :mod:`recall.serve.child` builds. The server itself
(:mod:`recall.serve.server`) is the one module that imports textual-serve, an optional extra:
``pip install 'recall[serve]'``.

This package sits beside the TUI, not above it: it never imports Textual or the TUI, it only
builds the command line that starts one.
"""
