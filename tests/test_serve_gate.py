"""The gate of ``recall serve``, in process: every route of the app recall builds on textual-serve
refuses what it must, and no app process is started for a refused request.

textual-serve's ``AppService`` (what starts the app process) is replaced by a recorder, so a
request that got through would show as a start. The route sweep asks every route the built app
has, so a textual-serve release that adds one, or stops building its app the way the gate hooks
into, fails here.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import stat
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual_serve")

import aiohttp  # noqa: E402
from aiohttp import web  # noqa: E402
from aiohttp.test_utils import TestClient, TestServer  # noqa: E402

from recall.errors import ConfigError  # noqa: E402
from recall.serve import binding as serve_binding  # noqa: E402
from recall.serve import server as serve_server  # noqa: E402
from recall.serve.gate import (  # noqa: E402
    COOKIE,
    Gate,
    host_header_names,
    read_token_file,
)
from recall.serve.server import GatedServer  # noqa: E402

TOKEN = "the-token-0123456789abcdef"
HOST = "recall.test:8000"
ORIGIN = f"http://{HOST}"


class RecordingAppService:
    """Stands in for textual-serve's ``AppService``: records each start, runs nothing."""

    started: list[tuple[int, int]] = []
    stopped: int = 0

    def __init__(self, command: str, **_kwargs: Any) -> None:
        self.command = command
        self.sent: list[bytes] = []

    async def start(self, width: int, height: int) -> None:
        RecordingAppService.started.append((width, height))

    async def stop(self) -> None:
        RecordingAppService.stopped += 1

    async def send_bytes(self, data: bytes) -> bool:
        self.sent.append(data)
        return True

    async def set_terminal_size(self, width: int, height: int) -> None:
        pass

    async def blur(self) -> None:
        pass

    async def focus(self) -> None:
        pass


@pytest.fixture(autouse=True)
def recorder(monkeypatch: pytest.MonkeyPatch) -> type[RecordingAppService]:
    import textual_serve.server

    RecordingAppService.started = []
    RecordingAppService.stopped = 0
    monkeypatch.setattr(textual_serve.server, "AppService", RecordingAppService)
    return RecordingAppService


def make_gate(**kwargs: Any) -> Gate:
    return Gate(
        token=TOKEN, allowed_hosts=host_header_names(["recall.test"], 8000, tls=False), **kwargs
    )


@asynccontextmanager
async def client_for(gate: Gate) -> AsyncIterator[TestClient]:
    server = GatedServer("true", gate)
    app = await server._make_app()
    jar = aiohttp.CookieJar(unsafe=True)
    async with TestClient(TestServer(app), cookie_jar=jar) as client:
        yield client


async def logged_in(client: TestClient) -> None:
    response = await client.get(f"/?token={TOKEN}", headers={"Host": HOST}, allow_redirects=False)
    assert response.status == 303


