"""The socket's messages are written by orjson where pydantic's serialiser wrote them
(``game_answers._json``): for every kind of value they hold, the very same bytes; and
the records and views written as they are hold the models' fields in their order."""

from __future__ import annotations

import enum
import random
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from pydantic_core import to_json

from cardroom.rules import PRESETS
from cardroom.service.game_records import GameSummary, SeatView
from cardroom.store.models import GameFormat, GameStatus
from cardroom.views import hand_view, seat_hand_view
from cardroom.web import game_answers
from cardroom.web.game_answers import _json, summary_out
from cardroom.web.schemas_games import GameSummaryOut, HandPlayerOut, PotOut, SeatOut
from tests.test_views import random_action, random_hand


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


def test_the_summary_and_the_seats_are_written_as_they_are() -> None:
    """``GameSummary`` and ``SeatView`` have the models' fields in their order, so
    orjson writes each record as the dict of those fields (``_AS_THEY_ARE``)."""
    assert game_answers._AS_THEY_ARE
    summary = GameSummary(**{name: _sample(name) for name in GameSummaryOut.model_fields})
    assert _json(summary) == to_json(GameSummaryOut.model_validate(vars(summary)).model_dump())
    assert _json(summary) == summary_out(summary).model_dump_json().encode()
    seat = SeatView(**{name: _sample(name) for name in SeatOut.model_fields})
    assert _json((seat, seat)) == to_json([vars(seat), vars(seat)])


def _sample(name: str) -> Any:
    samples: dict[str, Any] = {
        "host_name": "ann \u00e9",
        "name": "bob",
        "preset": "house",
        "format": GameFormat.CASH,
        "status": GameStatus.RUNNING,
        "payouts": (60, 40),
        "created_at": datetime(2026, 1, 15, 20, 0, 0, 120_000, tzinfo=UTC),
        "last_activity_at": datetime(2026, 1, 15, 21, 0, tzinfo=UTC),
        "leaving": "left",
        "blinds_every_minutes": None,
    }
    if name in samples:
        return samples[name]
    if name.startswith(("pays", "sitting", "waiting", "in_", "folded", "all_in", "cont")):
        return True
    return len(name)


@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_a_hands_players_and_pots_are_the_models_fields(rules_name: str) -> None:
    """``views.hand_view`` (and a seat's, made from it) writes each player's and each
    pot's keys in the models' order: the socket writes them as they are."""
    rng = random.Random(f"keys {rules_name}")
    players, pots = tuple(HandPlayerOut.model_fields), tuple(PotOut.model_fields)
    for _ in range(20):
        hand = random_hand(rng, rules_name)
        while True:
            seen = hand_view(hand, None, equity=True)
            for view in (seen, *(seat_hand_view(seen, hand, s) for s in hand.seats)):
                assert all(tuple(p) == players for p in view["players"])
                assert all(tuple(p) == pots for p in view["pots"])
                assert isinstance(view["board"], list)
            if hand.is_over:
                break
            hand.act(random_action(rng, hand))
