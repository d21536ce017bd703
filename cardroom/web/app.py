"""The FastAPI application.

``create_app()`` builds it without touching the database: the service context (and
so the database engine) is made in the lifespan, when the server starts, and closed
when it stops. Tests pass a ready ``ServiceContext`` instead, which the app uses as
it is and leaves open.
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI
from starlette.types import Receive, Scope, Send

from cardroom.config import Settings
from cardroom.service.context import ServiceContext
from cardroom.store.db import is_sqlite
from cardroom.web import threads
from cardroom.web.deps import WebSettings, require_json_body
from cardroom.web.errors import install_error_handlers
from cardroom.web.live import Live
from cardroom.web.no_store import NoStoreForApi
from cardroom.web.routes import (
    accounts,
    admin,
    bots,
    chat,
    games,
    health,
    histories,
    invites,
    money,
    notifications,
    pages,
    statistics,
    table_admin,
    ws,
)
from cardroom.web.schemas import CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE
from cardroom.web.write_limits import Rate, WriteLimits

# Every request body is a small JSON object; a megabyte is an attack or a bug.
MAX_BODY_BYTES = 64 * 1024

DESCRIPTION = f"""
Cardroom's HTTP API. Money is integer cents in fields named `*_cents`; times are
ISO 8601 in UTC.

**Signing in.** `POST /api/accounts/sign-in` returns a `token` and also sets the
`{SESSION_COOKIE}` cookie (HttpOnly) and the `{CSRF_COOKIE}` cookie (readable by the page).
API clients send `Authorization: Bearer <token>`. Browsers rely on the cookie, and
every write they make (POST, PUT, PATCH, DELETE) must echo the `{CSRF_COOKIE}` cookie in
the `{CSRF_HEADER}` header.

**Errors** are `{{"error": {{"code": "...", "message": "..."}}}}`: `code` is a stable
word to branch on, `message` a sentence for people.
"""


class CardroomApp(FastAPI):
    """FastAPI, except that the room's WebSockets go straight to their handlers
    (``ws.socket_for``), not through the middleware stack, which is for HTTP: an open
    socket would hold a frame of every layer for its whole life. (So a middleware
    added to the app, or FastAPI's telemetry, does not see them.)"""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and not self.root_path:
            socket = ws.socket_for(self, scope, receive, send)
            if socket is not None:
                await socket
                return
        await super().__call__(scope, receive, send)


def create_app(
    ctx: ServiceContext | None = None,
    settings: Settings | None = None,
    *,
    web: WebSettings | None = None,
    clock: bool | None = None,
) -> FastAPI:
    """The room's web application.

    ``ctx``: a running service context to use (tests); otherwise one is started from
    ``settings`` (default: the ``CARDROOM_*`` environment) when the server starts.
    ``web``: the HTTP-only settings (default: from the environment).
    ``clock``: run the scheduler that fires deadlines (default: only when the app
    starts its own context, i.e. in a server rather than a test).
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if ctx is not None:
            # The caller owns the context and closes it.
            await threads.start(app, app.state.web, sqlite=is_sqlite(ctx.engine))
            await live.start()
            try:
                yield
            finally:
                await live.stop()
            return
        started = ServiceContext.start(settings or Settings.from_environ())
        app.state.ctx = started
        try:
            await threads.start(app, app.state.web, sqlite=is_sqlite(started.engine))
            await live.start()
            freeze_what_start_up_made()
            try:
                yield
            finally:
                await live.stop()
        finally:
            started.close()

    app = CardroomApp(
        title="Cardroom",
        version="0.1.0",
        description=DESCRIPTION,
        lifespan=lifespan,
        max_body_size=MAX_BODY_BYTES,
        dependencies=[Depends(require_json_body)],
    )
    if ctx is not None:
        app.state.ctx = ctx
    app.state.web = web or WebSettings.from_environ()
    # The live part: WebSockets, the clock, the fan-out to other processes. The clock
    # runs by default when the app owns its context (a server); tests opt in.
    live = Live(lambda: get_context_of(app), clock=ctx is None if clock is None else clock)
    app.state.live = live
    install_error_handlers(app)
    app.add_middleware(NoStoreForApi)
    _limit_writes(app, app.state.web)
    for module in (health, accounts, money, admin, games, invites, chat):
        app.include_router(module.router)
    app.include_router(table_admin.host)
    app.include_router(table_admin.admin)
    app.include_router(chat.admin)
    for module in _LAST_ROUTERS:
        app.include_router(module.router)
    ws.install(app)
    return app


def _limit_writes(app: FastAPI, web: WebSettings) -> None:
    """Writes a second per session and per address (issue 17; 0: no limit), with a
    burst of three seconds' worth."""
    session, address = web.writes_per_second, web.writes_per_address_per_second
    if session or address:
        app.add_middleware(
            WriteLimits,
            per_session=Rate(session, 3 * session) if session else None,
            per_address=Rate(address, 3 * address) if address else None,
            trust_proxy=web.trust_proxy,
        )


# Routers that each part of the room adds in its own module (``router`` inside).
# The pages come last: they serve the browser UI at the paths the API does not use.
_LAST_ROUTERS = (notifications, histories, statistics, bots, pages)
OPTIONAL_ROUTERS = tuple(module.__name__.rpartition(".")[2] for module in _LAST_ROUTERS)


# The collector's thresholds in a server (``gc.set_threshold``; Python's own are
# 700, 10, 10). A command briefly holds thousands of container objects (its batch,
# its events, their views and texts), nearly all freed by reference counting when it
# is done: at 700 allocations the young generation was collected several times a
# command for next to nothing, 0.045-0.050 ms of a command's CPU (the committer's
# thread mostly; benchmarks/socket_loop.py, which reports it), where at 20,000 a run
# of 2,000 commands saw no collection at all. Cyclic garbage still goes, a little
# later; each of the rarer young collections walks at most some 20,000 objects.
GC_THRESHOLDS = (20_000, 20, 20)


def freeze_what_start_up_made() -> None:
    """Leave the objects of start-up (modules, the app, its routes and schemas,
    SQLAlchemy's mappers) out of every later garbage collection. A full collection
    walks every tracked object while every table in the process waits; at 200 tables
    the longest took 64-121 ms, and 12-33 ms once start-up's objects were frozen, the
    p99 action-to-broadcast 67 -> 38 ms (docs/benchmarks.md, "Garbage collection").
    Then collect less often (``GC_THRESHOLDS``). Only in a server: a test suite
    starting an app per test would freeze each test's objects for good."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def get_context_of(app: FastAPI) -> ServiceContext:
    ctx = app.state.ctx
    assert isinstance(ctx, ServiceContext), "create_app's lifespan sets the context"
    return ctx
