"""Writes queued on PostgreSQL's pipeline (``cardroom.store.pipelined``): they wait
for no answer, yet everything that follows sees them, their errors still fail the
transaction before it commits, a savepoint rolled back undoes them, a row count that
is off is caught, and a listener on each statement still sees every one (nothing is
queued then). On SQLite ``Prepared.write`` sends at once: the same outcomes."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, cast

import pytest
from sqlalchemy import Engine, Table, bindparam, event, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from cardroom.store.db import make_sessionmaker
from cardroom.store.models import Role, User
from cardroom.store.prepared import Prepared

NOW = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)
_USERS = cast(Table, User.__table__)
_ADD = Prepared(
    insert(_USERS).values(
        id=bindparam("id", type_=_USERS.c.id.type),
        name=bindparam("name", type_=_USERS.c.name.type),
        name_key=bindparam("key", type_=_USERS.c.name_key.type),
        password_hash="x",
        role=Role.PLAYER,
        suspended=False,
        created_at=NOW,
    )
)
_SUSPEND = Prepared(
    update(_USERS).where(_USERS.c.id == bindparam("user_id")).values(suspended=True)
)
_NAMES = select(_USERS.c.name).order_by(_USERS.c.id)
# The same with a parameter: the engine sends it through ``do_execute``, not
# ``do_execute_no_params``.
_NAMES_FROM = _NAMES.where(_USERS.c.id >= bindparam("low"))


def _who(user_id: int, name: str) -> dict[str, Any]:
    return {"id": user_id, "name": name, "key": name.lower()}


def _queued(session: Session) -> bool:
    """Whether the session's connection holds queued writes: on PostgreSQL after a
    write, never on SQLite (each write is sent at once)."""
    dbapi = session.connection().connection.dbapi_connection
    return getattr(dbapi, "_cardroom_pipeline", None) is not None


def _pipelines(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def _names(db: Engine) -> list[str]:
    with make_sessionmaker(db).begin() as session:
        return list(session.scalars(_NAMES))


def test_a_write_waits_for_no_answer_and_the_next_statement_sees_it(db: Engine) -> None:
    with make_sessionmaker(db).begin() as session:
        _ADD.write(session, _who(1, "Ann"))
        _ADD.write(session, [_who(2, "Bo"), _who(3, "Cy")])
        assert _queued(session) == _pipelines(session)
        assert list(session.scalars(_NAMES_FROM, {"low": 1})) == ["Ann", "Bo", "Cy"]
        assert not _queued(session)  # the read waited for the writes' answers first
        _ADD.write(session, _who(4, "Di"))
        assert list(session.scalars(_NAMES)) == ["Ann", "Bo", "Cy", "Di"]
        _SUSPEND.write(session, {"user_id": 2}, rows=1)
        assert _queued(session) == _pipelines(session)
    # The commit closed the pipeline first: the last write is stored.
    with make_sessionmaker(db).begin() as session:
        assert session.scalar(select(_USERS.c.suspended).where(_USERS.c.id == 2)) is True


def test_a_failed_write_fails_the_next_statement_and_nothing_commits(db: Engine) -> None:
    with pytest.raises(IntegrityError), make_sessionmaker(db).begin() as session:
        _ADD.write(session, _who(1, "Ann"))
        _ADD.write(session, _who(1, "Ann again"))  # the same id: refused
        session.scalars(_NAMES).all()
    assert _names(db) == []


def test_a_failed_write_fails_the_commit(db: Engine) -> None:
    with pytest.raises(IntegrityError), make_sessionmaker(db).begin() as session:
        _ADD.write(session, _who(1, "Ann"))
        _ADD.write(session, _who(1, "Ann again"))
    assert _names(db) == []


def test_a_savepoint_rolled_back_undoes_its_queued_writes(db: Engine) -> None:
    with make_sessionmaker(db).begin() as session:
        _ADD.write(session, _who(1, "Ann"))
        with pytest.raises(RuntimeError), session.begin_nested():
            _ADD.write(session, _who(2, "Bo"))
            # the savepoint and the insert, both queued on PostgreSQL
            assert _queued(session) == _pipelines(session)
            raise RuntimeError("refused")
        with session.begin_nested():
            _ADD.write(session, _who(3, "Cy"))
    assert _names(db) == ["Ann", "Cy"]


def test_a_row_count_that_is_off_is_caught(db: Engine) -> None:
    off = pytest.raises(AssertionError, match="0 rows written, not 1")
    with off, make_sessionmaker(db).begin() as session:
        _SUSPEND.write(session, {"user_id": 99}, rows=1)  # nobody has that id
        session.scalars(_NAMES).all()


@pytest.mark.postgresql_only
def test_the_writes_nobody_reads_share_one_cursor_and_a_checked_one_has_its_own(
    db: Engine,
) -> None:
    """A pipeline's unchecked writes go on one cursor (a psycopg cursor is costly to
    make); one whose row count is checked has its own, so its count is its own
    statement's even when shared writes follow it; an error among the shared
    writes still fails the transaction."""
    with make_sessionmaker(db).begin() as session:
        connection = session.connection()
        dbapi = connection.connection.dbapi_connection
        _ADD.write(session, _who(1, "Ann"))
        shared = dbapi._cardroom_pipeline.writes
        _SUSPEND.write(session, {"user_id": 1}, rows=1)
        _ADD.write(session, [_who(2, "Bo"), _who(3, "Cy")])
        _ADD.write(session, _who(4, "Di"))
        ((checked, rows, _),) = dbapi._cardroom_pipeline.checks
        assert rows == 1 and checked is not shared
        assert dbapi._cardroom_pipeline.writes is shared
    assert _names(db) == ["Ann", "Bo", "Cy", "Di"]
    with pytest.raises(IntegrityError), make_sessionmaker(db).begin() as session:
        _ADD.write(session, _who(5, "Ed"))
        _ADD.write(session, [_who(6, "Flo"), _who(1, "Ann again")])  # the same id: refused
        _ADD.write(session, _who(7, "Gus"))
        _SUSPEND.write(session, {"user_id": 5}, rows=1)
    assert _names(db) == ["Ann", "Bo", "Cy", "Di"]


def test_a_write_is_sent_at_once_where_there_is_no_pipeline(db: Engine) -> None:
    """Both databases: with a listener on each statement (and always on SQLite) the
    write goes through the engine, is seen, and its error is raised at once."""
    seen: list[str] = []

    def record(*args: Any) -> None:
        seen.append(args[2])

    event.listen(db, "before_cursor_execute", record)
    try:
        with pytest.raises(IntegrityError), make_sessionmaker(db).begin() as session:
            _ADD.write(session, _who(1, "Ann"))
            assert not _queued(session)
            assert any(statement.startswith("INSERT INTO users") for statement in seen)
            _ADD.write(session, _who(1, "Ann again"))
            pytest.fail("the second insert was refused at once")  # pragma: no cover
        off = pytest.raises(AssertionError, match="0 rows written, not 1")
        with off, make_sessionmaker(db).begin() as session:
            _SUSPEND.write(session, {"user_id": 99}, rows=1)
    finally:
        event.remove(db, "before_cursor_execute", record)


def test_it_says_whether_a_write_would_be_queued(db: Engine) -> None:
    """``queues``: on PostgreSQL with nobody listening, not on SQLite nor with a
    listener on each statement; asking sends nothing."""
    with make_sessionmaker(db).begin() as session:
        assert _ADD.queues(session) == _pipelines(session)
        assert not _queued(session)

    def record(*_: Any) -> None:
        pass

    event.listen(db, "before_cursor_execute", record)
    try:
        with make_sessionmaker(db).begin() as session:
            assert not _ADD.queues(session)
    finally:
        event.remove(db, "before_cursor_execute", record)


@pytest.fixture(autouse=True)
def _no_pipeline_left(db: Engine) -> Iterator[None]:
    """Every connection goes back to the pool with no pipeline open."""
    yield
    with db.connect() as connection:
        dbapi = connection.connection.dbapi_connection
        assert getattr(dbapi, "_cardroom_pipeline", None) is None


def test_with_nobody_listening_a_write_skips_the_engines_execution(
    db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On SQLite it goes straight through the driver's cursor (on PostgreSQL onto the
    pipeline): the engine's statement execution is never entered."""
    from sqlalchemy import Connection

    def refused(*_: Any, **__: Any) -> Any:
        raise AssertionError("sent through the engine's execution")

    with make_sessionmaker(db).begin() as session:
        session.connection()  # begun before the engine's execution is refused
        monkeypatch.setattr(Connection, "exec_driver_sql", refused)
        monkeypatch.setattr(Connection, "_execute_context", refused)
        _ADD.write(session, _who(1, "Ann"))
        _SUSPEND.write(session, {"user_id": 1}, rows=1)
        monkeypatch.undo()
    assert _names(db) == ["Ann"]


