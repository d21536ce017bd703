"""What the game use cases refuse, each a ``ServiceError`` with a sentence a player can
read, so the web layer picks the HTTP status from the base class (``Conflict`` 409,
``Forbidden`` 403, ``NotFound`` 404, ``InvalidInput`` 422, ``InsufficientBalance``
409). A refused use case has changed nothing: its transaction is rolled back.

The table and the hand engine refuse with their own ``ValueError`` subclasses;
``translated`` turns each into the matching class here, keeping its sentence.
"""

from __future__ import annotations

import re

from cardroom import actions
from cardroom.rules import RulesError
from cardroom.service.errors import (
    Conflict,
    Forbidden,
    InsufficientBalance,
    InvalidInput,
    NotFound,
    ServiceError,
)
from cardroom.table import errors as table_errors


class GameNotFound(NotFound):
    """No game with that number."""


class InvalidGameOptions(InvalidInput):
    """Options that cannot make a game: a buy-in under $1.00, 11 seats, odd blinds."""


class StaleVersion(Conflict):
    """The request was made against an older version of the table."""

    def __init__(self, sentence: str, *, expected: int, current: int) -> None:
        super().__init__(sentence)
        self.expected = expected
        self.current = current


class IdempotencyKeyReused(Conflict):
    """The same idempotency key was sent with a different request."""


class TooManyWaitingGames(Conflict):
    """A fourth game waiting to start."""


class NotHostOrAdmin(Forbidden):
    """Only the host of the game (or an admin) may do this."""


class SeatUnavailable(Conflict):
    """No such seat, the seat is taken, or the table is full."""


class AlreadySeated(Conflict):
    """One seat per player per table."""


class NotSeated(Conflict):
    """The player has no seat at this table."""


class RebuyNotAllowed(Conflict):
    """A rebuy outside the rules: not a cash game, or chips left."""


class NotAllowedNow(Conflict):
    """A command that does not fit the game's state now."""


class IllegalAction(Conflict):
    """An action the hand does not allow now (the engine's refusal)."""


class NotYourTurn(IllegalAction):
    pass


class ActionNotAllowed(IllegalAction):
    pass


class AmountOutOfRange(IllegalAction):
    pass


class HandIsOver(IllegalAction):
    pass


_TABLE_ERRORS: tuple[tuple[type[ValueError], type[ServiceError]], ...] = (
    (table_errors.InvalidTableConfig, InvalidGameOptions),
    (table_errors.SeatUnavailable, SeatUnavailable),
    (table_errors.AlreadySeated, AlreadySeated),
    (table_errors.NotSeated, NotSeated),
    (table_errors.RebuyNotAllowed, RebuyNotAllowed),
    (table_errors.NotAllowedNow, NotAllowedNow),
    (actions.NotYourTurn, NotYourTurn),
    (actions.AmountOutOfRange, AmountOutOfRange),
    (actions.HandIsOver, HandIsOver),
    (actions.ActionNotAllowed, ActionNotAllowed),
    (actions.IllegalAction, IllegalAction),
    (RulesError, InvalidGameOptions),
)

_CENTS = re.compile(r"\$([\d,]+)\.(\d\d)")


def translated(error: ValueError) -> ServiceError:
    """The service refusal for a table, engine or rules refusal (same sentence)."""
    sentence = str(error)
    if isinstance(error, table_errors.InsufficientBalance):
        # "A seat at this table costs $10.00 and your balance is $4.00."
        amounts = [int(d.replace(",", "") + c) for d, c in _CENTS.findall(sentence)]
        cost, balance = [*amounts, 0, 0][:2]
        return InsufficientBalance(sentence, balance_cents=balance, amount_cents=cost)
    for source, target in _TABLE_ERRORS:
        if isinstance(error, source):
            return target(sentence)
    # Anything else (a TableError about a missing balance, a SetupError about a bad
    # deck) is a call the service should never make: a bug, not a player's mistake.
    raise error
