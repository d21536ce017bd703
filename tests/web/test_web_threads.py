"""The server's thread pools: the size the settings ask for, hashing apart, and the
sign-in check trusting a session it proved a moment ago."""

from __future__ import annotations

from typing import Any

import anyio.to_thread
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event

from cardroom.config import ConfigError
from cardroom.service.context import ServiceContext
from cardroom.web.app import create_app
from cardroom.web.deps import (
    POSTGRESQL_WORKER_THREADS,
    SQLITE_WORKER_THREADS,
    WebSettings,
)
from cardroom.web.threads import HASHING_THREADS, worker_threads


def test_the_worker_threads_come_from_the_environment() -> None:
    chosen = WebSettings.from_environ({"CARDROOM_WORKER_THREADS": "3"})
    assert chosen.worker_threads == 3
    assert worker_threads(chosen, sqlite=True) == worker_threads(chosen, sqlite=False) == 3
    default = WebSettings.from_environ({})
    assert worker_threads(default, sqlite=True) == SQLITE_WORKER_THREADS
    assert worker_threads(default, sqlite=False) == POSTGRESQL_WORKER_THREADS


@pytest.mark.parametrize("text", ["0", "-1", "eight", "257", "2.5"])
def test_a_bad_thread_count_is_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(ConfigError, match="CARDROOM_WORKER_THREADS must be a whole number"):
        WebSettings.from_environ({"CARDROOM_WORKER_THREADS": text})


def test_the_running_server_sizes_its_pools(ctx: ServiceContext) -> None:
    app = create_app(ctx, web=WebSettings(worker_threads=5))
    with TestClient(app) as client:
        portal = client.portal
        assert portal is not None
        tokens = portal.call(_default_tokens)
        assert tokens == 5
        assert app.state.hashing_limiter.total_tokens == HASHING_THREADS


async def _default_tokens() -> float:
    return anyio.to_thread.current_default_thread_limiter().total_tokens


def test_a_second_request_in_a_moment_reads_no_session(
    client: TestClient, player: tuple[int, str], db: Engine
) -> None:
    _, token = player
    headers = {"Authorization": f"Bearer {token}"}
    sent: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        sent.append(statement)

    assert client.get("/api/me", headers=headers).status_code == 200
    event.listen(db, "before_cursor_execute", count)
    try:
        assert client.get("/api/me", headers=headers).json()["name"] == "alice"
    finally:
        event.remove(db, "before_cursor_execute", count)
    assert sent == []
    # Signing out here is seen at once, window or not.
    assert client.post("/api/accounts/sign-out", headers=headers).status_code == 204
    assert client.get("/api/me", headers=headers).status_code == 401
