"""The public API of ``cardroom.engine``, by table seat: setting up a given hand,
the allowed-actions query, "would it be accepted", refusals, pots and players."""

from __future__ import annotations

import pytest

from cardroom.engine import (
    Action,
    ActionKind,
    ActionNotAllowed,
    AllowedActions,
    AmountOutOfRange,
    BetRange,
    BettingNotReopened,
    CardError,
    Hand,
    HandIsOver,
    HandSetup,
    HoleCardDealt,
    NotYourTurn,
    PlayerState,
    PotAwarded,
    RaiseCapReached,
    SetupError,
    TablePot,
    card_text,
    parse_cards,
    preset,
    rigged_deck,
)
from cardroom.table.button import first_positions


def start(stacks: dict[int, int], button: int, rules: str = "standard") -> Hand:
    setup = HandSetup.from_button(stacks, button, 50, 100)
    return Hand.start(preset(rules), setup, setup.rigged_deck({}))


# --- setting up a given hand ---------------------------------------------------------


def test_a_setup_from_the_button_puts_the_blinds_after_it() -> None:
    setup = HandSetup.from_button({7: 900, 2: 1000, 5: 800}, button=5, small_blind=5, big_blind=10)
    assert setup.seats == (2, 5, 7) and setup.stacks == (1000, 800, 900)
    assert (setup.button_seat, setup.small_blind_seat, setup.big_blind_seat) == (5, 7, 2)
    heads_up = HandSetup.from_button({3: 100, 8: 100}, button=8, small_blind=1, big_blind=2)
    assert (heads_up.small_blind_seat, heads_up.big_blind_seat) == (8, 3)


def test_a_setup_from_the_button_agrees_with_a_tables_first_hand() -> None:
    seats = {1: 50, 4: 50, 6: 50, 9: 50}
    for button in seats:
        setup = HandSetup.from_button(seats, button, 1, 2)
        pos = first_positions(button, seats, 10)
        assert (setup.small_blind_seat, setup.big_blind_seat) == (pos.small_blind, pos.big_blind)


def test_a_setup_refuses_a_button_on_a_seat_not_dealt_in() -> None:
    with pytest.raises(SetupError, match="button must be on a seat dealt in"):
        HandSetup.from_button({1: 100, 2: 100}, button=4, small_blind=1, big_blind=2)
    with pytest.raises(SetupError, match="2 to 10 players"):
        HandSetup.from_button({1: 100}, button=1, small_blind=1, big_blind=2)


def test_a_rigged_deck_deals_given_hole_cards_by_seat_and_the_board() -> None:
    setup = HandSetup.from_button(
        {2: 1000, 5: 1000, 7: 1000}, button=5, small_blind=5, big_blind=10
    )
    deck = setup.rigged_deck({5: "AsAh", 2: "7c2d"}, "KdQc9s5h3c")
    hand = Hand.start(preset("standard"), setup, deck)
    assert hand.hole_cards_text(5) == "AsAh" and hand.hole_cards_text(2) == "7c2d"
    # dealt from the button's left, one card at a time; the button acts first pre-flop
    dealt = [e.seat for e in hand.events if isinstance(e, HoleCardDealt)]
    assert dealt == [7, 2, 5, 7, 2, 5] and hand.seat_to_act == 5
    for move in ("c", "c", "x", "x", "x", "x", "x", "x", "x", "x", "x", "x"):
        hand.act(Action.call() if move == "c" else Action.check())
    assert "".join(card_text(c) for c in hand.board) == "KdQc9s5h3c"
    assert rigged_deck((2, 5, 7), 5, {5: parse_cards("AsAh")}) == setup.rigged_deck({5: "AsAh"})


