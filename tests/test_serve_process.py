"""``recall serve`` as the learner runs it (a subprocess on port 0), probed with a plain HTTP and
websocket client: every refusal has its status and starts no process; the one session let in
starts one app process, whose environment holds none of the server's secrets; a session over the
cap is refused while it runs. Also the command's own refusals (no extra, a network address
without TLS) and the unsafe-LAN warning.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("textual_serve")

import aiohttp  # noqa: E402

from recall.cli import main  # noqa: E402
from recall.commands import serve as serve_command  # noqa: E402
from recall.paths import SERVED_ENV  # noqa: E402
from tests.serve_fixtures import (  # noqa: E402
    Served,
    environment_of,
    prepare_home,
    recall_serve,
    wait_for,
)

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")

SECRET = "AWS_SECRET_ACCESS_KEY"


async def _refusals(served: Served) -> dict[str, int]:
    """Each thing the gate must refuse, with the status it answered."""
    statuses: dict[str, int] = {}
    own = {"Host": served.host, "Origin": served.origin}
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
        statuses["no token"] = (await client.get(served.origin + "/")).status
        wrong = served.url[:-3] + "xyz"
        statuses["wrong token"] = (await client.get(wrong, allow_redirects=False)).status
        statuses["static without cookie"] = (await client.get(served.origin + "/static/")).status
        try:
            await client.ws_connect(served.origin + "/ws", headers=own)
        except aiohttp.WSServerHandshakeError as error:
            statuses["ws without cookie"] = error.status
        statuses["foreign host"] = (
            await client.get(served.url, headers={"Host": "attacker.example"})
        ).status
        login = await client.get(served.url, allow_redirects=False)
        assert login.status == 303  # logged in from here on
        try:
            await client.ws_connect(
                served.origin + "/ws", headers={**own, "Origin": "http://evil.example"}
            )
        except aiohttp.WSServerHandshakeError as error:
            statuses["ws foreign origin"] = error.status
        statuses["static listing"] = (await client.get(served.origin + "/static/")).status
    return statuses


def test_refused_requests_start_nothing(tmp_path: Path) -> None:
    home = prepare_home(tmp_path / "home")
    with recall_serve(home) as served:
        statuses = asyncio.run(_refusals(served))
        assert statuses == {
            "no token": 403,
            "wrong token": 403,
            "static without cookie": 403,
            "ws without cookie": 403,
            "foreign host": 421,
            "ws foreign origin": 403,
            "static listing": 404,
        }
        assert served.children() == []


async def _one_session_then_over_the_cap(served: Served) -> tuple[list[int], int, dict[str, str]]:
    own = {"Host": served.host, "Origin": served.origin}
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
        await client.get(served.url)
        socket = await client.ws_connect(served.origin + "/ws?width=80&height=24", headers=own)
        assert await asyncio.to_thread(wait_for, lambda: len(served.children()) >= 1, 30)
        await asyncio.sleep(0.5)  # the shell has started the app
        children = served.children()
        environment = environment_of(max(children))
        status = 0
        try:
            await client.ws_connect(served.origin + "/ws", headers=own)
        except aiohttp.WSServerHandshakeError as error:
            status = error.status
        await asyncio.sleep(0.3)
        assert sorted(served.children()) == sorted(children)  # the refusal started nothing
        await socket.close()
    return children, status, environment


def test_one_session_one_process_a_clean_environment_and_the_cap(tmp_path: Path) -> None:
    home = prepare_home(tmp_path / "home")
    environment = {SECRET: "hunter2", "GITHUB_TOKEN": "ghp_x", "SSH_AUTH_SOCK": "/tmp/agent"}
    with recall_serve(home, "--max-sessions", "1", env=environment) as served:
        children, status, child_env = asyncio.run(_one_session_then_over_the_cap(served))
        assert children and status == 503
        assert child_env[SERVED_ENV] == "1"
        assert child_env["RECALL_HOME"] == str(home.resolve())
        assert child_env["TEXTUAL_DRIVER"].endswith("WebDriver")
        for name in (SECRET, "SSH_AUTH_SOCK", "GITHUB_TOKEN"):
            assert name not in child_env
        assert "hunter2" not in " ".join(child_env.values())
        # The page went: its app process ends.
        assert wait_for(lambda: served.children() == [], timeout=30)


def test_without_the_extra_one_line_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(serve_command, "missing_extra", lambda: "textual_serve")
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'recall[serve]'" in err


def test_a_network_address_needs_tls_or_insecure_lan(tmp_path: Path) -> None:
    home = prepare_home(tmp_path / "home")
    refused = subprocess.run(
        [sys.executable, "-m", "recall", "serve", "--host", "0.0.0.0", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        env={"RECALL_HOME": str(home), "PATH": "/usr/bin:/bin"},
    )
    assert refused.returncode == 2
    assert "--tls-cert" in refused.stderr and "--insecure-lan" in refused.stderr
    half = subprocess.run(
        [sys.executable, "-m", "recall", "serve", "--tls-cert", "x.pem", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        env={"RECALL_HOME": str(home), "PATH": "/usr/bin:/bin"},
    )
    assert half.returncode == 2 and "go together" in half.stderr


def test_insecure_lan_prints_why_it_is_unsafe(tmp_path: Path) -> None:
    home = prepare_home(tmp_path / "home")
    with recall_serve(home, "--host", "0.0.0.0", "--insecure-lan") as served:
        served.process.terminate()
        _out, err = served.process.communicate(timeout=20)
    assert "WARNING" in err and "plain HTTP" in err and "token" in err


async def _open_session(served: Served, ssl: bool = True) -> tuple[str, list[int]]:
    """Log in, open a websocket, wait for its app process; returns the cookie header sent."""
    own = {"Host": served.host, "Origin": served.origin}
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
        login = await client.get(served.url, allow_redirects=False, ssl=ssl)
        cookie = login.headers.get("Set-Cookie", "")
        socket = await client.ws_connect(served.origin + "/ws", headers=own, ssl=ssl)
        assert await asyncio.to_thread(wait_for, lambda: len(served.children()) >= 1, 30)
        children = served.children()
        served.process.terminate()  # the server stops with a session open
        await asyncio.to_thread(served.process.wait, 30)
        await socket.close()
    return cookie, children


def test_stopping_the_server_ends_its_app_processes(tmp_path: Path) -> None:
    home = prepare_home(tmp_path / "home")
    with recall_serve(home) as served:
        _cookie, children = asyncio.run(_open_session(served))
        assert children
        assert wait_for(lambda: not any(Path(f"/proc/{pid}").exists() for pid in children), 30)


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl to make a certificate")
def test_tls_off_loopback_secure_cookie_and_https_origin(tmp_path: Path) -> None:
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
        + ["-subj", "/CN=recall-test", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    home = prepare_home(tmp_path / "home")
    args = ("--host", "0.0.0.0", "--tls-cert", str(cert), "--tls-key", str(key))
    with recall_serve(home, *args) as served:
        assert served.url.startswith("https://")
        assert served.process.poll() is None  # no --insecure-lan needed with TLS

        async def probe() -> int:
            own = {"Host": served.host}
            async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
                await client.get(served.url, ssl=False)
                http_origin = {**own, "Origin": served.origin.replace("https://", "http://")}
                try:
                    await client.ws_connect(served.origin + "/ws", headers=http_origin, ssl=False)
                except aiohttp.WSServerHandshakeError as error:
                    return error.status
            return 0

        assert asyncio.run(probe()) == 403  # the page's origin is https://, not http://
        cookie, children = asyncio.run(_open_session(served, ssl=False))
        assert "Secure" in cookie and "HttpOnly" in cookie and children


def test_the_qr_code_is_drawn_when_asked(tmp_path: Path) -> None:
    home = prepare_home(tmp_path / "home")
    process = subprocess.Popen(
        [sys.executable, "-m", "recall", "serve", "--port", "0", "--qr"],
        stdout=subprocess.PIPE,
        text=True,
        env={"RECALL_HOME": str(home), "PATH": "/usr/bin:/bin"},
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(6)]
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert "token=" in lines[0]
    assert any("█" in line or "▀" in line or "▄" in line for line in lines[1:])


def test_db_and_decks_may_follow_the_subcommand(tmp_path: Path) -> None:
    from recall.cli import build_parser

    parser = build_parser()
    after = parser.parse_args(["serve", "--db", "sqlite:////a.db", "--decks", "/d"])
    before = parser.parse_args(["--db", "sqlite:////b.db", "--decks", "/e", "serve"])
    assert (after.db, after.decks) == ("sqlite:////a.db", "/d")
    assert (before.db, before.decks) == ("sqlite:////b.db", "/e")


def test_an_idle_browser_session_ends_its_app(tmp_path: Path) -> None:
    home = prepare_home(tmp_path / "home")

    async def idle(served: Served) -> tuple[list[int], object]:
        own = {"Host": served.host, "Origin": served.origin}
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
            await client.get(served.url)
            socket = await client.ws_connect(served.origin + "/ws", headers=own)
            assert await asyncio.to_thread(wait_for, lambda: len(served.children()) >= 1, 30)
            children = served.children()
            while True:  # the app's output, until the server closes the idle session
                message = await socket.receive(timeout=60)
                if message.type not in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
                    return children, message.type

    with recall_serve(home, "--idle-minutes", "0.05") as served:  # 3 s without a key
        children, closing = asyncio.run(idle(served))
        assert closing in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert wait_for(lambda: not any(Path(f"/proc/{pid}").exists() for pid in children), 30)
        assert served.process.poll() is None  # the server goes on


def test_a_token_file_gives_the_same_address_each_start_and_must_be_private(
    tmp_path: Path,
) -> None:
    home = prepare_home(tmp_path / "home")
    token_file = tmp_path / "token"
    token_file.write_text("kept-token-for-the-tablet-0123456789\n")
    token_file.chmod(0o600)
    with recall_serve(home, "--token-file", str(token_file)) as served:
        assert served.url.endswith("/?token=kept-token-for-the-tablet-0123456789")
    token_file.chmod(0o644)
    refused = subprocess.run(
        [sys.executable, "-m", "recall", "serve", "--port", "0", "--token-file", str(token_file)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"RECALL_HOME": str(home), "PATH": "/usr/bin:/bin"},
    )
    assert refused.returncode == 2 and "chmod 600" in refused.stderr
    assert "kept-token" not in refused.stderr  # the refusal never prints the token


def test_a_database_url_that_cannot_work_is_refused_before_serving(tmp_path: Path) -> None:
    home = prepare_home(tmp_path / "home")
    for url in ("not a url", f"sqlite:///{tmp_path}/missing/folder/r.db"):
        refused = subprocess.run(
            [sys.executable, "-m", "recall", "serve", "--port", "0", "--db", url],
            capture_output=True,
            text=True,
            timeout=60,
            env={"RECALL_HOME": str(home), "PATH": "/usr/bin:/bin"},
        )
        assert refused.returncode == 2 and "token=" not in refused.stdout
        assert "database URL" in refused.stderr or "does not exist" in refused.stderr
