"""Cash games: buying in, waiting for the big blind, pausing, rebuys, timeouts,
cashing out and rejoining."""

from __future__ import annotations

import pytest

from cardroom.actions import Action
from cardroom.deck import SeededRandomSource
from cardroom.table import (
    AlreadySeated,
    InsufficientBalance,
    NotAllowedNow,
    NotSeated,
    Positions,
    RebuyNotAllowed,
    SeatUnavailable,
    Table,
    TableConfig,
    table_to_dict,
)
from cardroom.table.events import (
    BoughtIn,
    BuyInRefunded,
    CashedOut,
    CashOutCancelled,
    CashOutPending,
    ClockActed,
    PlayerBusted,
    PlayerLeft,
    PlayerSeated,
    Rebought,
    TablePaused,
    TableResumed,
)
from tests.table.kit import (
    Ledger,
    all_in_action,
    blind_seats,
    deal,
    passive_action,
    play_hand,
    play_out,
    rigged_deck,
    seated_table,
)

BUY_IN = 1000  # $10.00, blinds 10/20


def house(seats: int = 6) -> TableConfig:
    return TableConfig.create("cash", "house", buy_in=BUY_IN, seat_count=seats)


def rich(*players: int) -> Ledger:
    return Ledger({p: 10 * BUY_IN for p in players})


def test_sitting_down_costs_the_buy_in() -> None:
    table = Table.create(house())
    events = table.sit(7, 0.0, balance=BUY_IN, seat=3)
    assert events == [PlayerSeated(7, 3, BUY_IN, False), BoughtIn(7, BUY_IN)]
    assert table.seats[3].stack == BUY_IN


def test_refusals_when_sitting_down() -> None:
    table = Table.create(house(seats=2))
    with pytest.raises(InsufficientBalance, match=r"\$10.00 and your balance is \$9.99"):
        table.sit(7, 0.0, balance=999)
    table.sit(7, 0.0, balance=BUY_IN, seat=1)
    with pytest.raises(AlreadySeated):
        table.sit(7, 0.0, balance=BUY_IN)
    with pytest.raises(SeatUnavailable, match="Seat 1 is taken"):
        table.sit(8, 0.0, balance=BUY_IN, seat=1)
    with pytest.raises(SeatUnavailable, match="no seat 3"):
        table.sit(8, 0.0, balance=BUY_IN, seat=3)
    table.sit(8, 0.0, balance=BUY_IN)
    with pytest.raises(SeatUnavailable, match="full"):
        table.sit(9, 0.0, balance=BUY_IN)
    with pytest.raises(NotSeated):
        table.leave(9, 0.0)


def test_leaving_before_the_start_refunds_the_buy_in() -> None:
    table = Table.create(house())
    table.sit(7, 0.0, balance=BUY_IN)
    assert table.leave(7, 1.0) == [BuyInRefunded(7, BUY_IN), PlayerLeft(7, 1, "left")]
    with pytest.raises(NotAllowedNow, match="at least two"):
        table.start(2.0)


def test_a_newcomer_is_dealt_in_when_the_moving_big_blind_reaches_them() -> None:
    ledger = rich(1, 2, 3, 4)
    table = seated_table(house(), {1: 1, 2: 2, 3: 4}, ledger)
    source = SeededRandomSource(1)
    play_hand(table, source, 0.0, ledger, passive_action)  # button 1, SB 2, BB 4
    assert blind_seats(table) == (2, 4)
    # player 4 sits in seat 6: the BB goes 4 -> 6? No: the next player after seat 4 is 6.
    events = ledger.apply(table.sit(4, 1.0, balance=ledger.balances[4], seat=6))
    assert events[0] == PlayerSeated(4, 6, BUY_IN, True)
    play_hand(table, source, 2.0, ledger, passive_action)
    assert blind_seats(table) == (4, 6)  # dealt in at once: they post the big blind
    assert 6 in table.hand_players


