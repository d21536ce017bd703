"""Writes nobody reads the answer of, sent to PostgreSQL without waiting for it.

On PostgreSQL every statement is a round trip: the committer sends it and waits for
the server's answer, about 150 us on this machine's loopback under load, against 20
when the statements are sent one after the other and their answers read together
(psycopg's pipeline mode; docs/benchmarks.md, session 12's section). A
command on a kept table sends the game's row, its events, its deadlines, the
supersede of a turn notice and its savepoint's two statements without reading any
answer: all of them wait for nothing now.

``send`` opens the connection's pipeline if it is not open and queues the write.
The pipeline is closed, which waits for every answer and raises the first error,
before anything that needs an answer: any other statement (``do_execute`` and its
kin, so whatever SQLAlchemy sends), a rollback to a savepoint, the commit, the
rollback. An error of a queued write therefore still fails the command that sent it,
or a later one of the same batch, before anything is committed, and the batch then
runs each command alone (``cardroom.service.game.together``): what is committed and
answered is what it was, only sooner. A write that must touch a number of rows
(``rows``) is checked when its answer arrives.

The hooks go on a PostgreSQL engine's dialect (``install``, from ``make_engine``);
``Prepared.write`` sends through here only on a dialect that has them, and only when
nobody listens for each statement (a test counting statements sees every one go
through the engine as before).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import DBAPIError

from cardroom.store.engine_way import engine_way_owed

# Set on a dialect ``install`` hooked: read on every write, where a weak set's
# ``in`` made a weak reference each time.
_HOOKED = "_cardroom_pipelined"


@dataclass
class _Open:
    """A connection's open pipeline and the row counts to check once it answers."""

    pipeline: Any  # psycopg.Pipeline
    checks: list[tuple[Any, int, str]] = field(default_factory=list)
    # The cursor the writes whose answer nobody reads share (None until the first):
    # a psycopg cursor costs 2-3 us to make, and a command queues five or so writes.
    # Each answer it receives replaces the one before, read by nobody; an error is
    # raised by the pipeline whichever cursor sent the statement.
    writes: Any = None


# Where a psycopg connection holds its open pipeline (one thread uses a connection
# at a time, so no lock).
_OPEN = "_cardroom_pipeline"


def installed(connection: Connection, heard: bool | None = None) -> bool:
    """Whether a write on ``connection`` may be pipelined now: its dialect has the
    hooks, and nothing owes it the engine's own way (``engine_way_owed``: a listener
    waiting for each statement, echo, execution options, no transaction under way;
    ``heard``: whether someone listens, as the caller found it this transaction)."""
    return getattr(connection.dialect, _HOOKED, False) and not engine_way_owed(connection, heard)


def send(
    connection: Connection,
    sql: str,
    params: Any,
    *,
    many: bool = False,
    rows: int | None = None,
    cursor: Any = None,
) -> Any:
    """Queue ``sql`` on the connection's pipeline (opened if need be): ``params``
    one set of values, or a list of them (``many``). ``rows``: how many rows it must
    touch, checked when the pipeline closes. ``cursor``: the driver's cursor to send
    it on (if None: a new one for a write whose rows are checked, else the one the
    pipeline's unchecked writes share). Returns that cursor, which holds the
    statement's answer once the pipeline has closed (a shared one: its last's)."""
    dbapi = _dbapi(connection)
    open_: _Open | None = getattr(dbapi, _OPEN, None)
    if open_ is None:
        pipeline = dbapi.pipeline()
        pipeline.__enter__()
        open_ = _Open(pipeline)
        setattr(dbapi, _OPEN, open_)
    if cursor is None:
        if rows is None:
            if open_.writes is None:
                open_.writes = dbapi.cursor()
            cursor = open_.writes
        else:
            cursor = dbapi.cursor()  # its own: its row count is checked
    try:
        if many:
            cursor.executemany(sql, params)
        else:
            cursor.execute(sql, params)
    except connection.dialect.loaded_dbapi.Error as failed:
        # Refused before it was sent (a value the driver cannot adapt): the engine's
        # error, as a statement it sent would raise.
        _close(dbapi, discard=True)
        raise DBAPIError.instance(
            sql, params, failed, connection.dialect.loaded_dbapi.Error, dialect=connection.dialect
        ) from failed
    if rows is not None:
        open_.checks.append((cursor, rows, sql))
    return cursor


def close(dbapi: Any) -> None:
    """Wait for the queued writes' answers: raises the first error (psycopg's, which
    the engine around the caller wraps as its own), or a row count that is off."""
    _close(dbapi, discard=False)


def _close(dbapi: Any, *, discard: bool) -> None:
    open_: _Open | None = getattr(dbapi, _OPEN, None)
    if open_ is None:
        return
    setattr(dbapi, _OPEN, None)
    try:
        open_.pipeline.__exit__(None, None, None)
    except Exception:
        if discard:
            return  # rolling back: the error is undone with everything else
        raise
    for cursor, rows, sql in open_.checks:
        if cursor.rowcount != rows:
            raise AssertionError(f"{cursor.rowcount} rows written, not {rows}: {sql}")


def install(engine: Engine) -> Engine:
    """Close a connection's pipeline before each statement the engine sends and
    before its commit, and queue its savepoints' two fixed statements (a savepoint
    and its release answer nothing)."""
    dialect = engine.dialect
    execute, execute_many = dialect.do_execute, dialect.do_executemany
    execute_no_params = dialect.do_execute_no_params
    commit, rollback = dialect.do_commit, dialect.do_rollback
    savepoint, release = dialect.do_savepoint, dialect.do_release_savepoint
    rollback_to = dialect.do_rollback_to_savepoint
    quote = dialect.identifier_preparer.quote

    def do_execute(cursor: Any, statement: str, parameters: Any, context: Any = None) -> None:
        _close(cursor.connection, discard=False)
        execute(cursor, statement, parameters, context)

    def do_executemany(cursor: Any, statement: str, parameters: Any, context: Any = None) -> None:
        _close(cursor.connection, discard=False)
        execute_many(cursor, statement, parameters, context)

    def do_execute_no_params(cursor: Any, statement: str, context: Any = None) -> None:
        _close(cursor.connection, discard=False)
        execute_no_params(cursor, statement, context)

    def do_commit(dbapi_connection: Any) -> None:
        close(_unproxied(dbapi_connection))
        commit(dbapi_connection)

    def do_rollback(dbapi_connection: Any) -> None:
        _close(_unproxied(dbapi_connection), discard=True)
        rollback(dbapi_connection)

    def do_savepoint(connection: Connection, name: str) -> None:
        if installed(connection):
            send(connection, f"SAVEPOINT {quote(name)}", None)
        else:
            savepoint(connection, name)

    def do_release_savepoint(connection: Connection, name: str) -> None:
        if installed(connection):
            send(connection, f"RELEASE SAVEPOINT {quote(name)}", None)
        else:
            release(connection, name)

    def do_rollback_to_savepoint(connection: Connection, name: str) -> None:
        close(_dbapi(connection))
        rollback_to(connection, name)

    dialect.do_execute = do_execute  # type: ignore[method-assign]
    dialect.do_executemany = do_executemany  # type: ignore[method-assign]
    dialect.do_execute_no_params = do_execute_no_params  # type: ignore[method-assign]
    dialect.do_commit = do_commit  # type: ignore[method-assign]
    dialect.do_rollback = do_rollback  # type: ignore[method-assign]
    dialect.do_savepoint = do_savepoint  # type: ignore[method-assign]
    dialect.do_release_savepoint = do_release_savepoint  # type: ignore[method-assign]
    dialect.do_rollback_to_savepoint = do_rollback_to_savepoint  # type: ignore[method-assign]
    setattr(dialect, _HOOKED, True)
    return engine


def _dbapi(connection: Connection) -> Any:
    return connection.connection.dbapi_connection


def _unproxied(dbapi_connection: Any) -> Any:
    # The pool hands the dialect its proxy; the pipeline is the driver's connection's.
    return getattr(dbapi_connection, "dbapi_connection", dbapi_connection)
