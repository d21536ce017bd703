"""The engine: made on demand, with the SQLite settings a shared room needs."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import Engine, text

from cardroom.config import Settings
from cardroom.store.db import SQLITE_BUSY_TIMEOUT_MS, make_engine


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
