"""The hand evaluator (cardroom.evaluator), checked against a slow reference written
here from the rules alone: the best of every five-card subset, compared by category
and then by the deciding ranks."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.cards import CardError, card_text, parse_cards
from cardroom.evaluator import (
    Category,
    HandValue,
    category_of,
    describe,
    evaluate,
    evaluate7,
    hand_name,
    rank_digits,
)

# --- the reference ------------------------------------------------------------------

Reference = tuple[int, tuple[int, ...]]  # (category, deciding ranks high to low)


def reference_five(cards: tuple[int, ...]) -> Reference:
    """Category and deciding ranks of exactly five cards, straight from the rules."""
    ranks = sorted((c // 4 for c in cards), reverse=True)
    suits = {c % 4 for c in cards}
    counts = Counter(ranks)
    # ranks ordered by how many of them, then by rank: the order hands compare in
    by_group = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len(suits) == 1
    straight_high = None
    if len(counts) == 5:
        if ranks[0] - ranks[4] == 4:
            straight_high = ranks[0]
        elif ranks == [12, 3, 2, 1, 0]:  # A-2-3-4-5: the ace plays low
            straight_high = 3
    if straight_high is not None and flush:
        return (9 if straight_high == 12 else 8), (straight_high,)
    if shape == [4, 1]:
        return 7, tuple(by_group)
    if shape == [3, 2]:
        return 6, tuple(by_group)
    if flush:
        return 5, tuple(ranks)
    if straight_high is not None:
        return 4, (straight_high,)
    if shape == [3, 1, 1]:
        return 3, tuple(by_group)
    if shape == [2, 2, 1]:
        return 2, tuple(by_group)
    if shape == [2, 1, 1, 1]:
        return 1, tuple(by_group)
    return 0, tuple(ranks)


def reference(cards: list[int] | tuple[int, ...]) -> Reference:
    return max(reference_five(five) for five in combinations(cards, 5))


def decoded(rank: int) -> Reference:
    return int(category_of(rank)), rank_digits(rank)


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


hands_5_to_7 = st.integers(5, 7).flatmap(
    lambda n: st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True)
)
hands_7 = st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True)


# --- the published names --------------------------------------------------------------

NAMED = [
    ("Ah Ad Kc 9s 4d 3c 2h", "pair", "Pair of Aces, King, Nine and Four kickers"),
    ("Jh Jd 4c 4s 9d 3c 2h", "two_pair", "Two Pair, Jacks and Fours, Nine kicker"),
    ("Qh Qd Qc 7s 7d 3c 2h", "full_house", "Full House, Queens full of Sevens"),
    ("Ts 9d 8c 7h 6d 2c 2h", "straight", "Straight, Ten high"),
    ("As Ks Qs Js Ts 2c 2h", "royal_flush", "Royal Flush"),
    ("9h 8h 7h 6h 5h 2c 2d", "straight_flush", "Straight Flush, Nine high"),
    ("5d 4d 3d 2d Ad Kc Qc", "straight_flush", "Straight Flush, Five high"),
    ("Kh Kd Kc Ks 3d 2c 2h", "four_of_a_kind", "Four of a Kind, Kings, Three kicker"),
    ("Kh Jh 9h 6h 3h 2c 2d", "flush", "Flush, King, Jack, Nine, Six and Three"),
    ("8h 8d 8c As 5d 3c 2h", "three_of_a_kind", "Three of a Kind, Eights, Ace and Five kickers"),
    ("Ah Qd 9c 6s 3d 2c 8h", "high_card", "High Card, Ace, Queen, Nine, Eight and Six"),
    ("Ah Qd 9c 6s 3d", "high_card", "High Card, Ace, Queen, Nine, Six and Three"),
    ("5s 4d 3h 2s Ac Kd Qc", "straight", "Straight, Five high"),
]


@pytest.mark.parametrize(("text", "label", "name"), NAMED)
def test_named_examples(text: str, label: str, name: str) -> None:
    value = describe(cards(text))
    assert value.name == name
    assert value.category.label == label
    assert hand_name(value.rank) == name
    assert category_of(value.rank).label == label
    assert evaluate(cards(text)) == value.rank
    if len(cards(text)) == 7:
        assert evaluate7(*cards(text)) == value.rank


def test_categories() -> None:
    assert [c.label for c in Category] == [
        "high_card",
        "pair",
        "two_pair",
        "three_of_a_kind",
        "straight",
        "flush",
        "full_house",
        "four_of_a_kind",
        "straight_flush",
        "royal_flush",
    ]
    assert int(Category.HIGH_CARD) == 0 and int(Category.ROYAL_FLUSH) == 9
    assert Category.THREE_OF_A_KIND.title == "Three of a Kind"


@pytest.mark.parametrize(
    ("text", "best"),
    [
        ("Ah Ad Kc 9s 4d 3c 2h", "Ah Ad Kc 9s 4d"),
        ("Jh Jd 4c 4s 9d 3c 2h", "Jh Jd 4s 4c 9d"),
        ("Qh Qd Qc 7s 7d 7c 2h", "Qh Qd Qc 7s 7d"),
        ("5s 4d 3h 2s Ac Kd Qc", "5s 4d 3h 2s Ac"),
        ("5d 4d 3d 2d Ad 6c 7c", "5d 4d 3d 2d Ad"),
        ("8h 8d 8c As 5d 3c 2h", "8h 8d 8c As 5d"),
        ("Kh Kd Kc Ks Ad 2c 2h", "Ks Kh Kd Kc Ad"),
        ("2h 9h 6h 3h Kh Jh 4h", "Kh Jh 9h 6h 4h"),
        ("Th Js Qd Kc Ah 9h 8h", "Ah Kc Qd Js Th"),
    ],
)
def test_best_five_in_reading_order(text: str, best: str) -> None:
    assert " ".join(describe(cards(text)).best_text) == best


# --- rules that are easy to get wrong ---------------------------------------------------


def test_ace_low_straight_is_the_lowest_straight() -> None:
    wheel = evaluate(cards("Ah 2d 3c 4s 5h"))
    six_high = evaluate(cards("2d 3c 4s 5h 6h"))
    assert category_of(wheel) is Category.STRAIGHT
    assert wheel < six_high
    assert wheel > evaluate(cards("Ah Ad As Kd Qc"))  # above any three of a kind


@pytest.mark.parametrize("text", ["Qh Kd Ac 2s 3h", "Jh Qd Kc Ad 2s", "Kd Ac 2s 3h 4d"])
def test_straights_never_wrap(text: str) -> None:
    assert category_of(evaluate(cards(text))) is Category.HIGH_CARD


def test_suits_never_break_ties() -> None:
    assert evaluate(cards("As Ks Qd Jd 9c")) == evaluate(cards("Ah Kh Qc Jc 9d"))
    assert evaluate(cards("As Ks Qs Js 9s")) == evaluate(cards("Ah Kh Qh Jh 9h"))
    assert evaluate7(*cards("Ts Js 2c 3c 4c 5c 6c")) == evaluate7(*cards("Th Jh 2d 3d 4d 5d 6d"))


def test_the_board_plays() -> None:
    board = cards("Ah Kd Qc Js Th")
    assert evaluate7(*board, *cards("2c 3d")) == evaluate7(*board, *cards("4h 5s"))
    assert evaluate7(*board, *cards("2c 3d")) == evaluate(board)


def test_best_flush_of_six_or_seven_suited_cards() -> None:
    seven = cards("Ah Jh 9h 6h 4h 3h 2h")
    assert hand_name(evaluate7(*seven)) == "Flush, Ace, Jack, Nine, Six and Four"
    six = cards("Kd Td 8d 5d 3d 2d As")
    assert hand_name(evaluate(six)) == "Flush, King, Ten, Eight, Five and Three"
    # a straight flush inside seven suited cards beats the higher plain flush
    assert hand_name(evaluate7(*cards("Ah 9h 8h 7h 6h 5h 2h"))) == "Straight Flush, Nine high"
    assert hand_name(evaluate7(*cards("Ah Kh 5h 4h 3h 2h 9h"))) == "Straight Flush, Five high"


def test_flush_beats_a_straight_on_the_same_board() -> None:
    rank = evaluate7(*cards("9h 8h 7c 6h 5d 2h Ah"))
    assert hand_name(rank) == "Flush, Ace, Nine, Eight, Six and Two"


def test_two_trips_make_a_full_house() -> None:
    assert hand_name(evaluate7(*cards("7h 7d 7c Qs Qd Qc 2h"))) == (
        "Full House, Queens full of Sevens"
    )
    assert hand_name(evaluate7(*cards("3h 3d 3c 5s 5d 9c 9h"))) == (
        "Full House, Threes full of Nines"
    )


def test_three_pairs_make_two_pair_with_the_best_kicker() -> None:
    # the third pair's rank can be the kicker
    assert hand_name(evaluate7(*cards("Kh Kd 9c 9s 7d 7c 2h"))) == (
        "Two Pair, Kings and Nines, Seven kicker"
    )
    assert hand_name(evaluate7(*cards("Kh Kd 9c 9s 7d 7c Ah"))) == (
        "Two Pair, Kings and Nines, Ace kicker"
    )


def test_four_of_a_kind_takes_the_best_kicker() -> None:
    assert hand_name(evaluate7(*cards("5h 5d 5c 5s Kd Kc 2h"))) == (
        "Four of a Kind, Fives, King kicker"
    )
    assert hand_name(evaluate7(*cards("5h 5d 5c 5s 8d 8c 8h"))) == (
        "Four of a Kind, Fives, Eight kicker"
    )


def test_more_cards_never_make_a_hand_worse() -> None:
    five = cards("Ah Kd 9c 6s 3d")
    assert evaluate(five) <= evaluate([*five, 1]) <= evaluate([*five, 1, 2])


def test_rank_orders_categories() -> None:
    ranks = [evaluate(cards(text)) for text, _, _ in NAMED]
    for rank in ranks:
        assert (rank >> 20) == category_of(rank)
    ordered = sorted(ranks)
    assert [category_of(r) for r in ordered] == sorted(category_of(r) for r in ranks)


# --- checked input ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ([0, 1, 2, 3], "5 to 7 cards, not 4"),
        (list(range(8)), "5 to 7 cards, not 8"),
        ([0, 1, 2, 3, 52], "not a card number"),
        ([0, 1, 2, 3, -1], "not a card number"),
        ([0, 1, 2, 3, 2], "2h appears twice"),
    ],
)
def test_evaluate_and_describe_refuse_bad_hands(hand: list[int], message: str) -> None:
    with pytest.raises(CardError, match=message):
        evaluate(hand)
    with pytest.raises(CardError, match=message):
        describe(hand)


# --- against the reference ------------------------------------------------------------


@settings(max_examples=1000, deadline=None)
@given(hands_5_to_7)
def test_evaluate_matches_reference(hand: list[int]) -> None:
    assert decoded(evaluate(hand)) == reference(hand)


@settings(max_examples=1000, deadline=None)
@given(hands_7)
def test_evaluate7_matches_reference_and_evaluate(hand: list[int]) -> None:
    rank = evaluate7(*hand)
    assert decoded(rank) == reference(hand)
    assert rank == evaluate(hand)


@settings(max_examples=500, deadline=None)
@given(hands_7, hands_7)
def test_order_matches_reference(first: list[int], second: list[int]) -> None:
    a, b = evaluate7(*first), evaluate7(*second)
    ra, rb = reference(first), reference(second)
    assert (a < b) == (ra < rb) and (a == b) == (ra == rb)


def check_description(hand: list[int], value: HandValue) -> None:
    assert value.rank == evaluate(hand)
    assert value.category is category_of(value.rank)
    assert value.name == hand_name(value.rank)
    assert len(value.best) == 5 and set(value.best) <= set(hand)
    assert evaluate(list(value.best)) == value.rank
    # reading order: grouped ranks first (larger groups, then higher), then kickers;
    # straights from the top card down, the wheel's ace last
    ranks = [c // 4 for c in value.best]
    category, deciding = reference(hand)
    if category in (4, 8, 9):
        assert ranks == [(deciding[0] - i) % 13 for i in range(5)]
    else:
        counts = Counter(ranks)
        assert ranks == sorted(ranks, key=lambda r: (counts[r], r), reverse=True)


@settings(max_examples=800, deadline=None)
@given(hands_5_to_7)
def test_describe_matches_reference(hand: list[int]) -> None:
    check_description(hand, describe(hand))


def test_random_hands_match_reference() -> None:
    """A broader sweep than hypothesis makes: 10,000 fixed random hands of 7."""
    rng = random.Random(20240601)
    for _ in range(10_000):
        hand = rng.sample(range(52), 7)
        assert decoded(evaluate7(*hand)) == reference(hand), [card_text(c) for c in hand]


# --- exhaustive: every five-card hand ---------------------------------------------------

FIVE_CARD_COUNTS = {
    Category.ROYAL_FLUSH: 4,
    Category.STRAIGHT_FLUSH: 36,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}


@pytest.mark.slow
def test_every_five_card_hand_one_by_one() -> None:
    """All 2,598,960 five-card hands through ``evaluate`` (the pure-Python path):
    the published count of each category and 7,462 distinct ranks."""
    ranks = Counter(map(evaluate, combinations(range(52), 5)))
    per_category = Counter[Category]()
    for rank, count in ranks.items():
        per_category[category_of(rank)] += count
    assert sum(ranks.values()) == 2_598_960
    assert dict(per_category) == FIVE_CARD_COUNTS
    assert len(ranks) == 7_462