def test_a_newcomer_behind_the_big_blind_waits_a_full_orbit() -> None:
    ledger = rich(1, 2, 3, 4)
    table = seated_table(house(), {1: 1, 2: 3, 3: 5}, ledger)
    source = SeededRandomSource(2)
    play_hand(table, source, 0.0, ledger, passive_action)  # button 1, SB 3, BB 5
    ledger.apply(table.sit(4, 1.0, balance=ledger.balances[4], seat=2))  # between 1 and 3
    seen = []
    for k in range(3):
        play_hand(table, source, 2.0 + k, ledger, passive_action)
        seen.append((2 in table.hand_players, blind_seats(table)))
    # BB 5 -> 1 (seat 2 skipped? no: 2 is after 1) -> 2: dealt in on the BB
    assert seen == [(False, (5, 1)), (True, (1, 2)), (True, (2, 3))]


def test_a_newcomer_at_a_paused_table_is_dealt_in_at_once() -> None:
    ledger = rich(1, 2, 3)
    table = seated_table(house(), {1: 1, 2: 2}, ledger)
    source = SeededRandomSource(3)
    play_hand(table, source, 0.0, ledger, passive_action)
    events = ledger.apply(table.leave(2, 1.0))
    assert TablePaused("players") in events
    assert table.deal(2.0, list(range(52))) == []  # nothing to deal
    events = ledger.apply(table.sit(3, 3.0, balance=ledger.balances[3], seat=5))
    assert events[0] == PlayerSeated(3, 5, BUY_IN, False)
    assert TableResumed("players") in events
    play_hand(table, source, 4.0, ledger, passive_action)
    assert set(table.hand_players) == {1, 5}


def test_bust_pauses_and_a_rebuy_resumes_heads_up() -> None:
    ledger = rich(1, 2)
    table = seated_table(house(), {1: 1, 2: 2}, ledger)
    # seat 1 has the button (first hand) and gets aces; both go all in
    deck = rigged_deck(table, 0.0, {1: "AsAh", 2: "7c2d"}, "AdAc9s5h3d")
    events = ledger.apply(table.deal(0.0, deck))
    events += play_out(table, SeededRandomSource(0), 0.0, ledger, all_in_action)
    assert PlayerBusted(2) in events and TablePaused("players") in events
    with pytest.raises(RebuyNotAllowed, match="partial top-ups"):
        table.rebuy(1, 1.0, balance=ledger.balances[1])
    with pytest.raises(InsufficientBalance):
        table.rebuy(2, 1.0, balance=BUY_IN - 1)
    events = ledger.apply(table.rebuy(2, 1.0, balance=ledger.balances[2]))
    assert events == [Rebought(2, BUY_IN), TableResumed("players")]
    play_hand(table, SeededRandomSource(1), 2.0, ledger, passive_action)
    assert set(table.hand_players) == {1, 2}


def test_no_rebuy_while_all_in_in_a_running_hand() -> None:
    ledger = rich(1, 2, 3)
    table = seated_table(house(), {1: 1, 2: 2, 3: 3}, ledger)
    deal(table, SeededRandomSource(4), 0.0, ledger)
    assert table.hand is not None
    player = table.hand_players[table.hand.seat_to_act or 0]
    table.act(player, Action.all_in(), 0.0)
    with pytest.raises(RebuyNotAllowed, match="still in this hand"):
        table.rebuy(player, 0.0, balance=ledger.balances[player])


def test_a_player_who_missed_hands_at_zero_waits_for_the_big_blind_after_rebuying() -> None:
    ledger = rich(1, 2, 3, 4)
    table = seated_table(house(), {1: 1, 2: 2, 3: 3, 4: 4}, ledger)
    table.seats[3].stack = 0  # busted earlier (tests may set the scene)
    source = SeededRandomSource(5)
    play_hand(table, source, 0.0, ledger, passive_action)  # 1 button, 2 SB, 4 BB
    assert 3 not in table.hand_players and table.seats[3].waiting
    table.seats[3].stack = BUY_IN
    play_hand(table, source, 1.0, ledger, passive_action)  # BB 4 -> 1; seat 3 is behind
    assert 3 not in table.hand_players
    play_hand(table, source, 2.0, ledger, passive_action)  # BB 1 -> 2
    play_hand(table, source, 3.0, ledger, passive_action)  # BB 2 -> 3: in
    assert 3 in table.hand_players and blind_seats(table)[1] == 3


