"""Tournaments: entries, the seat draw, eliminations and places, heads-up under the dead
button, absent players, the end and the prizes."""

from __future__ import annotations

import pytest

from cardroom.actions import Action
from cardroom.deck import SeededRandomSource, shuffled_deck
from cardroom.events import BlindPosted
from cardroom.table import (
    InvalidTableConfig,
    NotAllowedNow,
    Positions,
    Table,
    TableConfig,
    TableStatus,
)
from cardroom.table.events import (
    BuyInRefunded,
    ClockActed,
    HandDealt,
    PlayerEliminated,
    PrizePaid,
    SeatsDrawn,
    TournamentFinished,
)
from cardroom.table.tournament import payout_amounts, places_for_busts, prizes
from tests.table.kit import (
    Ledger,
    all_in_action,
    play_hand,
    play_out,
    random_action,
    rigged_deck,
    seated_table,
)
from tests.table.rules_check import PositionChecker

BUY_IN = 1000


def config(payouts: tuple[int, ...] | None = None, seats: int = 6) -> TableConfig:
    return TableConfig.create(
        "tournament", "house", buy_in=BUY_IN, seat_count=seats, payouts=payouts
    )


def field_of(n: int) -> Ledger:
    return Ledger({p: BUY_IN for p in range(1, n + 1)})


def test_entries_are_paid_into_the_prize_pool_and_refunded_before_the_start() -> None:
    ledger = field_of(3)
    table = Table.create(config())
    for p in (1, 2, 3):
        ledger.apply(table.sit(p, 0.0, balance=BUY_IN))
    assert table.prize_pool == 3 * BUY_IN and ledger.total() == 0
    assert ledger.apply(table.leave(3, 1.0))[0] == BuyInRefunded(3, BUY_IN)
    assert table.prize_pool == 2 * BUY_IN
    events = table.start(2.0, SeededRandomSource(1))
    assert isinstance(events[0], SeatsDrawn)
    with pytest.raises(NotAllowedNow, match="no more players"):
        table.sit(3, 3.0, balance=BUY_IN)
    with pytest.raises(NotAllowedNow, match="cannot leave a running tournament"):
        table.leave(1, 3.0)
    with pytest.raises(NotAllowedNow, match="stay in every hand"):
        table.sit_out(1, 3.0)
    with pytest.raises(NotAllowedNow, match="needs"):
        Table.create(config()).start(0.0, SeededRandomSource(1))


def test_seats_are_drawn_from_the_source() -> None:
    def draw(seed: int) -> tuple[tuple[int, int], ...]:
        table = seated_table(config(seats=9), {p: p for p in range(1, 6)}, field_of(5), seed=seed)
        return tuple(sorted((s.player, s.number) for s in table.seats.values()))

    assert draw(1) == draw(1)
    assert len({draw(seed) for seed in range(10)}) > 1


def play_to_the_end(table: Table, ledger: Ledger, seed: int) -> list[HandDealt]:
    source = SeededRandomSource(seed)
    checker = PositionChecker(table.config.button_rule, table.config.seat_count)
    hands = []
    for k in range(2000):
        if table.status is TableStatus.FINISHED:
            break
        events = play_hand(table, source, float(k), ledger, random_action)
        dealt = next(e for e in events if isinstance(e, HandDealt))
        checker.check(dealt)
        hands.append(dealt)
        assert table.chips_in_play() == table.entrants * BUY_IN
    assert table.status is TableStatus.FINISHED
    return hands


@pytest.mark.parametrize("seed", range(6))
def test_a_tournament_ends_when_one_player_holds_every_chip(seed: int) -> None:
    ledger = field_of(6)
    table = seated_table(config(), {p: p for p in range(1, 7)}, ledger, seed=seed)
    start = ledger.total() + table.money_held()
    play_to_the_end(table, ledger, seed)
    assert len(table.seats) == 1
    (winner_seat,) = table.seats.values()
    assert winner_seat.stack == 6 * BUY_IN
    places = dict(table.finishes)
    assert places[winner_seat.player] == 1 and len(places) == 6
    assert ledger.balances[winner_seat.player] == 6 * BUY_IN  # winner takes all
    assert ledger.total() == start and table.money_held() == 0


def test_payout_table_pays_every_cent() -> None:
    ledger = field_of(5)
    table = seated_table(config((50, 30, 20)), {p: p for p in range(1, 6)}, ledger, seed=9)
    hands = play_to_the_end(table, ledger, 9)
    assert hands
    paid = sorted(ledger.balances.values(), reverse=True)
    assert paid == [2500, 1500, 1000, 0, 0]


def test_payout_rounding() -> None:
    # 3 entries of $1.01: 50/30/20 of 303 cents is 151.5, 90.9 and 60.6
    assert payout_amounts(303, (50, 30, 20), 3) == [152, 91, 60]
    assert payout_amounts(1000, (65, 35), 9) == [650, 350]
    assert payout_amounts(999, (100,), 9) == [999]
    # two entrants and three paid places: the places that exist share in proportion
    assert payout_amounts(2000, (50, 30, 20), 2) == [1250, 750]


def test_players_busting_in_one_hand_finish_by_their_stacks_and_ties_share() -> None:
    assert places_for_busts([(1, 200), (2, 900), (3, 500)], 3) == [(2, 4), (3, 5), (1, 6)]
    places = [(9, 1), (7, 2), (8, 2)]
    assert prizes(1001, (50, 30, 20), 3, places) == [(9, 1, 501), (7, 2, 250), (8, 2, 250)]
    # 1003 pays 502, 301, 200: the shared 501 splits 251 (nearest the button's left), 250
    assert prizes(1003, (50, 30, 20), 3, places) == [(9, 1, 502), (7, 2, 251), (8, 2, 250)]