def run(coroutine: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(coroutine())


# ---------------------------------------------------------------------- every route


async def open_routes(
    app: web.Application, skip: tuple[str, ...] = ()
) -> list[tuple[str, str, int]]:
    """Every (method, path, status) of ``app``'s routes that a client without the cookie is
    not refused with 403; each dynamic part of a path is filled in, a static folder asked for
    a file in it and for its listing."""
    paths = []
    for resource in app.router.resources():
        info = resource.get_info()
        path = info.get("path") or info.get("formatter") or info.get("prefix")
        assert path, f"a route recall does not know how to ask: {info}"
        if "prefix" in info:  # a static folder
            paths += [path + "/", path + "/js/textual.js"]
        else:
            paths.append(re.sub(r"\{[^}]*\}", "x", path))
    open_ones = []
    async with TestClient(TestServer(app)) as client:
        for path in (path for path in paths if path not in skip):
            for method in ("GET", "POST", "HEAD"):
                response = await client.request(method, path, headers={"Host": HOST})
                if response.status != 403:
                    open_ones.append((method, path, response.status))
    return open_ones


def test_every_route_textual_serve_has_is_behind_the_gate() -> None:
    async def body() -> None:
        gate = make_gate()
        app = await GatedServer("true", gate)._make_app()
        assert app.middlewares[0] == gate.middleware  # outermost
        routes = {
            info.get("path") or info.get("prefix")
            for info in (r.get_info() for r in app.router.resources())
        }
        assert {"/", "/ws", "/static"} <= routes  # what the gate was written against
        assert await open_routes(app) == []
        assert RecordingAppService.started == []

    run(body)


def test_the_route_sweep_finds_what_plain_textual_serve_leaves_open() -> None:
    """The sweep can fail: on textual-serve's own app it finds the page, the static files and
    the listing open (the websocket is left out: it would start the recorder)."""
    from textual_serve.server import Server

    async def body() -> None:
        app = await Server("true")._make_app()
        open_ones = await open_routes(app, skip=("/ws",))
        assert ("GET", "/", 200) in open_ones
        assert ("GET", "/static/", 200) in open_ones
        assert ("GET", "/static/js/textual.js", 200) in open_ones

    run(body)


# ---------------------------------------------------------------------- login and cookie


def test_the_token_is_swapped_for_a_separate_session_cookie() -> None:
    async def body() -> None:
        gate = make_gate()
        async with client_for(gate) as client:
            response = await client.get(
                f"/?token={TOKEN}", headers={"Host": HOST}, allow_redirects=False
            )
            assert response.status == 303 and response.headers["Location"] == "/"
            cookie = response.headers["Set-Cookie"]
            assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
            assert "Secure" not in cookie  # plain HTTP on loopback
            value = response.cookies[COOKIE].value
            assert value and TOKEN not in value and value in gate.sessions
            page = await client.get("/", headers={"Host": HOST})
            assert page.status == 200
            text = await page.text()
            assert f"ws://{HOST}/ws" in text and TOKEN not in text

    run(body)


def test_the_cookie_is_secure_under_tls() -> None:
    async def body() -> None:
        gate = Gate(
            token=TOKEN, allowed_hosts=host_header_names(["recall.test"], 8000, tls=True), tls=True
        )
        async with client_for(gate) as client:
            response = await client.get(
                f"/?token={TOKEN}", headers={"Host": HOST}, allow_redirects=False
            )
            assert "Secure" in response.headers["Set-Cookie"]

    run(body)


@pytest.mark.parametrize(
    "query",
    ["", "?token=", "?token=wrong", f"?token={TOKEN}x", f"?token={TOKEN[:-1]}", "?tok=" + TOKEN],
)
def test_no_token_or_a_wrong_one_is_refused(query: str) -> None:
    async def body() -> None:
        async with client_for(make_gate()) as client:
            response = await client.get(f"/{query}", headers={"Host": HOST}, allow_redirects=False)
            assert response.status == 403
            assert "Set-Cookie" not in response.headers
            assert "token" in (await response.text())  # says why and what to do

    run(body)


def test_a_made_up_cookie_is_refused() -> None:
    async def body() -> None:
        async with client_for(make_gate()) as client:
            response = await client.get("/", headers={"Host": HOST, "Cookie": f"{COOKIE}=guess"})
            assert response.status == 403

    run(body)


@pytest.mark.parametrize(
    "host",
    [
        "attacker.example",
        "attacker.example:8000",
        "recall.test:8001",
        "recall.test",
        "",
        "RECALL.TEST.:8000",
    ],
)
def test_a_foreign_host_is_refused_with_421(host: str) -> None:
    async def body() -> None:
        async with client_for(make_gate()) as client:
            await logged_in(client)
            for path in ("/", f"/?token={TOKEN}", "/ws", "/static/js/textual.js"):
                response = await client.get(path, headers={"Host": host}, allow_redirects=False)
                assert response.status == 421, (host, path)

    run(body)


def test_static_needs_the_cookie_and_never_lists_a_directory() -> None:
    async def body() -> None:
        async with client_for(make_gate()) as client:
            response = await client.get("/static/", headers={"Host": HOST})
            assert response.status == 403
            await logged_in(client)
            asset = await client.get("/static/js/textual.js", headers={"Host": HOST})
            assert asset.status == 200
            for directory in ("/static/", "/static", "/static/js", "/static/js/", "/static/css/.."):
                response = await client.get(directory, headers={"Host": HOST})
                assert response.status in (403, 404), directory
                assert "Index of" not in await response.text()

    run(body)


# ---------------------------------------------------------------------- the websocket


def test_the_websocket_needs_the_cookie() -> None:
    async def body() -> None:
        async with client_for(make_gate()) as client:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect("/ws", headers={"Host": HOST, "Origin": ORIGIN})
            assert refused.value.status == 403
        assert RecordingAppService.started == []

    run(body)


@pytest.mark.parametrize(
    "origin",
    [
        None,
        "http://evil.example",
        "null",
        f"https://{HOST}",
        "http://recall.test:8001",
        ORIGIN + ".evil",
    ],
)
def test_the_websocket_needs_the_servers_own_origin(origin: str | None) -> None:
    async def body() -> None:
        async with client_for(make_gate()) as client:
            await logged_in(client)
            headers = {"Host": HOST} | ({"Origin": origin} if origin is not None else {})
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect("/ws", headers=headers)
            assert refused.value.status == 403
        assert RecordingAppService.started == []

    run(body)


def test_sessions_over_the_cap_are_refused_and_start_nothing() -> None:
    async def body() -> None:
        gate = make_gate(max_sessions=2)
        async with client_for(gate) as client:
            await logged_in(client)
            headers = {"Host": HOST, "Origin": ORIGIN}
            first = await client.ws_connect("/ws?width=100&height=30", headers=headers)
            second = await client.ws_connect("/ws?width=99999999&height=-5", headers=headers)
            await asyncio.sleep(0.1)
            assert RecordingAppService.started == [(100, 30), (400, 1)]  # sizes bounded
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect("/ws", headers=headers)
            assert refused.value.status == 503
            assert len(RecordingAppService.started) == 2
            await first.close()
            await asyncio.sleep(0.2)
            third = await client.ws_connect("/ws", headers=headers)  # a place came free
            await asyncio.sleep(0.1)
            assert len(RecordingAppService.started) == 3
            await second.close()
            await third.close()

    run(body)


def test_an_idle_session_is_closed_and_its_app_stopped() -> None:
    async def body() -> None:
        gate = make_gate(idle_seconds=0.5)
        async with client_for(gate) as client:
            await logged_in(client)
            socket = await client.ws_connect("/ws", headers={"Host": HOST, "Origin": ORIGIN})
            await socket.send_json(["ping", "1"])  # not a key: does not keep it open
            assert (await socket.receive_json(timeout=2)) == ["pong", "1"]
            message = await socket.receive(timeout=5)
            assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            await asyncio.sleep(0.1)
            assert RecordingAppService.stopped >= 1
            assert gate.live == 0

    run(body)


def test_keys_reach_the_app_and_junk_messages_are_ignored() -> None:
    async def body() -> None:
        sent: list[bytes] = []
        original = RecordingAppService.send_bytes

        async def recording(self: RecordingAppService, data: bytes) -> bool:
            sent.append(data)
            return await original(self, data)

        RecordingAppService.send_bytes = recording  # type: ignore[method-assign]
        try:
            async with client_for(make_gate()) as client:
                await logged_in(client)
                socket = await client.ws_connect("/ws", headers={"Host": HOST, "Origin": ORIGIN})
                for junk in ("not json", "{}", "[]", '["stdin", 5]', '["resize", "x"]'):
                    await socket.send_str(junk)
                await socket.send_str('["stdin", "s"]')
                await asyncio.sleep(0.2)
                await socket.close()
        finally:
            RecordingAppService.send_bytes = original  # type: ignore[method-assign]
        assert sent == [b"s"]

    run(body)


# ---------------------------------------------------------------------- the token stays secret


def test_the_token_is_never_logged(caplog: pytest.LogCaptureFixture) -> None:
    """Through the runner ``recall serve`` uses (aiohttp's default access log writes the query
    string, token and all)."""

    async def body() -> None:
        server = GatedServer("true", make_gate())
        runner = await serve_server.start_runner(server)
        sock = serve_binding.bind_socket("127.0.0.1", 0)
        site = web.SockSite(runner, sock)
        await site.start()
        base = f"http://127.0.0.1:{sock.getsockname()[1]}"
        try:
            async with aiohttp.ClientSession() as client:
                for query in (f"?token={TOKEN}", "?token=wrong-guess"):
                    await client.get(
                        f"{base}/{query}", headers={"Host": HOST}, allow_redirects=False
                    )
        finally:
            await runner.cleanup()

    with caplog.at_level(logging.DEBUG):
        run(body)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "GET / 303" in logged and "GET / 403" in logged  # the access log ran
    assert TOKEN not in logged and "wrong-guess" not in logged


def test_a_token_file_must_be_private_and_hold_a_token(tmp_path: Path) -> None:
    path = tmp_path / "token"
    path.write_text("a-long-enough-token-1234\n")
    os.chmod(path, 0o600)
    assert read_token_file(path) == "a-long-enough-token-1234"
    for mode in (0o644, 0o640, 0o604, 0o660):
        os.chmod(path, mode)
        with pytest.raises(ConfigError, match="chmod 600"):
            read_token_file(path)
    os.chmod(path, 0o600)
    for text in ("short", "two words here and more", "", "tab\tinside-the-token-xx"):
        path.write_text(text)
        with pytest.raises(ConfigError, match="printable"):
            read_token_file(path)
    link = tmp_path / "link"
    link.symlink_to(path)
    with pytest.raises(ConfigError, match="not a regular file"):
        read_token_file(link)
    with pytest.raises(ConfigError, match="cannot read"):
        read_token_file(tmp_path / "missing")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# ---------------------------------------------------------------------- where it listens


def test_loopback_names_and_the_wildcard() -> None:
    assert serve_binding.is_loopback("127.0.0.1") and serve_binding.is_loopback("::1")
    assert serve_binding.is_loopback("localhost") and serve_binding.is_loopback("127.8.0.1")
    assert not serve_binding.is_loopback("0.0.0.0") and not serve_binding.is_loopback("192.168.1.4")
    binding = serve_binding.binding_for("127.0.0.1")
    assert binding.loopback and binding.names == {"127.0.0.1", "localhost"}
    lan = serve_binding.binding_for("192.0.2.7")
    assert not lan.loopback and "192.0.2.7" in lan.names and "localhost" not in lan.names
    assert host_header_names(["::1"], 8000, tls=False) == {"[::1]:8000"}
    assert host_header_names(["Example.org"], 443, tls=True) == {"example.org:443", "example.org"}


def test_the_refusals_never_echo_control_characters() -> None:
    async def body() -> None:
        server = GatedServer("true", make_gate())
        runner = await serve_server.start_runner(server)
        sock = serve_binding.bind_socket("127.0.0.1", 0)
        await web.SockSite(runner, sock).start()
        try:
            for host in ("evil\u202e\u200b.example", "evil\x1b]0;x\x07.example"):
                reader, writer = await asyncio.open_connection(*sock.getsockname()[:2])
                writer.write(f"GET / HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
                await writer.drain()
                answer = await reader.read(4096)
                writer.close()
                assert answer.split(b" ", 2)[1] in (b"400", b"421")
                for raw in (b"\x1b", b"\x07", "\u202e".encode(), "\u200b".encode()):
                    assert raw not in answer
        finally:
            await runner.cleanup()

    run(body)
