"""Tables and game formats: what happens between and around hands.

Pure and deterministic: no I/O, no clock, no random numbers of its own. The time, the
deck, random sources and balances come in as arguments; what happened comes out as
``TableEvent`` records. See ``docs/tables.md`` for every rule decided here.
"""

from __future__ import annotations

from cardroom.table.blinds import BlindSchedule, blinds_at_level, raise_blinds
from cardroom.table.button import Positions, next_positions
from cardroom.table.codec import table_from_dict, table_to_dict
from cardroom.table.config import TableConfig
from cardroom.table.errors import (
    AlreadySeated,
    InsufficientBalance,
    InvalidTableConfig,
    NotAllowedNow,
    NotSeated,
    RebuyNotAllowed,
    SeatUnavailable,
    TableError,
)
from cardroom.table.events import PlayerId, TableEvent, balance_changes
from cardroom.table.seating import Seat
from cardroom.table.status import TableStatus
from cardroom.table.table import HandPlan, Table

__all__ = [
    "AlreadySeated",
    "BlindSchedule",
    "HandPlan",
    "InsufficientBalance",
    "InvalidTableConfig",
    "NotAllowedNow",
    "NotSeated",
    "PlayerId",
    "Positions",
    "RebuyNotAllowed",
    "Seat",
    "SeatUnavailable",
    "Table",
    "TableConfig",
    "TableError",
    "TableEvent",
    "TableStatus",
    "balance_changes",
    "blinds_at_level",
    "next_positions",
    "raise_blinds",
    "table_from_dict",
    "table_to_dict",
]