# An insert that answers (as a notice's does: its id), for ``rows_behind``.
_ADD_ANSWERING = Prepared(
    insert(_USERS)
    .values(
        id=bindparam("id", type_=_USERS.c.id.type),
        name=bindparam("name", type_=_USERS.c.name.type),
        name_key=bindparam("key", type_=_USERS.c.name_key.type),
        password_hash="x",
        role=Role.PLAYER,
        suspended=False,
        created_at=NOW,
    )
    .returning(_USERS.c.id, _USERS.c.role, _USERS.c.created_at)
)


def test_a_statement_sent_behind_the_queued_writes_waits_once_with_them(
    db: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``rows_behind`` on PostgreSQL goes onto the pipeline behind the queued writes
    and its answer comes back with theirs: nothing is sent on its own (the
    dialect's ``do_execute``, which would first wait for the queued writes and then
    for the statement, is never called). On SQLite it is ``rows``. The same rows,
    converted by their column types, either way."""
    with make_sessionmaker(db).begin() as session:
        _ADD.write(session, _who(1, "Ann"))
        assert _queued(session) == _pipelines(session)
        if _pipelines(session):

            def refused(*_: Any, **__: Any) -> Any:
                raise AssertionError("sent on its own, waiting twice")

            monkeypatch.setattr(session.get_bind().dialect, "do_execute", refused)
        answer = _ADD_ANSWERING.first_behind(session, _who(2, "Bo"))
        assert not _queued(session)  # waited for, the queued write with it
        monkeypatch.undo()
        assert answer == (2, Role.PLAYER, NOW)
        assert _ADD_ANSWERING.rows_behind(session, _who(3, "Cy")) == [(3, Role.PLAYER, NOW)]
    assert _names(db) == ["Ann", "Bo", "Cy"]


def test_a_failed_queued_write_fails_the_statement_sent_behind_it(db: Engine) -> None:
    with pytest.raises(IntegrityError), make_sessionmaker(db).begin() as session:
        _ADD.write(session, _who(1, "Ann"))
        _ADD.write(session, _who(1, "Ann again"))  # the same id: refused
        _ADD_ANSWERING.first_behind(session, _who(2, "Bo"))
    assert _names(db) == []


def test_a_statement_sent_behind_fails_as_it_would_alone(db: Engine) -> None:
    with pytest.raises(IntegrityError), make_sessionmaker(db).begin() as session:
        _ADD.write(session, _who(1, "Ann"))
        _ADD_ANSWERING.first_behind(session, _who(1, "Ann again"))
    assert _names(db) == []
    # And the connection's next transaction finds no pipeline left open (the
    # fixture's check), and works.
    with make_sessionmaker(db).begin() as session:
        assert _ADD_ANSWERING.first_behind(session, _who(1, "Ann")) == (1, Role.PLAYER, NOW)
    assert _names(db) == ["Ann"]


def test_a_statement_sent_behind_goes_through_the_engine_for_a_listener(db: Engine) -> None:
    seen: list[str] = []

    def record(*args: Any) -> None:
        seen.append(args[2])

    event.listen(db, "before_cursor_execute", record)
    try:
        with make_sessionmaker(db).begin() as session:
            _ADD.write(session, _who(1, "Ann"))
            assert _ADD_ANSWERING.first_behind(session, _who(2, "Bo")) == (2, Role.PLAYER, NOW)
        assert sum(statement.startswith("INSERT INTO users") for statement in seen) == 2
    finally:
        event.remove(db, "before_cursor_execute", record)
