"""Betting rules: order of action, minimum raises, caps, short all-ins, BGC 6a.

Worked examples from the rule documents are quoted where they are used."""

from __future__ import annotations

import pytest

from cardroom.actions import Action, ActionNotAllowed, AmountOutOfRange, NotYourTurn
from cardroom.events import BlindPosted, PlayerActed
from cardroom.hand import HandSetup, Street
from tests.handkit import act, deal


def test_heads_up_button_posts_small_blind_acts_first_preflop_and_last_after() -> None:
    # "In heads-up play, the dealer posts the small blind and acts first pre-flop,
    # while the other player posts the big blind and acts first after the flop."
    hand = deal([1000, 1000])  # seat 2 is the button
    blinds = [e for e in hand.events if isinstance(e, BlindPosted)]
    assert [(b.seat, b.blind, b.amount) for b in blinds] == [
        (2, "small_blind", 50),
        (1, "big_blind", 100),
    ]
    assert hand.seat_to_act == 2
    act(hand, "c")
    assert hand.seat_to_act == 1  # the big blind's option
    act(hand, "x")
    assert hand.street == Street.FLOP
    assert hand.seat_to_act == 1


def test_preflop_starts_left_of_big_blind_and_big_blind_has_the_option() -> None:
    hand = deal([1000] * 4)  # seats 1 SB, 2 BB, 3, 4 button
    assert hand.seat_to_act == 3
    act(hand, "c", "c", "c")
    legal = hand.legal_actions()
    assert legal.seat == 2 and legal.can_check and legal.can_raise
    act(hand, "x")
    assert hand.street == Street.FLOP
    assert hand.seat_to_act == 1  # first player still in left of the button


def test_short_blinds_are_posted_all_in() -> None:
    hand = deal([30, 60, 1000])
    posted = {
        (e.seat, e.blind): (e.amount, e.all_in) for e in hand.events if isinstance(e, BlindPosted)
    }
    assert posted[(1, "small_blind")] == (30, True)
    assert posted[(2, "big_blind")] == (60, True)


def test_house_min_raise_example() -> None:
    # "with a big blind of 10, a player raises to 30 (a raise of 20), so the next
    # raise must be to at least 50."
    hand = deal([1000] * 3, (5, 10))
    assert hand.legal_actions().min_to == 20
    act(hand, "r30")
    assert hand.legal_actions().min_to == 50
    with pytest.raises(AmountOutOfRange):
        hand.act(Action.raise_to(49))
    act(hand, "r50")


def test_standard_min_raise_example() -> None:
    # "bet $20, raise to at least $40; raise to $40, the next raise is to at least $60"
    hand = deal([10000] * 3, (1000, 2000), rules="standard")
    act(hand, "c", "c", "x")  # to the flop
    act(hand, "b2000")
    assert hand.legal_actions().min_to == 4000
    act(hand, "r4000")
    assert hand.legal_actions().min_to == 6000


def test_legacy_min_raise_example() -> None:
    # "if the big blind is $10 and a player raises to $20, the next raise must be at
    # least $30 (raising by $10)."
    hand = deal([1000] * 3, (5, 10), rules="legacy")
    act(hand, "r20")
    assert hand.legal_actions().min_to == 30


def test_arena_min_raise_is_always_the_big_blind() -> None:
    # "The minimum raise is equal to the big blind."
    hand = deal([1000] * 3, (1, 2), rules="arena")
    act(hand, "r10")
    assert hand.legal_actions().min_to == 12
    hand2 = deal([1000] * 3, (1, 2), rules="house")
    act(hand2, "r10")
    assert hand2.legal_actions().min_to == 18


def test_arena_worked_example_alice_bob_charlie() -> None:
    # Alice is the dealer, Bob the small blind (1), Charlie the big blind (2).
    # Alice calls 2; Bob raises to 4; Charlie folds; Alice calls to 4.
    hand = deal([100, 100, 100], (1, 2), rules="arena")  # 1 Bob, 2 Charlie, 3 Alice
    act(hand, "c", "r4", "f")
    assert hand.seat_to_act == 3
    act(hand, "c")
    assert hand.street == Street.FLOP
    assert hand.pot == 10  # "the 2 he already bet must stay in the pot"
    assert hand.stacks == [96, 98, 96]


