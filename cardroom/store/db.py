"""The database engine, made once at start-up (never at import).

SQLite gets three connection settings that a multi-user room needs:

- WAL journaling, so readers never wait for the writer;
- foreign keys on (SQLite ignores them otherwise);
- a busy timeout, so a second writer waits its turn instead of failing at once;

and every transaction starts with ``BEGIN IMMEDIATE``: it takes the write lock up
front, so two transactions that both read a balance and then write it are serialised
rather than deadlocking on the read-to-write lock upgrade (which SQLite answers with
an immediate ``database is locked`` that no timeout helps). The writers of one
process queue for it on a Python lock first, which hands over at once where SQLite's
busy handler sleeps. A transaction begun inside ``reading()`` only reads: it begins
DEFERRED and queues for nothing. PostgreSQL needs none of this: the ledger's
conditional updates lock the rows they change; there a transaction begun inside
``reading()`` runs at REPEATABLE READ, so that all its statements see one moment.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.engine import URL
from sqlalchemy.exc import InvalidatePoolError
from sqlalchemy.orm import Session, sessionmaker

from cardroom.config import Settings
from cardroom.store import json_text, pipelined
from cardroom.store.prepared import send_text

SQLITE_BUSY_TIMEOUT_MS = 10_000
_HOLDS_WRITER_LOCK = "cardroom_holds_writer_lock"


def make_engine(settings: Settings) -> Engine:
    """An engine for ``settings.database_url``. For a SQLite file the parent folder
    (``./var/`` by default) is created."""
    url = make_url(settings.database_url)
    if url.get_backend_name() == "sqlite":
        return _savepoints_as_text(_sqlite_engine(url))
    # Writes nobody reads the answer of wait for no round trip (``pipelined``).
    engine = pipelined.install(_savepoints_as_text(_ping_when_idle(create_engine(url, **_JSON))))

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        # PostgreSQL's default, READ COMMITTED, gives each statement its own moment: a
        # reader that reads the game's row and then its last event can see a command
        # commit in between, and serve a table at one version with the events of the
        # next (a client following the events from there would skip some). A read
        # begun inside ``reading()`` sees one moment throughout, as SQLite's does.
        if _READING.get():
            connection.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")

    return engine


# JSON columns through orjson (``json_text``): the table's state is written every command.
_JSON: dict[str, Any] = {"json_serializer": json_text.dumps, "json_deserializer": json_text.loads}

_READING: ContextVar[bool] = ContextVar("cardroom_reading", default=False)

# A pooled connection back from work this recently is taken as it is; one idle
# longer is pinged first (``_ping_when_idle``).
PING_AFTER_IDLE_SECONDS = 1.0
_IDLE_SINCE = "cardroom_idle_since"


def _ping_when_idle(engine: Engine) -> Engine:
    """The pool's pre-ping (``pool_pre_ping``), only for a connection that has been
    idle in the pool for ``PING_AFTER_IDLE_SECONDS`` or more.

    The pre-ping is a round trip before every transaction: under load the
    committer's batches (``cardroom.service.game.together``) and every read paid it,
    for a connection that answered a moment ago. What the ping is for is a server
    restarted, or a connection it dropped, while the pool held the connection: that
    is found as before on a connection that has waited. One that waited less than
    that fails its first statement instead, as a connection lost in the middle of a
    transaction always could: the engine then renews the whole pool (the error is a
    disconnect), and the committer runs that batch's commands again, each alone. A
    connection just made is not pinged (as the pool's own pre-ping skips it)."""
    dialect = engine.dialect

    @event.listens_for(engine, "checkin")
    def _on_checkin(dbapi_connection: Any, record: Any) -> None:
        if dbapi_connection is not None:
            record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _on_checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.pop(_IDLE_SINCE, None)
        if since is None or time.monotonic() - since < PING_AFTER_IDLE_SECONDS:
            return  # just made, or back from work a moment ago
        try:
            dialect.do_ping(dbapi_connection)
        except dialect.loaded_dbapi.Error as failed:
            if dialect.is_disconnect(failed, dbapi_connection, None):
                # As the pool's own pre-ping: this connection and every one
                # pooled before now are replaced (the pool tries again at once).
                raise InvalidatePoolError() from failed
            raise

    return engine


def _savepoints_as_text(engine: Engine) -> Engine:
    """The engine's savepoints sent as their text, the same text SQLAlchemy compiles
    them to, through the driver's cursor when nobody listens to it (else through
    ``exec_driver_sql``: ``prepared.send_text``). Its own dialect builds a
    ``SavepointClause`` and runs it through ``Connection.execute`` and the compiled
    cache every time: ~15 us each, and commands committed together
    (``cardroom.service.game.together``) set and release one per command."""
    dialect = engine.dialect
    quote = dialect.identifier_preparer.quote

    def do_savepoint(connection: Any, name: str) -> None:
        send_text(connection, f"SAVEPOINT {quote(name)}")

    def do_release_savepoint(connection: Any, name: str) -> None:
        send_text(connection, f"RELEASE SAVEPOINT {quote(name)}")

    def do_rollback_to_savepoint(connection: Any, name: str) -> None:
        send_text(connection, f"ROLLBACK TO SAVEPOINT {quote(name)}")

    dialect.do_savepoint = do_savepoint  # type: ignore[method-assign]
    dialect.do_release_savepoint = do_release_savepoint  # type: ignore[method-assign]
    dialect.do_rollback_to_savepoint = do_rollback_to_savepoint  # type: ignore[method-assign]
    return engine


@contextmanager
def reading() -> Iterator[None]:
    """The transactions begun inside only read. On SQLite they begin DEFERRED and
    skip the writer queue: in WAL mode a reader sees the last commit, waits for no
    writer, and no writer waits for it, where ``BEGIN IMMEDIATE`` would queue every
    read behind every write. A transaction begun here must not write (SQLite would
    refuse the upgrade with "database is locked" when a writer got in first). On
    PostgreSQL it runs at REPEATABLE READ: every statement sees the same moment."""
    token = _READING.set(True)
    try:
        yield
    finally:
        _READING.reset(token)


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
    engine = create_engine(url, **_JSON)

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

    # This process's writers queue on a lock of their own before asking SQLite for
    # its write lock. SQLite's busy handler polls, sleeping longer after each try (up
    # to 100 ms), so when many threads want the lock a waiter sleeps on after it is
    # free and the unlucky ones wait longest: under the load test (docs/benchmarks.md)
    # this halved the slowest commands' wait (p99 action-to-broadcast 4.4-5.7 s ->
    # 2.2 s at 20 tables on a loaded machine). A Python lock hands over at once.
    # Writers of other processes still meet SQLite's busy timeout, and so does one
    # that waits here longer than that timeout (never forever). Read-only
    # transactions (``reading``) skip the queue.
    writer = threading.Lock()

    def release(connection: Any) -> None:
        # A connection lost in its transaction was invalidated: its ``info`` can no
        # longer be read (PendingRollbackError), and SQLite ended the transaction
        # with it. The lock it held goes back when the pool takes it in
        # (``_on_checkin``, from the record's ``info``, which outlives it).
        if connection.invalidated:
            return
        if connection.info.pop(_HOLDS_WRITER_LOCK, False):
            writer.release()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        if _READING.get():
            _send(connection, "BEGIN")  # a WAL reader: nobody waits on it
            return
        if writer.acquire(timeout=SQLITE_BUSY_TIMEOUT_MS / 1000):
            connection.info[_HOLDS_WRITER_LOCK] = True
        try:
            _send(connection, "BEGIN IMMEDIATE")
        except BaseException:
            release(connection)
            raise

    # End the transaction here, then hand the lock over: the next writer finds
    # SQLite's lock free. (SQLAlchemy's own COMMIT or ROLLBACK that follows is a no-op
    # for the sqlite3 module outside a transaction.)
    @event.listens_for(engine, "commit")
    def _on_commit(connection: Any) -> None:
        try:
            _send(connection, "COMMIT")
        finally:
            release(connection)

    @event.listens_for(engine, "rollback")
    def _on_rollback(connection: Any) -> None:
        if connection.invalidated:
            return  # nothing left to roll back (``release``)
        try:
            if connection.info.get(_HOLDS_WRITER_LOCK):
                with contextlib.suppress(Exception):  # a broken connection: gone anyway
                    _send(connection, "ROLLBACK")
        finally:
            release(connection)

    @event.listens_for(engine, "checkin")
    def _on_checkin(dbapi_connection: Any, record: Any) -> None:
        if record.info.pop(_HOLDS_WRITER_LOCK, False):  # a transaction never ended
            writer.release()

    return engine


def _send(connection: Any, sql: str) -> None:
    """``sql``, a transaction's BEGIN, COMMIT or ROLLBACK, as ``exec_driver_sql``
    sends it: to the driver's connection itself when nobody sees each statement
    (listeners, echo, execution options). These run inside the engine's own begin
    and commit, once each a transaction, where ``exec_driver_sql`` builds an
    execution context and a result for a statement SQLite runs at once: about 60 of
    the 100 us of CPU a session's transaction costs beside SQLite's own work. An
    error goes through ``Connection._handle_dbapi_exception`` (private, SQLAlchemy
    2.0 and 2.1 alike), as the engine's own way would take it: the same wrapped
    error, its ``handle_error`` listeners, a lost connection invalidated."""
    dispatch = connection.dispatch
    if (
        dispatch.before_execute
        or dispatch.after_execute
        or dispatch.before_cursor_execute
        or dispatch.after_cursor_execute
        or connection._echo
        or connection._execution_options
    ):
        connection.exec_driver_sql(sql)
        return
    try:
        connection.connection.dbapi_connection.execute(sql)
    except BaseException as error:
        connection._handle_dbapi_exception(error, sql, (), None, None)
