"""A prepared statement sent through the driver's cursor (nobody listening) is still
a statement of the engine: the same answers as the engine's own way, SQLAlchemy's
errors, a lost connection invalidated, and the session's savepoints set before it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, cast

import pytest
from sqlalchemy import Connection, Engine, Table, bindparam, event, insert, select, text, update
from sqlalchemy import exc as sa_exc

from cardroom.store import prepared
from cardroom.store.db import make_sessionmaker
from cardroom.store.models import Role, User
from cardroom.store.prepared import Prepared

NOW = datetime(2026, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)
_USERS = cast(Table, User.__table__)
_ADD = Prepared(
    insert(_USERS)
    .values(
        name=bindparam("name"),
        name_key=bindparam("key"),
        password_hash="x",
        role=Role.PLAYER,
        suspended=False,
        created_at=bindparam("at", type_=_USERS.c.created_at.type),
    )
    .returning(_USERS.c.id, _USERS.c.role, _USERS.c.created_at)
)
_RENAME = Prepared(update(_USERS).where(_USERS.c.id == bindparam("id")).values(name=bindparam("n")))
_NAME = Prepared(select(_USERS.c.name).where(_USERS.c.id == bindparam("id")))


@pytest.fixture(params=["cursor", "engine"])
def way(request: pytest.FixtureRequest, db: Engine) -> Iterator[str]:
    """``engine``: a cursor listener on the engine, so statements take its own way."""
    if request.param == "cursor":
        yield "cursor"
        return

    def listening(*_: Any) -> None:
        pass

    event.listen(db, "before_cursor_execute", listening)
    try:
        yield "engine"
    finally:
        event.remove(db, "before_cursor_execute", listening)


def test_nobody_listening_it_goes_through_the_cursor(
    db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    def engine_way(*_: Any, **__: Any) -> Any:
        raise AssertionError("sent the engine's way with nobody listening")

    with make_sessionmaker(db).begin() as session:
        session.connection()
        monkeypatch.setattr(Connection, "exec_driver_sql", engine_way)
        monkeypatch.setattr(Connection, "_execute_context", engine_way)
        row = _ADD.first(session, {"name": "Ann", "key": "ann", "at": NOW})
        assert row is not None
        assert row[1] is Role.PLAYER and row[2] == NOW
        assert _RENAME.execute(session, {"id": row[0], "n": "ann"}).rowcount == 1
        assert _NAME.rows(session, {"id": row[0]}) == [("ann",)]
        monkeypatch.undo()  # the engine's own COMMIT (SQLite's through its listener)


def test_it_answers_as_the_session_does_either_way(db: Engine, way: str) -> None:
    with make_sessionmaker(db).begin() as session:
        row = _ADD.first(session, {"name": "Ben", "key": "ben", "at": NOW})
        assert row is not None
        through_session = session.execute(
            select(_USERS.c.id, _USERS.c.role, _USERS.c.created_at).where(_USERS.c.id == row[0])
        ).one()
        assert row == tuple(through_session)
        assert [type(v) for v in row] == [type(v) for v in through_session]
        assert _RENAME.execute(session, {"id": row[0] + 1, "n": "x"}).rowcount == 0


def test_its_errors_are_sqlalchemys_either_way(db: Engine, way: str) -> None:
    with make_sessionmaker(db)() as session:
        _ADD.first(session, {"name": "Cy", "key": "cy", "at": NOW})
        with pytest.raises(sa_exc.IntegrityError) as refused:
            _ADD.first(session, {"name": "Cy", "key": "cy", "at": NOW})
        assert isinstance(refused.value.orig, db.dialect.loaded_dbapi.IntegrityError)
        session.rollback()
        row = _ADD.first(session, {"name": "Cy", "key": "cy", "at": NOW})  # a new transaction
        assert row is not None
        session.rollback()


def test_a_lost_connection_is_invalidated_either_way(db: Engine, way: str) -> None:
    session = make_sessionmaker(db)()
    connection = session.connection()
    if db.dialect.name == "sqlite":
        connection.connection.dbapi_connection.close()  # type: ignore[union-attr]
    else:
        with db.connect() as other:
            pid = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar()
            other.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
    with pytest.raises(sa_exc.DBAPIError) as lost:
        _NAME.rows(session, {"id": 1})
    assert lost.value.connection_invalidated
    assert connection.invalidated
    session.rollback()
    assert _NAME.rows(session, {"id": 1}) == []  # a new connection from the pool
    session.close()


def test_the_sessions_savepoint_is_set_before_its_first_statement(db: Engine, way: str) -> None:
    with make_sessionmaker(db).begin() as session:
        row = _ADD.first(session, {"name": "Dee", "key": "dee", "at": NOW})
        assert row is not None
        savepoint = session.begin_nested()
        _RENAME.execute(session, {"id": row[0], "n": "dee"})
        savepoint.rollback()
        assert _NAME.rows(session, {"id": row[0]}) == [("Dee",)]


def test_a_transactions_statements_share_one_cursor_until_one_fails(
    db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its savepoints' statements too; a failed statement's cursor is closed and the
    next statement gets a new one."""
    made: list[Any] = []
    take = prepared._cursor

    def counted(connection: Connection, held: Any = None) -> Any:
        cursor = take(connection, held)
        if held is not None and all(cursor is not other for other in made):
            made.append(cursor)  # the session's statements' (not BEGIN's, SAVEPOINT's)
        return cursor

    monkeypatch.setattr(prepared, "_cursor", counted)
    with make_sessionmaker(db).begin() as session:
        row = _ADD.first(session, {"name": "Eve", "key": "eve", "at": NOW})
        assert row is not None
        assert _RENAME.execute(session, {"id": row[0], "n": "eve"}).rowcount == 1
        savepoint = session.begin_nested()
        assert _NAME.rows(session, {"id": row[0]}) == [("eve",)]
        assert len(made) == 1
        with pytest.raises(sa_exc.IntegrityError):
            _ADD.first(session, {"name": "Eve", "key": "eve", "at": NOW})
        savepoint.rollback()
        assert _NAME.rows(session, {"id": row[0]}) == [("eve",)]
        assert _RENAME.execute(session, {"id": row[0], "n": "Eve"}).rowcount == 1
        assert len(made) == 2
    with make_sessionmaker(db)() as session:
        assert _NAME.rows(session, {"id": row[0]}) == [("Eve",)]
