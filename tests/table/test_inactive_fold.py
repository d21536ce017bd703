"""The host's fold of an inactive player waits at least as long as the player's own
turn clock (issue 17, finding 2): a game's shorter wait never lets a host take a
thinking player's hand while the clock still gives them time."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardroom.deck import SeededRandomSource
from cardroom.rules import preset
from cardroom.table import NotAllowedNow, Table, TableConfig
from cardroom.table.durations import spoken
from tests.table.kit import Ledger, deal, seated_table

BUY_IN = 1000


def table_with(clock: int | None, wait: int, preset_name: str = "house") -> Table:
    rules = replace(preset(preset_name), turn_clock_seconds=clock, inactive_fold_after_seconds=wait)
    config = TableConfig.create("cash", rules, buy_in=BUY_IN, seat_count=6)
    ledger = Ledger({p: 10 * BUY_IN for p in (1, 2, 3)})
    table = seated_table(config, {1: 1, 2: 2, 3: 3}, ledger)
    deal(table, SeededRandomSource(10), 0.0, ledger)
    return table


def to_act(table: Table) -> int:
    assert table.hand is not None and table.hand.seat_to_act is not None
    return table.seats[table.hand.seat_to_act].player


def test_a_one_minute_wait_under_a_ten_minute_clock_waits_for_the_clock() -> None:
    table = table_with(clock=600, wait=60)
    player = to_act(table)
    with pytest.raises(
        NotAllowedNow, match=r"after 10 minutes without acting: in 8 minutes 58 seconds\."
    ):
        table.fold_inactive(player, 62.0)
    with pytest.raises(NotAllowedNow, match=r"in 1 second\."):
        table.fold_inactive(player, 599.5)
    table.fold_inactive(player, 600.0)
    assert table.hand is not None and table.hand.folded[table.hand.seats.index(player)]


def test_a_wait_longer_than_the_clock_is_kept() -> None:
    table = table_with(clock=600, wait=3600)
    player = to_act(table)
    with pytest.raises(NotAllowedNow, match=r"after 1 hour without acting: in 50 minutes\."):
        table.fold_inactive(player, 600.0)
    table.fold_inactive(player, 3600.0)


def test_legacy_with_a_two_day_clock_waits_48_hours() -> None:
    table = table_with(clock=2 * 86400, wait=86400, preset_name="legacy")
    player = to_act(table)
    with pytest.raises(NotAllowedNow, match=r"after 48 hours without acting: in 24 hours\."):
        table.fold_inactive(player, 86400.0)
    table.fold_inactive(player, 2 * 86400.0)


def test_spoken_durations() -> None:
    assert spoken(598) == "9 minutes 58 seconds"
    assert spoken(0.2) == "1 second"
    assert spoken(0) == "0 seconds"
    assert spoken(86400 + 3600 + 61) == "25 hours 1 minute 1 second"
    assert spoken(-5) == "0 seconds"
