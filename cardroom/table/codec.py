"""A table as plain JSON-able data and back (the hand included, with its events)."""

from __future__ import annotations

from typing import Any

import orjson

from cardroom.hand import JSON_OPTIONS, Hand, kept_json
from cardroom.table.blinds import BlindClock
from cardroom.table.button import Positions
from cardroom.table.cash import CashOutRecord
from cardroom.table.config import TableConfig
from cardroom.table.seating import Seat
from cardroom.table.status import TableStatus
from cardroom.table.table import Table

FORMAT_VERSION = 1


def table_to_dict(table: Table) -> dict[str, Any]:
    """The table as plain data, a snapshot: what the table does next does not reach
    it. Its hand's part shares with the hand's other snapshots what never changes
    (``Hand.to_dict``: the setup, each event's dict): read it or encode it, never
    change it."""
    hand = table.hand
    return _fields(table, table.config.to_dict(), None if hand is None else hand.to_dict())


def table_json(table: Table) -> dict[str, Any] | orjson.Fragment:
    """The table as the database's JSON column stores it, for a save: its JSON text
    (``Fragment``, which the column's orjson writes as it is), the same bytes as
    ``table_to_dict``'s data written by the column (``cardroom.store.json_text``), but
    written with the parts that did not change since the last save written once: the
    table's config (``_config_json``) and the hand's rules, setup, deck and events
    (``Hand.json_dict``). If orjson refuses a part (a whole number past 64 bits, a
    key that is not a string), ``table_to_dict``'s data, for the column to write as it
    always has."""
    hand = table.hand
    try:
        fields = _fields(
            table, _config_json(table.config), None if hand is None else hand.json_dict()
        )
        return orjson.Fragment(orjson.dumps(fields, option=JSON_OPTIONS))
    except orjson.JSONEncodeError:
        return table_to_dict(table)


def hand_json(hand: Hand) -> dict[str, Any] | orjson.Fragment:
    """A hand as the database's JSON column stores it (the final state a finished
    hand's row keeps): its JSON text, the same bytes as ``Hand.to_dict``'s data
    written by the column, written from what ``Hand.json_dict`` keeps (the rules,
    setup, deck and events' texts, which the save's ``table_json`` writes as well)
    rather than from a fresh copy of every list and event. ``to_dict``'s data if
    orjson refuses a part, as ``table_json``."""
    try:
        return orjson.Fragment(orjson.dumps(hand.json_dict(), option=JSON_OPTIONS))
    except orjson.JSONEncodeError:
        return hand.to_dict()


def _fields(table: Table, config: object, hand: object) -> dict[str, Any]:
    """The table's fields in the stored order, with its config's and its hand's part
    as the caller made them (plain data, or text written before)."""
    return {
        "version": FORMAT_VERSION,
        "config": config,
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
        "hand": hand,
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


# Each config's JSON text, by the config's identity (the config itself kept with it,
# so that its id is not another's), for as many tables as a process plays: a table's
# config never changes (a frozen dataclass whose parts are too), and a third of its
# state's text is its config.
_CONFIG_JSON: dict[int, tuple[TableConfig, orjson.Fragment]] = {}
_CONFIG_JSON_MAX = 4096


def _config_json(config: TableConfig) -> orjson.Fragment:
    found = _CONFIG_JSON.get(id(config))
    if found is not None and found[0] is config:
        return found[1]
    text = orjson.Fragment(kept_json(config.to_dict()))
    if len(_CONFIG_JSON) >= _CONFIG_JSON_MAX:
        _CONFIG_JSON.clear()  # one step, safe beside another thread reading
    _CONFIG_JSON[id(config)] = (config, text)
    return text


def table_from_dict(data: dict[str, Any]) -> Table:
    if data.get("version") != FORMAT_VERSION:
        raise ValueError(f"Unknown table data version: {data.get('version')!r}.")
    seats = [Seat.from_dict(s) for s in data["seats"]]
    positions = data["positions"]
    hand = data["hand"]
    return Table(
        config=TableConfig.from_dict(data["config"]),
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
        hand=None if hand is None else Hand.from_dict(hand),
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
