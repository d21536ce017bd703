"""The load test's HTTP client: aiohttp's, a session of keep-alive connections per
server.

aiohttp rather than httpx because the client shares the machine's cores with the
server it measures: on the 2-core machine httpx spent 0.9 ms of the client's CPU per
request with one in flight and 2.0-2.2 ms with 32, aiohttp 0.17 and 0.10
(``benchmarks/http_client_cost.py``), so HTTP figures measured the client as much as
the server.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import aiohttp

# What a request may raise instead of answering: refused or dropped connections,
# malformed answers (aiohttp.ClientError), and the timeouts (aiohttp's own are both).
HTTP_ERRORS: tuple[type[Exception], ...] = (aiohttp.ClientError, TimeoutError)


@dataclass(frozen=True)
class Reply:
    """A command's answer, HTTP's or the socket's: the status and the JSON body (the
    ``CommandOut``, or ``{"error": {...}}``); ``text`` for a body that is not JSON."""

    status: int
    body: Any
    text: str = ""


class HttpClient:
    """One server's connections: at most ``connections`` open at once, kept alive
    between requests; a connection or an answer not there within ``timeout_s`` is an
    error, however long the whole request takes (httpx's meaning of its timeout)."""

    def __init__(self, base_url: str, connections: int, timeout_s: float) -> None:
        self.base_url = base_url
        self.session = aiohttp.ClientSession(
            base_url=base_url,
            connector=aiohttp.TCPConnector(limit=connections, limit_per_host=0),
            # "connect" counts the wait for a free connection too, as httpx's pool timeout
            timeout=aiohttp.ClientTimeout(total=None, connect=timeout_s, sock_read=timeout_s),
            # Players send bearer tokens; the cookies sign-in sets are not theirs to share.
            cookie_jar=aiohttp.DummyCookieJar(),
        )

    async def get(self, path: str) -> Reply:
        return await self._request("GET", path, None, None)

    async def post(
        self, path: str, body: dict[str, Any], headers: dict[str, str] | None = None
    ) -> Reply:
        return await self._request("POST", path, body, headers)

    async def _request(
        self, method: str, path: str, body: dict[str, Any] | None, headers: dict[str, str] | None
    ) -> Reply:
        async with self.session.request(method, path, json=body, headers=headers) as answer:
            raw = await answer.read()
        text = raw.decode("utf-8", errors="replace")  # Cardroom's API answers in UTF-8
        try:
            return Reply(answer.status, json.loads(raw), text)
        except ValueError:  # not JSON (or empty): the text says what it was
            return Reply(answer.status, None, text)

    async def close(self) -> None:
        await self.session.close()
