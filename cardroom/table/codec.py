"""A table as plain JSON-able data and back (the hand included, with its events)."""

from __future__ import annotations

from typing import Any

from cardroom.hand import Hand
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
    return {
        "version": FORMAT_VERSION,
        "config": table.config.to_dict(),
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
        "hand": None if table.hand is None else table.hand.to_dict(),
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
