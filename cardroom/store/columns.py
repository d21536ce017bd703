"""Column types that behave the same on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

# SQLite's DATETIME text as SQLAlchemy writes it by default: what ``isoformat`` with
# a space and microseconds writes of a naive datetime, for every year 1 to 9999.
SQLITE_DATETIME_TEXT = (
    "%(year)04d-%(month)02d-%(day)02d %(hour)02d:%(minute)02d:%(second)02d.%(microsecond)06d"
)

# The same, its values by position.
_TEXT = "%04d-%02d-%02d %02d:%02d:%02d.%06d"


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

    def bind_processor(self, dialect: Dialect) -> Callable[[Any], Any] | None:
        """On SQLite, a UTC moment (every one the room makes: ``datetime.now(UTC)``
        and the stored ones read back) written straight as the dialect's text, at a
        third of the cost of ``process_bind_param`` and then the dialect's own
        formatting (a command writes several); any other value the general way."""
        general = super().bind_processor(dialect)
        impl = self.impl_instance.dialect_impl(dialect)
        if (
            general is None
            or dialect.name != "sqlite"
            or getattr(impl, "_storage_format", None) != SQLITE_DATETIME_TEXT
        ):
            return general

        def process(value: Any) -> Any:
            if type(value) is datetime and value.tzinfo is UTC:
                # The dialect's text, by position (a third of ``isoformat`` with its
                # time spec, which also writes the zone the stored form leaves out).
                return _TEXT % (
                    value.year,
                    value.month,
                    value.day,
                    value.hour,
                    value.minute,
                    value.second,
                    value.microsecond,
                )
            return general(value)

        return process

    def result_processor(self, dialect: Dialect, coltype: Any) -> Callable[[Any], Any] | None:
        """``process_result_value`` after the dialect's own processor, as
        ``TypeDecorator`` composes them, in one function rather than two calls a
        value (every read of a stored moment: sessions, deadlines, events)."""
        impl = self.impl_instance.result_processor(dialect, coltype)

        def process(value: Any) -> datetime | None:
            if impl is not None:
                value = impl(value)
            if value is None:
                return None
            if value.tzinfo is None:
                return cast(datetime, value.replace(tzinfo=UTC))
            return cast(datetime, value.astimezone(UTC))

        return process

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)
