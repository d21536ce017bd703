"""Blind schedules: the documented rounding, arena's doubling, levels by hands and by
minutes (the level on the clock when a hand is dealt), and which presets allow what."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.deck import SeededRandomSource
from cardroom.table import BlindSchedule, InvalidTableConfig, TableConfig, blinds_at_level
from cardroom.table.blinds import default_blinds, raise_blinds
from cardroom.table.events import BlindsRaised, HandDealt
from tests.table.kit import Ledger, passive_action, play_hand, seated_table


def sequence(small: int, big: int, rate: int, steps: int = 3) -> list[tuple[int, int]]:
    return [blinds_at_level(small, big, rate, k) for k in range(1, steps + 1)]


def test_documented_sequences() -> None:
    # RULES.md: "5/10 at +50% goes 8/16, 12/24, 18/36; 3/6 at +25% goes 4/8, 5/10,
    # 6/12; 1/2 at +25% goes 2/4, 3/6, 4/8."
    assert sequence(5, 10, 50) == [(8, 16), (12, 24), (18, 36)]
    assert sequence(3, 6, 25) == [(4, 8), (5, 10), (6, 12)]
    assert sequence(1, 2, 25) == [(2, 4), (3, 6), (4, 8)]


def test_odd_ratios_are_kept_exactly() -> None:
    # 10/25 is 5 x (2, 5); 5 x 1.5 = 7.5 rounds half up to 8
    assert raise_blinds(10, 25, 50) == (16, 40)
    # 1/3 at +10%: 1.1 rounds to 1, so at least m + 1 = 2
    assert raise_blinds(1, 3, 10) == (2, 6)
    # 7/7 (equal blinds) stay equal
    assert raise_blinds(7, 7, 50) == (11, 11)


def test_documented_odd_sequences() -> None:
    # docs/tables.md
    assert sequence(10, 25, 50) == [(16, 40), (24, 60), (36, 90)]
    assert sequence(1, 3, 10) == [(2, 6), (3, 9), (4, 12)]


def test_arena_doubles() -> None:
    assert sequence(10, 20, 100) == [(20, 40), (40, 80), (80, 160)]


@given(
    st.integers(1, 500),
    st.integers(1, 500),
    st.integers(1, 300),
)
def test_every_raise_keeps_the_ratio_and_rounds_half_up(s: int, extra: int, rate: int) -> None:
    b = s + extra - 1  # b >= s
    new_s, new_b = raise_blinds(s, b, rate)
    m = math.gcd(s, b)
    new_m = math.gcd(new_s, new_b)
    assert (new_s * b) == (new_b * s)  # same ratio
    assert new_s // (s // m) == new_m  # the same smallest pair
    exact = m * (100 + rate) / 100
    assert new_m == max(m + 1, math.floor(exact + 0.5))


def test_default_blinds_are_a_fiftieth_of_the_buy_in() -> None:
    assert default_blinds(1000, 50) == (10, 20)
    assert default_blinds(100, 50) == (1, 2)
    assert default_blinds(150, 50) == (1, 3)


def test_levels_by_hands_and_minutes() -> None:
    every3 = BlindSchedule.by_hands(3, 50)
    assert [every3.level_at(h, 0) for h in range(7)] == [0, 0, 0, 1, 1, 1, 2]
    every10min = BlindSchedule.by_minutes(10, 50)
    assert every10min.level_at(99, 599.9) == 0
    assert every10min.level_at(0, 600) == 1
    assert every10min.level_at(0, 1500) == 2
    assert BlindSchedule.fixed().level_at(1000, 10**9) == 0


def house_tournament(schedule: BlindSchedule) -> TableConfig:
    return TableConfig.create(
        "tournament", "house", buy_in=100_000, seat_count=3, blinds=(5, 10), schedule=schedule
    )


def big_blinds_posted(config: TableConfig, times: list[float]) -> list[tuple[int, int]]:
    ledger = Ledger({p: 100_000 for p in (1, 2, 3)})
    table = seated_table(config, {1: 1, 2: 2, 3: 3}, ledger)
    source = SeededRandomSource(3)
    out = []
    for now in times:
        events = play_hand(table, source, now, ledger, passive_action)
        dealt = next(e for e in events if isinstance(e, HandDealt))
        out.append(dealt.blinds)
    return out


def test_blinds_rise_every_n_hands_at_a_table() -> None:
    blinds = big_blinds_posted(house_tournament(BlindSchedule.by_hands(2, 50)), [0.0] * 7)
    assert blinds == [(5, 10), (5, 10), (8, 16), (8, 16), (12, 24), (12, 24), (18, 36)]


def test_blind_level_by_minutes_is_the_one_on_the_clock_when_the_hand_is_dealt() -> None:
    config = house_tournament(BlindSchedule.by_minutes(10, 50))
    ledger = Ledger({p: 100_000 for p in (1, 2, 3)})
    table = seated_table(config, {1: 1, 2: 2, 3: 3}, ledger, now=1000.0)
    source = SeededRandomSource(4)
    # dealt at 9:59, played to 10:30: the whole hand is at level 0
    events = play_hand(table, source, 1000.0 + 599, ledger, passive_action)
    assert not any(isinstance(e, BlindsRaised) for e in events)
    assert table.big_blind == 10
    # dealt at 10:01: level 1; dealt at 35:00: straight to level 3
    events = play_hand(table, source, 1000.0 + 601, ledger, passive_action)
    assert BlindsRaised(1, 8, 16) in events
    events = play_hand(table, source, 1000.0 + 2100, ledger, passive_action)
    assert BlindsRaised(3, 18, 36) in events


def test_the_blind_clock_stands_still_while_the_host_pauses_the_table() -> None:
    config = house_tournament(BlindSchedule.by_minutes(10, 50))
    ledger = Ledger({p: 100_000 for p in (1, 2, 3)})
    table = seated_table(config, {1: 1, 2: 2, 3: 3}, ledger, now=0.0)
    table.pause(60.0)
    table.resume(60.0 + 3600)
    source = SeededRandomSource(5)
    play_hand(table, source, 3600 + 500.0, ledger, passive_action)  # 8:20 on the clock
    assert table.level == 0
    play_hand(table, source, 3600 + 700.0, ledger, passive_action)  # 10:40 on the clock
    assert table.level == 1


@pytest.mark.parametrize(
    ("format", "preset", "schedule"),
    [
        ("per_hand", "standard", BlindSchedule.by_hands(10, 50)),  # blinds never rise
        ("cash", "legacy", BlindSchedule.by_hands(10, 50)),  # tournament levels only
        ("tournament", "arena", BlindSchedule.by_hands(10, 50)),  # arena doubles
        ("tournament", "arena", BlindSchedule.by_minutes(10, 100)),
        ("cash", "house", BlindSchedule(every_hands=5, every_minutes=5, rate_percent=50)),
        ("cash", "house", BlindSchedule(every_hands=5)),
        ("cash", "house", BlindSchedule(every_hands=0, rate_percent=50)),
    ],
)
def test_schedules_the_rules_do_not_allow_are_refused(
    format: str, preset: str, schedule: BlindSchedule
) -> None:
    with pytest.raises(InvalidTableConfig):
        TableConfig.create(format, preset, buy_in=1000, blinds=(5, 10), schedule=schedule)


def test_schedules_the_rules_allow() -> None:
    legacy = TableConfig.create(
        "tournament", "legacy", buy_in=1000, schedule=BlindSchedule.by_minutes(15, 50)
    )
    assert legacy.schedule.every_minutes == 15
    house_cash = TableConfig.create(
        "cash", "house", buy_in=1000, schedule=BlindSchedule.by_hands(20, 25)
    )
    assert house_cash.schedule.rate_percent == 25
    arena = TableConfig.create("tournament", "arena", buy_in=1000, blinds=(5, 10))
    assert arena.schedule == BlindSchedule.by_hands(10, 100)
