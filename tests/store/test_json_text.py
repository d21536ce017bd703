"""``json_text.dumps`` writes every value as it did when it always passed orjson the
option for keys that are not strings (``dumps_before``, kept here): a value whose keys
are all strings now goes without it first."""

from __future__ import annotations

import dataclasses
import datetime
import json
from typing import Any

import orjson
import pytest

from cardroom.deck import SeededRandomSource
from cardroom.rules import Format
from cardroom.store import json_text
from cardroom.table import TableConfig, table_to_dict
from tests.table.kit import Ledger, play_hand, seated_table

_BEFORE = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)


def dumps_before(value: Any) -> str:
    try:
        return orjson.dumps(value, option=_BEFORE).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value)


@dataclasses.dataclass
class Point:
    x: int


def _table_state() -> dict[str, Any]:
    config = TableConfig.create("cash", "house", buy_in=1000, seat_count=6)
    ledger = Ledger({p: 3000 for p in range(1, 5)})
    table = seated_table(config, {p: p for p in range(1, 5)}, ledger)
    play_hand(table, SeededRandomSource(4), 1.0, ledger)
    return table_to_dict(table)


VALUES: list[Any] = [
    _table_state(),
    {"a": 1, "b": [1, 2.5, None, True, "é"], "c": {"d": (1, 2)}},
    {1: "one", 2: {"x": 3}},  # keys written as strings
    {"outer": {None: 1, True: 2, 1.5: 3}},  # a key deep inside
    {Format.CASH: 1},  # a str enum as a key: orjson wants the option for it
    {"big": 2**70},  # past 64 bits: the standard library writes it
    {"big": 2**70, 1: "one"},
    {"e": Format.CASH},
    {"nan": float("nan")},
    [],
    "text",
    None,
]


@pytest.mark.parametrize("value", VALUES, ids=[f"value{i}" for i in range(len(VALUES))])
def test_written_as_before(value: Any) -> None:
    assert json_text.dumps(value) == dumps_before(value)


@pytest.mark.parametrize(
    "value",
    [{"at": datetime.datetime(2026, 1, 1)}, {1: datetime.date(2026, 1, 1)}, {"p": Point(1)}],
)
def test_what_json_has_no_text_for_is_refused_as_before(value: Any) -> None:
    with pytest.raises(TypeError) as then:
        dumps_before(value)
    with pytest.raises(TypeError) as now:
        json_text.dumps(value)
    assert str(now.value) == str(then.value)
