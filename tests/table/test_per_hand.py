"""Per-hand tables (standard): every hand is its own buy-in."""

from __future__ import annotations

import pytest

from cardroom.actions import Action
from cardroom.deck import SeededRandomSource
from cardroom.table import InvalidTableConfig, Table, TableConfig
from cardroom.table.events import (
    HandBoughtIn,
    HandDealt,
    HandSettled,
    PlayerLeft,
    PlayerSeated,
    TablePaused,
    TableResumed,
)
from tests.table.kit import Ledger, deal, play_hand, play_out, seated_table

BUY_IN = 1000


def standard(seats: int = 6) -> TableConfig:
    return TableConfig.create("per_hand", "standard", buy_in=BUY_IN, seat_count=seats)


def test_the_big_blind_is_a_fiftieth_of_the_buy_in() -> None:
    config = standard()
    assert (config.small_blind, config.big_blind) == (10, 20)
    with pytest.raises(InvalidTableConfig, match="1/50 of the buy-in: 10/20"):
        TableConfig.create("per_hand", "standard", buy_in=BUY_IN, blinds=(25, 50))
    with pytest.raises(InvalidTableConfig, match="no cash games"):
        TableConfig.create("cash", "standard", buy_in=BUY_IN)


def test_sitting_down_needs_the_buy_in_in_the_balance_but_takes_nothing() -> None:
    table = Table.create(standard())
    assert table.sit(1, 0.0, balance=BUY_IN) == [PlayerSeated(1, 1, 0, False)]


def test_players_with_the_buy_in_are_dealt_in_with_exactly_that_and_settle_after() -> None:
    ledger = Ledger({1: 5 * BUY_IN, 2: BUY_IN, 3: BUY_IN + 1, 4: BUY_IN})
    table = seated_table(standard(), {1: 1, 2: 2, 3: 3, 4: 4}, ledger)
    ledger.balances[4] = BUY_IN - 1  # spent elsewhere: sits this hand out
    total = ledger.total()
    events = deal(table, SeededRandomSource(1), 0.0, ledger)
    dealt = next(e for e in events if isinstance(e, HandDealt))
    assert [(s, stack) for s, _, stack in dealt.players] == [(1, BUY_IN), (2, BUY_IN), (3, BUY_IN)]
    assert [e for e in events if isinstance(e, HandBoughtIn)] == [
        HandBoughtIn(p, BUY_IN) for p in (1, 2, 3)
    ]
    assert ledger.balances[2] == 0 and ledger.total() + table.money_held() == total
    events = play_out(table, SeededRandomSource(2), 1.0, ledger)
    settled = {e.player: e.amount for e in events if isinstance(e, HandSettled)}
    assert set(settled) == {1, 2, 3} and sum(settled.values()) == 3 * BUY_IN
    assert table.money_held() == 0 and ledger.total() == total
    assert all(seat.stack == 0 for seat in table.seats.values())


def test_blinds_never_rise_and_nobody_is_knocked_out() -> None:
    ledger = Ledger({p: 20 * BUY_IN for p in (1, 2, 3)})
    table = seated_table(standard(), {1: 1, 2: 3, 3: 5}, ledger)
    source = SeededRandomSource(3)
    for k in range(30):
        events = play_hand(table, source, float(k), ledger)
        assert next(e for e in events if isinstance(e, HandDealt)).blinds == (10, 20)
    assert len(table.seats) == 3


def test_the_table_pauses_while_fewer_than_two_can_pay() -> None:
    ledger = Ledger({1: BUY_IN, 2: BUY_IN})
    table = seated_table(standard(), {1: 1, 2: 2}, ledger)
    ledger.balances[2] = 0
    events = table.deal(0.0, list(range(52)), balances=ledger.balances)
    assert events == [TablePaused("players")]
    assert table.deal(1.0, list(range(52)), balances=ledger.balances) == []
    ledger.balances[2] = BUY_IN
    events = deal(table, SeededRandomSource(4), 2.0, ledger)
    assert events[0] == TableResumed("players")


def test_folding_and_leaving_settles_at_once() -> None:
    ledger = Ledger({p: BUY_IN for p in (1, 2, 3)})
    table = seated_table(standard(), {1: 1, 2: 2, 3: 3}, ledger)
    deal(table, SeededRandomSource(5), 0.0, ledger)  # button 1 acts first
    table.act(1, Action.fold(), 1.0)
    events = ledger.apply(table.leave(1, 2.0))
    assert events == [HandSettled(1, BUY_IN), PlayerLeft(1, 1, "left")]
    assert ledger.balances[1] == BUY_IN


def test_three_timeouts_unseat_the_player() -> None:
    ledger = Ledger({p: 10 * BUY_IN for p in (1, 2)})
    table = seated_table(standard(), {1: 1, 2: 2}, ledger)
    source = SeededRandomSource(6)
    now = 0.0
    for _ in range(3):
        deal(table, source, now, ledger)
        while table.hand_running:
            assert table.hand is not None
            now += 31
            if table.hand.seat_to_act == 1:
                ledger.apply(table.time_out(now))
            else:
                ledger.apply(
                    table.act(
                        2,
                        Action.check() if table.hand.legal_actions().can_check else Action.call(),
                        now,
                    )
                )
    assert list(table.seats) == [2]
    assert ledger.total() == 20 * BUY_IN