def timed_out_table() -> tuple[Table, Ledger]:
    ledger = rich(1, 2, 3)
    return seated_table(house(), {1: 1, 2: 2, 3: 3}, ledger), ledger


def test_three_timeouts_in_a_row_cash_out_once_nothing_is_in_a_pot() -> None:
    table, ledger = timed_out_table()
    source = SeededRandomSource(6)
    # seat 1 has the button and acts first pre-flop: facing the big blind, the clock
    # folds them, three hands in a row
    for k in range(3):
        now = 1000.0 * k
        deal(table, source, now, ledger)
        assert table.hand is not None and table.hand.seat_to_act == 1
        with pytest.raises(NotAllowedNow, match="seconds left"):
            table.time_out(now + 119)
        events = ledger.apply(table.time_out(now + 120))
        assert ClockActed(1, k + 1) in events
        if k < 2:
            play_out(table, source, now + 130, ledger, passive_action)
            # as if the last hand were button 3, SB 1, BB 2: seat 1 has the button again
            table.positions = Positions(3, 1, 2)
    stack = table.seats[1].stack if 1 in table.seats else None
    assert stack is None  # folded: cashed out at once, the hand goes on
    assert CashOutPending(1, "timed_out") in events
    cashed = [e for e in events if isinstance(e, CashedOut)]
    assert len(cashed) == 1 and cashed[0].player == 1 and cashed[0].amount > 0
    assert table.hand_running


def test_acting_resets_the_timeout_count() -> None:
    table, ledger = timed_out_table()
    source = SeededRandomSource(7)
    deal(table, source, 0.0, ledger)
    table.seats[1].timeouts = 2
    table.act(1, Action.call(), 1.0)
    assert table.seats[1].timeouts == 0


def test_a_timed_out_player_still_in_the_pot_is_cashed_out_when_the_hand_ends() -> None:
    table, ledger = timed_out_table()
    source = SeededRandomSource(8)
    deal(table, source, 0.0, ledger)  # button 1, SB 2, BB 3
    table.act(1, Action.call(), 1.0)
    table.act(2, Action.call(), 2.0)
    table.seats[3].timeouts = 2
    events = table.time_out(200.0)  # the BB's option: the clock checks
    assert CashOutPending(3, "timed_out") in events and 3 in table.seats
    now = 300.0
    while table.hand_running:  # seat 3 stays away; the others check it down
        assert table.hand is not None
        now += 200
        if table.hand.seat_to_act == 3:
            events = ledger.apply(table.time_out(now))
        else:
            seat = table.hand.seat_to_act or 0
            events = ledger.apply(table.act(seat, Action.check(), now))
    cashed = [e for e in events if isinstance(e, CashedOut)]
    assert [c.player for c in cashed] == [3] and 3 not in table.seats


def test_acting_after_the_third_timeout_cancels_the_cash_out() -> None:
    table, ledger = timed_out_table()
    source = SeededRandomSource(8)
    deal(table, source, 0.0, ledger)
    table.act(1, Action.call(), 1.0)
    table.act(2, Action.call(), 2.0)
    table.seats[3].timeouts = 2
    table.time_out(200.0)  # checks: the flop comes, seat 2 acts first
    table.act(2, Action.check(), 201.0)
    assert table.act(3, Action.check(), 202.0)[0] == CashOutCancelled(3)
    play_out(table, source, 300.0, ledger, passive_action)
    assert 3 in table.seats


def test_leaving_during_a_hand() -> None:
    table, ledger = timed_out_table()
    source = SeededRandomSource(9)
    deal(table, source, 0.0, ledger)  # seat 1 to act
    # seat 3 (the big blind, chips in the pot) leaves: cashed out when the hand ends
    assert table.leave(3, 1.0) == [CashOutPending(3, "left")]
    with pytest.raises(NotAllowedNow):
        table.leave(3, 1.0)
    # seat 1 folds and leaves: cashed out at once with their stack
    table.act(1, Action.fold(), 2.0)
    events = ledger.apply(table.leave(1, 3.0))
    assert events[:2] == [CashedOut(1, BUY_IN), PlayerLeft(1, 1, "left")]
    with pytest.raises(SeatUnavailable, match="once the hand"):
        table.sit(9, 4.0, balance=BUY_IN, seat=1)
    events = play_out(table, source, 5.0, ledger, passive_action)
    assert any(isinstance(e, CashedOut) and e.player == 3 for e in events)
    assert list(table.seats) == [2]


