"""Whether anyone listens to a session's cursor is asked at its transaction's first
statement, for all of them (``prepared._Held.heard``): a listener added between two
transactions sees every statement of the next, a write's and a read's, and one
removed lets the next go through the cursor again."""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Engine, Table, bindparam, event, select, update

from cardroom.store.db import make_sessionmaker
from cardroom.store.models import User
from cardroom.store.prepared import Prepared

_USERS = cast(Table, User.__table__)
_RENAME = Prepared(update(_USERS).where(_USERS.c.id == bindparam("id")).values(name=bindparam("n")))
_NAME = Prepared(select(_USERS.c.name).where(_USERS.c.id == bindparam("id")))


def _work(db: Engine) -> None:
    with make_sessionmaker(db).begin() as session:
        _RENAME.write(session, {"id": -1, "n": "nobody"})
        assert _NAME.rows(session, {"id": -1}) == []
        _RENAME.execute(session, {"id": -1, "n": "nobody"})


def test_a_listener_added_between_transactions_sees_the_next_ones_statements(
    db: Engine,
) -> None:
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        seen.append(sql.split()[0])

    _work(db)  # nobody listening: through the cursor
    event.listen(db, "before_cursor_execute", record)
    try:
        _work(db)
    finally:
        event.remove(db, "before_cursor_execute", record)
    assert [verb for verb in seen if verb in ("UPDATE", "SELECT")] == ["UPDATE", "SELECT", "UPDATE"]
    seen.clear()
    _work(db)  # removed: nobody sees these
    assert seen == []
