"""Column types that behave the same on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator


class UtcDateTime(TypeDecorator[datetime]):
    """A moment in time, always timezone-aware UTC in Python.

    PostgreSQL keeps ``timestamp with time zone``; SQLite has no such type and hands
    back naive datetimes. Storing UTC and tagging it on the way out means the service
    layer can compare a stored expiry with the clock on either database. A naive
    datetime is refused on the way in: its meaning would depend on the server's zone.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"refusing to store the naive datetime {value!r}: give it a zone")
        utc = value.astimezone(UTC)
        # SQLite stores the text it is given; a fixed zone-free UTC form keeps its
        # string comparisons (ORDER BY, <) in time order.
        return utc.replace(tzinfo=None) if dialect.name == "sqlite" else utc

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)
