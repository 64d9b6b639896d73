# ruff: noqa: F811  (pytest fixtures imported from other modules shadow their parameters)
"""``recall serve --learner-logins``: each learner's browser session runs the app as that
learner's own database login, never the server's or another learner's.

In process, with textual-serve's ``AppService`` replaced by a recorder that builds the app's
environment as the real one would be asked to (so what the app process would get is what is
checked); the logins file is checked against a real shared PostgreSQL server.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual_serve")

import aiohttp  # noqa: E402
from aiohttp.test_utils import TestClient, TestServer  # noqa: E402
from pg_roles import SharedServer, shared_server  # noqa: E402, F401

from recall.errors import ConfigError  # noqa: E402
from recall.serve.gate import Gate, host_header_names  # noqa: E402
from recall.serve.server import GatedServer, serve_as_learner  # noqa: E402

HOST = "recall.test:8000"
ORIGIN = f"http://{HOST}"
URLS = {
    "ana": "postgresql+psycopg://ana:ana-secret@db.test/recall",
    "ben": "postgresql+psycopg://ben:ben-secret@db.test/recall",
}
TOKENS = {"ana": "ana-token-0123456789abcdef", "ben": "ben-token-0123456789abcdef"}
#: What the server's own environment holds (the owner's connection): never a learner's app's.
SERVER_ENV = {
    "RECALL_DB": "postgresql+psycopg://recall_owner@db.test/recall",
    "PGPASSWORD": "owner-secret",
    "PGUSER": "recall_owner",
    "RECALL_LEARNER": "ana",
    "PATH": "/usr/bin",
}


class RecordingAppService:
    """textual-serve's ``AppService`` stand-in: records the environment each start builds."""

    started: list[dict[str, str]] = []

    def __init__(self, command: str, **_kwargs: Any) -> None:
        self.command = command

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        return {**SERVER_ENV, "COLUMNS": str(width), "ROWS": str(height)}

    async def start(self, width: int, height: int) -> None:
        RecordingAppService.started.append(self._build_environment(width=width, height=height))

    async def stop(self) -> None:
        pass


@pytest.fixture(autouse=True)
def recorder(monkeypatch: pytest.MonkeyPatch) -> type[RecordingAppService]:
    import textual_serve.server

    RecordingAppService.started = []
    monkeypatch.setattr(textual_serve.server, "AppService", RecordingAppService)
    return RecordingAppService


@asynccontextmanager
async def client() -> AsyncIterator[TestClient]:
    gate = Gate(
        token="",
        allowed_hosts=host_header_names(["recall.test"], 8000, tls=False),
        learner_tokens=dict(TOKENS),
    )
    server = GatedServer("true", gate, URLS)
    app = await server._make_app()
    async with TestClient(TestServer(app), cookie_jar=aiohttp.CookieJar(unsafe=True)) as c:
        yield c


async def session_env(c: TestClient, token: str) -> dict[str, str]:
    login = await c.get(f"/?token={token}", headers={"Host": HOST}, allow_redirects=False)
    assert login.status == 303
    ws = await c.ws_connect("/ws", headers={"Host": HOST, "Origin": ORIGIN})
    await asyncio.sleep(0.1)
    await ws.close()
    return RecordingAppService.started[-1]


@pytest.mark.parametrize("learner", ["ana", "ben"])
def test_each_learner_app_logs_in_as_that_learner(learner: str) -> None:
    async def body() -> None:
        async with client() as c:
            env = await session_env(c, TOKENS[learner])
        assert env["RECALL_DB"] == URLS[learner]
        # nothing of the server's own login reaches it, nor a learner named by the server
        assert not any(name.startswith("PG") for name in env)
        assert "RECALL_LEARNER" not in env
        assert env["PATH"] == "/usr/bin"

    asyncio.run(body())


def test_two_learners_at_once_keep_their_own_logins() -> None:
    async def body() -> None:
        async with client() as c:
            ana = await session_env(c, TOKENS["ana"])
            c.session.cookie_jar.clear()
            ben = await session_env(c, TOKENS["ben"])
        assert (ana["RECALL_DB"], ben["RECALL_DB"]) == (URLS["ana"], URLS["ben"])

    asyncio.run(body())


@pytest.mark.parametrize("token", ["", "x", TOKENS["ana"][:-1], TOKENS["ana"] + "x"])
def test_without_a_learner_token_nothing_starts(token: str) -> None:
    async def body() -> None:
        async with client() as c:
            login = await c.get(f"/?token={token}", headers={"Host": HOST}, allow_redirects=False)
            assert login.status == 403
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await c.ws_connect("/ws", headers={"Host": HOST, "Origin": ORIGIN})
        assert RecordingAppService.started == []

    asyncio.run(body())


def test_the_real_app_service_is_given_the_learner_login() -> None:
    """The environment textual-serve's own ``AppService`` builds, once made a learner's."""
    from textual_serve.app_service import AppService

    async def nothing(*_args: Any) -> None:
        return None

    service = AppService(
        "true", write_bytes=nothing, write_str=nothing, close=nothing, download_manager=None
    )  # type: ignore[arg-type]
    os.environ["PGPASSWORD"] = "owner-secret"
    try:
        serve_as_learner(service, URLS["ben"])
        env = service._build_environment(width=90, height=30)
    finally:
        del os.environ["PGPASSWORD"]
    assert env["RECALL_DB"] == URLS["ben"] and "PGPASSWORD" not in env
    assert env["COLUMNS"] == "90" and env["TEXTUAL_DRIVER"]


