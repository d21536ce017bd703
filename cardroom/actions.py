"""What a player may do: the action vocabulary, the legal-action query's answer, and
the errors an illegal action raises (each with a sentence a player can read)."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"  # amount: the total bet for the round
    RAISE = "raise"  # amount: the total to raise to
    ALL_IN = "all_in"


class Action(NamedTuple):
    kind: ActionKind
    amount: int | None = None  # for bet and raise: the player's total bet in the round

    @classmethod
    def fold(cls) -> Action:
        return cls(ActionKind.FOLD)

    @classmethod
    def check(cls) -> Action:
        return cls(ActionKind.CHECK)

    @classmethod
    def call(cls) -> Action:
        return cls(ActionKind.CALL)

    @classmethod
    def bet(cls, to: int) -> Action:
        return cls(ActionKind.BET, to)

    @classmethod
    def raise_to(cls, to: int) -> Action:
        return cls(ActionKind.RAISE, to)

    @classmethod
    def all_in(cls) -> Action:
        return cls(ActionKind.ALL_IN)


class LegalActions(NamedTuple):
    """The answer to "what may the player to act do?".

    ``min_to``/``max_to`` bound the total bet of a bet or raise (both 0 when neither
    is allowed); a bet or raise of the player's whole stack may be below ``min_to``
    only as an all-in, which is why ``all_in_to`` is given apart.
    """

    seat: int
    stack: int
    bet: int  # already in front of the player this round
    to_call: int  # chips needed to call; 0 means a check is free
    can_fold: bool
    can_check: bool
    can_call: bool
    call_amount: int  # chips a call puts in (less than to_call when it is all-in)
    can_bet: bool
    can_raise: bool
    min_to: int
    max_to: int
    can_all_in: bool
    all_in_to: int

    def kinds(self) -> list[ActionKind]:
        out = []
        if self.can_fold:
            out.append(ActionKind.FOLD)
        if self.can_check:
            out.append(ActionKind.CHECK)
        if self.can_call:
            out.append(ActionKind.CALL)
        if self.can_bet:
            out.append(ActionKind.BET)
        if self.can_raise:
            out.append(ActionKind.RAISE)
        if self.can_all_in:
            out.append(ActionKind.ALL_IN)
        return out


class IllegalAction(ValueError):
    """An action the rules do not allow now."""


class HandIsOver(IllegalAction):
    pass


class NotYourTurn(IllegalAction):
    pass


class ActionNotAllowed(IllegalAction):
    pass


class AmountOutOfRange(IllegalAction):
    pass
