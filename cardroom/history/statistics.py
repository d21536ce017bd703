"""A player's statistics over their own finished hands: records in, figures out.

The figures are the usual tracker ones (docs/statistics.md says each in full):
hands played, VPIP, PFR, three-bet, went to showdown (WTSD), won at showdown (W$SD),
the net result, and the running result hand by hand for the graph.

Privacy by construction: a hand enters as a ``SeenHand``, the hand as the player
saw it, made by ``seen_by``. It keeps the seats, the starting stacks and the events
*except* every hole card dealt, so nothing here can read a card the player did not
see. None of the figures needs a card anyway: they are read from the actions, the
streets dealt, who reached the showdown and who took the pots; the cards shown at a
showdown (which everyone saw) stay in the events but are not read either.

>>> from cardroom.actions import Action
>>> from cardroom.hand import Hand, HandSetup
>>> from cardroom.rules import STANDARD
>>> hand = Hand.start(STANDARD, HandSetup.simple([1000, 1000], 5, 10), list(range(52)))
>>> hand.act(Action.raise_to(30))  # the button (seat 2) raises; the big blind folds
>>> hand.act(Action.fold())
>>> figures = statistics([seen_by(hand, 2, hand_id=1, game_id=1, pays_money=True)])
>>> figures.overall.hands, figures.overall.vpip.count, figures.overall.pfr.count
(1, 1, 1)
>>> figures.overall.net_chips
10
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cardroom.events import (
    BlindPosted,
    BoardDealt,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HoleCardDealt,
    PlayerActed,
    PotAwarded,
)
from cardroom.hand import Hand

_VOLUNTARY = ("call", "bet", "raise")
_RAISES = ("bet", "raise")


@dataclass(frozen=True, slots=True)
class SeenHand:
    """One finished hand as the player in ``seat`` saw it: no hole card in it (not
    even their own: no figure needs one)."""

    hand_id: int
    game_id: int
    seat: int
    pays_money: bool  # one chip is one cent; False: an arena table's points
    seats: tuple[int, ...]  # dealing order, the button last
    starting_stacks: tuple[int, ...]  # in ``seats`` order
    events: tuple[Event, ...]  # the hand's events without any HoleCardDealt


def seen_by(hand: Hand, seat: int, *, hand_id: int, game_id: int, pays_money: bool) -> SeenHand:
    """The finished ``hand`` as the player in ``seat`` saw it, for ``statistics``."""
    if seat not in hand.seats:
        raise ValueError(f"Seat {seat} was not dealt into hand {hand_id}.")
    if not hand.is_over:
        raise ValueError(f"Hand {hand_id} is not over: it has no statistics yet.")
    return SeenHand(
        hand_id=hand_id,
        game_id=game_id,
        seat=seat,
        pays_money=pays_money,
        seats=tuple(hand.seats),
        starting_stacks=tuple(hand.starting_stacks),
        events=tuple(e for e in hand.events if not isinstance(e, HoleCardDealt)),
    )


@dataclass(frozen=True, slots=True)
class HandFigures:
    """What one hand adds to the player's figures."""

    hand_id: int
    game_id: int
    pays_money: bool
    acted_preflop: bool  # had a decision pre-flop: the denominator of VPIP and PFR
    vpip: bool  # called, bet or raised pre-flop
    pfr: bool  # bet or raised pre-flop
    three_bet_chance: bool  # faced exactly one raise pre-flop and could raise
    three_bet: bool  # made the second raise pre-flop
    saw_flop: bool  # had not folded when the flop was dealt
    showdown: bool  # their hand was shown or mucked at the showdown
    won_at_showdown: bool  # took a share of a pot contested at the showdown
    net: int  # finishing stack minus starting stack, in chips


