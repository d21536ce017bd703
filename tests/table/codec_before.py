"""The table's codec as it was before it was made faster (commit 8ed7bc6), kept to hold
the new one to it: every dict it makes must be the same, key for key and type for
type, and so encode to the same JSON text; every table it reads must be the same.
Nothing here is used outside the tests."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from cardroom.events import EVENT_TYPES, Event
from cardroom.hand import Hand, HandSetup, Street
from cardroom.rules import HOUSE, PRESETS, Format, Rules, RulesError
from cardroom.table import Table, TableConfig, TableStatus
from cardroom.table.blinds import BlindClock, BlindSchedule
from cardroom.table.button import Positions
from cardroom.table.cash import CashOutRecord
from cardroom.table.events import TableEvent
from cardroom.table.seating import Seat

FORMAT_VERSION = 1

_ENUM_OPTIONS: dict[str, Any] = {
    "min_raise": "MinRaise",
    "showdown": "Showdown",
    "chip_unit": "ChipUnit",
    "cash_button": "ButtonRule",
    "tournament_button": "ButtonRule",
    "blind_increase": "BlindIncrease",
}

_HAND_STATE_FIELDS = (
    "seats", "starting_stacks", "stacks", "bets", "contributed", "dead", "folded", "hole",
    "board", "deck", "deck_pos", "to_act", "small_blind_index", "big_blind_index",
    "current_bet", "last_full_raise", "raises", "full_raise_seq", "acted",
    "acted_bet", "acted_seq", "river_aggressor", "ran_out",
)  # fmt: skip


# ----------------------------------------------------------------- the events


def event_to_dict(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = {"type": type(event).__name__}
    for key, value in event._asdict().items():
        data[key] = list(value) if isinstance(value, tuple) else value
    return data


def event_from_dict(data: dict[str, Any]) -> Event:
    fields = dict(data)
    cls = EVENT_TYPES[fields.pop("type")]
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    event: Event = cls(**values)
    return event


def table_event_to_dict(event: TableEvent) -> dict[str, Any]:
    data: dict[str, Any] = {"type": type(event).__name__}
    for field in dataclasses.fields(event):
        data[field.name] = _plain_tuples(getattr(event, field.name))
    return data


def _plain_tuples(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain_tuples(v) for v in value]
    return value


# ------------------------------------------------------------------ the rules


def _rule_options() -> list[str]:
    return [f.name for f in dataclasses.fields(Rules) if f.init]


def rules_to_dict(rules: Rules) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in _rule_options():
        value = getattr(rules, name)
        out[name] = list(value) if isinstance(value, tuple) else value
    return out


def rules_from_dict(data: dict[str, Any]) -> Rules:
    import cardroom.rules as r

    base = PRESETS.get(str(data.get("name", "")), HOUSE)
    fields = set(_rule_options())
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key not in fields:
            raise RulesError(f"Unknown rule option: {key}.")
        enum = getattr(r, _ENUM_OPTIONS[key]) if key in _ENUM_OPTIONS else None
        if enum is not None and value is not None:
            try:
                values[key] = enum(value)
            except ValueError:
                allowed = ", ".join(m.value for m in enum)
                raise RulesError(f"{value!r} is not a value of {key} (use {allowed}).") from None
        elif key == "formats":
            values[key] = tuple(Format(v) for v in value)
        else:
            values[key] = value
    return dataclasses.replace(base, **values)


def config_to_dict(config: TableConfig) -> dict[str, Any]:
    return {
        "format": config.format.value,
        "rules": rules_to_dict(config.rules),
        "seat_count": config.seat_count,
        "buy_in": config.buy_in,
        "small_blind": config.small_blind,
        "big_blind": config.big_blind,
        "schedule": config.schedule.to_dict(),
        "payouts": list(config.payouts),
    }


def config_from_dict(data: dict[str, Any]) -> TableConfig:
    return TableConfig(
        Format(data["format"]),
        rules_from_dict(data["rules"]),
        data["seat_count"],
        data["buy_in"],
        data["small_blind"],
        data["big_blind"],
        BlindSchedule.from_dict(data["schedule"]),
        tuple(data["payouts"]),
    )


# ------------------------------------------------------------------- the hand


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def hand_to_dict(hand: Hand) -> dict[str, Any]:
    data: dict[str, Any] = {name: _plain(getattr(hand, name)) for name in _HAND_STATE_FIELDS}
    data["street"] = int(hand.street)
    data["rules"] = rules_to_dict(hand.rules)
    data["setup"] = {
        "seats": list(hand.setup.seats),
        "stacks": list(hand.setup.stacks),
        "button_seat": hand.setup.button_seat,
        "small_blind_seat": hand.setup.small_blind_seat,
        "big_blind_seat": hand.setup.big_blind_seat,
        "small_blind": hand.setup.small_blind,
        "big_blind": hand.setup.big_blind,
        "ante": hand.setup.ante,
        "big_blind_ante": hand.setup.big_blind_ante,
    }
    data["events"] = [event_to_dict(e) for e in hand.events]
    return data


def hand_from_dict(data: dict[str, Any]) -> Hand:
    hand = Hand.__new__(Hand)
    hand.rules = rules_from_dict(data["rules"])
    setup = dict(data["setup"])
    setup["seats"] = tuple(setup["seats"])
    setup["stacks"] = tuple(setup["stacks"])
    hand.setup = HandSetup(**setup)
    for name in _HAND_STATE_FIELDS:
        setattr(hand, name, _plain(data[name]))
    hand.street = Street(data["street"])
    hand.events = [event_from_dict(e) for e in data["events"]]
    hand._count_players()
    return hand


# ------------------------------------------------------------------ the table


def table_to_dict(table: Table) -> dict[str, Any]:
    return {
        "version": FORMAT_VERSION,
        "config": config_to_dict(table.config),
        "status": table.status.value,
        "seats": [table.seats[n].to_dict() for n in sorted(table.seats)],
        "first_button": table.first_button,
        "positions": None if table.positions is None else table.positions.to_dict(),
        "hands_dealt": table.hands_dealt,
        "level": table.level,
        "small_blind": table.small_blind,
        "big_blind": table.big_blind,
        "clock": table.clock.to_dict(),
        "short_of_players": table.short_of_players,
        "held": table.held,
        "hand": None if table.hand is None else hand_to_dict(table.hand),
        "hand_players": [[seat, player] for seat, player in sorted(table.hand_players.items())],
        "settled": sorted(table.settled),
        "cash_outs": [[p, r.to_dict()] for p, r in sorted(table.cash_outs.items())],
        "entrants": table.entrants,
        "prize_pool": table.prize_pool,
        "finishes": [list(f) for f in table.finishes],
        "turn_started_at": table.turn_started_at,
        "hand_ended_at": table.hand_ended_at,
        "continued": sorted(table.continued),
    }


def table_from_dict(data: dict[str, Any]) -> Table:
    if data.get("version") != FORMAT_VERSION:
        raise ValueError(f"Unknown table data version: {data.get('version')!r}.")
    seats = [Seat.from_dict(s) for s in data["seats"]]
    positions = data["positions"]
    hand = data["hand"]
    return Table(
        config=config_from_dict(data["config"]),
        status=TableStatus(data["status"]),
        seats={s.number: s for s in seats},
        first_button=data["first_button"],
        positions=None if positions is None else Positions.from_dict(positions),
        hands_dealt=data["hands_dealt"],
        level=data["level"],
        small_blind=data["small_blind"],
        big_blind=data["big_blind"],
        clock=BlindClock.from_dict(data["clock"]),
        short_of_players=data["short_of_players"],
        held=data["held"],
        hand=None if hand is None else hand_from_dict(hand),
        hand_players={seat: player for seat, player in data["hand_players"]},
        settled=set(data["settled"]),
        cash_outs={p: CashOutRecord.from_dict(r) for p, r in data["cash_outs"]},
        entrants=data["entrants"],
        prize_pool=data["prize_pool"],
        finishes=[(p, place) for p, place in data["finishes"]],
        turn_started_at=data["turn_started_at"],
        hand_ended_at=data["hand_ended_at"],
        continued=set(data["continued"]),
    )


# ------------------------------------------------------------- the comparison


def same(a: Any, b: Any, where: str = "") -> None:
    """Equal and of the same types all the way down, dicts' keys in the same order
    (``==`` takes 1 for True and 1.0, and ignores the order of keys)."""
    assert type(a) is type(b), (where, a, b)
    if isinstance(a, dict):
        assert list(a) == list(b), (where, list(a), list(b))
        for key in a:
            same(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, list | tuple):
        assert len(a) == len(b), (where, a, b)
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, f"{where}[{i}]")
    elif isinstance(a, float) and math.isnan(a):
        assert math.isnan(b), where
    else:
        assert a == b, (where, a, b)
