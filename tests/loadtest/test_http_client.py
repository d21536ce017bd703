"""The load test's HTTP client on the answers a server under load may give: a
refusal, a server error, a body that is not JSON, a dropped or refused connection, an
answer too slow; each counted as the report says (refusals apart from errors, errors
by kind), and the request as a browser's would be (JSON, bearer token, no cookies)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web

from cardroom.loadtest.clients import Player, Room, TableClient
from cardroom.loadtest.http import HttpClient
from cardroom.loadtest.metrics import Metrics
from tests.servers import free_port

TOKEN = "t0ken"
SLOW_S = 1.0


def _app(seen: list[dict[str, Any]]) -> web.Application:
    """Game 1 refuses, 2 fails, 3 answers text, 4 is slow, 5 commits."""

    async def command(request: web.Request) -> web.StreamResponse:
        game = int(request.match_info["game"])
        seen.append(
            {
                "path": request.path,
                "body": await request.json(),
                "authorization": request.headers.get("Authorization"),
                "cookie": request.headers.get("Cookie"),
            }
        )
        if game == 1:
            error = {"code": "stale_version", "message": "The table moved on."}
            return web.json_response({"error": error}, status=409)
        if game == 2:
            return web.Response(status=500, text="Internal Server Error")
        if game == 3:
            return web.Response(status=502, text="<html>Bad Gateway</html>")
        if game == 4:
            await asyncio.sleep(SLOW_S)
        answer = web.json_response({"events": [], "version": 2})
        answer.set_cookie("session", "a-cookie-for-someone")  # as sign-in sets one
        return answer

    app = web.Application()
    app.router.add_post("/api/games/{game}/{command}", command)
    return app


@contextlib.asynccontextmanager
async def _serving(seen: list[dict[str, Any]]) -> AsyncIterator[str]:
    runner = web.AppRunner(_app(seen), access_log=None)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


@contextlib.asynccontextmanager
async def _dropping() -> AsyncIterator[str]:
    """A server that reads the request and hangs up without an answer."""

    async def hang_up(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1024)
        writer.close()

    server = await asyncio.start_server(hang_up, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        yield f"http://127.0.0.1:{port}"


async def _continue(url: str, game: int, timeout_s: float = 60.0) -> Metrics:
    """One player's Continue at ``game`` over HTTP; the metrics it left."""
    metrics = Metrics()
    client = HttpClient(url, 4, timeout_s)
    room = Room(metrics, {url: client})
    player = Player(room, TableClient(room, game), 0, "ann", 1, TOKEN, url, seed=1)
    metrics.begin()
    try:
        await player._command("continue")
    finally:
        metrics.end()
        for task in list(room.tasks):
            task.cancel()
        await client.close()
    return metrics


def test_refusals_server_errors_and_bodies_that_are_not_json() -> None:
    async def play() -> tuple[list[Metrics], list[dict[str, Any]]]:
        seen: list[dict[str, Any]] = []
        async with _serving(seen) as url:
            return [await _continue(url, game) for game in (1, 2, 3, 5)], seen

    (refused, failed, garbled, done), seen = asyncio.run(play())
    assert dict(refused.refusals) == {"continue_409_stale_version": 1} and not refused.errors
    assert refused.examples["continue_409_stale_version"] == "The table moved on."
    assert dict(failed.errors) == {"continue_500_500": 1}
    assert failed.examples["continue_500_500"] == "Internal Server Error"
    assert dict(garbled.errors) == {"continue_502_502": 1}
    assert garbled.examples["continue_502_502"] == "<html>Bad Gateway</html>"
    assert (done.commands, done.requests, done.errors, done.refusals) == (1, 1, {}, {})
    assert [s["path"] for s in seen] == [f"/api/games/{g}/continue" for g in (1, 2, 3, 5)]
    for request in seen:
        assert request["body"] == {} and request["authorization"] == f"Bearer {TOKEN}"


def test_refused_dropped_and_slow_connections_are_errors_by_kind() -> None:
    async def play() -> list[Metrics]:
        refused = await _continue(f"http://127.0.0.1:{free_port()}", 5)
        async with _dropping() as url:
            dropped = await _continue(url, 5)
        async with _serving([]) as url:
            slow = await _continue(url, 4, timeout_s=SLOW_S / 5)
        return [refused, dropped, slow]

    refused, dropped, slow = asyncio.run(play())
    assert dict(refused.errors) == {"http_ClientConnectorError": 1}
    assert dict(dropped.errors) == {"http_ServerDisconnectedError": 1}
    assert dict(slow.errors) == {"http_SocketTimeoutError": 1}
    for metrics in (refused, dropped, slow):
        assert (metrics.requests, metrics.commands, metrics.refusals) == (1, 0, {})


def test_a_reply_keeps_the_json_body_and_the_text_and_no_cookie() -> None:
    seen: list[dict[str, Any]] = []

    async def ask() -> list[Any]:
        async with _serving(seen) as url:
            # by name: aiohttp's usual cookie jar would drop a cookie from an IP address
            client = HttpClient(url.replace("127.0.0.1", "localhost"), 1, 60.0)
            try:
                ok = await client.post("/api/games/5/continue", {"kind": "check"})
                text = await client.post("/api/games/2/continue", {})
            finally:
                await client.close()
        return [ok, text]

    ok, text = asyncio.run(ask())
    assert (ok.status, ok.body) == (200, {"events": [], "version": 2})
    assert json.loads(ok.text) == ok.body
    assert (text.status, text.body, text.text) == (500, None, "Internal Server Error")
    assert [s["body"] for s in seen] == [{"kind": "check"}, {}]
    # The first answer set a cookie (as sign-in does); a client shared by a server's
    # players never sends it back: each player is its bearer token.
    assert [s["cookie"] for s in seen] == [None, None]
