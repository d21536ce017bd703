"""A general limit on writes per session and per client address (issue 17, item 5:
one client was served 366 requests a second).

Every POST, PUT, PATCH and DELETE takes a token from two buckets: its session's (the
bearer token or the session cookie; a request with neither, such as a sign-up, only
from the address's) and its client address's (the one the sign-in throttle uses:
the proxy's last hop with ``--trust-proxy``). A bucket holds ``burst`` tokens and
refills at ``per_second``; an empty one answers 429 ``too_many_requests`` with
``Retry-After``, before any route runs, so the refused write changes nothing. Reads
and WebSockets are not limited here (a socket's commands have their own checks).

The buckets live in the process: with N processes a client spread over all of them
gets up to N times the rate. That is enough against one client hammering the room
(the point is to bound the work one client can cause), and costs no database round
trip per write. ``CARDROOM_WRITES_PER_SECOND`` and
``CARDROOM_WRITES_PER_ADDRESS_PER_SECOND`` set the rates (0: no limit).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from cardroom.web.errors import error_response
from cardroom.web.schemas import FORWARDED_FOR_HEADER, SESSION_COOKIE, ErrorCode

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
MAX_BUCKETS = 50_000  # idle full buckets are dropped past this
SENTENCE = "Too many requests; please slow down and try again in {seconds} seconds."


@dataclass(frozen=True)
class Rate:
    per_second: float
    burst: int

    def __post_init__(self) -> None:
        if self.per_second <= 0 or self.burst < 1:
            raise ValueError("A rate is positive, with a burst of at least one.")


def monotonic() -> float:
    """The buckets' clock (a test stands it still)."""
    return time.monotonic()


class Buckets:
    """Token buckets by key; ``take`` answers the seconds to wait, 0 if allowed."""

    def __init__(self, rate: Rate, clock: Callable[[], float] | None = None) -> None:
        self.rate = rate
        self.clock = clock or (lambda: monotonic())
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, at)

    def take(self, key: str) -> float:
        now = self.clock()
        rate = self.rate
        tokens, at = self._buckets.get(key, (float(rate.burst), now))
        tokens = min(float(rate.burst), tokens + (now - at) * rate.per_second)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return (1 - tokens) / rate.per_second
        self._buckets[key] = (tokens - 1, now)
        if len(self._buckets) > MAX_BUCKETS:
            self._prune(now)
        return 0.0

    def give_back(self, key: str) -> None:
        tokens, at = self._buckets.get(key, (0.0, self.clock()))
        self._buckets[key] = (min(float(self.rate.burst), tokens + 1), at)

    def _prune(self, now: float) -> None:
        rate = self.rate
        full = [
            key
            for key, (tokens, at) in self._buckets.items()
            if tokens + (now - at) * rate.per_second >= rate.burst
        ]
        for key in full:
            del self._buckets[key]


def _session_key(headers: Headers) -> str | None:
    authorization = headers.get("authorization", "")
    token = authorization[7:].strip() if authorization.lower().startswith("bearer ") else ""
    if not token:
        for part in headers.get("cookie", "").split(";"):
            name, _, value = part.strip().partition("=")
            if name == SESSION_COOKIE:
                token = value
    if not token:
        return None
    # the digest, not the token: a token kept in memory is a token that can leak
    return hashlib.sha256(token.encode()).hexdigest()[:32]


class WriteLimits:
    """The ASGI middleware (see the module's description)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        per_session: Rate | None,
        per_address: Rate | None,
        trust_proxy: bool,
    ) -> None:
        self.app = app
        self.sessions = None if per_session is None else Buckets(per_session)
        self.addresses = None if per_address is None else Buckets(per_address)
        self.trust_proxy = trust_proxy

    def _address(self, scope: Scope, headers: Headers) -> str:
        if self.trust_proxy:
            hops = [h.strip() for h in headers.get(FORWARDED_FOR_HEADER, "").split(",")]
            hops = [h for h in hops if h]
            if hops:
                return hops[-1]
        client = scope.get("client")
        return str(client[0]) if client else "unknown"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in WRITES:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        wait = 0.0
        address = self._address(scope, headers)
        if self.addresses is not None:
            wait = self.addresses.take(address)
        if not wait and self.sessions is not None:
            key = _session_key(headers)
            if key is not None:
                wait = self.sessions.take(key)
                if wait and self.addresses is not None:
                    self.addresses.give_back(address)  # not served: not counted
        if wait:
            seconds = max(1, math.ceil(wait))
            response = error_response(
                429,
                ErrorCode.TOO_MANY_REQUESTS,
                SENTENCE.format(seconds=seconds),
                {"Retry-After": str(seconds)},
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)
