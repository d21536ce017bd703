"""A PostgreSQL connection is pinged before use only after it idled in the pool
(``cardroom.store.db._ping_when_idle``): one back from work a moment ago goes
straight to its transaction (a round trip fewer for each of the committer's
batches), one that idled is pinged, and one the server dropped while it idled is
replaced on its checkout, as the pool's own pre-ping did."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool

from cardroom.config import Settings
from cardroom.store import db as store_db
from cardroom.store.db import make_engine
from tests.conftest import BACKENDS, scratch_database

pytestmark = pytest.mark.skipif("postgresql" not in BACKENDS, reason="PostgreSQL only")


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    with scratch_database("postgresql", tmp_path) as url:
        made = make_engine(Settings(database_url=url))
        try:
            yield made
        finally:
            made.dispose()


@pytest.fixture
def pings(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Each ping the engine sends, counted."""
    counted: list[int] = []
    ping = engine.dialect.do_ping

    def counting(dbapi_connection: Any) -> bool:
        counted.append(1)
        return ping(dbapi_connection)

    monkeypatch.setattr(engine.dialect, "do_ping", counting)
    return counted


def backend_pid(engine: Engine) -> int:
    with engine.connect() as connection:
        pid = connection.scalar(text("SELECT pg_backend_pid()"))
    assert isinstance(pid, int)
    return pid


def test_a_connection_back_a_moment_ago_is_not_pinged(engine: Engine, pings: list[int]) -> None:
    first = backend_pid(engine)  # made now: not pinged either
    for _ in range(3):
        assert backend_pid(engine) == first  # the pool's one connection, again
    assert pings == []


def test_a_connection_that_idled_is_pinged(
    engine: Engine, pings: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    backend_pid(engine)
    monkeypatch.setattr(store_db, "PING_AFTER_IDLE_SECONDS", 0.0)
    backend_pid(engine)
    backend_pid(engine)
    assert pings == [1, 1]


def dropped_by_the_server(engine: Engine, pid: int) -> None:
    """The server ends backend ``pid`` (from a connection of its own, not the pool's)."""
    other = create_engine(engine.url, poolclass=NullPool)
    try:
        with other.connect() as connection:
            ended = connection.scalar(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            assert ended
    finally:
        other.dispose()


def test_a_connection_dropped_while_it_idled_is_replaced_on_checkout(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    with engine.connect() as one, engine.connect() as two:  # two pooled connections
        pids = [c.scalar(text("SELECT pg_backend_pid()")) for c in (one, two)]
    assert all(isinstance(pid, int) for pid in pids)
    dropped_by_the_server(engine, pids[0])
    monkeypatch.setattr(store_db, "PING_AFTER_IDLE_SECONDS", 0.0)
    for _ in range(3):  # whichever pooled connection comes out, it answers
        assert backend_pid(engine) != pids[0]


def test_one_dropped_a_moment_after_its_work_fails_once_and_the_pool_is_renewed(
    engine: Engine,
) -> None:
    """The trade: a connection the server drops within the idle time fails its
    first statement, as one lost mid-transaction does, and the pool is renewed."""
    pid = backend_pid(engine)
    dropped_by_the_server(engine, pid)
    with pytest.raises(OperationalError) as failed:
        backend_pid(engine)
    assert failed.value.connection_invalidated
    assert backend_pid(engine) != pid