def hand_figures(hand: SeenHand) -> HandFigures:
    """The figures of one hand for its player (docs/statistics.md)."""
    me = hand.seat
    index = hand.seats.index(me)
    behind = dict(zip(hand.seats, hand.starting_stacks, strict=True))  # chips not yet in
    bets = dict.fromkeys(hand.seats, 0)  # this round's bets (blinds are bets, antes not)
    folded: set[int] = set()
    preflop = True
    raises = 0
    acted = vpip = pfr = chance = three_bet = saw_flop = showdown = won = False
    final: tuple[int, ...] | None = None
    for event in hand.events:
        if isinstance(event, BlindPosted):
            behind[event.seat] -= event.amount
            if event.blind != "ante":
                bets[event.seat] += event.amount
        elif isinstance(event, PlayerActed):
            if preflop and event.seat == me:
                acted = True
                to_call = max(bets.values()) - bets[me]
                others_have_chips = any(
                    behind[s] > 0 for s in hand.seats if s != me and s not in folded
                )
                if raises == 1 and behind[me] > to_call and others_have_chips:
                    chance = True
                if event.action in _VOLUNTARY:
                    vpip = True
                if event.action in _RAISES:
                    pfr = True
                    if raises == 1:
                        three_bet = True
            if preflop and event.action in _RAISES:
                raises += 1
            behind[event.seat] -= event.amount
            bets[event.seat] = event.bet
            if event.action == "fold":
                folded.add(event.seat)
        elif isinstance(event, BoardDealt):
            if event.street == "flop":
                preflop = False
                saw_flop = me not in folded
            bets = dict.fromkeys(hand.seats, 0)
        elif isinstance(event, HandShown | HandMucked):
            if event.seat == me:
                showdown = True
        elif isinstance(event, PotAwarded):
            # A pot with a hand name was contested at the showdown; one won by folds,
            # or a side pot only its owner could win, has none.
            if event.hand_name and me in event.winners:
                won = True
        elif isinstance(event, HandEnded):
            final = event.stacks
    if final is None:
        raise ValueError(f"Hand {hand.hand_id} has not ended: it has no statistics.")
    return HandFigures(
        hand_id=hand.hand_id,
        game_id=hand.game_id,
        pays_money=hand.pays_money,
        acted_preflop=acted,
        vpip=vpip,
        pfr=pfr,
        three_bet_chance=chance,
        three_bet=three_bet,
        saw_flop=saw_flop,
        showdown=showdown,
        won_at_showdown=showdown and won,
        net=final[index] - hand.starting_stacks[index],
    )


@dataclass(frozen=True, slots=True)
class Ratio:
    """``count`` times out of ``chances``; ``percent`` is None without a chance."""

    count: int
    chances: int

    @property
    def percent(self) -> float | None:
        if not self.chances:
            return None
        return round(100 * self.count / self.chances, 1)


@dataclass(frozen=True, slots=True)
class Figures:
    """The figures over a set of hands."""

    hands: int
    vpip: Ratio
    pfr: Ratio
    three_bet: Ratio
    wtsd: Ratio  # of hands that saw the flop, went to showdown
    wsd: Ratio  # of showdowns, won at showdown (W$SD)
    net_chips: int  # over every hand, money and points alike
    net_cents: int  # over the hands played for money only (one chip is one cent)


def figures_of(hands: Sequence[HandFigures]) -> Figures:
    """The figures over ``hands``."""

    def count(flag: str) -> int:
        return sum(1 for h in hands if getattr(h, flag))

    return Figures(
        hands=len(hands),
        vpip=Ratio(count("vpip"), count("acted_preflop")),
        pfr=Ratio(count("pfr"), count("acted_preflop")),
        three_bet=Ratio(count("three_bet"), count("three_bet_chance")),
        wtsd=Ratio(sum(1 for h in hands if h.saw_flop and h.showdown), count("saw_flop")),
        wsd=Ratio(count("won_at_showdown"), count("showdown")),
        net_chips=sum(h.net for h in hands),
        net_cents=sum(h.net for h in hands if h.pays_money),
    )


@dataclass(frozen=True, slots=True)
class GraphPoint:
    """The running result after one hand: the graph's y over the hand count."""

    hand_id: int
    game_id: int
    net: int  # this hand's result
    total: int  # the running sum up to and including this hand


@dataclass(frozen=True, slots=True)
class GameFigures:
    game_id: int
    pays_money: bool
    figures: Figures


@dataclass(frozen=True, slots=True)
class Statistics:
    overall: Figures
    games: tuple[GameFigures, ...]  # the game with the latest hand first
    graph: tuple[GraphPoint, ...]  # oldest hand first


def statistics(hands: Iterable[SeenHand]) -> Statistics:
    """The player's figures over ``hands``, over all and per game, and the running
    result hand by hand (hands in the order given: oldest first)."""
    each = [hand_figures(h) for h in hands]
    by_game: dict[int, list[HandFigures]] = {}
    for h in each:
        by_game.setdefault(h.game_id, []).append(h)
    latest = sorted(by_game, key=lambda g: max(h.hand_id for h in by_game[g]), reverse=True)
    graph = []
    total = 0
    for h in each:
        total += h.net
        graph.append(GraphPoint(h.hand_id, h.game_id, h.net, total))
    return Statistics(
        overall=figures_of(each),
        games=tuple(
            GameFigures(g, by_game[g][0].pays_money, figures_of(by_game[g])) for g in latest
        ),
        graph=tuple(graph),
    )
