"""The gate in front of every request ``recall serve`` answers.

Plain textual-serve lets anyone who reaches the port start an app, and lets any web page the
learner visits open a websocket to it (browsers do not apply the same-origin rule to websockets).
The gate, one aiohttp middleware, refuses in this order, each refusal saying why:

1. a ``Host`` not on the allowlist (the names and addresses the server is bound to): **421**,
   so a DNS-rebinding page cannot reach the server under its own name;
2. ``GET /?token=…``, the login: the token (printed once at start) is compared in constant time
   and swapped for a separate random session value in an ``HttpOnly; SameSite=Strict`` cookie
   (``Secure`` under TLS); a wrong token is **403**;
3. any other request without a live session cookie: **403**;
4. ``/ws`` whose ``Origin`` is not the server's own origin: **403** (cross-site websocket
   hijacking);
5. ``/ws`` when the concurrent-session cap is reached: **503** (one ~120 MiB process each);
6. a directory under ``/static/``: **404** (textual-serve would list it).

Several learners of a shared database (``recall serve --learner-logins FILE``): each learner
has a token of their own, and the session their login opens remembers whose it is
(:meth:`Gate.learner_of`), so the app a browser starts runs as that learner's own database
login (:mod:`recall.serve.server`), never a shared one; the single token is then off.

The token never appears in a log line (:class:`QuietAccessLogger` logs the path, never the query)
nor in a response. Nothing here imports textual-serve: the gate is tested on its own, and
:mod:`recall.serve.server` puts it in front of textual-serve's routes.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import stat
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger

from recall.errors import ConfigError
from recall.inert import quote
from recall.wording import count_of

#: Where the websocket's request carries the learner its session logged in as (a typed key
#: where aiohttp has them, 3.12 on; a string before).
LEARNER_KEY: Any = (
    web.RequestKey("recall_learner", object) if hasattr(web, "RequestKey") else "recall_learner"
)
#: The session cookie's name.
COOKIE = "recall_session"
#: The login's query parameter.
TOKEN_PARAM = "token"
#: Default cap on concurrent browser sessions (one app process each).
DEFAULT_MAX_SESSIONS = 3
#: Default minutes without a keystroke before a browser session is closed.
DEFAULT_IDLE_MINUTES = 30.0
#: Fewest characters a token read from a file may have (``secrets.token_urlsafe(32)`` has 43).
MIN_TOKEN_LENGTH = 16
#: Most cookie sessions remembered at once: a login past it forgets the oldest.
MAX_COOKIE_SESSIONS = 64
#: The bounds a terminal size from the page is clamped to (columns, rows).
MAX_COLUMNS, MAX_ROWS = 400, 200

log = logging.getLogger("recall.serve")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def new_token() -> str:
    """A fresh login token (256 bits of ``secrets``), made once per start."""
    return secrets.token_urlsafe(32)


def read_token_file(path: Path) -> str:
    """The token kept in ``path``: a regular file only its owner can read or write (mode 0600 or
    stricter), holding one line of at least :data:`MIN_TOKEN_LENGTH` printable ASCII characters.
    Raises :class:`ConfigError` saying what is wrong and how to fix it."""
    try:
        info = path.lstat()
    except OSError as error:
        raise ConfigError(f"cannot read the token file {path}: {error.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise ConfigError(f"the token file {path} is not a regular file")
    if info.st_mode & 0o077:
        raise ConfigError(
            f"the token file {path} can be read by others (mode {stat.S_IMODE(info.st_mode):o}): "
            f"chmod 600 {path}"
        )
    if info.st_size > 4096:
        raise ConfigError(f"the token file {path} is larger than a token (4 KiB at most)")
    token = path.read_text(encoding="ascii", errors="replace").strip()
    if len(token) < MIN_TOKEN_LENGTH or not all(33 <= ord(char) < 127 for char in token):
        raise ConfigError(
            f"the token file {path} must hold one token of at least {MIN_TOKEN_LENGTH} printable "
            "ASCII characters without spaces (e.g. the output of "
            "python -c 'import secrets; print(secrets.token_urlsafe(32))')"
        )
    return token


def host_header_names(names: Iterable[str], port: int, *, tls: bool) -> frozenset[str]:
    """The ``Host`` header values a request may carry for a server reached as any of ``names``
    on ``port``: ``name:port``, and the bare name on the scheme's default port. IPv6 addresses
    are bracketed, everything is lower-case."""
    default_port = 443 if tls else 80
    allowed: set[str] = set()
    for name in names:
        name = name.lower().strip("[]")
        shown = f"[{name}]" if ":" in name else name
        allowed.add(f"{shown}:{port}")
        if port == default_port:
            allowed.add(shown)
    return frozenset(allowed)


@dataclass
class Gate:
    """What the server lets in: one token, the hosts it answers to, the session cap.

    ``allowed_hosts`` holds ``Host`` header values (see :func:`host_header_names`); ``tls``
    says the server speaks HTTPS (the cookie is then ``Secure`` and the own origin
    ``https://``); ``static_root`` is the folder ``/static/`` serves, so a directory in it is
    refused rather than listed.
    """

    token: str
    allowed_hosts: frozenset[str]
    tls: bool = False
    max_sessions: int = DEFAULT_MAX_SESSIONS
    idle_seconds: float = DEFAULT_IDLE_MINUTES * 60
    static_root: Path | None = None
    #: Live cookie sessions: the random value → when it was made (monotonic seconds).
    sessions: dict[str, float] = field(default_factory=dict)
    #: Each learner's own token, by learner name (``--learner-logins``); empty: one token.
    learner_tokens: dict[str, str] = field(default_factory=dict)
    #: The learner a live cookie session logged in as (learner logins only).
    session_learners: dict[str, str] = field(default_factory=dict)
    #: Browser sessions (websockets, one app process each) open now.
    live: int = 0

    @property
    def scheme(self) -> str:
        return "https" if self.tls else "http"

    def token_matches(self, offered: str) -> bool:
        """``offered`` is the token, compared in constant time (never an empty one)."""
        if not self.token:
            return False
        return hmac.compare_digest(
            offered.encode("utf-8", errors="replace"), self.token.encode("utf-8")
        )

    def login(self, offered: str) -> tuple[bool, str | None]:
        """Whether ``offered`` logs in, and as which learner (``None``: the one token). Every
        learner's token is compared, in constant time, whichever matches."""
        encoded = offered.encode("utf-8", errors="replace")
        found: str | None = None
        for name, token in self.learner_tokens.items():
            if hmac.compare_digest(encoded, token.encode("utf-8")) and token:
                found = name
        if found is not None:
            return True, found
        return self.token_matches(offered), None

    def open_session(self, learner: str | None = None) -> str:
        """A new random session value (never derived from the token), remembered with the
        learner it logged in as."""
        while len(self.sessions) >= MAX_COOKIE_SESSIONS:
            oldest = min(self.sessions, key=self.sessions.__getitem__)
            del self.sessions[oldest]
            self.session_learners.pop(oldest, None)
        value = secrets.token_urlsafe(32)
        self.sessions[value] = time.monotonic()
        if learner is not None:
            self.session_learners[value] = learner
        return value

    def _session_of(self, request: web.Request) -> str | None:
        offered = request.cookies.get(COOKIE, "")
        if not offered:
            return None
        encoded = offered.encode("utf-8", errors="replace")
        found = None
        for value in self.sessions:
            if hmac.compare_digest(encoded, value.encode("utf-8")):
                found = value
        return found

    def has_session(self, request: web.Request) -> bool:
        """The request carries the cookie of a live session (compared in constant time)."""
        return self._session_of(request) is not None

    def learner_of(self, request: web.Request) -> str | None:
        """The learner whose token opened the request's session (``None``: the one token)."""
        value = self._session_of(request)
        return None if value is None else self.session_learners.get(value)

    def own_origin(self, request: web.Request) -> str:
        """The origin of the page this server served to ``request`` (its checked ``Host``)."""
        return f"{self.scheme}://{request.headers.get('Host', '').lower()}"

    # ------------------------------------------------------------------ the middleware

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Refuse what the gate does not let in (see the module docstring), else pass on."""
        host = request.headers.get("Host", "").lower()
        if host not in self.allowed_hosts:
            return refuse(
                421,
                f"recall serve does not answer to the host {quote(host or '(none)')}: "
                "open the address it printed",
            )
        if request.path == "/" and TOKEN_PARAM in request.query:
            return self._login(request)
        if not self.has_session(request):
            return refuse(
                403,
                "not logged in: open the address recall serve printed (it carries the token)",
            )
        if request.path == "/ws":
            return await self._websocket(request, handler)
        if self._is_static_directory(request.path):
            return refuse(404, "directories are not listed")
        response = await handler(request)
        _harden(response)
        return response

    def _login(self, request: web.Request) -> web.StreamResponse:
        matched, learner = self.login(request.query.get(TOKEN_PARAM, ""))
        if not matched:
            return refuse(403, "wrong token: open the address recall serve printed")
        # See other: the token leaves the address bar at once.
        response = web.Response(status=303, headers={"Location": "/"})
        response.set_cookie(
            COOKIE,
            self.open_session(learner),
            path="/",
            httponly=True,
            samesite="Strict",
            secure=self.tls,
        )
        _harden(response)
        return response

    async def _websocket(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        origin = request.headers.get("Origin", "")
        if origin.lower() != self.own_origin(request):
            return refuse(
                403,
                f"the websocket's origin {quote(origin or '(none)')} is not this server's: "
                "only the page recall serve sent may open it",
            )
        if self.live >= self.max_sessions:
            return refuse(
                503,
                f"{count_of(self.live, 'browser session')} open already, the most recall serve "
                "allows (--max-sessions): close one, or wait for an idle one to time out",
            )
        self.live += 1
        try:
            bounded = _bounded_size(request)
            bounded[LEARNER_KEY] = self.learner_of(request)
            return await handler(bounded)
        finally:
            self.live -= 1

    def _is_static_directory(self, path: str) -> bool:
        if not (path == "/static" or path.startswith("/static/")):
            return False
        if path.endswith("/") or self.static_root is None:
            return True
        target = (self.static_root / path[len("/static/") :]).resolve()
        return target.is_dir()


def refuse(status: int, reason: str) -> web.Response:
    """A refusal that says why, as plain text (``reason`` quotes request text only through
    :func:`recall.inert.quote`)."""
    response = web.Response(status=status, text=f"{reason}\n", content_type="text/plain")
    _harden(response)
    log.info("refused (%d): %s", status, reason)
    return response


def _harden(response: web.StreamResponse) -> None:
    """Headers every answer carries: never cached, never framed, never a referrer."""
    if response.prepared:
        return  # a websocket: its headers went out with the handshake
    response.headers.setdefault("Cache-Control", "no-store")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Content-Security-Policy", "frame-ancestors 'none'")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")


def _bounded_size(request: web.Request) -> web.Request:
    """``request`` with its ``?width=&height=`` (the terminal the app process starts with)
    clamped to a sane size, so a page cannot ask for a million columns."""
    query = dict(request.query)
    for key, most in (("width", MAX_COLUMNS), ("height", MAX_ROWS)):
        try:
            query[key] = str(min(max(int(query.get(key, "")), 1), most))
        except ValueError:
            query.pop(key, None)
    return request.clone(rel_url=request.rel_url.with_query(query))


def clamp_size(width: object, height: object) -> tuple[int, int] | None:
    """A resize from the page as columns and rows within bounds, or ``None`` if it is not one."""
    if not isinstance(width, int) or not isinstance(height, int):
        return None
    return min(max(width, 1), MAX_COLUMNS), min(max(height, 1), MAX_ROWS)


class QuietAccessLogger(AbstractAccessLogger):
    """aiohttp's access log without the query string (the login carries the token in it)."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        self.logger.info("%s %s %d", request.method, request.path, response.status)