def test_a_rigged_deck_refuses_what_cannot_be_dealt() -> None:
    setup = HandSetup.from_button({1: 100, 2: 100}, button=1, small_blind=1, big_blind=2)
    with pytest.raises(SetupError, match="Seat 3 is not dealt"):
        setup.rigged_deck({3: "AsAh"})
    with pytest.raises(CardError, match="twice"):
        setup.rigged_deck({1: "AsAh"}, "AsKdQc")
    with pytest.raises(SetupError, match="at most five"):
        setup.rigged_deck({}, "2c3c4c5c6c7c")
    with pytest.raises(CardError):
        setup.rigged_deck({1: [0, 99]})


# --- the allowed-actions query --------------------------------------------------------


def test_allowed_actions_say_what_and_how_much_with_none_for_what_is_not_allowed() -> None:
    hand = start({1: 1000, 2: 1000, 3: 1000}, button=3)  # seat 3 first to act
    allowed = hand.allowed_actions()
    assert allowed == AllowedActions(
        seat=3,
        stack=1000,
        bet=0,
        to_call=100,
        can_fold=True,
        can_check=False,
        can_call=True,
        bet_to=None,  # there is a bet (the big blind) to face: raise, not bet
        raise_to=BetRange(200, 1000),
        all_in_to=1000,
    )
    assert allowed.kinds == (ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE, ActionKind.ALL_IN)


def test_to_call_is_capped_at_the_stack_and_a_short_stack_may_not_raise() -> None:
    hand = start({1: 250, 2: 1000, 3: 1000}, button=3)  # seat 1 small blind, 200 behind
    hand.act(Action.raise_to(400), seat=3)
    allowed = hand.allowed_actions()
    assert (allowed.seat, allowed.stack, allowed.bet) == (1, 200, 50)
    assert allowed.to_call == 200 and allowed.can_call  # not 350: it has only 200
    assert allowed.raise_to is None and allowed.bet_to is None
    assert allowed.all_in_to == 250 and allowed.kinds == (
        ActionKind.FOLD,
        ActionKind.CALL,
        ActionKind.ALL_IN,
    )
    assert hand.legal_actions().to_call == 350  # the old query: the bet to match


def test_with_nothing_to_call_to_call_is_zero_and_a_bet_has_its_range() -> None:
    hand = start({1: 1000, 2: 1000, 3: 1000}, button=3)
    for _ in range(2):
        hand.act(Action.call())
    hand.act(Action.check())  # the big blind: on to the flop, seat 1 first
    allowed = hand.allowed_actions()
    assert allowed.seat == 1 and allowed.to_call == 0 and not allowed.can_call
    assert allowed.can_check and not allowed.can_fold
    assert allowed.bet_to == BetRange(100, 900) and allowed.raise_to is None
    assert Action.bet(100) in allowed and Action.bet(900) in allowed
    assert Action.bet(99) not in allowed and Action.bet(901) not in allowed
    assert Action.raise_to(200) not in allowed and Action.fold() not in allowed


def test_the_query_answers_only_for_the_player_to_act_and_not_once_the_hand_is_over() -> None:
    hand = start({1: 1000, 2: 1000}, button=2)
    hand.act(Action.fold())
    with pytest.raises(HandIsOver):
        hand.allowed_actions()
    refused = hand.refusal(Action.check())
    assert isinstance(refused, HandIsOver)


# --- would it be accepted; refusals ---------------------------------------------------


def test_would_it_be_accepted_changes_nothing_and_names_the_refusal() -> None:
    hand = start({1: 1000, 2: 1000, 3: 1000}, button=3)
    before = hand.to_dict()
    assert hand.accepts(Action.raise_to(200)) and hand.refusal(Action.call()) is None
    assert hand.accepts(Action.call(), seat=3)
    assert not hand.accepts(Action.call(), seat=1)
    assert isinstance(hand.refusal(Action.call(), seat=1), NotYourTurn)
    assert isinstance(hand.refusal(Action.check()), ActionNotAllowed)
    assert isinstance(hand.refusal(Action.raise_to(150)), AmountOutOfRange)
    assert isinstance(hand.refusal(Action.bet(300)), ActionNotAllowed)
    assert "raise instead" in str(hand.refusal(Action.bet(300)))
    assert hand.to_dict() == before


