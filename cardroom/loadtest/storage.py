"""The storage's own limit: how many small durable transactions a second the
database commits through SQLAlchemy, with the room's own engine settings (SQLite:
WAL, ``BEGIN IMMEDIATE``, the busy timeout; PostgreSQL as configured).

Each transaction inserts one row of about 100 bytes into a scratch table and
commits: the smallest thing a command does (a command writes several rows in one
transaction, so a command costs at least one such commit). The scratch table is made
for the probe and dropped after it, so the room's schema is as it was.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Integer, MetaData, String, Table, insert
from sqlalchemy.engine import Engine

from cardroom.config import Settings
from cardroom.store.db import make_engine

PROBE_TABLE = "cardroom_storage_probe"
PAYLOAD = "x" * 100


@dataclass(frozen=True)
class StorageLimit:
    database: str  # the backend: sqlite or postgresql
    writers: int  # threads committing at once
    transactions: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.transactions / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "database": self.database,
            "writers": self.writers,
            "transactions": self.transactions,
            "seconds": round(self.seconds, 3),
            "transactions_per_s": round(self.per_second, 1),
        }


def _probe_table() -> Table:
    return Table(
        PROBE_TABLE,
        MetaData(),
        Column("id", Integer, primary_key=True),
        Column("writer", Integer, nullable=False),
        Column("payload", String(200), nullable=False),
    )


def measure(database_url: str, seconds: float = 3.0, writers: int = 1) -> StorageLimit:
    """Commit one-row transactions for ``seconds`` from ``writers`` threads."""
    engine = make_engine(Settings(database_url=database_url))
    table = _probe_table()
    try:
        table.drop(engine, checkfirst=True)
        table.create(engine)
        try:
            return _run(engine, table, seconds, writers)
        finally:
            table.drop(engine, checkfirst=True)
    finally:
        engine.dispose()


def _run(engine: Engine, table: Table, seconds: float, writers: int) -> StorageLimit:
    counts = [0] * writers
    start = threading.Barrier(writers + 1)
    deadline = [time.perf_counter() + seconds + 60]  # set once every writer is connected

    def write(number: int) -> None:
        statement = insert(table).values(writer=number, payload=PAYLOAD)
        with engine.connect() as connection:
            start.wait()
            while time.perf_counter() < deadline[0]:
                with connection.begin():
                    connection.execute(statement)
                counts[number] += 1

    threads = [threading.Thread(target=write, args=(n,), daemon=True) for n in range(writers)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    deadline[0] = began + seconds
    for thread in threads:
        thread.join()
    took = time.perf_counter() - began
    return StorageLimit(engine.dialect.name, writers, sum(counts), took)
