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


# The kinds read once, as module names: in Python 3.11 a member read off its class
# (``ActionKind.CHECK``) goes through the enum metaclass's attribute hook, about a
# thousand instructions (callgrind); the room lists the legal kinds at every turn.
_FOLD, _CHECK, _CALL = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL
_BET, _RAISE, _ALL_IN = ActionKind.BET, ActionKind.RAISE, ActionKind.ALL_IN


class Action(NamedTuple):
    kind: ActionKind
    amount: int | None = None  # for bet and raise: the player's total bet in the round

    @classmethod
    def fold(cls) -> Action:
        return cls(_FOLD)

    @classmethod
    def check(cls) -> Action:
        return cls(_CHECK)

    @classmethod
    def call(cls) -> Action:
        return cls(_CALL)

    @classmethod
    def bet(cls, to: int) -> Action:
        return cls(_BET, to)

    @classmethod
    def raise_to(cls, to: int) -> Action:
        return cls(_RAISE, to)

    @classmethod
    def all_in(cls) -> Action:
        return cls(_ALL_IN)


class LegalActions(NamedTuple):
    """The engine's own answer to "what may the player to act do?", read on every
    action by the room and the simulator; callers from outside use ``AllowedActions``.

    ``to_call`` is the bet to match less the player's bet, even when it is more than
    the stack (``call_amount`` is what a call puts in). ``min_to``/``max_to`` bound
    the total bet of a bet or raise (both 0 when neither is allowed); a bet or raise
    of the player's whole stack may be below ``min_to`` only as an all-in, which is
    why ``all_in_to`` is given apart.
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
            out.append(_FOLD)
        if self.can_check:
            out.append(_CHECK)
        if self.can_call:
            out.append(_CALL)
        if self.can_bet:
            out.append(_BET)
        if self.can_raise:
            out.append(_RAISE)
        if self.can_all_in:
            out.append(_ALL_IN)
        return out


class BetRange(NamedTuple):
    """The totals a bet or raise may make this round, both ends allowed. When the
    player has fewer chips than a full bet or raise, both are their all-in total."""

    min_to: int
    max_to: int

    def __contains__(self, to: object) -> bool:
        return type(to) is int and self.min_to <= to <= self.max_to


class AllowedActions(NamedTuple):
    """What the player to act may do and for how much, in table seats and chips.

    Each action that is not allowed is ``False`` or ``None``, never a zero that could
    pass for an amount. ``action in allowed`` says whether ``Hand.act`` would accept
    ``action`` (as python-chess's ``move in board.legal_moves``).
    """

    seat: int  # the table seat of the player to act
    stack: int  # chips behind
    bet: int  # chips already in front of the player this round
    to_call: int  # chips a call puts in, at most the stack; 0 when nothing is to call
    can_fold: bool  # False while checking is free
    can_check: bool
    can_call: bool
    bet_to: BetRange | None  # None: no bet allowed (there is a bet to face, or no chips)
    raise_to: BetRange | None  # None: no raise allowed
    all_in_to: int | None  # the total bet an all-in makes; None: not allowed

    @classmethod
    def of(cls, legal: LegalActions) -> AllowedActions:
        sizes = BetRange(legal.min_to, legal.max_to)
        return cls(
            legal.seat,
            legal.stack,
            legal.bet,
            legal.call_amount if legal.can_call else 0,
            legal.can_fold,
            legal.can_check,
            legal.can_call,
            sizes if legal.can_bet else None,
            sizes if legal.can_raise else None,
            legal.all_in_to if legal.can_all_in else None,
        )

    @property
    def kinds(self) -> tuple[ActionKind, ...]:
        """The kinds of action allowed, in the order fold, check, call, bet, raise,
        all in."""
        allowed = (
            self.can_fold,
            self.can_check,
            self.can_call,
            self.bet_to is not None,
            self.raise_to is not None,
            self.all_in_to is not None,
        )
        return tuple(kind for kind, yes in zip(ActionKind, allowed, strict=True) if yes)

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Action):
            return False
        try:
            kind = ActionKind(action.kind)
        except ValueError:
            return False
        if kind is _FOLD:
            return self.can_fold
        if kind is _CHECK:
            return self.can_check
        if kind is _CALL:
            return self.can_call
        if kind is _ALL_IN:
            return self.all_in_to is not None
        sizes = self.bet_to if kind is _BET else self.raise_to
        return sizes is not None and action.amount in sizes


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


class BettingNotReopened(ActionNotAllowed):
    """A raise by a player who already acted, after an all-in that was short of a full
    raise (or, where short all-ins add up, several that together are short of one)."""


class RaiseCapReached(ActionNotAllowed):
    """A full raise after the round's last allowed raise (``house``'s raise cap)."""