def test_bet_is_at_least_the_big_blind_and_all_in_may_be_less() -> None:
    hand = deal([1000, 1000, 1000])
    act(hand, "c", "c", "x")
    legal = hand.legal_actions()
    assert legal.can_bet and legal.min_to == 100 and legal.max_to == 900
    with pytest.raises(AmountOutOfRange):
        hand.act(Action.bet(99))
    short = deal([1000, 1000, 150])
    act(short, "c", "c", "x", "x", "x", "x")  # pre-flop and flop
    assert short.seat_to_act == 1
    act(short, "b100", "c")
    legal = short.legal_actions()  # seat 3 has 50 left: less than a call of 100
    assert legal.stack == 50 and legal.to_call == 100
    assert not legal.can_raise and legal.can_all_in and legal.call_amount == 50


def test_house_raise_cap_three_raises_unless_heads_up() -> None:
    hand = deal([10000] * 4)  # 3 UTG, 4 button, 1 SB, 2 BB
    act(hand, "r300", "r600", "r900")  # three raises
    legal = hand.legal_actions()
    assert legal.can_call and not legal.can_raise and not legal.can_all_in
    with pytest.raises(ActionNotAllowed):
        hand.act(Action.raise_to(1200))
    act(hand, "f", "f")  # now only two players are in the hand: raises are unlimited
    assert hand.legal_actions().can_raise


def test_house_raise_cap_counts_all_in_players_as_in_the_hand() -> None:
    hand = deal([10000, 10000, 10000, 400])  # seat 4 button short
    act(hand, "r300", "a")  # raise 1; seat 4 all in to 400: short, not a raise
    act(hand, "r800", "r1300")  # raises 2 and 3
    # seats 3, 4 (all in), 1 and 2 are all in the hand: the cap holds
    legal = hand.legal_actions()
    assert legal.seat == 3 and not legal.can_raise


def test_house_opening_bet_after_flop_is_not_a_raise() -> None:
    hand = deal([10000] * 3)
    act(hand, "c", "c", "x")
    act(hand, "b100", "r200", "r400", "r800")  # bet + three raises
    legal = hand.legal_actions()
    assert legal.can_call and not legal.can_raise


def test_standard_has_no_raise_cap() -> None:
    hand = deal([10000] * 3, rules="standard")
    act(hand, "r300", "r600", "r900", "r1200")
    assert hand.legal_actions().can_raise


def test_house_short_all_in_does_not_count_as_a_raise() -> None:
    hand = deal([10000, 10000, 10000, 450])
    act(hand, "r300", "a")  # 450: a raise of 150 < 200: short
    assert hand.raises == 1
    act(hand, "r700", "r1100")
    assert hand.raises == 3
    assert not hand.legal_actions().can_raise


def test_bgc_6a_full_big_blind_call_against_short_all_in_big_blind() -> None:
    # "Before the flop, a call is at least the full big blind, even when the big
    # blind player was all-in for less, unless every other player is already all-in."
    hand = deal([1000, 60, 1000])  # seat 2 posts a short big blind of 60
    legal = hand.legal_actions()
    assert legal.seat == 3 and legal.to_call == 100
    act(hand, "c")
    assert hand.legal_actions().to_call == 50  # the small blind completes to 100
    std = deal([1000, 60, 1000], rules="standard")
    assert std.legal_actions().to_call == 60  # match the highest bet


def test_bgc_6a_does_not_apply_when_everyone_else_is_all_in() -> None:
    hand = deal([40, 1000])  # heads-up: seat 1 big blind all in for 40
    # the button posted 50 already; every other player is all in: nothing more to do
    assert hand.is_over
    assert hand.stacks[0] + hand.stacks[1] == 1040


def test_short_all_in_does_not_reopen_betting() -> None:
    for rules in ("house", "standard", "arena", "legacy"):
        hand = deal([10000, 10000, 250, 10000], rules=rules)
        act(hand, "c", "c", "c", "x")  # to the flop; seat 3 has 150 behind
        act(hand, "b100", "c", "a")  # seat 3 all in to 150: short of a full raise
        act(hand, "c")  # seat 4 calls 150
        legal = hand.legal_actions()  # back to seat 1, who bet 100
        assert legal.seat == 1 and legal.to_call == 50
        assert not legal.can_raise, rules


