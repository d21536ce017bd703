"""Statements a command sends every time, compiled once per database and sent with
as little of SQLAlchemy's execution as still makes them statements of the engine.

A Core statement through ``Session.execute`` costs about 22 us of Python on this
machine and 17 us through its ``Connection``, against about 1 us for the driver's
cursor: the rest is the session's bookkeeping, the compiled cache's key, the
execution context, the parameters' processing and the result's set-up, every time,
for a statement that never changes. A command on a kept table sends seven to nine of
them. ``Prepared`` compiles the statement once for each dialect it meets and keeps
it: its text, each parameter's place and its column type's bind processor, and (for
one that returns rows, built at its first answer from the cursor's description) each
result column's processor.

When nobody listens to the connection's cursor (no ``before_cursor_execute`` or
``after_cursor_execute`` on it or its engine, no echo, no execution options), it goes
through the driver's cursor itself: the text, the values through the bind processors
(the same JSON, the same stored times as the column types write), the dialect's
``do_execute`` / ``do_executemany``, and each row's values through the result
processors (the same types back as ``Session.execute`` gives): 2-4 us. A DBAPI error
goes through ``Connection._handle_dbapi_exception`` (private, SQLAlchemy 2.0 and 2.1
alike), the step ``Connection.execute`` takes on one: the same ``IntegrityError`` or
``OperationalError``, its ``handle_error`` listeners, a disconnect invalidating the
connection.

When something listens, the statement takes the engine's own way, so that the
listener sees every statement: one that returns no rows as its text through
``Connection.exec_driver_sql``; one that returns rows as the compiled statement
itself through ``Connection._execute_context`` (the step ``Connection.execute`` takes
once it has the compiled statement), skipping only the compiled cache's lookup.
tests/store's test_store_prepared.py holds both ways to ``Session.execute``'s answers
and errors on both databases. What a prepared statement cannot send as one fixed
text (parameters expanded at execution, ``IN`` lists) it refuses when first sent.

The session's autoflush runs first, as ``Session.execute`` would run it: a row the
unit of work holds is written before a statement may name it. The session's
connection is then the one its transaction (or savepoint) holds, kept for that
transaction: asking ``Session.connection()`` again would find the same one at ~2 us
each time.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from operator import itemgetter
from typing import Any, cast
from weakref import WeakKeyDictionary, ref

from sqlalchemy import Connection
from sqlalchemy.engine import BindTyping, Dialect
from sqlalchemy.orm import Session
from sqlalchemy.orm.session import SessionTransactionState
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

from cardroom.store import pipelined
from cardroom.store.columns import UtcDateTime
from cardroom.store.engine_way import engine_way_owed, listened

_Processor = Callable[[Any], Any] | None
_REQUIRED = object()


class Sent:
    """What a statement that returns no rows tells its caller: how many rows it
    matched (``cursor.rowcount``; for a list of mappings, the driver's total)."""

    __slots__ = ("rowcount",)

    def __init__(self, rowcount: int) -> None:
        self.rowcount = rowcount


@dataclass
class _Compiled:
    sql: str
    positional: bool
    # Each parameter in the order the text names it: its name, its type's bind
    # processor, its value when the caller passes none (``_REQUIRED``: a caller's).
    binds: tuple[tuple[str, _Processor, object], ...]
    compiled: SQLCompiler
    # ``binds`` made into one function of the caller's mapping (``_binder``).
    bind: Callable[[Mapping[str, Any]], Any]
    # Each result column that has a processor: its position and processor; None until
    # the first answer through the cursor (a processor may depend on the driver's
    # type code).
    results: tuple[tuple[int, Callable[[Any], Any]], ...] | None = field(default=None)


class Prepared:
    """``statement``, compiled once for each dialect it is sent to."""

    def __init__(self, statement: ClauseElement) -> None:
        self.statement = statement
        self._by_dialect: WeakKeyDictionary[Dialect, _Compiled] = WeakKeyDictionary()
        # The dialect last sent to and its compiled form, looked up without the
        # weak dictionary's key (a weak reference made on every lookup).
        self._last: tuple[ref[Dialect], _Compiled] | None = None

    def _compiled(self, dialect: Dialect) -> _Compiled:
        last = self._last
        if last is not None and last[0]() is dialect:  # the usual: one database
            return last[1]
        found = self._by_dialect.get(dialect)
        if found is None:
            found = self._by_dialect[dialect] = _compile(self.statement, dialect)
        self._last = (ref(dialect), found)
        return found

    def execute(
        self,
        where: Session | Connection,
        params: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    ) -> Sent:
        """Send the statement once (``params`` one mapping) or for each of a list of
        mappings (the driver's executemany, for statements that return no rows)."""
        connection, held = _held(where)
        return Sent(self._sent(connection, held, params))

    def _sent(
        self,
        connection: Connection,
        held: _Held | None,
        params: Mapping[str, Any] | Sequence[Mapping[str, Any]],
    ) -> int:
        """``execute`` on the connection ``_held`` found: the rows it matched."""
        compiled = self._compiled(connection.dialect)
        # A dict (every caller's usual) without the ABC's slower check.
        many = type(params) is not dict and not isinstance(params, Mapping)
        if many:
            bound: Any = list(map(compiled.bind, cast(Sequence[Mapping[str, Any]], params)))
        else:
            bound = compiled.bind(cast(Mapping[str, Any], params))
        if engine_way_owed(connection, None if held is None else held.heard):
            matched: int = connection.exec_driver_sql(compiled.sql, bound).rowcount
            return matched
        cursor = _cursor(connection, held)
        try:
            if many:
                connection.dialect.do_executemany(cursor, compiled.sql, bound, None)
            else:
                connection.dialect.do_execute(cursor, compiled.sql, bound, None)
            matched = cursor.rowcount
            return matched
        except BaseException as error:  # as Connection.execute: exits invalidate too
            _forget(cursor, held)
            connection._handle_dbapi_exception(error, compiled.sql, bound, cursor, None)
        finally:
            if held is None:
                cursor.close()

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
        nobody listens for each statement (as ``execute``). ``rows``: how many rows
        it must touch (a bug otherwise), checked when its answer comes."""
        # One look for the session's connection, shared with ``_sent`` on SQLite (its
        # autoflush and transaction found once a write, not twice).
        connection, held = _held(where)
        if pipelined.installed(connection, None if held is None else held.heard):
            compiled = self._compiled(connection.dialect)
            if type(params) is dict or isinstance(params, Mapping):  # the ABC's check last
                pipelined.send(connection, compiled.sql, compiled.bind(params), rows=rows)
            else:
                bound = list(map(compiled.bind, params))
                pipelined.send(connection, compiled.sql, bound, many=True, rows=rows)
            return
        count = self._sent(connection, held, params)
        if rows is not None and count != rows:
            raise AssertionError(f"{count} rows written, not {rows}")

    def queues(self, where: Session | Connection) -> bool:
        """Whether a ``write`` sent now would be queued on PostgreSQL's pipeline
        (nobody waiting for its answer) rather than sent at once (SQLite, or someone
        listening for each statement): for a caller that writes otherwise, with a
        statement of that database's own or one whose answer it then reads."""
        connection, held = _held(where)
        return pipelined.installed(connection, None if held is None else held.heard)

    def rows(
        self,
        where: Session | Connection,
        params: Mapping[str, Any],
        seen: dict[tuple[Any, ...], tuple[Any, ...]] | None = None,
    ) -> Sequence[tuple[Any, ...]]:
        """The rows the statement returns, as ``Session.execute`` returns them.
        ``seen``: the caller's rows of this statement answered before, by the
        driver's values: a row the driver answers again with the same values is the
        row converted then (its result processors' work done once; the caller
        bounds it)."""
        connection, held = _held(where)
        compiled = self._compiled(connection.dialect)
        if engine_way_owed(connection, None if held is None else held.heard):
            return _rows_through_engine(connection, compiled.compiled, params)
        bound = compiled.bind(params)
        return _answer(connection, held, compiled, bound, behind=False, seen=seen)

    def first(
        self, where: Session | Connection, params: Mapping[str, Any]
    ) -> tuple[Any, ...] | None:
        found = self.rows(where, params)
        return found[0] if found else None

    def rows_behind(
        self, where: Session | Connection, params: Mapping[str, Any]
    ) -> Sequence[tuple[Any, ...]]:
        """``rows``, sent behind the writes queued on PostgreSQL's pipeline and
        waited for with them: one round trip, where ``rows`` takes two (the queued
        writes' answers, then its own). The same rows and the same errors: a queued
        write's error is raised here as ``rows`` would raise it (its statement closes
        the pipeline first), before this one's. Elsewhere (SQLite, or someone
        listening for each statement) it is ``rows``."""
        connection, held = _held(where)
        if not pipelined.installed(connection, None if held is None else held.heard):
            return self.rows(where, params)
        compiled = self._compiled(connection.dialect)
        return _answer(connection, held, compiled, compiled.bind(params), behind=True)

    def first_behind(
        self, where: Session | Connection, params: Mapping[str, Any]
    ) -> tuple[Any, ...] | None:
        """``first``, through ``rows_behind``."""
        found = self.rows_behind(where, params)
        return found[0] if found else None


def _answer(
    connection: Connection,
    held: _Held | None,
    compiled: _Compiled,
    bound: Any,
    *,
    behind: bool,
    seen: dict[tuple[Any, ...], tuple[Any, ...]] | None = None,
) -> Sequence[tuple[Any, ...]]:
    """Send the statement on the transaction's cursor and read its rows: at once, or
    (``behind``) on the pipeline behind the queued writes, answered by the sync that
    closes it. Its answer is read before anything else is sent on the cursor."""
    cursor = _cursor(connection, held)
    try:
        if behind:
            pipelined.send(connection, compiled.sql, bound, cursor=cursor)
            pipelined.close(connection.connection.dbapi_connection)
        else:
            connection.dialect.do_execute(cursor, compiled.sql, bound, None)
        fetched = cursor.fetchall()
        results = compiled.results
        if results is None:
            results = compiled.results = _result_processors(compiled, cursor.description)
    except BaseException as error:
        _forget(cursor, held)
        connection._handle_dbapi_exception(error, compiled.sql, bound, cursor, None)
    finally:
        if held is None:
            cursor.close()
    if seen is not None:
        return _remembered_rows(fetched, results, seen)
    return _converted(fetched, results)


def _converted(
    fetched: Sequence[Any], results: tuple[tuple[int, Callable[[Any], Any]], ...]
) -> Sequence[tuple[Any, ...]]:
    """The driver's rows, each result column through its processor."""
    if not results:
        return [tuple(row) for row in fetched]
    converted = []
    for row in fetched:
        values = list(row)
        for i, processor in results:
            values[i] = processor(values[i])
        converted.append(tuple(values))
    return converted


def _remembered_rows(
    fetched: Sequence[Any],
    results: tuple[tuple[int, Callable[[Any], Any]], ...],
    seen: dict[tuple[Any, ...], tuple[Any, ...]],
) -> Sequence[tuple[Any, ...]]:
    """``_converted``, each row taken from ``seen`` when the driver answered the
    same values before (the processors are functions of the value alone)."""
    rows = []
    for row in fetched:
        values = tuple(row)  # the driver's own tuple (SQLite's, psycopg's): no copy
        known = seen.get(values)
        if known is None:
            known = seen[values] = _converted([values], results)[0]
        rows.append(known)
    return rows


class _Held:
    """A session transaction's connection, and the driver's cursor its statements
    share once one has gone through the cursor: each statement's own cursor, made and
    closed, cost about a microsecond more (a command sends seven or so). One that
    fails is closed and forgotten (a lost connection's cursor is no use); the next
    statement makes a new one. ``heard``: whether someone listens to the
    connection's cursor (``engine_way.listened``), asked at the transaction's first
    statement for all of them: a listener added in the middle of a transaction
    sees the statements of the next one."""

    __slots__ = ("connection", "cursor", "heard")

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.cursor: Any = None
        self.heard = listened(connection)


# Each session transaction's connection: the innermost one's, since a savepoint
# the session opened (``begin_nested``) is only set when its first statement asks
# for the connection. A savepoint shares its parent's ``_Held`` (the same
# connection, so the same cursor): a batch's commands each run in one. Kept on the
# transaction itself, under this name: a weak dictionary keyed by the transaction
# made a weak reference at every lookup, a statement's.
_HELD = "_cardroom_held"
_ACTIVE = SessionTransactionState.ACTIVE


def _held(where: Session | Connection) -> tuple[Connection, _Held | None]:
    """The connection to send on, and what its session transaction holds (None for
    a connection given: its statements make and close their own cursors)."""
    if not isinstance(where, Session):
        return where, None
    # As Session.execute: pending rows go first. Its autoflush does nothing while
    # the unit of work holds nothing new, deleted or changed (``Session._is_clean``,
    # the same three, private in SQLAlchemy 2.0 and 2.1 alike): asked here first,
    # without its four calls, on every statement.
    if where._new or where._deleted or where.identity_map._modified:
        where._autoflush()
    # ``Session._transaction``, the innermost transaction (private; SQLAlchemy 2.0
    # and 2.1 alike): the public ``get_transaction`` answers the outermost.
    transaction = where._transaction
    if transaction is not None:
        held: _Held | None = getattr(transaction, _HELD, None)
        # ``is_active`` without its property's call: the transaction's state
        # (private; SQLAlchemy 2.0 and 2.1 alike, its session never unset).
        if held is not None and transaction._state is _ACTIVE:
            return held.connection, held
    # No transaction yet (this begins one), a savepoint not yet set, or one rolled
    # back that the session must refuse: the session decides.
    connection = where.connection()
    transaction = where._transaction
    if transaction is None:
        return connection, None
    parent = transaction._parent
    held = None if parent is None else getattr(parent, _HELD, None)
    if held is None or held.connection is not connection:
        held = _Held(connection)
    setattr(transaction, _HELD, held)
    return connection, held


def _cursor(connection: Connection, held: _Held | None = None) -> Any:
    """A cursor of the connection's transaction (``engine_way_owed`` saw it under
    way): the one ``held`` keeps, else a new one (kept there if ``held``)."""
    if held is not None and held.cursor is not None:
        return held.cursor
    try:
        cursor = connection.connection.cursor()
    except BaseException as error:
        connection._handle_dbapi_exception(error, None, None, None, None)
    if held is not None:
        held.cursor = cursor
    return cursor


def _forget(cursor: Any, held: _Held | None) -> None:
    """A cursor whose statement failed: closed (if it can be) and not used again."""
    if held is None:
        return  # closed by its statement's ``finally``
    held.cursor = None
    with suppress(Exception):  # its connection lost: the engine's handling follows
        cursor.close()


def send_text(connection: Connection, sql: str) -> None:
    """``sql``, a statement without parameters, sent as ``exec_driver_sql`` sends it:
    through the driver's cursor itself when nobody listens to it."""
    if engine_way_owed(connection):
        connection.exec_driver_sql(sql)
        return
    cursor = _cursor(connection)
    try:
        connection.dialect.do_execute_no_params(cursor, sql, None)
    except BaseException as error:
        connection._handle_dbapi_exception(error, sql, (), cursor, None)
    finally:
        cursor.close()


def _rows_through_engine(
    connection: Connection, compiled: SQLCompiler, params: Mapping[str, Any]
) -> Sequence[tuple[Any, ...]]:
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


def _binder(
    binds: tuple[tuple[str, _Processor, object], ...], positional: bool
) -> Callable[[Mapping[str, Any]], Any]:
    """``_bound`` for a statement whose every parameter is the caller's (all the
    prepared ones): the values taken in one ``itemgetter`` call and only those with a
    processor converted, about a third of ``_bound``'s time on an event's seven."""
    names = tuple(name for name, _, _ in binds)
    if not names or any(default is not _REQUIRED for _, _, default in binds):
        return lambda params: _bound_with(binds, positional, params)
    taken = itemgetter(*names)
    converted = tuple((i, p) for i, (_, p, _) in enumerate(binds) if p is not None)
    if len(names) == 1:
        name, processor = names[0], binds[0][1]
        if processor is None:
            return (lambda p: (p[name],)) if positional else (lambda p: {name: p[name]})
        if positional:
            return lambda p: (processor(p[name]),)
        return lambda p: {name: processor(p[name])}
    if positional and not converted:
        return cast(Callable[[Mapping[str, Any]], Any], taken)

    def bind(params: Mapping[str, Any]) -> Any:
        values = list(taken(params))
        for i, processor in converted:
            values[i] = processor(values[i])
        return tuple(values) if positional else dict(zip(names, values, strict=True))

    return bind


def _bound_with(
    binds: tuple[tuple[str, _Processor, object], ...], positional: bool, params: Mapping[str, Any]
) -> Any:
    values = []
    for name, processor, default in binds:
        value = params[name] if default is _REQUIRED else params.get(name, default)
        values.append(value if processor is None else processor(value))
    if positional:
        return tuple(values)
    return {name: value for (name, _, _), value in zip(binds, values, strict=True)}


# Each dialect's ``UtcDateTime`` bind processor, converting each moment once.
_MOMENTS: WeakKeyDictionary[Dialect, Callable[[Any], Any]] = WeakKeyDictionary()


def _moments(dialect: Dialect, processor: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The dialect's one remembering ``UtcDateTime`` processor (the type takes no
    arguments: every column of it converts alike), shared by every statement, so the
    ``now`` a command binds to its events, its game's row, its hand and its deadlines
    is converted once."""
    found = _MOMENTS.get(dialect)
    if found is None:
        found = _MOMENTS[dialect] = _remembered(processor)
    return found


def _remembered(processor: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """A moment's bind processor that converts each moment once: a command binds the
    same ``now`` to each of its events and its rows (3.6 us each on SQLite, through
    ``UtcDateTime`` and the dialect's text), and the game's own times every save. The
    same moment gives the same text or value (``UtcDateTime`` takes it to UTC first,
    so an equal moment in another zone too); only aware ``datetime`` values are kept
    (a naive one is refused by the processor, every time), at most 256 of them."""
    seen: dict[datetime, Any] = {}

    def process(value: Any) -> Any:
        if type(value) is not datetime:
            return processor(value)
        try:
            return seen[value]
        except KeyError:
            pass
        converted = processor(value)
        if len(seen) >= 256:
            seen.clear()
        seen[value] = converted
        return converted

    return process


def _result_processors(
    compiled: _Compiled, description: Any
) -> tuple[tuple[int, Callable[[Any], Any]], ...]:
    """Each column's processor as SQLAlchemy's result would pick it: the compiled
    statement's column type, for the driver's type code of that column; only the
    columns that have one, by position. The compiled columns come in the text's
    order, one for each the cursor answers."""
    columns = compiled.compiled._result_columns
    if description is None or len(columns) != len(description):
        raise ValueError("a prepared statement's columns are the ones it compiled")
    dialect = compiled.compiled.dialect
    processors = (
        column[3]._cached_result_processor(dialect, described[1])
        for column, described in zip(columns, description, strict=True)
    )
    return tuple((i, p) for i, p in enumerate(processors) if p is not None)


def _compile(statement: ClauseElement, dialect: Dialect) -> _Compiled:
    compiled = cast(SQLCompiler, statement.compile(dialect=dialect))
    if compiled.literal_execute_params or compiled.post_compile_params:
        raise ValueError("a prepared statement has no parameters expanded at execution")
    if dialect.bind_typing is BindTyping.SETINPUTSIZES:
        # Its drivers are told each value's type by the execution context: not here.
        raise ValueError("a prepared statement has no driver told its values' types")
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
        found = processors.get(name)
        if found is not None and not callable(found):
            raise ValueError("a prepared statement has no tuple parameters")
        processor: _Processor = found
        if found is not None and type(bind.type) is UtcDateTime:
            processor = _moments(dialect, found)
        binds.append((name, processor, default))
    return _Compiled(
        compiled.string, positional, tuple(binds), compiled, _binder(tuple(binds), positional)
    )
