"""Rank all 133,784,560 seven-card hands with the batch evaluator and compare the
count of each category with the published figures (and the number of distinct
ranks per category, 4,824 in all).

Run: ``env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE .venv/bin/python
scripts/verify_seven_card_hands.py``. Exit code 0 when every figure matches.

The hands are enumerated in lexicographic order, one block per pair of lowest
cards (a, b): the other five cards are every five-card combination whose lowest
card is above b, which is a contiguous tail of the sorted list of all five-card
combinations.
"""

from __future__ import annotations

import sys
import time
from itertools import chain, combinations
from math import comb

import numpy as np

from cardroom.evaluator import Category
from cardroom.evaluator_batch import evaluate_batch

PUBLISHED = {
    Category.ROYAL_FLUSH: 4_324,
    Category.STRAIGHT_FLUSH: 37_260,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}
# Distinct hand values that can be the best five of seven cards.
PUBLISHED_DISTINCT = {
    Category.ROYAL_FLUSH: 1,
    Category.STRAIGHT_FLUSH: 9,
    Category.FOUR_OF_A_KIND: 156,
    Category.FULL_HOUSE: 156,
    Category.FLUSH: 1_277,
    Category.STRAIGHT: 10,
    Category.THREE_OF_A_KIND: 575,
    Category.TWO_PAIR: 763,
    Category.PAIR: 1_470,
    Category.HIGH_CARD: 407,
}


def main() -> int:
    start = time.perf_counter()
    fives = np.fromiter(
        chain.from_iterable(combinations(range(52), 5)), dtype=np.uint8, count=comb(52, 5) * 5
    ).reshape(-1, 5)
    # first[x]: index of the first five-card combination whose lowest card is >= x
    first = np.searchsorted(fives[:, 0], np.arange(53))
    counts = np.zeros(10, dtype=np.int64)
    seen = np.zeros(1 << 24, dtype=bool)  # ranks fit in 24 bits
    hands = 0
    ranking = 0.0
    for a in range(52):
        for b in range(a + 1, 47):
            tail = fives[first[b + 1] :]
            block = np.empty((len(tail), 7), dtype=np.uint8)
            block[:, 0] = a
            block[:, 1] = b
            block[:, 2:] = tail
            t0 = time.perf_counter()
            ranks = evaluate_batch(block)
            ranking += time.perf_counter() - t0
            counts += np.bincount(ranks >> 20, minlength=10)
            seen[ranks] = True
            hands += len(block)
    elapsed = time.perf_counter() - start
    distinct = np.bincount(np.flatnonzero(seen) >> 20, minlength=10)

    ok = hands == comb(52, 7)
    print(f"{'category':<16} {'hands':>12} {'published':>12} {'distinct':>9} {'published':>9}")
    for category in sorted(Category, reverse=True):
        got, want = int(counts[category]), PUBLISHED[category]
        got_d, want_d = int(distinct[category]), PUBLISHED_DISTINCT[category]
        mark = "ok" if (got, got_d) == (want, want_d) else "MISMATCH"
        ok &= mark == "ok"
        print(f"{category.label:<16} {got:>12,} {want:>12,} {got_d:>9,} {want_d:>9,}  {mark}")
    print(f"{'total':<16} {hands:>12,} {comb(52, 7):>12,} {int(distinct.sum()):>9,} {4_824:>9,}")
    print(
        f"{'all match' if ok else 'MISMATCH'}: {hands:,} hands in {elapsed:.1f} s "
        f"({ranking:.1f} s ranking, {hands / ranking / 1e6:.1f} M hands/s)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