def test_rejoining_within_two_hours_costs_the_larger_of_buy_in_and_cash_out() -> None:
    ledger = rich(1, 2, 3)
    table = seated_table(house(), {1: 1, 2: 2, 3: 3}, ledger)
    table.seats[1].stack = 2500  # a winner
    table.seats[2].stack = 400  # a loser
    ledger.apply(table.leave(1, 100.0))
    ledger.apply(table.leave(2, 100.0))
    assert table.buy_in_cost(1, 100.0 + 7200) == 2500  # two hours, inclusive
    assert table.buy_in_cost(1, 100.0 + 7201) == BUY_IN
    assert table.buy_in_cost(2, 200.0) == BUY_IN  # cashed out less than the buy-in
    with pytest.raises(InsufficientBalance, match=r"\$25.00"):
        table.sit(1, 200.0, balance=2499)
    events = ledger.apply(table.sit(1, 200.0, balance=ledger.balances[1]))
    assert BoughtIn(1, 2500) in events and table.seat_of(1).stack == 2500


def test_legacy_cash_has_no_clock_and_folds_only_after_24_hours() -> None:
    config = TableConfig.create("cash", "legacy", buy_in=BUY_IN, seat_count=6)
    ledger = rich(1, 2, 3)
    table = seated_table(config, {1: 1, 2: 2, 3: 3}, ledger)
    deal(table, SeededRandomSource(10), 0.0, ledger)
    with pytest.raises(NotAllowedNow, match="no turn clock"):
        table.time_out(10**6)
    with pytest.raises(NotAllowedNow, match="whose turn"):
        table.fold_inactive(2, 10**6)
    with pytest.raises(NotAllowedNow, match="24 hours"):
        table.fold_inactive(1, 24 * 3600 - 1)
    table.fold_inactive(1, 24 * 3600)
    assert table.hand is not None and table.hand.folded[table.hand.seats.index(1)]
    assert table.buy_in_cost(1, 0.0) == BUY_IN


def test_house_admin_folds_any_player_at_once() -> None:
    table, ledger = timed_out_table()
    deal(table, SeededRandomSource(11), 0.0, ledger)
    table.fold_inactive(3, 0.0)  # not their turn
    assert table.hand is not None and table.hand.folded[table.hand.seats.index(3)]


def test_sitting_out_and_back_in() -> None:
    ledger = rich(1, 2, 3)
    table = seated_table(house(), {1: 1, 2: 2, 3: 3}, ledger)
    source = SeededRandomSource(12)
    table.sit_out(3, 0.0)
    play_hand(table, source, 0.0, ledger, passive_action)
    assert set(table.hand_players) == {1, 2}
    with pytest.raises(NotAllowedNow):
        table.sit_out(3, 1.0)
    events = table.sit_in(3, 1.0)
    assert events[0].waits_for_big_blind  # type: ignore[attr-defined]
    # back before a hand was dealt without them: no wait
    table.sit_out(1, 1.0)
    assert not table.sit_in(1, 1.0)[0].waits_for_big_blind  # type: ignore[attr-defined]


def test_a_table_paused_by_the_host_deals_nothing() -> None:
    table, ledger = timed_out_table()
    table.pause(0.0)
    with pytest.raises(NotAllowedNow, match="paused"):
        table.deal(1.0, list(range(52)))
    table.resume(2.0)
    deal(table, SeededRandomSource(13), 3.0, ledger)
    assert table.hand_running


def test_house_example_the_big_blind_leaves_and_the_button_and_small_blind_stay() -> None:
    # "If the player who posted the big blind leaves, the button and the small blind
    # stay where they were for one hand."
    ledger = rich(1, 2, 3, 4, 5)
    table = seated_table(house(), {p: p for p in range(1, 6)}, ledger)
    source = SeededRandomSource(14)
    play_hand(table, source, 0.0, ledger, passive_action)
    assert table.positions == Positions(1, 2, 3)
    ledger.apply(table.leave(3, 1.0))
    play_hand(table, source, 2.0, ledger, passive_action)
    assert table.positions == Positions(1, 2, 4)
    assert blind_seats(table) == (2, 4)  # the BB moved one player: nobody skipped it
    play_hand(table, source, 3.0, ledger, passive_action)
    assert table.positions == Positions(2, 4, 5)


