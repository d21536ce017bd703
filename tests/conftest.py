"""Shared fixtures. Storage tests run on SQLite and on PostgreSQL.

``db`` is a migrated database, parametrised over the backends: a SQLite file in a
temporary folder, and a scratch PostgreSQL database with a unique name, created on
``CARDROOM_TEST_POSTGRES_URL`` (default: the local server as user postgres) and
dropped at the end. One database per backend serves the whole run; every table is
emptied before each test.

If PostgreSQL cannot be reached its tests fail (a skipped test would hide a missing
feature) unless ``CARDROOM_TEST_POSTGRES=0`` says to test SQLite only.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, delete, make_url, select, text, update
from sqlalchemy.exc import OperationalError

from cardroom.config import PasswordHashing, Settings
from cardroom.service.context import ServiceContext
from cardroom.store import migrate
from cardroom.store.db import make_engine, make_sessionmaker
from cardroom.store.ledger import HOUSE
from cardroom.store.models import LedgerAccount
from cardroom.store.schema import metadata

# Every table the committer kept decoded between commands is compared with the
# stored state, decoded afresh, when it is taken (cardroom.service.kept_tables): in
# this process and in the servers the tests start, which inherit it.
os.environ["CARDROOM_CHECK_KEPT_TABLES"] = "1"

POSTGRES_ADMIN_URL = os.environ.get(
    "CARDROOM_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
UI_TESTS = Path(__file__).resolve().parent / "ui"
BACKENDS = (
    ("sqlite",) if os.environ.get("CARDROOM_TEST_POSTGRES") == "0" else ("sqlite", "postgresql")
)


@pytest.fixture(autouse=True)
def no_browser_loop_marked_running(request: pytest.FixtureRequest) -> Iterator[None]:
    """Outside the browser tests, no event loop is marked as running in this thread.
    Playwright's sync API marks its loop as running between its calls for as long as
    the session's browser lives, and ``asyncio.run`` refuses to start under a running
    loop. Under ``pytest -n`` a worker that has opened the browser goes on to other
    modules (xdist hands out the biggest first, not in collection order): those run
    with the mark lifted, and it is put back for Playwright afterwards."""
    browser_loop = asyncio._get_running_loop()
    if browser_loop is None or request.path.is_relative_to(UI_TESTS):
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(browser_loop)


@contextmanager
def scratch_database(backend: str, folder: Path) -> Iterator[str]:
    """The URL of a new, empty database, removed afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{folder / f'cardroom-{uuid.uuid4().hex}.db'}"
        return
    name = f"cardroom_test_{uuid.uuid4().hex[:16]}"
    admin = create_engine(POSTGRES_ADMIN_URL, isolation_level="AUTOCOMMIT")
    try:
        try:
            with admin.connect() as connection:
                connection.execute(text(f'CREATE DATABASE "{name}"'))
        except OperationalError as exc:
            pytest.fail(
                f"PostgreSQL is not reachable at {POSTGRES_ADMIN_URL} ({exc.orig}). "
                "Start it with scripts/ensure-services, or set CARDROOM_TEST_POSTGRES=0 "
                "to test on SQLite only.",
                pytrace=False,
            )
        try:
            yield (
                make_url(POSTGRES_ADMIN_URL)
                .set(database=name)
                .render_as_string(hide_password=False)
            )
        finally:
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test marked ``postgresql_only`` runs on PostgreSQL alone: its SQLite runs are
    deselected (counted as such), not skipped, so a skip still means a gap."""
    kept, dropped = [], []
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        on_sqlite = "sqlite" in (params.get("migrated_engine"), params.get("empty_database_url"))
        if on_sqlite and item.get_closest_marker("postgresql_only") is not None:
            dropped.append(item)
        else:
            kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@pytest.fixture(params=BACKENDS)
def empty_database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A brand-new database with no tables, one per backend, for migration tests."""
    with scratch_database(request.param, tmp_path_factory.mktemp("empty")) as url:
        yield url


@pytest.fixture(scope="session", params=BACKENDS)
def migrated_engine(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Engine]:
    with scratch_database(request.param, tmp_path_factory.mktemp("db")) as url:
        engine = make_engine(Settings(database_url=url))
        try:
            migrate.upgrade(engine)
            yield engine
        finally:
            engine.dispose()


def wipe(engine: Engine) -> None:
    """Every table back to its state just after the migrations: empty, but for the
    house account at zero."""
    with engine.begin() as connection:
        for table in reversed(metadata.sorted_tables):
            if table is LedgerAccount.__table__:
                connection.execute(delete(table).where(table.c.name != HOUSE))
                connection.execute(update(table).values(balance_cents=0))
            else:
                connection.execute(delete(table))


@pytest.fixture
def db(migrated_engine: Engine) -> Engine:
    """A migrated database with no users and no money in play."""
    wipe(migrated_engine)
    return migrated_engine


@pytest.fixture
def empty_tables(db: Engine) -> Callable[[], None]:
    """Wipe again mid-test: for hypothesis, whose examples share one test's fixtures."""
    return lambda: wipe(db)


def snapshot(engine: Engine) -> dict[str, list[str]]:
    """Every row of every table, in a comparable form."""
    with engine.connect() as connection:
        return {
            table.name: sorted(repr(tuple(row)) for row in connection.execute(select(table)))
            for table in metadata.sorted_tables
        }


# The ``unchanged`` fixture's type, for the tests that take it.
Unchanged = Callable[[], AbstractContextManager[None]]


@pytest.fixture
def unchanged(db: Engine) -> Unchanged:
    """``with unchanged(), pytest.raises(SomeRefusal): ...`` proves that a refusal
    left every table exactly as it was."""

    @contextmanager
    def check() -> Iterator[None]:
        before = snapshot(db)
        yield
        assert snapshot(db) == before, "a refused request changed the database"

    return check


class FakeClock:
    """A clock that stands still until a test moves it."""

    def __init__(self) -> None:
        self.moment = datetime(2026, 1, 15, 20, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, delta: timedelta) -> None:
        self.moment += delta


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def settings(db: Engine) -> Settings:
    return Settings(
        database_url=db.url.render_as_string(hide_password=False),
        password_hashing=PasswordHashing.cheap(),
    )


@pytest.fixture
def ctx(db: Engine, settings: Settings, clock: FakeClock) -> ServiceContext:
    return ServiceContext(settings=settings, sessions=make_sessionmaker(db), clock=clock)