def test_payouts_the_rules_refuse() -> None:
    for bad in ((60, 30), (30, 70), (50, 30, 20, 0), (100, 0)):
        with pytest.raises(InvalidTableConfig):
            config(bad)
    with pytest.raises(InvalidTableConfig, match="money tournaments"):
        TableConfig.create("cash", "house", buy_in=BUY_IN, payouts=(65, 35))
    with pytest.raises(InvalidTableConfig, match="money tournaments"):
        TableConfig.create("tournament", "arena", buy_in=BUY_IN, blinds=(5, 10), payouts=(65, 35))


def test_three_to_two_under_the_dead_button_nobody_posts_the_big_blind_twice() -> None:
    for bust in range(3):  # bust the button, the small blind or the big blind
        ledger = field_of(3)
        table = seated_table(config(), {1: 1, 2: 2, 3: 3}, ledger, seed=bust)
        s = sorted(table.seats)
        table.positions = Positions(s[2], s[0], s[1])  # last hand: button, SB, BB
        victim = table.seats[s[bust]].player
        # the next hand (button s0, SB s1, BB s2): the victim loses everything and
        # the other two split with aces
        survivors = [n for n in s if n != s[bust]]
        hole = {s[bust]: "7c2d", survivors[0]: "AsAh", survivors[1]: "AdAc"}
        deck = rigged_deck(table, 0.0, hole, "KdQc9s5h3c")
        ledger.apply(table.deal(0.0, deck))
        assert table.positions == Positions(s[0], s[1], s[2])
        last_bb = table.hand_players[s[2]]
        play_out(table, SeededRandomSource(0), 0.0, ledger, all_in_action)
        assert victim not in table.players()
        assert table.status is TableStatus.PLAYING
        events = play_hand(table, SeededRandomSource(1), 1.0, ledger, all_in_action)
        dealt = next(e for e in events if isinstance(e, HandDealt))
        players = {seat: player for seat, player, _ in dealt.players}
        assert players[dealt.big_blind] != last_bb
        assert dealt.button == dealt.small_blind != dealt.big_blind


def test_an_absent_player_keeps_posting_and_is_checked_or_folded_by_the_clock() -> None:
    ledger = field_of(3)
    table = seated_table(config(), {1: 1, 2: 2, 3: 3}, ledger)
    absent = table.seats[min(table.seats)].player
    source = SeededRandomSource(3)
    now = 0.0
    timeouts = 0
    posted: list[BlindPosted] = []
    for _ in range(12):
        if table.status is TableStatus.FINISHED:
            break
        table.deal(now, shuffled_deck(source))
        assert table.hand is not None
        posted += [e for e in table.hand.events if isinstance(e, BlindPosted)]
        while table.hand_running:
            assert table.hand is not None
            seat = table.hand.seat_to_act or 0
            now += 121
            if table.hand_players[seat] == absent:
                events = table.time_out(now)
                timeouts += 1
                assert events[0] == ClockActed(absent, timeouts)
            else:
                legal = table.hand.legal_actions()
                action = Action.check() if legal.can_check else Action.call()
                table.act(table.hand_players[seat], action, now)
    assert timeouts >= 12
    absent_seat = table.seat_of(absent).number
    assert {e.blind for e in posted if e.seat == absent_seat} == {"small_blind", "big_blind"}
    assert absent in table.players()  # never cashed out or removed in a tournament


def test_elimination_events_name_the_place() -> None:
    ledger = field_of(3)
    table = seated_table(config((65, 35)), {1: 1, 2: 2, 3: 3}, ledger, seed=4)
    events = []
    source = SeededRandomSource(4)
    for k in range(500):
        if table.status is TableStatus.FINISHED:
            break
        events += play_hand(table, source, float(k), ledger, random_action)
    eliminated = [(e.player, e.place) for e in events if isinstance(e, PlayerEliminated)]
    finished = next(e for e in events if isinstance(e, TournamentFinished))
    assert sorted(p for _, p in eliminated) in ([2, 3], [2, 2])
    assert finished.places[0] == (finished.winner, 1)
    assert sum(e.amount for e in events if isinstance(e, PrizePaid)) == 3 * BUY_IN


def test_arena_example_the_player_left_of_the_big_blind_begins() -> None:
    # "Alice is the dealer. To her left sits Bob, who is the small blind (1 point).
    # Charlie is on his left and is the big blind (2 points). Because Alice sits to
    # the left of the big blind, she begins the betting round."
    arena = TableConfig.create("tournament", "arena", buy_in=100, seat_count=3, blinds=(1, 2))
    table = seated_table(arena, {1: 1, 2: 2, 3: 3}, Ledger(), seed=2)
    table.deal(0.0, list(range(52)))
    assert table.hand is not None and table.positions is not None
    alice = table.positions.button
    posted = [(e.seat, e.blind, e.amount) for e in table.hand.events if isinstance(e, BlindPosted)]
    bob, charlie = posted[0][0], posted[1][0]
    assert posted == [(bob, "small_blind", 1), (charlie, "big_blind", 2)]
    assert len({alice, bob, charlie}) == 3
    assert table.hand.seat_to_act == alice
