"""Property tests: random sequences of joins, leaves, sitting out, rebuys, hands and
timeouts conserve chips and money, never deal in a player who should not be, put the
button and blinds where the rules say, survive a JSON round trip at every step, and
leave the table untouched when they refuse a command."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.actions import IllegalAction
from cardroom.deck import SeededRandomSource, shuffled_deck
from cardroom.rules import Format
from cardroom.table import (
    Table,
    TableConfig,
    TableError,
    TableStatus,
    table_from_dict,
    table_to_dict,
)
from cardroom.table.events import HandDealt, TableEvent
from tests.table.kit import Ledger, random_action
from tests.table.rules_check import PositionChecker

BUY_IN = 1000
PLAYERS = range(1, 8)

hand = st.tuples(st.just("hand"), st.integers(0, 2**16), st.none())
command = st.one_of(
    hand,
    hand,
    hand,
    st.tuples(st.just("sit"), st.sampled_from(PLAYERS), st.none() | st.integers(1, 6)),
    st.tuples(st.just("leave"), st.sampled_from(PLAYERS), st.none()),
    st.tuples(st.just("sit_out"), st.sampled_from(PLAYERS), st.none()),
    st.tuples(st.just("sit_in"), st.sampled_from(PLAYERS), st.none()),
    st.tuples(st.just("rebuy"), st.sampled_from(PLAYERS), st.none()),
    st.tuples(st.just("deal"), st.integers(0, 2**16), st.none()),
    st.tuples(st.just("act"), st.integers(0, 2**16), st.integers(1, 12)),
    st.tuples(st.just("time_out"), st.integers(0, 1), st.none()),
    st.tuples(st.just("wait"), st.integers(1, 10_000), st.none()),
    st.tuples(st.just("balance"), st.sampled_from(PLAYERS), st.integers(0, 3 * BUY_IN)),
)


@dataclass
class Run:
    table: Table
    ledger: Ledger
    checker: PositionChecker
    now: float = 0.0
    granted: int = 0
    dealt: list[HandDealt] = field(default_factory=list)

    def apply(self, events: list[TableEvent]) -> None:
        self.ledger.apply(events)
        for event in events:
            if isinstance(event, HandDealt):
                self.checker.check(event)
                self.dealt.append(event)

    def deal(self, seed: int) -> None:
        table, fmt = self.table, self.table.format
        before = {n: (s.player, s.stack, s.sitting_out, s.waiting) for n, s in table.seats.items()}
        balances = dict(self.ledger.balances)
        events = table.deal(self.now, shuffled_deck(SeededRandomSource(seed)), balances=balances)
        self.apply(events)
        dealt = [e for e in events if isinstance(e, HandDealt)]
        if not dealt:
            return
        hand = dealt[0]
        can = {
            n
            for n, (player, stack, out, _) in before.items()
            if not out
            and (balances.get(player, 0) >= BUY_IN if fmt is Format.PER_HAND else stack > 0)
        }
        waiting = {n for n in can if before[n][3]}
        ready = can - waiting
        seats = {s for s, _, _ in hand.players}
        assert seats <= can  # nobody is dealt in who should not be
        assert ready <= seats  # nobody ready is left out
        late = seats & waiting
        if len(ready) >= 2:  # a waiting player comes in only on the big blind
            assert late <= {hand.big_blind}
        for seat, player, stack in hand.players:
            assert before[seat][0] == player
            assert stack == (BUY_IN if fmt is Format.PER_HAND else before[seat][1])

    def act(self, seed: int, steps: int) -> None:
        source = SeededRandomSource(seed)
        for _ in range(steps):
            hand = self.table.hand
            if hand is None or hand.is_over:
                return
            seat = hand.seat_to_act
            assert seat is not None
            player = self.table.hand_players[seat]
            self.now += 1
            self.apply(
                self.table.act(player, random_action(hand.legal_actions(), source), self.now)
            )

    def step(self, cmd: tuple[str, int, Any]) -> None:
        name, a, b = cmd
        table, ledger = self.table, self.ledger
        if name == "sit":
            self.apply(table.sit(a, self.now, balance=ledger.balances.get(a, 0), seat=b))
        elif name == "leave":
            self.apply(table.leave(a, self.now))
        elif name == "sit_out":
            self.apply(table.sit_out(a, self.now))
        elif name == "sit_in":
            self.apply(table.sit_in(a, self.now))
        elif name == "rebuy":
            self.apply(table.rebuy(a, self.now, balance=ledger.balances.get(a, 0)))
        elif name == "deal":
            self.deal(a)
        elif name == "act":
            self.act(a, b)
        elif name == "time_out":
            self.now += 10_000
            self.apply(table.time_out(self.now))
        elif name == "hand":
            if not table.hand_running:
                self.deal(a)
            self.act(a, 10_000)
        elif name == "wait":
            self.now += a
        elif name == "balance":  # money arrives from elsewhere (a grant)
            ledger.balances[a] = ledger.balances.get(a, 0) + b
            self.granted += b

    def check(self) -> None:
        assert self.ledger.total() + self.table.money_held() == self.granted
        data = table_to_dict(self.table)
        copy = table_from_dict(json.loads(json.dumps(data)))
        assert table_to_dict(copy) == data
        self.table = copy  # play on from the copy


def run_commands(config: TableConfig, commands: list[tuple[str, int, Any]]) -> Run:
    ledger = Ledger({p: 3 * BUY_IN for p in PLAYERS})
    table = Table.create(config)
    run = Run(table, ledger, PositionChecker(config.button_rule, config.seat_count))
    run.granted = ledger.total()
    for p in (1, 2, 3, 4):
        run.apply(table.sit(p, 0.0, balance=ledger.balances[p]))
    run.apply(table.start(0.0, SeededRandomSource(0)))
    for cmd in commands:
        before = table_to_dict(run.table)
        try:
            run.step(cmd)
        except (TableError, IllegalAction):
            # a refusal changes nothing
            assert table_to_dict(run.table) == before, cmd
        run.check()
    return run


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.lists(command, min_size=10, max_size=80))
def test_house_cash(commands: list[tuple[str, int, Any]]) -> None:
    run_commands(TableConfig.create("cash", "house", buy_in=BUY_IN, seat_count=6), commands)


@SETTINGS
@given(st.lists(command, min_size=10, max_size=80))
def test_legacy_cash(commands: list[tuple[str, int, Any]]) -> None:
    run_commands(TableConfig.create("cash", "legacy", buy_in=BUY_IN, seat_count=6), commands)


@SETTINGS
@given(st.lists(command, min_size=10, max_size=80))
def test_standard_per_hand(commands: list[tuple[str, int, Any]]) -> None:
    run_commands(TableConfig.create("per_hand", "standard", buy_in=BUY_IN, seat_count=6), commands)


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(["house", "legacy", "arena"]),
    st.integers(2, 10),
    st.integers(0, 2**32),
    st.sampled_from([None, (65, 35), (50, 30, 20)]),
)
def test_tournaments_conserve_chips_and_pay_the_whole_pool(
    preset: str, players: int, seed: int, payouts: tuple[int, ...] | None
) -> None:
    from cardroom.table.blinds import BlindSchedule

    if preset == "arena":
        payouts = None
    schedule = None if preset == "arena" else BlindSchedule.by_hands(5, 100)
    config = TableConfig.create(
        "tournament",
        preset,
        buy_in=BUY_IN,
        seat_count=10,
        blinds=(10, 20),
        schedule=schedule,
        payouts=payouts,
    )
    commands = [("hand", seed + k, None) for k in range(400)]
    ledger = Ledger({p: BUY_IN for p in range(1, players + 1)})
    table = Table.create(config)
    run = Run(table, ledger, PositionChecker(config.button_rule, config.seat_count))
    run.granted = ledger.total()
    for p in range(1, players + 1):
        run.apply(table.sit(p, 0.0, balance=BUY_IN))
    run.apply(table.start(0.0, SeededRandomSource(seed)))
    for cmd in commands:
        if run.table.status is TableStatus.FINISHED:
            break
        run.step(cmd)
        assert run.table.chips_in_play() == players * BUY_IN
        run.check()
    assert run.table.status is TableStatus.FINISHED
    places = dict(run.table.finishes)
    assert len(places) == players and sorted(places.values())[0] == 1
    if config.pays_money:
        assert ledger.total() == players * BUY_IN and run.table.prize_pool == 0