@pytest.mark.parametrize("rules", ["house", "standard"])
def test_several_short_all_ins_that_add_up_reopen(rules: str) -> None:
    # house: "If several short all-ins together add up to a full raise since that
    # player last acted, the betting is reopened and the player may raise."
    # standard: the same, the textbook and TDA reading (RULES.md, "short all-in
    # reopens betting"); its document speaks only of a single short all-in.
    stacks = [10000, 10000, 250, 310, 10000]  # seats 3 and 4 short
    moves = ["c", "c", "c", "c", "x"]  # to the flop; seats 3 and 4 have 150 and 210 left
    moves += ["b100", "f", "a", "a", "c"]  # 150 then 210: together +110 over 100
    hand = act(deal(stacks, rules=rules), *moves)
    legal = hand.legal_actions()
    assert legal.seat == 1 and legal.can_raise and legal.min_to == 310


@pytest.mark.parametrize("rules", ["arena", "legacy"])
def test_several_short_all_ins_do_not_reopen_under_arena_and_legacy(rules: str) -> None:
    stacks = [10000, 10000, 250, 310, 10000]
    moves = ["c", "c", "c", "c", "x", "b100", "f", "a", "a", "c"]
    legal = act(deal(stacks, rules=rules), *moves).legal_actions()
    assert legal.seat == 1 and not legal.can_raise and legal.to_call == 110


def test_full_raise_reopens_for_players_who_acted() -> None:
    hand = deal([10000] * 3, rules="standard")
    act(hand, "c", "c", "x", "b100", "c", "r300")
    legal = hand.legal_actions()
    assert legal.seat == 1 and legal.can_raise and legal.min_to == 500


def test_out_of_turn_and_wrong_seat_are_refused() -> None:
    hand = deal([1000] * 3)
    with pytest.raises(NotYourTurn):
        hand.act(Action.call(), seat=1)
    with pytest.raises(ActionNotAllowed):
        hand.act(Action.check())
    hand2 = deal([1000] * 3)
    act(hand2, "c", "c")
    with pytest.raises(ActionNotAllowed):
        hand2.act(Action.fold())  # the big blind can check for free


def test_clock_checks_when_free_and_folds_otherwise() -> None:
    hand = deal([1000] * 3)
    hand.time_out()  # seat 3 faces the big blind: fold
    last = hand.events[-1]
    assert isinstance(last, PlayerActed) and last.action == "fold" and last.timed_out
    act(hand, "c")
    hand.time_out()  # big blind: check is free
    assert hand.street == Street.FLOP


def test_dead_small_blind_and_dead_button() -> None:
    # seats 2, 5, 7; the button is on empty seat 4, no small blind, BB on seat 5
    setup = HandSetup((2, 5, 7), (1000, 1000, 1000), 4, None, 5, 50, 100)
    hand = deal([], setup=setup)
    assert hand.seats == [5, 7, 2]  # dealing starts left of the (empty) button seat
    posted = [e for e in hand.events if isinstance(e, BlindPosted)]
    assert [(e.seat, e.blind) for e in posted] == [(5, "big_blind")]
    assert hand.seat_to_act == 7
    act(hand, "c", "c", "x")
    assert hand.street == Street.FLOP and hand.seat_to_act == 5


def test_antes_and_big_blind_ante() -> None:
    hand = deal([1000] * 3, (50, 100), ante=10)
    assert hand.pot == 3 * 10 + 150
    assert hand.legal_actions().to_call == 100  # antes are dead, not part of the bet
    bba = deal([1000] * 3, (50, 100), ante=100, big_blind_ante=True)
    assert bba.pot == 250 and bba.stacks == [950, 800, 1000]
    short_bb = deal([1000, 150, 1000], (50, 100), ante=100, big_blind_ante=True)
    # the big blind is covered first; the ante takes what is left
    assert short_bb.stacks[1] == 0 and short_bb.contributed[1] == 150
    assert short_bb.bets[1] == 100


def test_a_deck_with_a_repeated_or_unknown_card_is_refused() -> None:
    from cardroom.cards import CardError
    from cardroom.hand import Hand, SetupError
    from cardroom.rules import preset

    setup = HandSetup.simple([100, 100], 1, 2)
    with pytest.raises(CardError, match="twice"):
        Hand.start(preset("house"), setup, [0] * 52)
    with pytest.raises(SetupError, match="0 to 51"):
        Hand.start(preset("house"), setup, [*range(51), 99])
    with pytest.raises(SetupError, match="too short"):
        Hand.start(preset("house"), setup, [1, 2, 3])
