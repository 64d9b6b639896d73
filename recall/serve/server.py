"""textual-serve's server with recall's gate in front of it, and the loop that runs it.

:class:`GatedServer` subclasses textual-serve's ``Server`` (pinned ``>=1.1.3,<1.2``: it builds
its aiohttp app in the private ``_make_app``): the app it builds gets the gate
(:mod:`recall.serve.gate`) as its first middleware, so every route textual-serve has now or adds
later goes through it (``tests/test_serve_gate.py`` asks every route of the built app). The
index page is rendered for the host the request came to (so the websocket it opens is same-origin
under any allowed name), and the websocket loop is recall's: bounded sizes, and the session
closed after ``idle_seconds`` without a keystroke.

:func:`serve` binds the socket itself (so ``--port 0`` works and the printed address names the
real port), prints the address with its token (and a QR code on a terminal), and runs until
Ctrl-C. It never calls textual-serve's ``serve`` (which logs and binds its own way).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import ssl
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import aiohttp_jinja2
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from recall.inert import quote
from recall.serve.binding import Binding, bind_socket, binding_for
from recall.serve.child import child_environment, learner_environment, tui_command
from recall.serve.gate import (
    LEARNER_KEY,
    TOKEN_PARAM,
    Gate,
    QuietAccessLogger,
    clamp_size,
    host_header_names,
    refuse,
)
from recall.wording import count_of

log = logging.getLogger("recall.serve")

#: Why a plain-HTTP bind off loopback is unsafe (printed with ``--insecure-lan``).
INSECURE_WARNING = (
    "WARNING: serving over plain HTTP on a network. Anyone who can watch it (the same Wi-Fi, "
    "the router) sees the token, the session cookie and every card and answer, and can use the "
    "token or cookie to drive your recall. Prefer --tls-cert/--tls-key, or keep the default "
    "127.0.0.1 and reach it through ssh -L, Tailscale or WireGuard."
)


#: Seconds a stopping server waits for open tabs before it closes them.
STOP_SECONDS = 2.0


class GatedServer(Server):
    """textual-serve's ``Server``, every request through ``gate``.

    ``learner_urls`` (``--learner-logins``: learner name → that learner's own database URL):
    the app a browser session starts gets the URL of the learner whose token opened the
    session (:meth:`Gate.learner_of`), and nothing else: never the server's, nor another's."""

    def __init__(
        self, command: str, gate: Gate, learner_urls: dict[str, str] | None = None
    ) -> None:
        super().__init__(command, host="127.0.0.1", port=0, title="recall")
        self.gate = gate
        self.learner_urls = dict(learner_urls or {})
        gate.static_root = Path(self.statics_path)

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.middlewares.insert(0, self.gate.middleware)  # outermost: before any of theirs
        return app

    async def on_startup(self, app: web.Application) -> None:
        """Say nothing: :func:`serve` prints the address (textual-serve prints a logo)."""

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        """The page, its websocket and static addresses on the origin the request came to."""
        origin = self.gate.own_origin(request)
        websocket_scheme = "wss" if self.gate.tls else "ws"
        try:
            font_size = min(max(int(request.query.get("fontsize", "16")), 6), 64)
        except ValueError:
            font_size = 16
        return {
            "font_size": font_size,
            "app_websocket_url": f"{websocket_scheme}://{origin.split('://', 1)[1]}/ws",
            "config": {"static": {"url": f"{origin}/static/"}},
            "application": {"name": "recall"},
        }

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """textual-serve's websocket handler (same steps), with the app's environment made for
        the learner whose session this is, when the server serves several."""
        import textual_serve.server

        learner = request.get(LEARNER_KEY)
        if self.learner_urls and learner not in self.learner_urls:
            return refuse(403, "this session belongs to no learner of this server")  # type: ignore[return-value]
        websocket = web.WebSocketResponse(heartbeat=15)
        width = clamp_int(request.query.get("width"), 80)
        height = clamp_int(request.query.get("height"), 24)
        app_service: Any = None
        try:
            await websocket.prepare(request)
            app_service = textual_serve.server.AppService(  # looked up now: tests replace it
                self.command,
                write_bytes=websocket.send_bytes,
                write_str=websocket.send_str,
                close=websocket.close,  # type: ignore[arg-type]  # as textual-serve passes it
                download_manager=self.download_manager,
                debug=self.debug,
            )
            if learner is not None:
                serve_as_learner(app_service, self.learner_urls[learner])
            await app_service.start(width, height)
            try:
                await self._process_messages(websocket, app_service)
            finally:
                await app_service.stop()
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:
            log.exception(error)
        finally:
            if app_service is not None:
                await app_service.stop()
        return websocket

    async def _process_messages(
        self, websocket: web.WebSocketResponse, app_service: AppService
    ) -> None:
        """Pass the page's keystrokes and resizes to the app until the page goes, or until
        ``idle_seconds`` pass without a keystroke (the app then quits: every review is committed
        already)."""
        last_key = time.monotonic()
        while True:
            remaining = self.gate.idle_seconds - (time.monotonic() - last_key)
            if remaining <= 0:
                log.info("closed a browser session idle for %.0f s", self.gate.idle_seconds)
                await websocket.close(message=b"idle: reload the page to start again")
                return
            try:
                message = await websocket.receive(timeout=remaining)
            except TimeoutError:
                continue
            if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return
            if message.type == WSMsgType.ERROR:
                return
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope:
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                last_key = time.monotonic()
                await app_service.send_bytes(data.encode("utf-8"))
            elif kind == "resize" and isinstance(data, dict):
                size = clamp_size(data.get("width"), data.get("height"))
                if size is not None:
                    await app_service.set_terminal_size(*size)
            elif kind == "ping":
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await app_service.blur()
            elif kind == "focus":
                await app_service.focus()


def clamp_int(text: str | None, default: int) -> int:
    try:
        return int(text) if text is not None else default
    except ValueError:
        return default


def serve_as_learner(app_service: Any, db_url: str) -> None:
    """Make ``app_service`` start its app with ``db_url`` (a learner's own login) as its
    database: its environment is built as textual-serve builds it, then passed through
    :func:`recall.serve.child.learner_environment`."""
    build = app_service._build_environment

    def learner_build(width: int = 80, height: int = 24) -> dict[str, str]:
        return learner_environment(build(width=width, height=height), db_url)

    app_service._build_environment = learner_build


# ---------------------------------------------------------------------- running


@dataclass
class ServeOptions:
    """What ``recall serve`` was asked for (already checked by the command)."""

    host: str
    port: int
    token: str
    data_dir: Path
    db_url: str | None = None
    custom_decks: Path | None = None
    tls: ssl.SSLContext | None = None
    max_sessions: int = 3
    idle_seconds: float = 30 * 60
    qr: bool = False
    #: ``--learner-logins``: each learner's own database URL, by name (empty: one learner).
    learner_urls: dict[str, str] = field(default_factory=dict)
    #: Each learner's login token, by name (made at start, printed once).
    learner_tokens: dict[str, str] = field(default_factory=dict)


def build_server(options: ServeOptions, binding: Binding, port: int) -> GatedServer:
    gate = Gate(
        token="" if options.learner_tokens else options.token,
        allowed_hosts=host_header_names(binding.names, port, tls=options.tls is not None),
        tls=options.tls is not None,
        max_sessions=options.max_sessions,
        idle_seconds=options.idle_seconds,
        learner_tokens=dict(options.learner_tokens),
    )
    return GatedServer(tui_command(), gate, options.learner_urls)


def login_url(binding: Binding, port: int, token: str, *, tls: bool) -> str:
    shown = f"[{binding.shown}]" if ":" in binding.shown else binding.shown
    return f"{'https' if tls else 'http'}://{shown}:{port}/?{TOKEN_PARAM}={token}"


def serve(options: ServeOptions, out: TextIO = sys.stdout) -> int:
    """Run the gated server until Ctrl-C or SIGTERM; returns the exit status.

    Before the first app process starts, the server's own environment is cut down to
    :func:`recall.serve.child.child_environment` (textual-serve copies it into every child).
    """
    binding = binding_for(options.host)
    sock = bind_socket(options.host, options.port)
    port = int(sock.getsockname()[1])
    server = build_server(options, binding, port)
    environment = child_environment(
        os.environ,
        data_dir=options.data_dir,
        db_url=options.db_url,
        custom_decks=options.custom_decks,
    )
    os.environ.clear()
    os.environ.update(environment)
    tls = options.tls is not None
    urls: list[tuple[str | None, str]]
    if options.learner_tokens:  # one address per learner, each their own login
        urls = [
            (name, login_url(binding, port, token, tls=tls))
            for name, token in options.learner_tokens.items()
        ]
    else:
        urls = [(None, login_url(binding, port, options.token, tls=tls))]
    asyncio.run(_run(server, sock, options, urls, out))
    return 0


async def start_runner(server: GatedServer) -> web.AppRunner:
    """The gated app, set up to serve (with the access log that never writes a query string)."""
    app = await server._make_app()
    runner = web.AppRunner(
        app,
        handle_signals=False,
        access_log_class=QuietAccessLogger,
        # An open tab never ends its websocket by itself: on Ctrl-C, wait this long and then
        # cancel it, which tells its app to quit (every review is committed already).
        shutdown_timeout=STOP_SECONDS,
    )
    await runner.setup()
    return runner


async def _run(
    server: GatedServer,
    sock: socket.socket,
    options: ServeOptions,
    urls: list[tuple[str | None, str]],
    out: TextIO,
) -> None:
    runner = await start_runner(server)

    site = web.SockSite(runner, sock, ssl_context=options.tls)
    await site.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    for learner, url in urls:
        if learner is None:
            print(f"recall serve: open {url}", file=out)
        else:
            print(f"recall serve: {quote(learner)} opens {url}", file=out)
        if options.qr:
            _print_qr(url, out)
    print(
        f"At most {count_of(options.max_sessions, 'browser session')} at once; one closes "
        f"after {count_of(options.idle_seconds / 60, 'minute')} without a key. Ctrl-C stops "
        "the server.",
        file=out,
    )
    out.flush()
    try:
        await stop.wait()
    finally:
        await runner.cleanup()


def _print_qr(url: str, out: TextIO) -> None:
    """The address as a QR code drawn with half-block characters (segno, BSD licence)."""
    try:
        import segno
    except ImportError:  # part of the extra, but the address above is enough without it
        return
    segno.make(url, error="l").terminal(out=out, compact=True)
