"""What a seat may see when it is its turn: the only input a bot gets.

A ``SeatView`` holds the seat's own two hole cards and the public state of the hand
(board, stacks, bets, pot, positions, the legal actions and the public action
history). It has no field that could hold another player's hole cards, so a bot
cannot peek even by mistake: ``tests/bots/test_view.py`` checks the fields, and that
two hands differing only in the other players' cards give equal views.

``view_for(hand, seat)`` builds the view from an engine ``Hand``; a caller that keeps
its own per-viewer state can build a ``SeatView`` directly.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardroom.actions import LegalActions, NotYourTurn
from cardroom.events import BlindPosted, BoardDealt, PlayerActed
from cardroom.hand import Hand

__all__ = ["PlayerView", "PublicAction", "SeatView", "view_for"]

PREFLOP, FLOP, TURN, RIVER = 0, 1, 2, 3
_STREETS = {"flop": FLOP, "turn": TURN, "river": RIVER}


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One player as everyone at the table sees them."""

    seat: int
    stack: int  # chips behind
    bet: int  # chips in front of them in this betting round
    put_in: int  # every chip they have put in this hand
    folded: bool

    @property
    def all_in(self) -> bool:
        return self.stack == 0 and not self.folded

    @property
    def can_act(self) -> bool:
        """Still in with chips behind: may yet bet, call or fold."""
        return self.stack > 0 and not self.folded


@dataclass(frozen=True, slots=True)
class PublicAction:
    """One public step of the betting: a blind or an action."""

    street: int  # 0 pre-flop, 1 flop, 2 turn, 3 river
    seat: int
    action: str  # small_blind, big_blind, ante, fold, check, call, bet, raise
    amount: int  # chips put in by this step
    to: int  # the player's total bet in the round after it
    all_in: bool


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything one seat may know when it is to act."""

    seat: int
    hole: tuple[int, int]  # this seat's own cards, and no one else's
    board: tuple[int, ...]
    street: int  # 0 pre-flop, 1 flop, 2 turn, 3 river
    players: tuple[PlayerView, ...]  # in dealing order: the button, if dealt in, is last
    button_seat: int
    small_blind: int
    big_blind: int
    legal: LegalActions
    history: tuple[PublicAction, ...]

    @property
    def me(self) -> PlayerView:
        return self.players[self.index]

    @property
    def index(self) -> int:
        """This seat's place in dealing order."""
        for i, player in enumerate(self.players):
            if player.seat == self.seat:
                return i
        raise ValueError(f"Seat {self.seat} is not in this hand.")

    @property
    def pot(self) -> int:
        """Every chip put in this hand, bets in front of players included."""
        return sum(p.put_in for p in self.players)

    @property
    def opponents(self) -> tuple[PlayerView, ...]:
        """The other players still in the hand (all-in ones included)."""
        return tuple(p for p in self.players if p.seat != self.seat and not p.folded)


def view_for(hand: Hand, seat: int) -> SeatView:
    """The view of ``seat``, which must be the seat to act, of an engine hand."""
    if hand.seat_to_act != seat:
        raise NotYourTurn(f"It is not seat {seat}'s turn.")
    i = hand.index_of(seat)
    players = tuple(
        PlayerView(s, hand.stacks[k], hand.bets[k], hand.contributed[k], hand.folded[k])
        for k, s in enumerate(hand.seats)
    )
    history: list[PublicAction] = []
    street = PREFLOP
    for event in hand.events:
        kind = type(event)
        if kind is PlayerActed:
            assert isinstance(event, PlayerActed)
            history.append(
                PublicAction(
                    street, event.seat, event.action, event.amount, event.bet, event.all_in
                )
            )
        elif kind is BlindPosted:
            assert isinstance(event, BlindPosted)
            to = 0 if event.blind == "ante" else event.amount
            history.append(
                PublicAction(street, event.seat, event.blind, event.amount, to, event.all_in)
            )
        elif kind is BoardDealt:
            assert isinstance(event, BoardDealt)
            street = _STREETS[event.street]
    own = hand.hole[i]
    return SeatView(
        seat=seat,
        hole=(own[0], own[1]),
        board=tuple(hand.board),
        street=int(hand.street),
        players=players,
        button_seat=hand.setup.button_seat,
        small_blind=hand.setup.small_blind,
        big_blind=hand.setup.big_blind,
        legal=hand.legal_actions(),
        history=tuple(history),
    )
