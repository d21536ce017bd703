"""What an HTTP request costs the load test's client: CPU seconds of the client's own
process per request (``time.process_time``), httpx against aiohttp, in the same run
(docs/benchmarks.md, "The load test's HTTP client").

The server is a separate process (uvicorn, as ``cardroom serve`` runs it, with a bare
ASGI app answering every POST with a small JSON body, as an action's ``CommandOut``),
so its CPU is not counted. Each client posts a JSON body with a
bearer token over keep-alive connections and parses the JSON answer, as a player's
command does: with 1 request in flight, and with ``--in-flight`` (many players acting
at once). Rounds alternate the libraries, since timings swing between minutes.

    $ .venv/bin/python benchmarks/http_client_cost.py
    $ flock /tmp/bench-load.lock .venv/bin/python benchmarks/http_client_cost.py --rounds 3
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import httpx

ANSWER = json.dumps(
    {"events": [{"seq": 41, "kind": "check", "seat": 2}], "version": 17, "hand_over": False}
).encode()
BODY = {"kind": "check", "version": 17}
HEADERS = {"Authorization": "Bearer " + "t" * 43}

Post = Callable[[], Awaitable[Any]]


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Any request: read the body, answer 200 with ``ANSWER``."""
    if scope["type"] != "http":
        return
    more = True
    while more:
        message = await receive()
        more = message.get("more_body", False)
    headers = [(b"content-type", b"application/json")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": ANSWER})


def serve(port: int) -> None:
    import uvicorn

    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        server_header=False,
        lifespan="off",
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def measure(post: Post, requests: int, in_flight: int) -> tuple[float, float]:
    """(client CPU seconds, wall seconds) for ``requests`` posts, ``in_flight`` at once."""
    left = requests

    async def worker() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            await post()

    await asyncio.gather(*(worker() for _ in range(min(in_flight, 50))))  # warm the pool
    left = requests
    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(in_flight)))
    return time.process_time() - cpu, time.perf_counter() - wall


async def with_httpx(url: str, requests: int, in_flight: int) -> tuple[float, float]:
    # as cardroom loadtest made its clients before: one per server, a pool per client
    limits = httpx.Limits(max_connections=in_flight + 32, max_keepalive_connections=in_flight + 32)
    async with httpx.AsyncClient(base_url=url, timeout=60.0, limits=limits) as client:

        async def post() -> Any:
            response = await client.post("/api/games/1/actions", json=BODY, headers=HEADERS)
            return response.status_code, response.json(), response.text

        return await measure(post, requests, in_flight)


async def with_aiohttp(url: str, requests: int, in_flight: int) -> tuple[float, float]:
    connector = aiohttp.TCPConnector(limit=in_flight + 32, limit_per_host=0)
    timeout = aiohttp.ClientTimeout(total=None, connect=60.0, sock_read=60.0)
    async with aiohttp.ClientSession(
        base_url=url, connector=connector, timeout=timeout, cookie_jar=aiohttp.DummyCookieJar()
    ) as session:

        async def post() -> Any:
            async with session.post("/api/games/1/actions", json=BODY, headers=HEADERS) as answer:
                raw = await answer.read()
                return answer.status, json.loads(raw), raw.decode()

        return await measure(post, requests, in_flight)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=3000, help="per library and setting")
    parser.add_argument("--in-flight", type=int, default=32, help="the busy setting")
    parser.add_argument("--rounds", type=int, default=2, help="httpx, aiohttp, ... alternated")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)  # the server process
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port)])
    try:
        _wait_for(url)
        print(
            f"{args.requests} POSTs each, {os.cpu_count()} CPUs; client CPU ms per request "
            "(requests/s)"
        )
        print(f"{'round':>5}  {'library':<8} {'in flight':>9} {'CPU ms':>7} {'req/s':>7}")
        for round_ in range(1, args.rounds + 1):
            for in_flight in (1, args.in_flight):
                for name, run in (("httpx", with_httpx), ("aiohttp", with_aiohttp)):
                    cpu, wall = asyncio.run(run(url, args.requests, in_flight))
                    print(
                        f"{round_:>5}  {name:<8} {in_flight:>9} "
                        f"{1000 * cpu / args.requests:>7.3f} {args.requests / wall:>7,.0f}",
                        flush=True,
                    )
    finally:
        server.terminate()
        server.wait(timeout=10)


def _wait_for(url: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.post(url, timeout=1.0)
            return
        except httpx.TransportError:
            time.sleep(0.1)
    raise SystemExit(f"the server at {url} did not start")


if __name__ == "__main__":
    main()
