"""Whether the room's database can serve: reachable, and at the schema revision this
code expects. Read by ``GET /healthz`` and by ``cardroom serve`` before it starts."""

from __future__ import annotations

import enum
from functools import cache

from sqlalchemy.exc import DBAPIError

from cardroom.service.context import ServiceContext
from cardroom.store import migrate


class DatabaseState(enum.StrEnum):
    READY = "ready"
    OUT_OF_DATE = "out_of_date"  # empty, or at an older revision: `cardroom db upgrade`
    UNREACHABLE = "unreachable"


@cache
def _head_revision() -> str:
    # Reading the migration scripts takes milliseconds; a health probe every few
    # seconds should not repeat it.
    return migrate.head_revision()


def database_state(ctx: ServiceContext) -> DatabaseState:
    try:
        current = migrate.current_revision(ctx.engine)
    except DBAPIError:
        return DatabaseState.UNREACHABLE
    return DatabaseState.READY if current == _head_revision() else DatabaseState.OUT_OF_DATE