def test_house_the_small_and_big_blind_both_leave_the_button_stays_and_no_small_blind() -> None:
    # RULES.md, "button in cash games": when the small blind's and the big blind's
    # players both leave, the button stays where it was, nobody posts the small blind
    # that hand and the big blind moves one player on.
    ledger = rich(1, 2, 3, 4, 5, 6)
    table = seated_table(house(), {p: p for p in range(1, 7)}, ledger)
    source = SeededRandomSource(15)
    play_hand(table, source, 0.0, ledger, passive_action)
    play_hand(table, source, 1.0, ledger, passive_action)
    assert table.positions == Positions(2, 3, 4)
    ledger.apply(table.leave(3, 2.0))
    ledger.apply(table.leave(4, 2.0))
    play_hand(table, source, 3.0, ledger, passive_action)
    assert table.positions is not None and table.positions.button == 2
    assert blind_seats(table) == (None, 5)
    play_hand(table, source, 4.0, ledger, passive_action)
    assert table.positions.button == 2 and blind_seats(table) == (5, 6)


def test_a_bad_deck_is_refused_and_changes_nothing() -> None:
    table, _ = timed_out_table()
    table.sit_out(3, 0.0)
    before = table_to_dict(table)
    with pytest.raises(ValueError, match="twice"):
        table.deal(1.0, [0] * 52)
    assert table_to_dict(table) == before


def test_the_host_removes_an_idle_player_between_hands() -> None:
    table, ledger = timed_out_table()
    deal(table, SeededRandomSource(15), 0.0, ledger)
    with pytest.raises(NotAllowedNow, match="once the hand"):
        table.remove_idle(2, 1.0)
    play_out(table, SeededRandomSource(15), 1.0, ledger, passive_action)
    stack = table.seat_of(2).stack
    events = ledger.apply(table.remove_idle(2, 2.0))
    assert events == [CashedOut(2, stack), PlayerLeft(2, 2, "removed")]


def test_a_waiting_game_is_cancelled_with_every_buy_in_refunded() -> None:
    table = Table.create(house())
    ledger = rich(1, 2)
    ledger.apply(table.sit(1, 0.0, balance=ledger.balances[1]))
    ledger.apply(table.sit(2, 0.0, balance=ledger.balances[2]))
    events = ledger.apply(table.cancel(72 * 3600.0))
    assert [e for e in events if isinstance(e, BuyInRefunded)] == [
        BuyInRefunded(1, BUY_IN),
        BuyInRefunded(2, BUY_IN),
    ]
    assert ledger.total() == 2 * 10 * BUY_IN and not table.seats
    with pytest.raises(NotAllowedNow, match="cancelled"):
        table.start(1.0)
    with pytest.raises(NotAllowedNow, match="over"):
        table.sit(1, 1.0, balance=BUY_IN)


def test_deadlines_and_continue() -> None:
    table, ledger = timed_out_table()
    source = SeededRandomSource(16)
    assert table.turn_deadline() is None and table.deal_due() is None
    deal(table, source, 100.0, ledger)
    assert table.turn_deadline() == 220.0  # house: 120 s
    with pytest.raises(NotAllowedNow, match="still being played"):
        table.press_continue(1, 101.0)
    table.act(1, Action.call(), 130.0)
    assert table.turn_deadline() == 250.0  # the next player's clock
    play_out(table, source, 140.0, ledger, passive_action)
    assert table.turn_deadline() is None and table.deal_due() == 200.0  # 60 s to review
    assert not table.everyone_continued()
    for player in (1, 2):
        table.press_continue(player, 150.0)
    assert not table.everyone_continued()
    table.press_continue(3, 150.0)
    assert table.everyone_continued()
    deal(table, source, 151.0, ledger)
    assert not table.continued