# ---------------------------------------------------------------------- the logins file


def logins_file(tmp_path: Path, text: str, mode: int = 0o600) -> Path:
    path = tmp_path / "logins"
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)
    return path


def test_a_logins_path_that_is_not_a_regular_file_is_refused_without_blocking(
    tmp_path: Path,
) -> None:
    """A FIFO (which would block a plain open), a folder and a link to a good file are all
    refused by name, before anything is read."""
    import os

    from recall.commands.serve import read_learner_logins

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo, 0o600)
    folder = tmp_path / "folder"
    folder.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(logins_file(tmp_path, f"ana {URLS['ana']}\n"))
    for path in (fifo, folder, link):
        with pytest.raises(ConfigError, match="not a regular file"):
            read_learner_logins(path)


def test_a_logins_file_others_can_read_is_refused(tmp_path: Path) -> None:
    from recall.commands.serve import read_learner_logins

    with pytest.raises(ConfigError, match="chmod 600"):
        read_learner_logins(logins_file(tmp_path, f"ana {URLS['ana']}\n", 0o644))
    with pytest.raises(ConfigError, match="control character"):
        read_learner_logins(logins_file(tmp_path, f"a\x1bna {URLS['ana']}\n"))
    with pytest.raises(ConfigError, match="named twice"):
        read_learner_logins(logins_file(tmp_path, f"ana {URLS['ana']}\nana {URLS['ben']}\n"))


@pytest.mark.postgres
def test_every_line_must_be_that_learner_own_login(
    shared_server: SharedServer, tmp_path: Path
) -> None:
    from recall.commands.serve import read_learner_logins
    from recall.store import open_store
    from recall.store.engine import make_engine, parse_url
    from recall.store.learners import add_learner

    open_store(shared_server.owner_url).close()
    owner = make_engine(parse_url(shared_server.owner_url))
    urls = {}
    for name in ("ana", "ben"):
        added = add_learner(owner, name, shared_server.role(name))
        urls[name] = shared_server.url(added.learner.role_name, added.password)
    owner.dispose()
    good = logins_file(tmp_path, f"# the group\nana {urls['ana']}\n\nben {urls['ben']}\n")
    assert read_learner_logins(good) == urls
    swapped = logins_file(tmp_path, f"ana {urls['ben']}\n")
    with pytest.raises(ConfigError, match="logs in as learner 'ben'"):
        read_learner_logins(swapped)
    shared = logins_file(tmp_path, f"ana {shared_server.owner_url}\n")
    with pytest.raises(ConfigError, match="logs in as no learner"):
        read_learner_logins(shared)


# ---------------------------------------------------------------------- as a learner runs it


@pytest.mark.postgres
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_learner_browser_app_connects_as_their_role(
    shared_server: SharedServer, tmp_path: Path
) -> None:
    """``recall serve --learner-logins`` as a subprocess: ben's address starts an app whose
    environment holds ben's URL and none of the server's, and the database sees it log in as
    ben's role (never the owner's, which the server itself was started with)."""
    from sqlalchemy import text

    from recall.store import open_store
    from recall.store.engine import make_engine, parse_url
    from recall.store.learners import add_learner
    from tests.serve_fixtures import environment_of, prepare_home, recall_serve, wait_for

    open_store(shared_server.owner_url).close()
    owner = make_engine(parse_url(shared_server.owner_url))
    roles, urls = {}, {}
    for name in ("ana", "ben"):
        added = add_learner(owner, name, shared_server.role(name))
        roles[name] = added.learner.role_name
        urls[name] = shared_server.url(added.learner.role_name, added.password)
    owner.dispose()
    logins = logins_file(tmp_path, "".join(f"{name} {url}\n" for name, url in urls.items()))
    server_env = {"RECALL_DB": shared_server.owner_url, "PGPASSWORD": "owner-secret"}
    home = prepare_home(tmp_path / "home")
    admin = shared_server.superuser()

    def logged_in_as(role: str) -> int:
        with admin.connect() as conn:
            return int(
                conn.execute(
                    text(
                        "SELECT count(*) FROM pg_stat_activity "
                        "WHERE usename = :role AND datname = :db"
                    ),
                    {"role": role, "db": shared_server.database},
                ).scalar_one()
            )

    with recall_serve(home, "--learner-logins", str(logins), env=server_env) as served:
        assert served.process.stdout is not None
        ben_line = served.process.stdout.readline()
        assert "ben opens" in ben_line
        ben_url = ben_line.split(" opens ", 1)[1].strip()
        assert ben_url != served.url and "token=" in ben_url

        async def open_ben() -> dict[str, str]:
            own = {"Host": served.host, "Origin": served.origin}
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as c:
                await c.get(ben_url)
                socket = await c.ws_connect(served.origin + "/ws?width=80&height=24", headers=own)
                assert await asyncio.to_thread(wait_for, lambda: served.children() != [], 30)
                await asyncio.sleep(0.5)
                env = environment_of(max(served.children()))
                assert await asyncio.to_thread(wait_for, lambda: logged_in_as(roles["ben"]) > 0, 60)
                assert logged_in_as(roles["ana"]) == 0
                assert logged_in_as(shared_server.owner) == 0
                await socket.close()
                return env

        env = asyncio.run(open_ben())
    admin.dispose()
    assert env["RECALL_DB"] == urls["ben"]
    assert "PGPASSWORD" not in env and "owner-secret" not in " ".join(env.values())
