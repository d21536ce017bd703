"""Long seeded sessions: hundreds of hands through joins, leaves, sitting out, busts,
rebuys, timeouts and blind levels, checking every button and blind position, who is
dealt in, the blinds of every hand and conservation after every command."""

from __future__ import annotations

import pytest

from cardroom.actions import IllegalAction
from cardroom.deck import SeededRandomSource
from cardroom.table import (
    BlindSchedule,
    Table,
    TableConfig,
    TableError,
    blinds_at_level,
    table_to_dict,
)
from tests.table.kit import Ledger
from tests.table.rules_check import PositionChecker
from tests.table.test_properties import BUY_IN, Run

NAMES = ("hand",) * 6 + ("sit", "leave", "sit_out", "sit_in", "rebuy", "act", "time_out", "wait")


def session(config: TableConfig, seed: int, commands: int = 600) -> Run:
    source = SeededRandomSource(seed)
    players = range(1, config.seat_count + 3)
    ledger = Ledger({p: 5 * BUY_IN for p in players})
    table = Table.create(config)
    run = Run(table, ledger, PositionChecker(config.button_rule, config.seat_count))
    run.granted = ledger.total()
    for p in range(1, 5):
        run.apply(table.sit(p, 0.0, balance=ledger.balances[p]))
    run.apply(table.start(0.0, source))
    for _ in range(commands):
        name = NAMES[source.randbelow(len(NAMES))]
        player = 1 + source.randbelow(len(players))
        arg = None if name == "sit" else 1 + source.randbelow(12)
        if name == "hand":
            player = source.randbelow(2**16)
        before = table_to_dict(run.table)
        try:
            run.step((name, player, arg))
        except (TableError, IllegalAction):
            assert table_to_dict(run.table) == before  # a refusal changes nothing
        run.check()
    return run


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_house_cash_session_with_a_blind_schedule(seed: int) -> None:
    config = TableConfig.create(
        "cash", "house", buy_in=BUY_IN, seat_count=6, schedule=BlindSchedule.by_hands(25, 50)
    )
    run = session(config, seed)
    assert run.checker.hands >= 50
    for hand in run.dealt:  # every hand at the level of the hands dealt before it
        assert hand.blinds == blinds_at_level(10, 20, 50, (hand.number - 1) // 25)
    sizes = {len(h.players) for h in run.dealt}
    assert 2 in sizes and max(sizes) >= 4  # heads-up and full-handed both played


@pytest.mark.parametrize("seed", [4, 5])
def test_legacy_cash_session(seed: int) -> None:
    config = TableConfig.create("cash", "legacy", buy_in=BUY_IN, seat_count=9)
    assert session(config, seed).checker.hands >= 50


@pytest.mark.parametrize("seed", [6, 7])
def test_standard_per_hand_session(seed: int) -> None:
    config = TableConfig.create("per_hand", "standard", buy_in=BUY_IN, seat_count=6)
    assert session(config, seed).checker.hands >= 50
