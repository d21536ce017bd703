"""Opponents and a match runner for the bot tests.

``CallingStation`` never folds and never raises; ``RandomPlayer`` picks among the
legal actions at random (the same mix as ``cardroom simulate``). ``duplicate_match``
plays every deal twice heads-up with the seats swapped, so that both players get
both hands of every deal and the luck of the cards largely cancels out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from cardroom.actions import Action, ActionKind
from cardroom.bots.policy import Bot
from cardroom.bots.view import SeatView, view_for
from cardroom.deck import RandomSource, SeededRandomSource, shuffled_deck
from cardroom.hand import Hand, HandSetup
from cardroom.rules import preset


class Player(Protocol):
    def act(self, view: SeatView) -> Action: ...


class CallingStation:
    def act(self, view: SeatView) -> Action:
        return Action.check() if view.legal.can_check else Action.call()


class RandomPlayer:
    """Facing a bet: fold 40 %, call 37 %, min-raise 11 %, random raise 7 %, all in
    5 %; free to check: check 60 %, min bet 22 %, random bet 13 %, all in 5 %."""

    def __init__(self, source: RandomSource) -> None:
        self.source = source

    def act(self, view: SeatView) -> Action:
        legal = view.legal
        u = self.source.randbelow(100)
        may_raise = legal.can_bet or legal.can_raise
        kind = ActionKind.BET if legal.can_bet else ActionKind.RAISE
        if legal.can_check:
            if u < 60 or not may_raise:
                return Action.check()
            u = u - 60 + 40  # the raising part of the table below, rescaled
        elif u < 40:
            return Action.fold()
        elif u < 77 or not may_raise:
            return Action.call()
        if u < 88:
            return Action(kind, legal.min_to)
        if u < 95:
            return Action(
                kind, legal.min_to + self.source.randbelow(legal.max_to - legal.min_to + 1)
            )
        return Action.all_in()


@dataclass
class Tally:
    """Chips won over a match by the first player, and the hands played."""

    chips: int = 0
    hands: int = 0


def play(hand: Hand, players: Mapping[int, Player]) -> dict[int, int]:
    """Play a started hand to its end; each seat's chips won (or lost)."""
    while not hand.is_over:
        seat = hand.seat_to_act
        assert seat is not None
        hand.act(players[seat].act(view_for(hand, seat)), seat)
    start = dict(zip(hand.setup.seats, hand.setup.stacks, strict=True))
    return {seat: stack - start[seat] for seat, stack in hand.final_stacks_by_seat().items()}


def duplicate_match(
    first: Player, second: Player, deals: int, seed: str, stack: int = 10_000
) -> Tally:
    """Heads-up, blinds 50/100, ``stack`` each at the start of every hand; every deal
    played twice with the seats swapped. Returns the first player's total."""
    rules = preset("house")
    source = SeededRandomSource(seed)
    setup = HandSetup.simple([stack, stack], 50, 100)
    tally = Tally()
    for _ in range(deals):
        deck = shuffled_deck(source)
        for a, b in ((1, 2), (2, 1)):
            result = play(Hand.start(rules, setup, deck), {a: first, b: second})
            tally.chips += result[a]
            tally.hands += 1
    return tally


def bot(level: str, seed: str) -> Bot:
    return Bot(level, SeededRandomSource(seed))
