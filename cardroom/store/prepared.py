"""Statements a command sends every time, compiled once per database and sent to the
driver with no more of SQLAlchemy's execution than the driver's own statement.

A Core statement through ``Session.execute`` costs about 22 us of Python on this
machine and 17 us through its ``Connection``, against about 1 us for the driver's
cursor: the rest is the session's bookkeeping, the compiled cache's key, the
execution context, the parameters' processing and the result's set-up, every time,
for a statement that never changes. A command on a kept table sends seven to nine of
them (docs/scaling.md). ``Prepared`` keeps the statement's compiled text for each
dialect, with each parameter's place and the column types' own bind and result
processors, and sends it through ``Connection.exec_driver_sql``: about 6 us, and still
one statement as the engine sees it (its ``before_cursor_execute`` and
``after_cursor_execute`` listeners, the logging, the pool's connection all as
before). The values go through the same processors as the column types' (the same
JSON, the same stored times), and the rows come back through the same.

What a prepared statement cannot do, it refuses when it is built: parameters
expanded at execution (``IN`` lists) and statements without a fixed text.

The session's autoflush runs first, as ``Session.execute`` would run it: a row the
unit of work holds (a hand just dealt) is written before a statement may name it.
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

_Processor = Callable[[Any], Any] | None
_REQUIRED = object()


@dataclass(frozen=True)
class _Compiled:
    sql: str
    positional: bool
    # Each parameter in the order the text names it: its name, its type's bind
    # processor, its value when the caller passes none (``_REQUIRED``: a caller's).
    binds: tuple[tuple[str, _Processor, object], ...]
    results: tuple[_Processor, ...]
    any_result_processor: bool


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
        return self._send(where, params)[0]

    def rows(self, where: Session | Connection, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """The rows the statement returns, each value through its column type's
        result processor (as ``Session.execute`` would return them)."""
        result, compiled = self._send(where, params)
        fetched = result.fetchall()
        if not compiled.any_result_processor:
            return [tuple(row) for row in fetched]
        processors = compiled.results
        return [
            tuple(
                value if processor is None or value is None else processor(value)
                for processor, value in zip(processors, row, strict=True)
            )
            for row in fetched
        ]

    def first(
        self, where: Session | Connection, params: Mapping[str, Any]
    ) -> tuple[Any, ...] | None:
        found = self.rows(where, params)
        return found[0] if found else None

    def _send(
        self,
        where: Session | Connection,
        params: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    ) -> tuple[CursorResult[Any], _Compiled]:
        if isinstance(where, Session):
            where._autoflush()  # as Session.execute: pending rows go first
            connection = where.connection()
        else:
            connection = where
        compiled = self._compiled(connection.dialect)
        if isinstance(params, Mapping):
            bound = _bound(compiled, params)
        else:
            bound = [_bound(compiled, one) for one in params]
        return connection.exec_driver_sql(compiled.sql, bound), compiled


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
    results = tuple(
        entry[3]._cached_result_processor(dialect, None) for entry in compiled._result_columns
    )
    return _Compiled(
        compiled.string,
        positional,
        tuple(binds),
        results,
        any(processor is not None for processor in results),
    )
