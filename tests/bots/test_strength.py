"""The starting-hand table and equity against ranges."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from cardroom.bots.preflop_table import PREFLOP_EQUITY, PREFLOP_ORDER
from cardroom.bots.strength import (
    ANY_HAND,
    COMBOS,
    Read,
    combo_percentiles,
    deal_from,
    equity_against,
    hand_class,
    preflop_percentile,
)
from cardroom.cards import parse_cards
from cardroom.equity import equity


def cards(text: str) -> list[int]:
    return list(parse_cards(text))


def test_the_table_has_every_starting_hand_once() -> None:
    assert len(PREFLOP_ORDER) == len(set(PREFLOP_ORDER)) == 169
    assert set(PREFLOP_EQUITY) == set(PREFLOP_ORDER)
    every = {hand_class(a, b) for a, b in itertools.combinations(range(52), 2)}
    assert every == set(PREFLOP_ORDER)
    assert all(len(v) == 9 for v in PREFLOP_EQUITY.values())


def test_the_order_is_by_equity_against_one_random_hand() -> None:
    heads_up = [PREFLOP_EQUITY[name][0] for name in PREFLOP_ORDER]
    assert heads_up == sorted(heads_up, reverse=True)
    assert PREFLOP_ORDER[:3] == ("AA", "KK", "QQ")
    assert PREFLOP_ORDER.index("AKs") < PREFLOP_ORDER.index("AKo") < PREFLOP_ORDER.index("KQo")
    assert set(PREFLOP_ORDER[-3:]) <= {"32o", "42o", "52o", "62o", "72o", "43o", "82o"}
    # equity falls with every extra opponent
    for values in PREFLOP_EQUITY.values():
        assert list(values) == sorted(values, reverse=True)


def test_the_table_agrees_with_exact_figures() -> None:
    # published: AA 85.2 % against one random hand, 72o 34.6 %; checked here exactly
    # against a few fixed hands instead: AA beats KK 81.9 % of the time
    assert PREFLOP_EQUITY["AA"][0] == pytest.approx(0.852, abs=0.003)
    assert PREFLOP_EQUITY["72o"][0] == pytest.approx(0.346, abs=0.005)
    assert PREFLOP_EQUITY["AKs"][0] == pytest.approx(0.670, abs=0.004)


def test_percentiles() -> None:
    aces = cards("As Ah")
    assert preflop_percentile(*aces) == pytest.approx(6 / 1326)
    assert preflop_percentile(*cards("7c 2d")) > 0.95
    assert preflop_percentile(*cards("3c 2d")) == 1.0  # the worst heads-up
    assert preflop_percentile(*cards("As Ks")) < preflop_percentile(*cards("As Kd"))
    table = combo_percentiles()
    assert table.shape == (1326,) and table.max() == 1.0
    assert np.count_nonzero(table <= 6 / 1326) == 6  # the six combinations of aces


def test_hand_class() -> None:
    assert hand_class(*cards("As Ks")) == "AKs"
    assert hand_class(*cards("Kd As")) == "AKo"
    assert hand_class(*cards("2c 2d")) == "22"
    assert COMBOS.shape == (1326, 2)


def test_deal_from_gives_distinct_uniform_cards() -> None:
    rng = np.random.default_rng(5)
    left = np.arange(10, 30, dtype=np.uint8)
    dealt = deal_from(rng, left, 20_000, 7)
    assert dealt.shape == (20_000, 7)
    assert (np.sort(dealt, axis=1)[:, 1:] != np.sort(dealt, axis=1)[:, :-1]).all()
    assert set(np.unique(dealt).tolist()) == set(range(10, 30))
    counts = np.bincount(dealt[:, 3], minlength=30)[10:]
    expected = 20_000 / 20
    assert np.abs(counts - expected).max() < 5 * math.sqrt(expected)


def test_equity_against_random_hands_matches_the_table_and_the_exact_count() -> None:
    rng = np.random.default_rng(1)
    got = equity_against(cards("As Ah"), [], [ANY_HAND], rng, samples=40_000)
    assert got == pytest.approx(PREFLOP_EQUITY["AA"][0], abs=0.01)
    three = equity_against(cards("As Ah"), [], [ANY_HAND] * 3, rng, samples=40_000)
    assert three == pytest.approx(PREFLOP_EQUITY["AA"][2], abs=0.01)
    # on the turn against one random hand: the exact answer, averaged over the hands
    hole, board = cards("Jh Th"), cards("9h 8c 2d 3s")
    left = [c for c in range(52) if c not in {*hole, *board}]
    exact = sum(
        equity([hole, list(pair)], board).equities[0] for pair in itertools.combinations(left, 2)
    ) / math.comb(len(left), 2)
    sampled = equity_against(hole, board, [ANY_HAND], rng, samples=40_000)
    assert sampled == pytest.approx(exact, abs=0.01)


def test_a_narrow_range_is_harder_to_beat() -> None:
    rng = np.random.default_rng(2)
    hole = cards("Ks Jd")
    loose = equity_against(hole, [], [Read(top=1.0)], rng, samples=20_000)
    tight = equity_against(hole, [], [Read(top=0.07)], rng, samples=20_000)
    assert tight < loose - 0.1
    # a middle pair against someone who bet twice after the flop
    board = cards("Qc 9d 4s 2h")
    nines = cards("9c 8c")
    passive = equity_against(nines, board, [Read(top=0.5)], rng, samples=20_000)
    betting = equity_against(nines, board, [Read(top=0.5, keep=0.25)], rng, samples=20_000)
    assert betting < passive - 0.1


def test_a_range_too_narrow_for_the_cards_left_still_deals() -> None:
    # only aces in range, and three of them are out: the best hands left are dealt
    rng = np.random.default_rng(3)
    got = equity_against(cards("As Ah"), cards("Ad 7c 2h"), [Read(top=0.004)], rng, samples=2000)
    assert 0.0 <= got <= 1.0


def test_equity_against_is_deterministic_given_the_generator() -> None:
    args = (cards("Ts 9s"), cards("8s 7d 2c"), [Read(0.3, 0.5), ANY_HAND])
    a = equity_against(*args, np.random.default_rng(9), samples=3000)
    b = equity_against(*args, np.random.default_rng(9), samples=3000)
    assert a == b


def test_no_opponents_means_the_pot_is_ours() -> None:
    assert equity_against(cards("2c 7d"), [], [], np.random.default_rng(0)) == 1.0
