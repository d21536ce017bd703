"""Equity: exact enumeration against published figures and a slow independent count,
sampling within its error, ties split, every table size."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import parse_cards
from cardroom.equity import (
    EXACT_WORK_LIMIT,
    SHARE_POINTS,
    EquityError,
    board_combinations,
    equity,
    equity_by_street,
    exact_work,
)
from cardroom.evaluator import evaluate7


def hands_of(*texts: str) -> list[list[int]]:
    return [list(parse_cards(t)) for t in texts]


def slow_equity(
    hands: Sequence[Sequence[int]], board: Sequence[int], dead: Sequence[int] = ()
) -> tuple[list[Fraction], int]:
    """Every board by itertools, every hand by evaluate7, shares as fractions."""
    known = {c for h in hands for c in h} | set(board) | set(dead)
    left = [c for c in range(52) if c not in known]
    shares = [Fraction(0)] * len(hands)
    boards = 0
    for rest in itertools.combinations(left, 5 - len(board)):
        full = list(board) + list(rest)
        ranks = [evaluate7(h[0], h[1], *full) for h in hands]
        best = max(ranks)
        winners = [i for i, r in enumerate(ranks) if r == best]
        for i in winners:
            shares[i] += Fraction(1, len(winners))
        boards += 1
    return [s / boards for s in shares], boards


def exact_fractions(points: Sequence[int], boards: int) -> list[Fraction]:
    return [Fraction(p, boards * SHARE_POINTS) for p in points]


# ------------------------------------------------------------------ combinations


@pytest.mark.parametrize(("n", "k"), [(4, 2), (10, 3), (7, 0), (5, 5), (12, 5), (9, 1), (52, 2)])
def test_board_combinations_match_itertools(n: int, k: int) -> None:
    got = board_combinations(n, k)
    assert got.shape == (k, math.comb(n, k))
    colex = sorted(itertools.combinations(range(n), k), key=lambda c: c[::-1])
    assert got.T.tolist() == [list(c) for c in colex]
    assert not got.flags.writeable


def test_heads_up_preflop_has_every_board() -> None:
    combos = board_combinations(48, 5)
    assert combos.shape == (5, 1_712_304)
    assert (np.diff(combos, axis=0) > 0).all()  # increasing within a board
    assert int(combos.max()) == 47
    assert board_combinations(52, 5).shape == (5, 2_598_960)


# ------------------------------------------------------------ published figures


def test_aces_against_kings_preflop() -> None:
    # one suit shared: the usual "AA vs KK" figure, 81.9 % / 18.1 %
    result = equity(hands_of("AsAh", "KsKd"))
    assert result.exact
    assert result.boards == 1_712_304
    assert result.percentages == (81.9, 18.1)
    assert sum(result.points) == result.boards * SHARE_POINTS
    assert result.wins[0] + result.wins[1] + result.ties[0] == result.boards


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("AsAh", "KdKc", (81.3, 18.7)),  # no suit shared
        ("AsAh", "KsKh", (82.6, 17.4)),  # both suits shared
        ("AsKs", "QdQc", (46.2, 53.8)),  # the classic race
        ("AhKh", "2c2d", (50.1, 49.9)),
    ],
)
def test_known_preflop_matchups(a: str, b: str, expected: tuple[float, float]) -> None:
    assert equity(hands_of(a, b)).percentages == expected


# ------------------------------------------------------ against a slow count


@pytest.mark.parametrize(
    ("hands", "board", "dead"),
    [
        (("AsAh", "KsKh"), "2c 7d 9h Tc", ""),  # turn
        (("AsKd", "QhQc", "7s6s"), "8s 9d 2s Kc", ""),  # three-way turn
        (("AsKd", "QhQc"), "8s 9d 2s Kc 3h", ""),  # river: one board
        (("Td9d", "AcAh"), "8d 7c 2d", "Ad 3d"),  # flop with dead cards
        (("2c3c", "2d3d", "2h3h", "2s3s"), "Ah Kh Qd", "JcJdJh"),  # split pots everywhere
    ],
)
def test_exact_matches_slow_count(hands: tuple[str, ...], board: str, dead: str) -> None:
    holes = hands_of(*hands)
    cards = list(parse_cards(board))
    out = list(parse_cards(dead))
    result = equity(holes, cards, out)
    expected, boards = slow_equity(holes, cards, out)
    assert result.exact
    assert result.boards == boards
    assert exact_fractions(result.points, boards) == expected
    assert result.equities == pytest.approx([float(e) for e in expected])


@st.composite
def small_deals(draw: st.DrawFn) -> tuple[list[list[int]], list[int], list[int]]:
    """2 to 10 hands, any board, and enough dead cards that at most ~500 boards remain
    (so the slow count stays quick)."""
    players = draw(st.integers(2, 10))
    board_size = draw(st.sampled_from([0, 3, 4, 5]))
    deck = draw(st.permutations(range(52)))
    holes = [list(deck[2 * i : 2 * i + 2]) for i in range(players)]
    pos = 2 * players
    board = list(deck[pos : pos + board_size])
    pos += board_size
    need = 5 - board_size
    left = 52 - pos
    dead_count = 0
    while math.comb(left - dead_count, need) > 500:
        dead_count += 1
    dead_count = draw(st.integers(dead_count, min(left - need, dead_count + 3)))
    return holes, board, list(deck[pos : pos + dead_count])


@settings(max_examples=40, deadline=None)
@given(small_deals())
def test_exact_matches_slow_count_on_random_deals(
    deal: tuple[list[list[int]], list[int], list[int]],
) -> None:
    holes, board, dead = deal
    result = equity(holes, board, dead)
    expected, boards = slow_equity(holes, board, dead)
    assert result.exact
    assert result.boards == boards
    assert exact_fractions(result.points, boards) == expected
    assert sum(result.points) == boards * SHARE_POINTS


# ------------------------------------------------------------------- ties


def test_a_royal_flush_on_the_board_splits_every_pot() -> None:
    result = equity(hands_of("2c3d", "4h5h", "7s8c"), parse_cards("As Ks Qs Js Ts"))
    assert result.exact and result.boards == 1
    assert result.equities == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    assert result.wins == (0, 0, 0)
    assert result.ties == (1, 1, 1)
    assert result.points == (SHARE_POINTS // 3,) * 3


def test_same_hand_in_other_suits_mostly_ties() -> None:
    result = equity(hands_of("AsKd", "AhKc"))
    assert result.equities[0] == pytest.approx(0.5, abs=1e-9)
    assert result.ties[0] == result.ties[1] > 0.9 * result.boards
    assert result.wins[0] == result.wins[1]  # the flushes each way balance out


def test_ties_split_unevenly_by_count() -> None:
    # on the river: two hands tie for the best, the third loses
    result = equity(hands_of("AcKd", "AhKs", "2c2d"), parse_cards("Qs Jh Td 7c 4s"))
    assert result.points == (SHARE_POINTS // 2, SHARE_POINTS // 2, 0)
    assert result.ties == (1, 1, 0)


# ---------------------------------------------------------------- 10 players


def test_ten_players_preflop_exact() -> None:
    holes = hands_of("AsAh", "KsKh", "QsQh", "JsJh", "TsTh", "9s9h", "8s8h", "7s7h", "6s6h", "5s5h")
    result = equity(holes)
    assert result.exact
    assert result.boards == math.comb(32, 5)
    assert sum(result.points) == result.boards * SHARE_POINTS
    assert result.equities[0] == max(result.equities)
    assert all(0 < e < 1 for e in result.equities)


def test_ten_players_on_the_turn_against_the_slow_count() -> None:
    holes = hands_of("AsAh", "KsKh", "QsQh", "JsJh", "TsTh", "9s9h", "8s8h", "7s7h", "6s6h", "5c5h")
    board = list(parse_cards("2s 3s 4d 9c"))
    result = equity(holes, board)
    expected, boards = slow_equity(holes, board)
    assert exact_fractions(result.points, boards) == expected


# ---------------------------------------------------------------- sampling


def test_sampling_is_within_its_error_of_the_exact_answer() -> None:
    holes = hands_of("AsAh", "KsKd")
    exact = equity(holes)
    sampled = equity(holes, rng=np.random.default_rng(7), exact_limit=0, samples=100_000)
    assert not sampled.exact
    assert sampled.boards == 100_000
    assert sum(sampled.points) == sampled.boards * SHARE_POINTS
    error = math.sqrt(0.82 * 0.18 / 100_000)  # about 0.12 %
    assert abs(sampled.equities[0] - exact.equities[0]) < 4 * error


def test_sampling_a_multiway_flop() -> None:
    holes = hands_of("AsKs", "7c7d", "JhTh", "2c2d", "9s8s", "AcQc")
    board = list(parse_cards("Qs 8c 2h"))
    exact = equity(holes, board)
    sampled = equity(holes, board, rng=np.random.default_rng(3), exact_limit=0, samples=50_000)
    for e, s in zip(exact.equities, sampled.equities, strict=True):
        assert abs(e - s) < 4 * math.sqrt(max(e * (1 - e), 0.01) / 50_000)


def test_sampling_is_deterministic_given_the_generator() -> None:
    holes = hands_of("AsAh", "KsKd", "7c2d")
    a = equity(holes, rng=np.random.default_rng(11), exact_limit=0, samples=20_000)
    b = equity(holes, rng=np.random.default_rng(11), exact_limit=0, samples=20_000)
    c = equity(holes, rng=np.random.default_rng(12), exact_limit=0, samples=20_000)
    assert a == b
    assert a != c


def test_sampled_boards_avoid_known_cards() -> None:
    # only six cards left for the last two board cards: every sample must use them
    holes = hands_of("AsAh", "KsKd")
    board = list(parse_cards("2c 3c 4c"))
    dead = [c for c in range(52) if c not in {*holes[0], *holes[1], *board}][6:]
    exact = equity(holes, board, dead)
    sampled = equity(holes, board, dead, rng=np.random.default_rng(1), exact_limit=0)
    assert exact.boards == math.comb(6, 2)
    assert abs(sampled.equities[0] - exact.equities[0]) < 0.01


# ---------------------------------------------------------------- threshold


def test_the_threshold_chooses_the_method() -> None:
    holes = hands_of("AsAh", "KsKd")
    flop = list(parse_cards("2c 7d 9h"))
    work = exact_work(2, 3)
    assert work == 2 * 990
    rng = np.random.default_rng(0)
    assert equity(holes, flop, exact_limit=work, rng=rng).exact
    below = equity(holes, flop, exact_limit=work - 1, rng=rng, samples=5000)
    assert not below.exact and below.boards == 5000
    assert exact_work(2, 0) == 2 * 1_712_304 <= EXACT_WORK_LIMIT


def test_a_full_board_is_never_sampled() -> None:
    result = equity(hands_of("AsAh", "KsKd"), parse_cards("2c 7d 9h Tc Kh"), exact_limit=0)
    assert result.exact and result.boards == 1 and result.equities == (0.0, 1.0)


def test_every_preflop_all_in_is_exact_without_dead_cards() -> None:
    for players in range(2, 11):
        assert exact_work(players, 0) <= EXACT_WORK_LIMIT


def test_sampling_without_a_generator_is_refused() -> None:
    with pytest.raises(EquityError, match="random generator"):
        equity(hands_of("AsAh", "KsKd"), exact_limit=0)


# ---------------------------------------------------------------- run-outs


def test_equity_by_street_for_a_preflop_all_in() -> None:
    holes = hands_of("AsAh", "KsKd")
    board = list(parse_cards("2c 7d Kh 9s 3c"))
    steps = equity_by_street(holes, board)
    assert [n for n, _ in steps] == [0, 3, 4]
    assert steps[0][1] == equity(holes)
    assert steps[1][1] == equity(holes, board[:3])
    assert steps[2][1].equities[1] > 0.9  # the king on the flop


def test_equity_by_street_mid_run_out_and_on_the_turn() -> None:
    holes = hands_of("AsAh", "KsKd")
    board = list(parse_cards("2c 7d Kh 9s 3c"))
    assert [n for n, _ in equity_by_street(holes, board[:3])] == [0, 3]
    assert [n for n, _ in equity_by_street(holes, board, known=4)] == [4]
    with pytest.raises(EquityError, match="0, 3 or 4"):
        equity_by_street(holes, board, known=5)
    with pytest.raises(EquityError, match="shorter"):
        equity_by_street(holes, board[:3], known=4)


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("hands", "board", "dead", "message"),
    [
        (["AsAh"], "", "", "2 to 10 hands"),
        (["AsAh"] * 11, "", "", "2 to 10 hands"),
        (["AsAhAd", "KsKd"], "", "", "two hole cards"),
        (["AsAh", "KsKd"], "2c 3c", "", "0, 3, 4 or 5"),
        (["AsAh", "AsKd"], "", "", "appears twice"),
        (["AsAh", "KsKd"], "2c 3c 4c", "4c", "appears twice"),
    ],
)
def test_refusals(hands: list[str], board: str, dead: str, message: str) -> None:
    with pytest.raises(EquityError, match=message):
        equity(hands_of(*hands), parse_cards(board), parse_cards(dead))


def test_card_numbers_out_of_range_are_refused() -> None:
    with pytest.raises(EquityError, match="0 to 51"):
        equity([[0, 52], [1, 2]])


def test_too_many_dead_cards_are_refused() -> None:
    holes = hands_of("AsAh", "KsKd")
    dead = [c for c in range(52) if c not in {*holes[0], *holes[1]}][:45]
    with pytest.raises(EquityError, match="dealt out"):
        equity(holes, (), dead)
