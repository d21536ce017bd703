"""A prepared statement (``cardroom.store.prepared``) stores and reads exactly what the
same statement through the session does, on both databases: the same stored values
(JSON, times, enums, booleans), the same rows back, the session's pending rows
written first, still one statement for the engine's listeners; and it refuses what
it cannot send as one fixed text."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any, cast

import pytest
from sqlalchemy import Engine, Table, bindparam, event, insert, select, text, update
from sqlalchemy.orm import Session

from cardroom.store.db import make_sessionmaker
from cardroom.store.models import AdminAction, Role, User
from cardroom.store.prepared import Prepared

NOW = datetime(2026, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)
_ACTIONS = cast(Table, AdminAction.__table__)
_USERS = cast(Table, User.__table__)
_COLUMNS = ("admin_id", "action", "reason", "before", "after", "created_at")
_INSERT = insert(_ACTIONS).values(
    {name: bindparam(name, type_=_ACTIONS.c[name].type) for name in _COLUMNS}
)
_READ = select(_ACTIONS.c.action, _ACTIONS.c.before, _ACTIONS.c.created_at).where(
    _ACTIONS.c.reason == bindparam("reason")
)
_SUSPEND = (
    update(_USERS)
    .where(_USERS.c.id == bindparam("user_id"), _USERS.c.role == Role.PLAYER)
    .values(suspended=bindparam("suspended"))
)
_USER = select(_USERS.c.role, _USERS.c.suspended, _USERS.c.created_at).where(
    _USERS.c.id == bindparam("user_id")
)


def _action(reason: str, **more: Any) -> dict[str, Any]:
    return {
        "admin_id": None,
        "action": "grant",
        "reason": reason,
        "before": {"cents": 5, "names": ["Zoë", "b"], "none": None, "nested": {"x": 1.5}},
        "after": {"cents": 7},
        "created_at": NOW,
        **more,
    }


def _user(session: Session, name: str) -> int:
    user = User(
        name=name,
        name_key=name.lower(),
        password_hash="x",
        role=Role.PLAYER,
        suspended=False,
        created_at=NOW,
    )
    session.add(user)
    session.flush()
    return user.id


def _stored(session: Session, reason: str) -> tuple[Any, ...]:
    """The row as the driver returns it: what was written, before any type reads it."""
    row = session.execute(
        text("SELECT action, before, after, created_at FROM admin_actions WHERE reason = :r"),
        {"r": reason},
    ).one()
    return tuple(row)


def test_it_stores_what_the_session_stores(db: Engine) -> None:
    with make_sessionmaker(db).begin() as session:
        session.execute(_INSERT, _action("through the session"))
        Prepared(_INSERT).execute(session, _action("prepared"))
        Prepared(_INSERT).execute(session, [_action("many 1"), _action("many 2")])
        expected = _stored(session, "through the session")
        for reason in ("prepared", "many 1", "many 2"):
            assert _stored(session, reason) == expected


def test_it_reads_what_the_session_reads(db: Engine) -> None:
    with make_sessionmaker(db).begin() as session:
        session.execute(_INSERT, _action("read me"))
        user_id = _user(session, "Alice")
        for statement, params in ((_READ, {"reason": "read me"}), (_USER, {"user_id": user_id})):
            through_session = [tuple(row) for row in session.execute(statement, params)]
            prepared = Prepared(statement).rows(session, params)
            assert prepared == through_session
            assert [type(v) for v in prepared[0]] == [type(v) for v in through_session[0]]
        assert Prepared(_READ).first(session, {"reason": "nobody"}) is None


def test_its_updates_count_their_rows_and_take_values_bound_in_the_statement(
    db: Engine,
) -> None:
    """``_SUSPEND`` names the role in the statement itself (a bound value, not the
    caller's): the row matches only through it."""
    with make_sessionmaker(db).begin() as session:
        user_id = _user(session, "Bob")
        done = Prepared(_SUSPEND).execute(session, {"user_id": user_id, "suspended": True})
        assert done.rowcount == 1
        assert Prepared(_USER).rows(session, {"user_id": user_id})[0][1] is True
        none = Prepared(_SUSPEND).execute(session, {"user_id": user_id + 1, "suspended": True})
        assert none.rowcount == 0
        with pytest.raises(KeyError):
            Prepared(_SUSPEND).execute(session, {"user_id": user_id})


def test_the_session_writes_its_pending_rows_first(db: Engine) -> None:
    """As ``Session.execute`` would: a user added but not flushed is there for the
    statement to find; inside ``no_autoflush`` it is not, as through the session."""
    with make_sessionmaker(db).begin() as session:
        held = User(
            name="Carol",
            name_key="carol",
            password_hash="x",
            role=Role.PLAYER,
            suspended=False,
            created_at=NOW + timedelta(days=1),
        )
        by_name = Prepared(select(_USERS.c.id).where(_USERS.c.name_key == bindparam("key")))
        with session.no_autoflush:
            session.add(held)
            assert by_name.rows(session, {"key": "carol"}) == []
        assert by_name.rows(session, {"key": "carol"}) == [(held.id,)]


def test_the_engine_still_sees_one_statement(db: Engine) -> None:
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        seen.append(sql.split()[0])

    event.listen(db, "before_cursor_execute", record)
    try:
        with make_sessionmaker(db).begin() as session:
            Prepared(_INSERT).execute(session, _action("counted"))
            Prepared(_READ).rows(session.connection(), {"reason": "counted"})
    finally:
        event.remove(db, "before_cursor_execute", record)
    assert [verb for verb in seen if verb in ("INSERT", "SELECT")] == ["INSERT", "SELECT"]


def test_it_refuses_parameters_expanded_at_execution(db: Engine) -> None:
    listed = select(_USERS.c.id).where(_USERS.c.id.in_(bindparam("ids", expanding=True)))
    with make_sessionmaker(db).begin() as session, pytest.raises(ValueError):
        Prepared(listed).rows(session, {"ids": [1, 2]})


def test_a_moment_is_stored_the_same_each_time_it_is_bound(db: Engine) -> None:
    """Moments are converted once and remembered (``prepared._moments``): the same
    moment, an equal one in another zone, and later different ones are each stored as
    the session stores them, and a naive one is refused every time."""
    east = timezone(timedelta(hours=5, minutes=30))
    moments = [NOW, NOW, NOW.astimezone(east), NOW + timedelta(microseconds=1), NOW]
    with make_sessionmaker(db).begin() as session:
        for i, moment in enumerate(moments):
            session.execute(_INSERT, _action(f"session {i}", created_at=moment))
            Prepared(_INSERT).execute(session, _action(f"prepared {i}", created_at=moment))
        for i in range(len(moments)):
            assert _stored(session, f"prepared {i}") == _stored(session, f"session {i}")
        for _ in range(2):
            with pytest.raises(ValueError, match="naive"):
                Prepared(_INSERT).execute(
                    session, _action("naive", created_at=NOW.replace(tzinfo=None))
                )
