"""The threads a server's blocking work runs on.

Routes and dependencies that touch the database are plain functions, which FastAPI
runs on anyio's thread pool. ``start`` sizes that pool (``WebSettings.
worker_threads``: by default fewer on SQLite than on PostgreSQL) and gives password
hashing a pool of its own: an argon2id hash at the standard cost takes about 100 ms
of CPU and 64 MiB, so a crowd signing in at once (a room opening, the load test's
set-up) would otherwise hold every thread the tables need, and its memory would
grow with the crowd.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from typing import TypeVar

import anyio
import anyio.to_thread
from fastapi import FastAPI, Request

from cardroom.web.deps import POSTGRESQL_WORKER_THREADS, SQLITE_WORKER_THREADS, WebSettings

T = TypeVar("T")

# One hash per core at most: more would only take turns on the same cores.
HASHING_THREADS = max(1, min(4, os.cpu_count() or 1))


def worker_threads(web: WebSettings, *, sqlite: bool) -> int:
    if web.worker_threads is not None:
        return web.worker_threads
    return SQLITE_WORKER_THREADS if sqlite else POSTGRESQL_WORKER_THREADS


async def start(app: FastAPI, web: WebSettings, *, sqlite: bool) -> None:
    """Size the thread pools of the running event loop (in the app's lifespan)."""
    tokens = worker_threads(web, sqlite=sqlite)
    anyio.to_thread.current_default_thread_limiter().total_tokens = tokens
    app.state.hashing_limiter = anyio.CapacityLimiter(HASHING_THREADS)


async def hashing(request: Request, work: Callable[..., T], *args: object) -> T:
    """Run ``work`` (which hashes a password) on the hashing threads."""
    limiter = getattr(request.app.state, "hashing_limiter", None)  # None: not started
    return await anyio.to_thread.run_sync(partial(work, *args), limiter=limiter)
