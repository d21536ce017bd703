"""The socket's messages are written by orjson where pydantic's serialiser wrote them
(``game_answers._json``): for every kind of value they hold, the very same bytes."""

from __future__ import annotations

import enum
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from pydantic_core import to_json

from cardroom.store.models import GameFormat, GameStatus
from cardroom.web.game_answers import _json


class _Named(enum.StrEnum):
    ONE = "one"


class _Counted(enum.IntEnum):
    THREE = 3


_ZONES = (
    UTC,
    ZoneInfo("UTC"),
    timezone(timedelta(0)),
    None,
    timezone(timedelta(hours=1)),
    timezone(timedelta(hours=-5, minutes=-30)),
    ZoneInfo("Europe/Paris"),
)
_TIMES = [
    datetime(2026, 1, 15, 20, 0, 0, micro, tzinfo=zone)
    for micro in (0, 1, 500, 100_000, 120_000, 999_999)
    for zone in _ZONES
]
_FLOATS = [0.0, 50.0, 33.33, 1 / 3, 100.0, 12.5, 1e-7, 99.99999999, 0.1 + 0.2, 1e22, -2.5]
_TEXTS = ["", 'a"b', "x\\y", "é", "\x01\x1f\n\t\r\b\f", "\u2028", "\U0001f600", "</s>", "\x7f"]
_INTS = [0, -1, 2**53 + 1, 2**63 - 1, -(2**63), 2**64 - 1, 2**64, -(2**63) - 1, 10**30]
_OTHER: list[Any] = [
    None,
    True,
    False,
    GameStatus.RUNNING,
    GameFormat.CASH,
    _Named.ONE,
    _Counted.THREE,
    (1, 2),
    [[1, [2]], ()],
    {"a": {"b": []}},
    {1: "int key"},
    {1, 2},
    Decimal("1.5"),
    timedelta(seconds=90),
    b"bytes",
]


@pytest.mark.parametrize("value", [*_TIMES, *_FLOATS, *_TEXTS, *_INTS, *_OTHER], ids=repr)
def test_every_value_is_written_as_pydantic_writes_it(value: Any) -> None:
    assert _json(value) == to_json(value)
    assert _json({"k": [value], "n": None}) == to_json({"k": [value], "n": None})
