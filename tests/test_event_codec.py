"""Each engine record's own ``to_dict`` and ``from_dict`` against the generic way they
replaced (``tests/table/codec_before.py``): the same dict, key for key and type for
type, the same record read back, and the same errors for what is not a record."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardroom.events import (
    EVENT_TYPES,
    BetReturned,
    BlindPosted,
    BoardDealt,
    CardBurned,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HoleCardDealt,
    PlayerActed,
    PotAwarded,
    event_from_dict,
    event_to_dict,
)
from tests.table import codec_before as before
from tests.table.codec_before import same

EXAMPLES: list[Event] = [
    BlindPosted(3, "big_blind", 100, False),
    BlindPosted(1, "ante", 7, True),
    HoleCardDealt(2, 51),
    CardBurned(0),
    BoardDealt("flop", (12, 25, 38)),
    BoardDealt("river", (4,)),
    PlayerActed(1, "raise", 300, 400, False, False),
    PlayerActed(4, "fold", 0, 0, False, True),
    BetReturned(2, 150),
    HandShown(1, (0, 13), 1609, "Pair of Aces"),
    HandMucked(5),
    PotAwarded(0, 900, (1, 3), (450, 450), "Two Pair"),
    PotAwarded(1, 75, (2,), (75,), ""),
    HandEnded((0, 2000, 1000)),
]


def test_every_type_has_an_example() -> None:
    assert {type(e).__name__ for e in EXAMPLES} == set(EVENT_TYPES)


@pytest.mark.parametrize("event", EXAMPLES, ids=lambda e: type(e).__name__)
def test_written_and_read_as_before(event: Event) -> None:
    data = event_to_dict(event)
    same(data, before.event_to_dict(event))
    assert list(data) == ["type", *type(event)._fields]  # a field added is written
    assert event_to_dict(event) is not data  # each caller's own dict
    for source in (data, json.loads(json.dumps(data))):
        read = event_from_dict(source)
        same(read, before.event_from_dict(source))
        assert read == event and type(read) is type(event)


def test_a_record_written_before_timed_out_existed_reads_as_before() -> None:
    data = {"type": "PlayerActed", "seat": 1, "action": "call", "amount": 5, "bet": 10}
    data["all_in"] = False
    same(event_from_dict(data), before.event_from_dict(data))
    assert event_from_dict(data) == PlayerActed(1, "call", 5, 10, False, False)


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"type": "HoleCardDealt", "seat": 1, "card": 2, "extra": 3}, TypeError),
        ({"type": "HoleCardDealt", "seat": 1, "cards": 2}, TypeError),  # a field misnamed
        ({"type": "HoleCardDealt", "seat": 1}, TypeError),
        ({"type": "Nothing", "seat": 1}, KeyError),
        ({"seat": 1, "card": 2}, KeyError),
    ],
)
def test_what_is_not_a_record_is_refused_as_before(data: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        before.event_from_dict(data)
    with pytest.raises(error):
        event_from_dict(data)
