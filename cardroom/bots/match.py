"""Simple opponents and a duplicate match, to measure the bots (pure, seeded).

``CallingStation`` never folds and never raises; ``RandomPlayer`` picks among the
legal actions at random (the mix of ``cardroom simulate``). Both, like ``Bot``, have
``act(view) -> Action``. ``duplicate_match`` plays every deal twice heads-up with the
seats swapped, so that each player gets both hands of every deal and most of the
luck of the cards cancels out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from cardroom.actions import Action, ActionKind
from cardroom.bots.view import SeatView, view_for
from cardroom.deck import RandomSource, shuffled_deck
from cardroom.hand import Hand, HandSetup
from cardroom.rules import Rules, preset

__all__ = ["CallingStation", "MatchResult", "Player", "RandomPlayer", "duplicate_match", "play"]


class Player(Protocol):
    def act(self, view: SeatView) -> Action: ...


class CallingStation:
    """Checks when it can, calls otherwise."""

    def act(self, view: SeatView) -> Action:
        return Action.check() if view.legal.can_check else Action.call()


class RandomPlayer:
    """Facing a bet: fold 40 %, call 37 %, min-raise 11 %, random raise 7 %, all in
    5 %; free to check: check 60 %, min bet 22 %, random bet 13 %, all in 5 %."""

    def __init__(self, source: RandomSource) -> None:
        self.source = source

    def act(self, view: SeatView) -> Action:
        legal = view.legal
        draw = self.source.randbelow
        u = draw(100)
        may_raise = legal.can_bet or legal.can_raise
        kind = ActionKind.BET if legal.can_bet else ActionKind.RAISE
        if legal.can_check:
            if u < 60 or not may_raise:
                return Action.check()
            size = 0 if u < 82 else 1 if u < 95 else 2
        elif u < 40:
            return Action.fold()
        elif u < 77 or not may_raise:
            return Action.call()
        else:
            size = 0 if u < 88 else 1 if u < 95 else 2
        if size == 0:
            return Action(kind, legal.min_to)
        if size == 1:
            return Action(kind, legal.min_to + draw(legal.max_to - legal.min_to + 1))
        return Action.all_in()


def play(hand: Hand, players: Mapping[int, Player]) -> dict[int, int]:
    """Play a started hand to its end, each seat's player seeing only its view;
    returns each seat's chips won (negative: lost)."""
    while not hand.is_over:
        seat = hand.seat_to_act
        assert seat is not None
        hand.act(players[seat].act(view_for(hand, seat)), seat)
    start = dict(zip(hand.setup.seats, hand.setup.stacks, strict=True))
    return {seat: stack - start[seat] for seat, stack in hand.final_stacks_by_seat().items()}


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The first player's result over a duplicate match."""

    chips: int  # won in total
    hands: int
    big_blind: int
    per_deal_sd: float  # standard deviation of the chips won per deal (two hands)

    @property
    def bb_per_100(self) -> float:
        """Big blinds won per 100 hands."""
        return 100 * self.chips / self.hands / self.big_blind

    @property
    def bb_per_100_error(self) -> float:
        """The standard error of ``bb_per_100``."""
        deals = self.hands // 2
        return 100 * self.per_deal_sd / math.sqrt(deals) / 2 / self.big_blind if deals else 0.0


def duplicate_match(
    first: Player,
    second: Player,
    deals: int,
    source: RandomSource,
    *,
    stack: int = 10_000,
    blinds: tuple[int, int] = (50, 100),
    rules: Rules | None = None,
) -> MatchResult:
    """Heads-up, ``stack`` each at the start of every hand; every deal (drawn from
    ``source``) played twice with the seats swapped."""
    r = rules or preset("house")
    setup = HandSetup.simple([stack, stack], blinds[0], blinds[1])
    per_deal: list[int] = []
    for _ in range(deals):
        deck = shuffled_deck(source)
        won = 0
        for a, b in ((1, 2), (2, 1)):
            won += play(Hand.start(r, setup, deck), {a: first, b: second})[a]
        per_deal.append(won)
    mean = sum(per_deal) / deals if deals else 0.0
    var = sum((w - mean) ** 2 for w in per_deal) / (deals - 1) if deals > 1 else 0.0
    return MatchResult(sum(per_deal), 2 * deals, blinds[1], math.sqrt(var))
