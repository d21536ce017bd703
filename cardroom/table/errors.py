"""What a table refuses, each with a sentence a player can read.

Every refusal leaves the table exactly as it was: commands check everything before
they change anything.
"""

from __future__ import annotations


class TableError(ValueError):
    """A command the table refuses now."""


class InvalidTableConfig(TableError):
    """Options that cannot make a table (seats, buy-in, blinds, schedule, payouts)."""


class SeatUnavailable(TableError):
    """No such seat, the seat is taken, or the table is full."""


class AlreadySeated(TableError):
    """One seat per player per table."""


class NotSeated(TableError):
    """The player has no seat at this table."""


class InsufficientBalance(TableError):
    """The balance does not cover the buy-in (or the rejoin or rebuy amount)."""


class RebuyNotAllowed(TableError):
    """A rebuy outside the rules: not a cash game, or chips left."""


class NotAllowedNow(TableError):
    """A command that does not fit the table's state: before the start, during a
    hand, in a tournament, after the end."""
