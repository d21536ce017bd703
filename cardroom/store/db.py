"""The database engine, made once at start-up (never at import).

SQLite gets three connection settings that a multi-user room needs:

- WAL journaling, so readers never wait for the writer;
- foreign keys on (SQLite ignores them otherwise);
- a busy timeout, so a second writer waits its turn instead of failing at once;

and every transaction starts with ``BEGIN IMMEDIATE``: it takes the write lock up
front, so two transactions that both read a balance and then write it are serialised
rather than deadlocking on the read-to-write lock upgrade (which SQLite answers with
an immediate ``database is locked`` that no timeout helps). PostgreSQL needs none of
this: the ledger's conditional updates lock the rows they change.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.engine import URL
from sqlalchemy.orm import Session, sessionmaker

from cardroom.config import Settings

SQLITE_BUSY_TIMEOUT_MS = 10_000


def make_engine(settings: Settings) -> Engine:
    """An engine for ``settings.database_url``. For a SQLite file the parent folder
    (``./var/`` by default) is created."""
    url = make_url(settings.database_url)
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(url)
    return create_engine(url, pool_pre_ping=True)


def make_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    # expire_on_commit=False: use cases return plain records built inside the
    # transaction, but a caller holding an ORM object after commit should not trigger
    # a surprise query.
    return sessionmaker(engine, expire_on_commit=False)


def is_sqlite(engine: Engine) -> bool:
    return engine.dialect.name == "sqlite"


def _sqlite_engine(url: URL) -> Engine:
    database = url.database
    if database and database != ":memory:" and not database.startswith("file:"):
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Hand transaction control to SQLAlchemy (the "begin" hook below) instead of
        # the sqlite3 module's implicit BEGIN before DML only.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine
