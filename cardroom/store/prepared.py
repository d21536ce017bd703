"""Statements a command sends every time, compiled once per database and sent with
as little of SQLAlchemy's execution as still makes them statements of the engine.

A Core statement through ``Session.execute`` costs about 22 us of Python on this
machine and 17 us through its ``Connection``, against about 1 us for the driver's
cursor: the rest is the session's bookkeeping, the compiled cache's key, the
execution context, the parameters' processing and the result's set-up, every time,
for a statement that never changes. A command on a kept table sends seven to nine of
them. ``Prepared`` compiles the statement once for each dialect it meets and keeps
it, with each parameter's place and its column type's bind processor:

- a statement that returns no rows (``execute``) goes as its text through
  ``Connection.exec_driver_sql``, the values through those processors (the same JSON,
  the same stored times as the column types write): about 10 us with the values'
  processing, against 16;
- one that returns rows (``rows``, ``first``) goes as the compiled statement itself
  through the connection's execution context, skipping only the compiled cache's
  lookup: SQLAlchemy's own processing both ways, and the result's column map built
  once and kept on the compiled statement (as text, the result would map its
  columns from the cursor's description every time: 21 us for a game's row, against
  15 through ``Connection.execute`` and 10 here). This goes through
  ``Connection._execute_context``, the step ``Connection.execute`` takes once it has
  the compiled statement (SQLAlchemy 2.0 and 2.1 alike); tests/store's
  test_store_prepared.py holds it to ``Session.execute``'s answers on both
  databases.

Either way it is one statement as the engine sees it: its ``before_cursor_execute``
and ``after_cursor_execute`` listeners, its errors, its connection, as before. What a
prepared statement cannot send as one fixed text (parameters expanded at execution,
``IN`` lists) it refuses when first sent.

The session's autoflush runs first, as ``Session.execute`` would run it: a row the
unit of work holds is written before a statement may name it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast
from weakref import WeakKeyDictionary

from sqlalchemy import Connection
from sqlalchemy.engine import CursorResult, Dialect
from sqlalchemy.orm import Session
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

from cardroom.store import pipelined

_Processor = Callable[[Any], Any] | None
_REQUIRED = object()


@dataclass(frozen=True)
class _Compiled:
    sql: str
    positional: bool
    # Each parameter in the order the text names it: its name, its type's bind
    # processor, its value when the caller passes none (``_REQUIRED``: a caller's).
    binds: tuple[tuple[str, _Processor, object], ...]
    compiled: SQLCompiler


class Prepared:
    """``statement``, compiled once for each dialect it is sent to."""

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._by_dialect: WeakKeyDictionary[Dialect, _Compiled] = WeakKeyDictionary()

    def _compiled(self, dialect: Dialect) -> _Compiled:
        found = self._by_dialect.get(dialect)
        if found is None:
            found = self._by_dialect[dialect] = _compile(self.statement, dialect)
        return found

    def execute(
        self,
        where: Session | Connection,
        params: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    ) -> CursorResult[Any]:
        """Send the statement once (``params`` one mapping) or for each of a list of
        mappings (the driver's executemany, for statements that return no rows)."""
        return self._send(where, params)

    def write(
        self,
        where: Session | Connection,
        params: Mapping[str, Any] | Sequence[Mapping[str, Any]],
        *,
        rows: int | None = None,
    ) -> None:
        """``execute`` for a write whose answer nobody reads: on PostgreSQL it is
        queued on the connection's pipeline (``cardroom.store.pipelined``) and waits
        for nothing; elsewhere it is sent at once, through the driver's cursor when
        nobody listens for each statement (``_send_direct``). ``rows``: how many rows
        it must touch (a bug otherwise), checked when its answer comes."""
        connection = self._connection(where)
        if pipelined.installed(connection):
            compiled = self._compiled(connection.dialect)
            if isinstance(params, Mapping):
                pipelined.send(connection, compiled.sql, _bound(compiled, params), rows=rows)
            else:
                bound = [_bound(compiled, one) for one in params]
                pipelined.send(connection, compiled.sql, bound, many=True, rows=rows)
            return
        if _heard(connection):
            written = self._send(connection, params)
            count = written.rowcount
        else:
            count = self._send_direct(connection, params)
        if rows is not None and count != rows:
            raise AssertionError(f"{count} rows written, not {rows}")

    def _send_direct(
        self,
        connection: Connection,
        params: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    ) -> int:
        """Through the driver's cursor, with nobody listening for each statement: the
        engine's execution context, its result and its cursor bookkeeping cost about
        9 us a statement here against 1.5 for the driver's cursor, for a write whose
        result is its row count. A driver's error is the engine's still, wrapped by
        the connection's own handler (``Connection._handle_dbapi_exception``, as
        SQLAlchemy 2.0 and 2.1 call it for an error outside a statement's context),
        which also drops a connection the database has closed. Returns the rows
        touched."""
        compiled = self._compiled(connection.dialect)
        cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            if isinstance(params, Mapping):
                bound = _bound(compiled, params)
                cursor.execute(compiled.sql, bound)
            else:
                bound = [_bound(compiled, one) for one in params]
                cursor.executemany(compiled.sql, bound)
            count: int = cursor.rowcount
        except connection.dialect.loaded_dbapi.Error as failed:
            connection._handle_dbapi_exception(failed, compiled.sql, bound, cursor, None)
            raise  # pragma: no cover - the handler raises the engine's error
        finally:
            cursor.close()
        return count

    def rows(
        self, where: Session | Connection, params: Mapping[str, Any]
    ) -> Sequence[tuple[Any, ...]]:
        """The rows the statement returns, as ``Session.execute`` returns them. Sent
        as the compiled statement itself (SQLAlchemy's own parameter and result
        processing, the result's column map built once and kept on the compiled
        statement): sent as text, a row-returning statement's result would map its
        columns from the cursor's description every time (10 us for a game's row)."""
        connection = self._connection(where)
        compiled = self._compiled(connection.dialect).compiled
        listed = [params]
        result = connection._execute_context(
            connection.dialect,
            connection.dialect.execution_ctx_cls._init_compiled,
            compiled,
            listed,
            connection._execution_options,
            compiled,
            listed,
            None,  # the statement invoked: no ORM statement behind it
            None,  # no values extracted from a cache key: the statement's own
        )
        # Rows unpack, index and compare as the tuples they stand for.
        return cast(Sequence[tuple[Any, ...]], result.all())

    def first(
        self, where: Session | Connection, params: Mapping[str, Any]
    ) -> tuple[Any, ...] | None:
        found = self.rows(where, params)
        return found[0] if found else None

    @staticmethod
    def _connection(where: Session | Connection) -> Connection:
        if isinstance(where, Session):
            where._autoflush()  # as Session.execute: pending rows go first
            return where.connection()
        return where

    def _send(
        self,
        where: Session | Connection,
        params: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    ) -> CursorResult[Any]:
        connection = self._connection(where)
        compiled = self._compiled(connection.dialect)
        if isinstance(params, Mapping):
            bound = _bound(compiled, params)
        else:
            bound = [_bound(compiled, one) for one in params]
        return connection.exec_driver_sql(compiled.sql, bound)


def _heard(connection: Connection) -> bool:
    """Whether a listener waits for each statement on ``connection`` (the tests that
    count statements): then every statement goes through the engine, to be heard."""
    dispatch = connection.dispatch
    return bool(dispatch.before_cursor_execute or dispatch.after_cursor_execute)


def _bound(compiled: _Compiled, params: Mapping[str, Any]) -> Any:
    values = []
    for name, processor, default in compiled.binds:
        value = params[name] if default is _REQUIRED else params.get(name, default)
        values.append(value if processor is None else processor(value))
    if compiled.positional:
        return tuple(values)
    return {name: value for (name, _, _), value in zip(compiled.binds, values, strict=True)}


def _compile(statement: ClauseElement, dialect: Dialect) -> _Compiled:
    compiled = cast(SQLCompiler, statement.compile(dialect=dialect))
    if compiled.literal_execute_params or compiled.post_compile_params:
        raise ValueError("a prepared statement has no parameters expanded at execution")
    processors = compiled._bind_processors
    positional = compiled.positiontup is not None
    names = list(compiled.positiontup) if compiled.positiontup is not None else []
    if not positional:
        names = list(dict.fromkeys(compiled.bind_names.values()))
    binds: list[tuple[str, _Processor, object]] = []
    for name in names:
        bind = compiled.binds[name]
        default: object = _REQUIRED
        if not bind.required:
            default = bind.effective_value
        processor = processors.get(name)
        if processor is not None and not callable(processor):
            raise ValueError("a prepared statement has no tuple parameters")
        binds.append((name, processor, default))
    return _Compiled(compiled.string, positional, tuple(binds), compiled)
