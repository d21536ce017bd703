"""The NumPy batch evaluator (cardroom.evaluator_batch) and the tables it relies on."""

from __future__ import annotations

from collections import Counter
from itertools import chain, combinations, combinations_with_replacement

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.evaluator import Category, category_of, evaluate, evaluate7
from cardroom.evaluator_batch import CHUNK_ROWS, evaluate_batch, random_hands
from cardroom.evaluator_tables import (
    CARD_KEYS,
    FIRST_CARD_KEYS,
    FLUSH_BITS,
    RANK_BITS,
    RANK_MASK,
    RANK_WEIGHTS,
)
from tests.test_evaluator import FIVE_CARD_COUNTS, decoded, reference

# --- the rank weights ---------------------------------------------------------------


def rank_multisets(size: int) -> list[tuple[int, ...]]:
    """Every multiset of ``size`` ranks with no rank more than four times."""
    return [
        m
        for m in combinations_with_replacement(range(13), size)
        if all(m[i] != m[i + 4] for i in range(size - 4))
    ]


@pytest.mark.parametrize(("size", "count"), [(5, 6_175), (6, 18_395), (7, 49_205)])
def test_rank_weights_tell_every_multiset_apart(size: int, count: int) -> None:
    """The proof behind the single and the batch path: two different multisets of
    the same number of ranks never have the same weight sum, and every sum stays
    below the suit counters' bits."""
    multisets = rank_multisets(size)
    assert len(multisets) == count
    sums = {sum(RANK_WEIGHTS[r] for r in m) for m in multisets}
    assert len(sums) == count
    assert max(sums) < 1 << RANK_BITS


def test_card_keys_layout() -> None:
    for card in range(52):
        assert CARD_KEYS[card] & RANK_MASK == RANK_WEIGHTS[card // 4]
        assert CARD_KEYS[card] >> (RANK_BITS + 4 * (card % 4)) == 1
    # seven cards of one suit: the counter (3 + 7) stays inside its four bits
    top = FIRST_CARD_KEYS[51] + 6 * CARD_KEYS[51]
    assert top >> (RANK_BITS + 12) == 10
    # four cards of each of two suits never look like a flush; five do
    four = FIRST_CARD_KEYS[0] + CARD_KEYS[4] + CARD_KEYS[8] + CARD_KEYS[12]
    assert not (four + CARD_KEYS[1] + CARD_KEYS[5] + CARD_KEYS[9]) & FLUSH_BITS
    assert (four + CARD_KEYS[16]) & FLUSH_BITS


# --- the batch path against the single path and the reference ------------------------


def single(hands: np.ndarray) -> list[int]:
    return [evaluate(row) for row in hands.tolist()]


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64])
def test_batch_equals_evaluate7(dtype: type[np.integer]) -> None:
    hands = random_hands(np.random.default_rng(11), 20_000)
    expected = [evaluate7(*row) for row in hands.tolist()]
    ranks = evaluate_batch(hands.astype(dtype))
    assert ranks.dtype == np.int32
    assert ranks.tolist() == expected


def test_batch_across_chunks_and_layouts() -> None:
    hands = random_hands(np.random.default_rng(12), 2 * CHUNK_ROWS + 123)
    expected = evaluate_batch(hands)
    assert expected.tolist() == [evaluate7(*row) for row in hands.tolist()]
    assert (evaluate_batch(np.asfortranarray(hands)) == expected).all()
    assert (evaluate_batch(hands[::-1])[::-1] == expected).all()
    assert (evaluate_batch(hands[:, ::-1]) == expected).all()  # order within a hand
    assert (evaluate_batch(hands.tolist()) == expected).all()
    assert evaluate_batch(np.zeros((0, 7), dtype=np.uint8)).shape == (0,)


@pytest.mark.parametrize("size", [5, 6])
def test_batch_of_five_or_six_cards(size: int) -> None:
    hands = random_hands(np.random.default_rng(size), 30_000, size)
    assert evaluate_batch(hands).tolist() == single(hands)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.permutations(range(52)), min_size=1, max_size=8), st.integers(5, 7))
def test_batch_matches_reference(decks: list[list[int]], size: int) -> None:
    hands = np.array([deck[:size] for deck in decks], dtype=np.uint8)
    for row, rank in zip(hands.tolist(), evaluate_batch(hands).tolist(), strict=True):
        assert decoded(rank) == reference(row)


def test_batch_flush_rows() -> None:
    """Rows with flushes of five, six and seven cards in every suit, mixed with
    others, so the flush rows are picked out of the middle of a chunk."""
    rng = np.random.default_rng(13)
    rows = []
    for suit in range(4):
        for extra in (0, 1, 2):
            for _ in range(50):
                ranks = rng.choice(13, size=5 + extra, replace=False)
                suited = [int(r) * 4 + suit for r in ranks]
                others = [c for c in range(52) if c % 4 != suit]
                rest = rng.choice(others, size=2 - extra, replace=False).tolist()
                rows.append(suited + rest)
                rows.append(random_hands(rng, 1)[0].tolist())
    hands = np.array(rows, dtype=np.uint8)
    assert evaluate_batch(hands).tolist() == [evaluate7(*r) for r in rows]
    categories = Counter(category_of(r) for r in evaluate_batch(hands).tolist())
    assert categories[Category.FLUSH] > 500


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (np.zeros((3, 4), dtype=np.uint8), "shape"),
        (np.zeros(7, dtype=np.uint8), "shape"),
        (np.zeros((2, 8), dtype=np.uint8), "shape"),
        (np.full((2, 7), 52, dtype=np.uint8), "0 to 51"),
        (np.array([[-1, 1, 2, 3, 4, 5, 6]]), "0 to 51"),
        (np.zeros((2, 7), dtype=np.float64), "integers"),
    ],
)
def test_batch_refuses_bad_arrays(cards: np.ndarray, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        evaluate_batch(cards)


def test_random_hands() -> None:
    hands = random_hands(np.random.default_rng(5), 50_000)
    assert hands.shape == (50_000, 7) and hands.dtype == np.uint8
    ordered = np.sort(hands, axis=1)
    assert (ordered[:, 1:] != ordered[:, :-1]).all() and hands.max() <= 51
    assert (random_hands(np.random.default_rng(5), 50_000) == hands).all()
    # every card about equally often: 350,000 cards over 52 values
    counts = np.bincount(hands.ravel(), minlength=52)
    expected = hands.size / 52
    assert ((counts - expected) ** 2 / expected).sum() < 86.66  # chi-square, p = 0.001
    assert random_hands(np.random.default_rng(1), 10, 5).shape == (10, 5)


# --- exhaustive: every five-card hand ---------------------------------------------------


def test_every_five_card_hand_in_a_batch() -> None:
    """All 2,598,960 five-card hands: the published category counts, and exactly
    7,462 distinct ranks."""
    hands = np.fromiter(
        chain.from_iterable(combinations(range(52), 5)), dtype=np.uint8, count=2_598_960 * 5
    ).reshape(-1, 5)
    ranks = evaluate_batch(hands)
    per_category = np.bincount(ranks >> 20, minlength=10)
    assert {Category(c): int(n) for c, n in enumerate(per_category)} == FIVE_CARD_COUNTS
    assert len(np.unique(ranks)) == 7_462
