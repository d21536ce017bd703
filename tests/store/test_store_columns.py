"""``UtcDateTime`` writes a UTC moment on SQLite straight as the dialect's text
(``columns.UtcDateTime.bind_processor``): the same text as the general way, the type's
``process_bind_param`` then SQLite's DATETIME formatting, for every kind of moment; and
what is not a UTC moment still goes the general way (other zones, refusals)."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from cardroom.store.columns import UtcDateTime


def _processor(dialect: Dialect) -> Callable[[Any], Any] | None:
    """The type's processor as the engine takes it: of the dialect's own copy."""
    return UtcDateTime().dialect_impl(dialect).bind_processor(dialect)


def _general(value: Any) -> Any:
    """``TypeDecorator``'s own way: ``process_bind_param``, then the dialect's text."""
    dialect = sqlite.dialect()
    processor = TypeDecorator.bind_processor(UtcDateTime().dialect_impl(dialect), dialect)
    assert processor is not None
    return processor(value)


def _moments() -> list[datetime]:
    rng = random.Random(21)
    edges = [
        datetime(1, 1, 1, tzinfo=UTC),
        datetime(999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC),
        datetime(2026, 3, 1, 12, 0, 0, 1, tzinfo=UTC),
        datetime(9999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        datetime.now(UTC),
    ]
    spread = [
        datetime(1, 1, 1, tzinfo=UTC)
        + timedelta(microseconds=rng.randrange(315_537_897_600 * 10**6))
        for _ in range(2000)
    ]
    return edges + spread


def test_a_utc_moment_is_written_as_the_general_way_writes_it() -> None:
    fast = _processor(sqlite.dialect())
    assert fast is not None
    assert fast.__qualname__ == "UtcDateTime.bind_processor.<locals>.process"
    for moment in _moments():
        assert fast(moment) == _general(moment), moment


def test_other_moments_go_the_general_way() -> None:
    fast = _processor(sqlite.dialect())
    assert fast is not None
    east = timezone(timedelta(hours=-7, minutes=-30))
    moment = datetime(2026, 3, 1, 12, 0, 0, 5, tzinfo=UTC)
    assert fast(moment.astimezone(east)) == _general(moment) == "2026-03-01 12:00:00.000005"
    assert fast(None) is None
    with pytest.raises(ValueError, match="naive"):
        fast(moment.replace(tzinfo=None))


def test_postgresql_is_sent_the_moment_itself() -> None:
    dialect = postgresql.dialect()
    processor = _processor(dialect)
    east = timezone(timedelta(hours=3))
    moment = datetime(2026, 3, 1, 12, 0, 0, 5, tzinfo=east)
    sent = moment if processor is None else processor(moment)
    assert sent == moment and sent.tzinfo is UTC


def _general_result(dialect: Dialect, coltype: Any) -> Callable[[Any], Any] | None:
    """``TypeDecorator``'s own result processor: the dialect's, then
    ``process_result_value``."""
    return TypeDecorator.result_processor(UtcDateTime().dialect_impl(dialect), dialect, coltype)


@pytest.mark.parametrize("dialect", [sqlite.dialect(), postgresql.psycopg.dialect()])
def test_a_stored_moment_is_read_as_the_general_way_reads_it(dialect: Dialect) -> None:
    fast = UtcDateTime().dialect_impl(dialect).result_processor(dialect, None)
    general = _general_result(dialect, None)
    assert fast is not None and general is not None
    writes = _processor(dialect)
    plus_two = timezone(timedelta(hours=2))
    stored: list[Any] = [None]
    for moment in _moments()[5:500]:  # away from year 1 and 9999: another zone fits
        if dialect.name == "sqlite":
            assert writes is not None
            stored.append(writes(moment))  # the text SQLite keeps
        else:
            stored += [moment, moment.astimezone(plus_two)]  # what psycopg hands back
    for value in stored:
        got, want = fast(value), general(value)
        assert got == want and (got is None or got.tzinfo is UTC), value
