"""Small helpers to write worked examples of hands as tests."""

from __future__ import annotations

from collections.abc import Sequence

from cardroom.actions import Action
from cardroom.cards import parse_cards
from cardroom.hand import Hand, HandSetup, arrange_deck
from cardroom.rules import Rules, preset


def deal(
    stacks: Sequence[int],
    blinds: tuple[int, int] = (50, 100),
    *,
    rules: Rules | str = "house",
    hole: Sequence[str | None] | None = None,
    board: str = "",
    ante: int = 0,
    big_blind_ante: bool = False,
    setup: HandSetup | None = None,
) -> Hand:
    """A hand in PHH seat order (seat 1 small blind, the last seat the button;
    heads-up seat 1 is the big blind) with the given hole cards and board."""
    r = preset(rules) if isinstance(rules, str) else rules
    if setup is None:
        setup = HandSetup.simple(stacks, blinds[0], blinds[1], ante, big_blind_ante)
    n = len(setup.seats)
    cards = [parse_cards(h) if h else None for h in (hole or [None] * n)]
    deck = arrange_deck(cards, parse_cards(board))
    return Hand.start(r, setup, deck)


def act(hand: Hand, *moves: str) -> Hand:
    """Moves: f fold, x check, c call, a all-in, bN bet to N, rN raise to N."""
    for move in moves:
        code, amount = move[0], move[1:]
        if code == "f":
            hand.act(Action.fold())
        elif code == "x":
            hand.act(Action.check())
        elif code == "c":
            hand.act(Action.call())
        elif code == "a":
            hand.act(Action.all_in())
        elif code == "b":
            hand.act(Action.bet(int(amount)))
        elif code == "r":
            hand.act(Action.raise_to(int(amount)))
        else:
            raise ValueError(move)
    return hand