def test_an_amount_that_is_not_whole_chips_is_refused() -> None:
    hand = start({1: 1000, 2: 1000, 3: 1000}, button=3)
    before = hand.to_dict()
    for amount in (300.0, 300.5, True, "300"):
        action = Action(ActionKind.RAISE, amount)  # type: ignore[arg-type]
        assert action not in hand.allowed_actions()
        with pytest.raises(AmountOutOfRange, match="whole chips"):
            hand.act(action)
    assert hand.to_dict() == before


def test_a_raise_after_a_short_all_in_is_refused_naming_the_rule() -> None:
    for rules in ("standard", "legacy"):
        hand = start({1: 10000, 2: 10000, 3: 250, 4: 10000}, button=4, rules=rules)
        for move in (Action.call(), Action.call(), Action.call(), Action.check()):
            hand.act(move)  # to the flop; seat 3 has 150 behind
        hand.act(Action.bet(100))  # seat 1
        hand.act(Action.call())  # seat 2
        hand.act(Action.all_in())  # seat 3 to 150: short of a full raise
        hand.act(Action.call())  # seat 4
        refused = hand.refusal(Action.raise_to(400))
        assert isinstance(refused, BettingNotReopened), rules
        assert "reopen" in str(refused)
        assert hand.allowed_actions().raise_to is None


def test_a_raise_past_the_cap_is_refused_naming_the_cap() -> None:
    hand = start({1: 10000, 2: 10000, 3: 10000, 4: 10000}, button=4, rules="house")
    for to in (300, 600, 900):
        hand.act(Action.raise_to(to))
    refused = hand.refusal(Action.raise_to(1200))
    assert isinstance(refused, RaiseCapReached) and "3 raises" in str(refused)


# --- pots and players ----------------------------------------------------------------


def test_pots_by_table_seat_main_pot_first_without_the_uncalled_part() -> None:
    # seats 2, 5, 7, 9; button 9: seat 2 small blind, seat 5 big blind, seat 7 first
    stacks = {2: 1000, 5: 1000, 7: 300, 9: 600}
    setup = HandSetup.from_button(stacks, button=9, small_blind=50, big_blind=100)
    hand = Hand.start(preset("standard"), setup, setup.rigged_deck({}))
    assert hand.pots() == [TablePot(100, (2, 5))]  # the big blind's other 50 is uncalled
    hand.act(Action.all_in())  # seat 7: 300
    hand.act(Action.all_in())  # seat 9: 600, of which 300 nobody has matched yet
    # as they stand: each pot is open to the players who have matched its level so far
    assert hand.pots() == [
        TablePot(200, (2, 5, 7, 9)),  # 50 from each
        TablePot(150, (5, 7, 9)),  # 50 more from the big blind, 7 and 9
        TablePot(400, (7, 9)),  # 200 more from 7 and 9
    ]
    hand.act(Action.fold())  # seat 2
    hand.act(Action.call())  # seat 5 calls 600
    assert hand.is_over  # nobody left can bet: the board is dealt out
    assert hand.pots() == [TablePot(950, (5, 7, 9)), TablePot(600, (5, 9))]
    awarded = [e.amount for e in hand.events if isinstance(e, PotAwarded)]
    assert awarded == [950, 600]  # the pots a finished hand gives are those awarded


def test_players_are_read_by_table_seat() -> None:
    hand = start({4: 1000, 6: 80, 9: 1000}, button=9)  # seat 4 SB, seat 6 BB short
    assert hand.player(6) == PlayerState(6, 0, 80, 80, False, True)
    hand.act(Action.fold())  # seat 9
    assert hand.player(9).folded and hand.player(4) == PlayerState(4, 950, 50, 50, False, False)
    assert list(hand.players()) == [4, 6, 9]
    with pytest.raises(NotYourTurn, match="not in this hand"):
        hand.player(5)
