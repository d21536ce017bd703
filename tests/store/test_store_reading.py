"""SQLite transactions: writers of one process queue on a lock of their own and never
meet "database is locked"; a read-only transaction (``reading()``) waits for no
writer."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from sqlalchemy import text

from cardroom.config import Settings
from cardroom.store.db import make_engine, make_sessionmaker, reading


def test_a_reader_does_not_wait_for_a_writer_and_writers_queue(tmp_path: Path) -> None:
    engine = make_engine(Settings(database_url=f"sqlite:///{tmp_path / 'x.db'}"))
    sessions = make_sessionmaker(engine)
    try:
        with engine.begin() as connection:
            connection.execute(text("CREATE TABLE t (n INTEGER)"))
            connection.execute(text("INSERT INTO t VALUES (0)"))
        writing, release = threading.Event(), threading.Event()

        def slow_writer() -> None:
            with sessions.begin() as session:
                session.execute(text("UPDATE t SET n = n + 1"))
                writing.set()
                release.wait(10)

        holder = threading.Thread(target=slow_writer)
        holder.start()
        assert writing.wait(10)
        began = time.perf_counter()
        with reading(), sessions.begin() as session:
            assert session.execute(text("SELECT n FROM t")).scalar() == 0  # the last commit
        assert time.perf_counter() - began < 1.0, "the reader waited for the writer"
        release.set()
        holder.join()

        def add(times: int) -> None:
            for _ in range(times):
                with sessions.begin() as session:
                    value = session.execute(text("SELECT n FROM t")).scalar_one()
                    session.execute(text("UPDATE t SET n = :n"), {"n": value + 1})

        writers = [threading.Thread(target=add, args=(50,)) for _ in range(8)]
        for thread in writers:
            thread.start()
        for thread in writers:
            thread.join()
        with reading(), sessions.begin() as session:
            assert session.execute(text("SELECT n FROM t")).scalar() == 1 + 8 * 50
    finally:
        engine.dispose()
