"""A player's statistics, on hands played with the engine whose figures are worked
out by hand in the comments (docs/statistics.md has the definitions).

Every hand is three-handed at 50/100 unless it says otherwise (``tests.handkit``):
seat 1 posts the small blind, seat 2 the big blind, seat 3 holds the button and acts
first pre-flop. Hole cards are given in that order."""

from __future__ import annotations

import pytest

from cardroom.events import HoleCardDealt
from cardroom.hand import Hand
from cardroom.history.statistics import (
    Ratio,
    SeenHand,
    hand_figures,
    seen_by,
    statistics,
)
from tests.handkit import act, deal

STACK = 10_000


def seen(hand: Hand, seat: int, hand_id: int, *, game_id: int = 1, money: bool = True) -> SeenHand:
    return seen_by(hand, seat, hand_id=hand_id, game_id=game_id, pays_money=money)


def three_bet_pot() -> Hand:
    """Seat 3 opens to 300, seat 1 three-bets to 900, seat 2 folds, seat 3 calls; it
    is checked down and seat 1's aces beat seat 3's kings. The pot is 900 + 900 + 100
    (the big blind): seat 1 nets +1000, seat 3 -900, seat 2 -100."""
    hand = deal(
        [STACK] * 3, hole=["AsAh", "7c2d", "KsKh"], board="2c5d9hJsQc"
    )  # no straight, no flush on this board
    return act(hand, "r300", "r900", "f", "c", "x", "x", "x", "x", "x", "x")


def walk() -> Hand:
    """Seat 3 and seat 1 fold: the big blind (seat 2) wins 50 without acting."""
    return act(deal([STACK] * 3), "f", "f")


def limped_pot() -> Hand:
    """Seat 3 limps (calls 100), seat 1 completes, seat 2 checks its option; on the
    flop seat 1 bets 200 and both others fold. Seat 1 nets +200, the others -100."""
    return act(deal([STACK] * 3), "c", "c", "x", "b200", "f", "f")


def flat_call() -> Hand:
    """Seat 3 opens to 300, seat 1 folds, seat 2 calls (a chance to three-bet, not
    taken); on the flop seat 2 checks, seat 3 bets 400 and seat 2 folds. Seat 2 nets
    -300, seat 1 -50, seat 3 +350."""
    return act(deal([STACK] * 3), "r300", "f", "c", "x", "b400", "f")


def split_pot() -> Hand:
    """A royal flush on the board: seat 3 and seat 1 limp, seat 2 checks, all check
    to the showdown and the pot (300) is split three ways: every net is 0, and every
    player reached the showdown and won at it."""
    hand = deal([STACK] * 3, hole=["2c3d", "4c5d", "6c7d"], board="AsKsQsJsTs")
    return act(hand, "c", "c", "x", *["x"] * 9)


def all_in_blind() -> Hand:
    """The big blind (seat 2) has exactly 100: the blind puts it all in, it never
    acts. Seat 3 and seat 1 limp and check it down; seat 2's aces win the main pot
    (300). Seat 2 nets +200, sees the flop and the showdown without one decision."""
    hand = deal(
        [STACK, 100, STACK], hole=["7c2d", "AsAh", "8c3d"], board="KdQh9s4c5h"
    )  # seat 2's aces hold; no straight for 8-3 or 7-2
    return act(hand, "c", "c", *["x"] * 6)


def test_a_three_bet_pot_by_hand() -> None:
    hand = three_bet_pot()
    raiser, blind, opener = (hand_figures(seen(hand, s, 1)) for s in (1, 2, 3))
    # Seat 1 faced one raise (seat 3's) with chips to raise: a chance, taken.
    assert (raiser.vpip, raiser.pfr, raiser.three_bet_chance, raiser.three_bet) == (
        True,
        True,
        True,
        True,
    )
    assert (raiser.saw_flop, raiser.showdown, raiser.won_at_showdown, raiser.net) == (
        True,
        True,
        True,
        1000,
    )
    # Seat 2 acted after the three-bet: two raises faced, no chance to three-bet.
    assert blind.acted_preflop and not blind.vpip and not blind.three_bet_chance
    assert (blind.saw_flop, blind.showdown, blind.net) == (False, False, -100)
    # Seat 3 opened (no raise before it) and then called the three-bet: no chance.
    assert opener.pfr and not opener.three_bet_chance and not opener.three_bet
    assert (opener.showdown, opener.won_at_showdown, opener.net) == (True, False, -900)


def test_a_walk_is_not_a_chance_to_put_money_in() -> None:
    big_blind = hand_figures(seen(walk(), 2, 1))
    assert not big_blind.acted_preflop and not big_blind.vpip
    assert big_blind.net == 50
    small_blind = hand_figures(seen(walk(), 1, 1))
    assert small_blind.acted_preflop and not small_blind.vpip and small_blind.net == -50


def test_a_check_in_the_big_blind_is_not_voluntary() -> None:
    hand = limped_pot()
    limper, bettor, blind = (hand_figures(seen(hand, s, 1)) for s in (3, 1, 2))
    assert limper.vpip and not limper.pfr  # a limp is money in, not a raise
    assert bettor.vpip and not bettor.pfr  # completing the small blind too
    assert blind.acted_preflop and not blind.vpip and not blind.pfr
    # Everyone saw the flop; nobody reached the showdown: the flop bet took it.
    assert all(f.saw_flop and not f.showdown for f in (limper, bettor, blind))
    assert (limper.net, bettor.net, blind.net) == (-100, 200, -100)


