"""The engine: made on demand, with the SQLite settings a shared room needs."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, text
from sqlalchemy.exc import DBAPIError, OperationalError

from cardroom.config import Settings
from cardroom.store.db import SQLITE_BUSY_TIMEOUT_MS, make_engine, make_sessionmaker


def test_importing_creates_no_engine_and_no_file(tmp_path: Path) -> None:
    # In a fresh interpreter, so that the modules really are imported here.
    modules = "cardroom.store.db, cardroom.store.migrate, cardroom.service.accounts"
    subprocess.run(
        [sys.executable, "-c", f"import {modules}"],
        cwd=tmp_path,
        check=True,
        env={**os.environ, "CARDROOM_DATABASE_URL": ""},
    )
    assert list(tmp_path.iterdir()) == []


def test_default_sqlite_file_lives_under_var(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    engine = make_engine(Settings())
    try:
        assert (tmp_path / "var").is_dir()
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        assert (tmp_path / "var" / "cardroom.db").is_file()
    finally:
        engine.dispose()


def test_sqlite_connections_use_wal_foreign_keys_and_a_busy_timeout(tmp_path: Path) -> None:
    engine = make_engine(Settings(database_url=f"sqlite:///{tmp_path / 'room.db'}"))
    try:
        with engine.connect() as connection:
            pragma = connection.exec_driver_sql
            assert pragma("PRAGMA journal_mode").scalar() == "wal"
            assert pragma("PRAGMA foreign_keys").scalar() == 1
            assert pragma("PRAGMA busy_timeout").scalar() == SQLITE_BUSY_TIMEOUT_MS
    finally:
        engine.dispose()


def test_sqlite_transactions_take_the_write_lock_up_front(tmp_path: Path) -> None:
    # A transaction that reads a balance and then writes it must hold the write lock
    # from its first statement, or two of them deadlock on the lock upgrade.
    path = tmp_path / "room.db"
    engine = make_engine(Settings(database_url=f"sqlite:///{path}"))
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        with engine.begin() as connection:
            connection.execute(text("SELECT 1"))  # only a read so far
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
        other.execute("BEGIN IMMEDIATE")  # free again once the first has committed
        other.execute("COMMIT")
    finally:
        other.close()
        engine.dispose()


def test_foreign_keys_are_enforced(db: Engine) -> None:
    with pytest.raises(Exception, match=r"(?i)foreign key"), db.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO sessions (user_id, token_hash, created_at, expires_at)"
                " VALUES (424242, 'x', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            )
        )


def test_savepoints_go_as_their_text_and_keep_what_they_should(db: Engine) -> None:
    """The engine's savepoints are sent as text (``db._savepoints_as_text``): a
    savepoint rolled back undoes only its own work, one released keeps it, and each
    is one statement of the engine, spelled as SQLAlchemy spells it."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        seen.append(sql)

    kept, undone = "savepoint kept", "savepoint undone"
    insert = text(
        "INSERT INTO admin_actions (action, reason, before, after, created_at) "
        "VALUES ('note', :reason, '{}', '{}', CURRENT_TIMESTAMP)"
    )
    event.listen(db, "before_cursor_execute", record)
    try:
        with make_sessionmaker(db).begin() as session:
            with session.begin_nested():
                session.execute(insert, {"reason": kept})
            try:
                with session.begin_nested():
                    session.execute(insert, {"reason": undone})
                    raise RuntimeError("undo it")
            except RuntimeError:
                pass
    finally:
        event.remove(db, "before_cursor_execute", record)
    with db.connect() as connection:
        reasons = connection.execute(text("SELECT reason FROM admin_actions")).scalars().all()
    assert kept in reasons and undone not in reasons
    savepoints = [sql for sql in seen if "SAVEPOINT" in sql]
    names = [sql.split()[-1] for sql in savepoints]
    assert savepoints == [
        f"SAVEPOINT {names[0]}",
        f"RELEASE SAVEPOINT {names[0]}",
        f"SAVEPOINT {names[2]}",
        f"ROLLBACK TO SAVEPOINT {names[2]}",
    ]


def test_a_lost_connection_rolls_back_with_its_own_error_and_frees_the_writer_lock(
    tmp_path: Path,
) -> None:
    """A SQLite connection lost in a transaction is invalidated; the transaction's
    end must not read it again (its ``info`` refuses, PendingRollbackError): the
    use case sees the error that lost it, the session rolls back and closes, and the
    next writer of the process gets the writer lock at once."""
    engine = make_engine(Settings(database_url=f"sqlite:///{tmp_path / 'room.db'}"))
    sessions = make_sessionmaker(engine)
    try:
        with pytest.raises(DBAPIError) as lost, sessions.begin() as session:
            session.connection().connection.dbapi_connection.close()  # type: ignore[union-attr]
            session.execute(text("SELECT 1"))
        assert lost.value.connection_invalidated
        session = sessions()
        connection = session.connection()
        connection.connection.dbapi_connection.close()  # type: ignore[union-attr]
        with pytest.raises(DBAPIError):
            session.execute(text("SELECT 1"))
        started = time.monotonic()
        session.rollback()
        assert session.execute(text("SELECT 1")).scalar() == 1  # a new connection
        session.close()
        with sessions.begin() as other:  # on another thread it would wait for the lock
            other.execute(text("SELECT 1"))
        waited = time.monotonic() - started
        assert waited < SQLITE_BUSY_TIMEOUT_MS / 2000, waited
    finally:
        engine.dispose()


def test_a_begin_refused_by_sqlite_is_the_engines_error_and_frees_the_writer_lock(
    tmp_path: Path,
) -> None:
    """``BEGIN IMMEDIATE`` goes to the driver itself when nobody listens
    (``db._send``): SQLite's refusal still reaches the use case as SQLAlchemy's
    ``OperationalError``, and the process's writer lock is handed on."""
    path = tmp_path / "room.db"
    engine = make_engine(Settings(database_url=f"sqlite:///{path}"))

    @event.listens_for(engine, "connect")
    def _no_wait(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.execute("PRAGMA busy_timeout=0")  # refused at once

    sessions = make_sessionmaker(engine)
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        with sessions.begin() as session:
            session.execute(text("SELECT 1"))  # the file and its WAL exist
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(OperationalError, match="locked"), sessions.begin() as session:
            session.execute(text("SELECT 1"))
        other.execute("COMMIT")
        started = time.monotonic()
        with sessions.begin() as session:
            assert session.execute(text("SELECT 1")).scalar() == 1
        assert time.monotonic() - started < SQLITE_BUSY_TIMEOUT_MS / 2000
    finally:
        other.close()
        engine.dispose()