def test_a_split_pot_is_won_at_the_showdown_by_each() -> None:
    hand = split_pot()
    for seat in (1, 2, 3):
        figures = hand_figures(seen(hand, seat, 1))
        assert figures.showdown and figures.won_at_showdown
        assert figures.net == 0


def test_an_all_in_blind_reaches_the_showdown_without_a_decision() -> None:
    figures = hand_figures(seen(all_in_blind(), 2, 1))
    assert not figures.acted_preflop and not figures.vpip
    assert figures.saw_flop and figures.showdown and figures.won_at_showdown
    assert figures.net == 200


def test_seat_two_over_six_hands_worked_out_by_hand() -> None:
    """Seat 2's figures over the six hands, one game each for the first three and
    the last three (game 2 plays for points):

    | hand | acted pre-flop | VPIP | PFR | 3-bet chance/made | flop | showdown | won | net |
    | 1 three-bet pot | yes | no  | no | no / no  | no  | no  | no  | -100 |
    | 2 walk          | no  | no  | no | no / no  | no  | no  | no  |  +50 |
    | 3 limped pot    | yes | no  | no | no / no  | yes | no  | no  | -100 |
    | 4 flat call     | yes | yes | no | yes / no | yes | no  | no  | -300 |
    | 5 split pot     | yes | no  | no | no / no  | yes | yes | yes |    0 |
    | 6 all-in blind  | no  | no  | no | no / no  | yes | yes | yes | +200 |

    VPIP 1 of 4 (25.0%), PFR 0 of 4, three-bet 0 of 1, WTSD 2 of 4 flops (50.0%),
    W$SD 2 of 2 (100.0%); net -250 chips, of which games 1's hands are money:
    -100 + 50 - 100 = -150 cents."""
    hands = [three_bet_pot(), walk(), limped_pot(), flat_call(), split_pot(), all_in_blind()]
    seen_hands = [
        seen(h, 2, k, game_id=1 if k <= 3 else 2, money=k <= 3) for k, h in enumerate(hands, 1)
    ]
    result = statistics(seen_hands)
    overall = result.overall
    assert overall.hands == 6
    assert overall.vpip == Ratio(1, 4) and overall.vpip.percent == 25.0
    assert overall.pfr == Ratio(0, 4) and overall.pfr.percent == 0.0
    assert overall.three_bet == Ratio(0, 1)
    assert overall.wtsd == Ratio(2, 4) and overall.wtsd.percent == 50.0
    assert overall.wsd == Ratio(2, 2) and overall.wsd.percent == 100.0
    assert overall.net_chips == -250
    assert overall.net_cents == -150
    # Per game, the game with the latest hand first.
    assert [g.game_id for g in result.games] == [2, 1]
    points, money = result.games
    assert (points.figures.hands, points.figures.net_chips, points.figures.net_cents) == (
        3,
        -100,
        0,
    )
    assert (money.figures.hands, money.figures.net_cents) == (3, -150)
    assert money.figures.vpip == Ratio(0, 2)  # the walk is no chance
    # The graph: each hand's result and the running total.
    assert [(p.net, p.total) for p in result.graph] == [
        (-100, -100),
        (50, -50),
        (-100, -150),
        (-300, -450),
        (0, -450),
        (200, -250),
    ]


def test_seat_one_three_bets_one_time_in_two() -> None:
    """Seat 1: hand 1 it faced seat 3's open and three-bet; hand 4 it faced seat 3's
    open and folded. Three-bet 1 of 2 (50.0%); PFR 1 of 2; VPIP 1 of 2."""
    result = statistics([seen(three_bet_pot(), 1, 1), seen(flat_call(), 1, 2)])
    assert result.overall.three_bet == Ratio(1, 2) and result.overall.three_bet.percent == 50.0
    assert result.overall.pfr == Ratio(1, 2)
    assert result.overall.vpip == Ratio(1, 2)
    assert result.overall.net_chips == 1000 - 50


def test_no_chance_gives_no_percentage() -> None:
    result = statistics([seen(walk(), 2, 1)])
    assert result.overall.vpip.percent is None
    assert result.overall.wsd.percent is None


def test_a_seen_hand_holds_no_hole_card() -> None:
    hand = three_bet_pot()
    kept = seen(hand, 2, 1)
    assert not any(isinstance(e, HoleCardDealt) for e in kept.events)
    assert not hasattr(kept, "hole")


def test_other_players_hidden_cards_change_nothing() -> None:
    """The flat call with seat 3's hidden cards changed (seat 3 never shows them):
    seat 2's figures are the same, as they must be if no hidden card is read."""
    one = act(deal([STACK] * 3, hole=[None, "Tc9c", "AsAd"]), "r300", "f", "c", "x", "b400", "f")
    two = act(deal([STACK] * 3, hole=[None, "Tc9c", "7h2s"]), "r300", "f", "c", "x", "b400", "f")
    assert hand_figures(seen(one, 2, 1)) == hand_figures(seen(two, 2, 1))


def test_a_hand_still_running_or_a_stranger_is_refused() -> None:
    running = deal([STACK] * 3)
    with pytest.raises(ValueError, match="not over"):
        seen(running, 2, 1)
    with pytest.raises(ValueError, match="not dealt"):
        seen(walk(), 7, 1)
